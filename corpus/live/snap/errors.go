package snap

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Phase is the step of a snapshot that failed.
type Phase string

// The phases, in the order a snapshot goes through them.
const (
	// PhaseStart: the server could not be started or reached — the command
	// is not found or not executable, the process exited before answering
	// initialize, or the HTTP endpoint refused the connection.
	PhaseStart Phase = "start"
	// PhaseHandshake: the server is running but the initialize exchange
	// failed — no answer within the timeout (alive but silent), a JSON-RPC
	// error, an HTTP error status.
	PhaseHandshake Phase = "handshake"
	// PhaseList: initialize succeeded but a tools/list request failed —
	// timeout, JSON-RPC error, the server went away.
	PhaseList Phase = "list"
	// PhaseParse: the server answered, but not as MCP says — output that is
	// not JSON-RPC, an initialize or tools/list result of the wrong shape, a
	// nextCursor that repeats.
	PhaseParse Phase = "parse"
)

// ErrTimeout is the cause of a handshake or list failure where the server
// stayed alive but sent no answer within Options.Timeout. Test with
// errors.Is.
var ErrTimeout = errors.New("timed out")

// ErrInterrupted is the cause when the caller's context was cancelled
// (Ctrl-C) before the server answered.
var ErrInterrupted = errors.New("interrupted")

// ExitError is the cause of a failure where the server process exited.
type ExitError struct {
	// Status is how it ended: "exit status 1", "signal: killed".
	Status string
	// Code is the exit code, or -1 when it was killed by a signal.
	Code int
}

func (e *ExitError) Error() string { return "the server process exited (" + e.Status + ")" }

// Failure holds what every phase error records; the phase errors embed it.
type Failure struct {
	// Name is the server name given with "name=", if any.
	Name string
	// Source is the server that failed, as given (command line or URL).
	Source string
	// Err is the cause: ErrTimeout, ErrInterrupted, *ExitError, a
	// *jsonrpc.Error from the server, an *exec.Error, a network error …
	Err error
	// Stderr is the end of what a stdio server wrote to stderr (at most
	// StderrTail bytes), empty for HTTP.
	Stderr string
}

func (f *Failure) text(p Phase, detail string) string {
	var b strings.Builder
	if f.Name != "" {
		fmt.Fprintf(&b, "live server %s (%s): %s", f.Name, f.Source, p)
	} else {
		fmt.Fprintf(&b, "live server %q: %s", f.Source, p)
	}
	if detail != "" {
		b.WriteString(" (" + detail + ")")
	}
	b.WriteString(": ")
	b.WriteString(f.Err.Error())
	if s := strings.TrimRight(f.Stderr, "\n"); s != "" {
		b.WriteString("\n  server stderr (last lines):")
		for _, line := range strings.Split(s, "\n") {
			b.WriteString("\n    | ")
			b.WriteString(line)
		}
	}
	return b.String()
}

// StartError reports the start phase: the server could not be started or
// reached (command not found, exited at once, connection refused).
type StartError struct{ Failure }

func (e *StartError) Error() string { return e.text(PhaseStart, "") }
func (e *StartError) Unwrap() error { return e.Err }

// Phase returns PhaseStart.
func (e *StartError) Phase() Phase { return PhaseStart }

// HandshakeError reports the handshake phase: initialize did not succeed.
type HandshakeError struct {
	Failure
	// After is how long the handshake ran.
	After time.Duration
}

func (e *HandshakeError) Error() string { return e.text(PhaseHandshake, "initialize") }
func (e *HandshakeError) Unwrap() error { return e.Err }

// Phase returns PhaseHandshake.
func (e *HandshakeError) Phase() Phase { return PhaseHandshake }

// ListError reports the list phase: a tools/list request did not succeed.
type ListError struct {
	Failure
	// Page is the 1-based tools/list page that failed.
	Page int
}

func (e *ListError) Error() string {
	return e.text(PhaseList, fmt.Sprintf("tools/list page %d", e.Page))
}
func (e *ListError) Unwrap() error { return e.Err }

// Phase returns PhaseList.
func (e *ListError) Phase() Phase { return PhaseList }

// ParseError reports the parse phase: the server answered but broke the
// protocol's contract.
type ParseError struct {
	Failure
	// What names what could not be parsed: "stdout line 3", "initialize
	// result", "tools/list page 2 result", "HTTP response body".
	What string
}

func (e *ParseError) Error() string { return e.text(PhaseParse, e.What) }
func (e *ParseError) Unwrap() error { return e.Err }

// Phase returns PhaseParse.
func (e *ParseError) Phase() Phase { return PhaseParse }

// PhaseOf returns the phase of a snapshot error (anywhere in its chain).
func PhaseOf(err error) (Phase, bool) {
	var p interface{ Phase() Phase }
	if errors.As(err, &p) {
		return p.Phase(), true
	}
	return "", false
}

// PhaseCall: the tools/call request failed — timeout, a JSON-RPC error
// (an unknown tool, bad arguments), the server went away. A result with
// "isError": true is a result, not a failure.
const PhaseCall Phase = "call"

// CallError reports the call phase: tools/call did not return a result.
type CallError struct {
	Failure
	// Tool is the tool that was called.
	Tool string
}

func (e *CallError) Error() string { return e.text(PhaseCall, "tools/call "+e.Tool) }
func (e *CallError) Unwrap() error { return e.Err }

// Phase returns PhaseCall.
func (e *CallError) Phase() Phase { return PhaseCall }
