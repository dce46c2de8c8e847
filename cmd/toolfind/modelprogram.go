package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// modelProgramName is the program that holds the OpenAI and Anthropic
// SDKs (cmd/toolfind-model): toolfind runs it for --writer model and does
// not link the SDKs itself (package writer/model/remote).
const modelProgramName = "toolfind-model"

// findModelProgram is the toolfind-model to run: --model-program, else
// $TOOLFIND_MODEL_PROGRAM, else toolfind-model beside this executable,
// else on PATH. Not found is a usage error saying how to install it.
func findModelProgram(flag string) (string, error) {
	for _, c := range []struct{ path, from string }{{flag, "--model-program"}, {os.Getenv("TOOLFIND_MODEL_PROGRAM"), "TOOLFIND_MODEL_PROGRAM"}} {
		if c.path == "" {
			continue
		}
		if err := isProgram(c.path); err != nil {
			return "", usageError("%s %s: %v", c.from, c.path, err)
		}
		return c.path, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), modelProgramName)
		if isProgram(p) == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(modelProgramName); err == nil {
		return p, nil
	}
	return "", usageError("--writer model runs the %s program (it holds the OpenAI and Anthropic SDKs), "+
		"found neither beside toolfind nor on PATH: install it with "+
		"`go install github.com/toolfind/toolfind/cmd/toolfind-model@latest` (or `go install ./cmd/...` in a checkout), "+
		"or give --model-program PATH or TOOLFIND_MODEL_PROGRAM", modelProgramName)
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
