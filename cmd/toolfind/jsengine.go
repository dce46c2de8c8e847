package main

import (
	"io"
	"sync"

	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/remote"
)

// jsChildName names toolfind's JavaScript child in errors.
const jsChildName = "toolfind's JavaScript process"

// jsEngine is the JavaScript engine of one Main (package jsbox): goja in
// toolfind's own child (childJS, package jsbox/remote), started when a
// run first needs JavaScript. A run that needs none starts no child.
type jsEngine struct {
	errOut io.Writer

	once sync.Once
	eng  *remote.Engine
	err  error
}

var _ jsbox.Engine = (*jsEngine)(nil)

// inProcessJS, when set (by tests comparing the two), replaces the child.
var inProcessJS jsbox.Engine

func (j *jsEngine) get() (*remote.Engine, error) {
	j.once.Do(func() {
		exe, env, err := childProgram(childJS)
		if err != nil {
			j.err = err
			return
		}
		j.eng, j.err = remote.New(remote.Config{Program: exe, Name: jsChildName, Env: env, Stderr: j.errOut})
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

// close ends the child, if one was started; later runs fail.
func (j *jsEngine) close() {
	j.once.Do(func() { j.err = jsbox.ErrNoEngine })
	if j.eng != nil {
		j.eng.Close()
	}
}
