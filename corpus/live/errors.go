package live

import (
	"errors"
	"fmt"
	"time"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// Phase is the step of a snapshot that failed (see snap.Phase).
type Phase = snap.Phase

// The phases, in the order a snapshot goes through them (see snap).
const (
	PhaseStart     = snap.PhaseStart
	PhaseHandshake = snap.PhaseHandshake
	PhaseList      = snap.PhaseList
	PhaseParse     = snap.PhaseParse
	PhaseCall      = snap.PhaseCall
)

// ErrTimeout is the cause of a handshake or list failure where the server
// stayed alive but sent no answer within Options.Timeout. Test with
// errors.Is.
var ErrTimeout = snap.ErrTimeout

// ErrInterrupted is the cause when the caller's context was cancelled
// (Ctrl-C) before the server answered.
var ErrInterrupted = snap.ErrInterrupted

// The failures of a snapshot, one type per phase, and a process's exit
// (see package snap, which holds them without the SDK).
type (
	ExitError      = snap.ExitError
	StartError     = snap.StartError
	HandshakeError = snap.HandshakeError
	ListError      = snap.ListError
	ParseError     = snap.ParseError
	CallError      = snap.CallError
)

// PhaseOf returns the phase of a snapshot error (anywhere in its chain).
func PhaseOf(err error) (Phase, bool) { return snap.PhaseOf(err) }

// failure is what every phase error records.
type failure = snap.Failure

// timeoutError is the cause for ErrTimeout with the details, which tell
// three servers apart: one that is silent, one that floods requests or
// notifications but never answers, and one that answers page after page of
// tools/list without the list ever ending.
type timeoutError struct {
	method string
	after  time.Duration
	// chatter is how many requests and notifications the server sent
	// since the unanswered request, most of them top.
	chatter int
	top     string
	// pages is how many tools/list pages had been answered, each with a
	// new nextCursor.
	pages int
}

func (e *timeoutError) Error() string {
	switch {
	case e.pages > 0:
		return fmt.Sprintf("tools/list did not end within %s: the server answered %d %s, each with a new nextCursor (timed out; see --timeout)",
			e.after, e.pages, plural(e.pages, "page", "pages"))
	case e.chatter > 0:
		return fmt.Sprintf("no answer to %s within %s; the server is running and sent %d %s meanwhile (most of them %q) but no answer (flooding; timed out; see --timeout)",
			e.method, e.after, e.chatter, plural(e.chatter, "request or notification", "requests and notifications"), e.top)
	}
	return fmt.Sprintf("no answer to %s within %s; the server is running but silent (timed out; see --timeout)", e.method, e.after)
}
func (e *timeoutError) Is(target error) bool { return target == ErrTimeout }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// excerpt quotes at most n bytes of b for an error message.
func excerpt(b []byte, n int) string {
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// scrubbed is a cause whose text, and the text of every error it wraps,
// has the credentials of the source's URL replaced by "***" (net/http and
// the SDK quote the URL they were given, user information and all).
// errors.Is and errors.As see the original chain.
type scrubbed struct {
	err     error
	secrets []string
}

func (e *scrubbed) Error() string { return snap.Scrub(e.err.Error(), e.secrets) }

func (e *scrubbed) Is(target error) bool { return errors.Is(e.err, target) }

func (e *scrubbed) As(target any) bool { return errors.As(e.err, target) }

// Unwrap gives the next link, scrubbed as well, so that no link of the
// chain (which crosses to the toolfind process link by link) shows them.
func (e *scrubbed) Unwrap() error {
	next := errors.Unwrap(e.err)
	if next == nil {
		return nil
	}
	return &scrubbed{err: next, secrets: e.secrets}
}
