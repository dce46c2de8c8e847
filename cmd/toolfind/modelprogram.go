package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// helper is a program toolfind runs so as not to link a large SDK itself:
// toolfind-model (the OpenAI and Anthropic SDKs, package
// writer/model/remote), toolfind-live (the MCP Go SDK, package
// corpus/live/remote) and toolfind-js (the goja JavaScript engine,
// package jsbox/remote).
type helper struct {
	name string // the program: toolfind-model
	flag string // its flag: --model-program ("" when it has none)
	env  string // its variable: TOOLFIND_MODEL_PROGRAM
	// why starts the error of a program found nowhere: "--writer model
	// runs the toolfind-model program (it holds …)".
	why string
}

// modelProgramName is the program that holds the OpenAI and Anthropic
// SDKs (cmd/toolfind-model): toolfind runs it for --writer model and does
// not link the SDKs itself (package writer/model/remote).
const modelProgramName = "toolfind-model"

var modelHelper = helper{modelProgramName, "--model-program", "TOOLFIND_MODEL_PROGRAM",
	"--writer model runs the " + modelProgramName + " program (it holds the OpenAI and Anthropic SDKs)"}

// verifyHelper is toolfind-model as verify runs it: `toolfind-model
// emulate-api` serves the emulated Anthropic Messages API (package
// verify/claudecode/messagesapi), so that toolfind links no HTTP server.
var verifyHelper = helper{modelProgramName, "--model-program", "TOOLFIND_MODEL_PROGRAM",
	"verify runs the " + modelProgramName + " program (it serves the emulated model API that Claude Code talks to)"}

// findModelProgram is the toolfind-model to run (helper.find).
func findModelProgram(flag string) (string, error) { return modelHelper.find(flag) }

// find is the program to run: the flag's value, else the variable's, else
// the program beside this executable, else on PATH. Not found is a usage
// error saying how to install it.
func (h helper) find(flag string) (string, error) {
	for _, c := range []struct{ path, from string }{{flag, h.flag}, {os.Getenv(h.env), h.env}} {
		if c.path == "" {
			continue
		}
		if err := isProgram(c.path); err != nil {
			return "", usageError("%s %s: %v", c.from, c.path, err)
		}
		return c.path, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), h.name)
		if isProgram(p) == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(h.name); err == nil {
		return p, nil
	}
	give := h.env + "=PATH"
	if h.flag != "" {
		give = h.flag + " PATH or " + h.env
	}
	return "", usageError("%s, found neither beside toolfind nor on PATH: install it with "+
		"`go install github.com/toolfind/toolfind/cmd/%s@latest` (or `go install ./cmd/...` in a checkout), "+
		"or give %s", h.why, h.name, give)
}

// isProgram says why path cannot be run, or nil.
func isProgram(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file")
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("a folder, not a program")
	case fi.Mode()&0o111 == 0:
		return errors.New("not executable")
	}
	return nil
}
