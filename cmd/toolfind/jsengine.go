package main

import (
	"io"
	"sync"

	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/remote"
)

// jsProgramName is the program that holds the goja JavaScript engine
// (cmd/toolfind-js): toolfind runs it when a run needs JavaScript and does
// not link goja itself (package jsbox/remote).
const jsProgramName = "toolfind-js"

var jsHelper = helper{jsProgramName, "", "TOOLFIND_JS_PROGRAM",
	"this run needs JavaScript (a Codex or OpenCode code-mode script to run, or --codex-engine goja) " +
		"and runs it in the " + jsProgramName + " program (it holds the goja engine)"}

// jsEngine is the JavaScript engine of one Main (package jsbox): a
// toolfind-js child, looked up and started when a run first needs
// JavaScript, so that toolfind itself does not link goja. A run that
// needs none never looks for the program.
type jsEngine struct {
	errOut io.Writer
	// missing is called once when the program is not found: Main stops
	// the command and, after close, exits with notFound, a usage error.
	missing func(error)

	once     sync.Once
	eng      *remote.Engine
	err      error
	notFound error
}

var _ jsbox.Engine = (*jsEngine)(nil)

// inProcessJS, when set (by tests, which cannot link goja into toolfind
// itself), replaces the toolfind-js child.
var inProcessJS jsbox.Engine

func (j *jsEngine) get() (*remote.Engine, error) {
	j.once.Do(func() {
		path, err := jsHelper.find("")
		if err != nil {
			j.err, j.notFound = err, err
			j.missing(err)
			return
		}
		j.eng, j.err = remote.New(remote.Config{Program: path, Stderr: j.errOut})
	})
	return j.eng, j.err
}

// Codex implements jsbox.Engine.
func (j *jsEngine) Codex(setup jsbox.CodexSetup) (jsbox.Codex, error) {
	e, err := j.get()
	if err != nil {
		return nil, err
	}
	return e.Codex(setup)
}

// OpenCode implements jsbox.Engine.
func (j *jsEngine) OpenCode(setup jsbox.OpenCodeSetup) (jsbox.OpenCode, error) {
	e, err := j.get()
	if err != nil {
		return nil, err
	}
	return e.OpenCode(setup)
}

// close ends the program, if one was started; later runs fail.
func (j *jsEngine) close() {
	j.once.Do(func() { j.err = jsbox.ErrNoEngine })
	if j.eng != nil {
		j.eng.Close()
	}
}
