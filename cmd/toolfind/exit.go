package main

import (
	"errors"
	"fmt"
)

// Exit codes (the design's CLI contract).
const (
	exitOK          = 0
	exitCheckFailed = 1
	exitBadInput    = 2
	exitLive        = 3
)

// exitError carries an exit code with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks bad flags or arguments (exit 2).
func usageError(format string, args ...any) error {
	return &exitError{code: exitBadInput, err: fmt.Errorf(format, args...)}
}

// badInput marks unreadable or invalid input files (exit 2).
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// liveError marks a live MCP server that could not be reached or answered
// wrongly (exit 3).
func liveError(err error) error { return &exitError{code: exitLive, err: err} }

// checkFailed marks a failed threshold (exit 1); the report is already
// written.
func checkFailed(err error) error { return &exitError{code: exitCheckFailed, err: err} }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitBadInput
}
