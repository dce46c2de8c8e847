package live

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCauseTimeoutBeforeExit: when a phase times out, the SDK closes the
// server's stdin and most servers then exit at once (status 0). That exit
// is a consequence of the timeout, so the timeout is reported; an exit
// before the deadline is the cause. (CI once reported a flooding server as
// "exited before answering initialize" because the reap won the race.)
func TestCauseTimeoutBeforeExit(t *testing.T) {
	p, err := startProc(Source{Command: []string{"true"}}, nil)
	if err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	<-p.exited
	s := &session{opts: Options{Timeout: 2 * time.Second}, tap: newTap(), proc: p}
	timeout := context.DeadlineExceeded

	// Deadline before the exit: the timeout caused the exit.
	cause, _, exited, _ := s.cause(context.Background(), p.exitedAt.Add(-time.Millisecond), "initialize", timeout)
	if exited != nil {
		t.Errorf("exit after the deadline reported as the cause: %v", cause)
	}
	var te *timeoutError
	if !errors.As(cause, &te) || te.method != "initialize" {
		t.Errorf("cause = %v (%T), want a timeoutError for initialize", cause, cause)
	}

	// Deadline after the exit: the server died first.
	cause, _, exited, _ = s.cause(context.Background(), p.exitedAt.Add(time.Second), "initialize", timeout)
	if exited == nil || exited.Status != "exit status 0" {
		t.Errorf("exit before the deadline not reported: cause %v, exited %v", cause, exited)
	}

	// Not a timeout: the exit is the cause whenever it happened.
	cause, _, exited, _ = s.cause(context.Background(), p.exitedAt.Add(-time.Second), "initialize", errors.New("connection closed"))
	if exited == nil {
		t.Errorf("exit not reported for a non-timeout failure: %v", cause)
	}
}
