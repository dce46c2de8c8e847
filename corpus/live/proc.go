package live

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// StderrTail is how many bytes of a stdio server's stderr are kept for
// error messages (the end of it).
const StderrTail = 8 << 10

// stderrLines is how many of the last stderr lines an error shows.
const stderrLines = 12

// TagVariable is set in every stdio server's environment to a value
// unique to the server (toolfind's pid and a sequence number). Processes
// inherit it, so on Linux the server's whole process tree can be found and
// killed, a grandchild that left the process group with setsid included.
const TagVariable = "TOOLFIND_LIVE_SERVER"

// procSeq numbers the servers started by this process.
var procSeq atomic.Int64

// proc is a running stdio server: its own process group (so that a
// wrapper like npx and the node process it starts are stopped together),
// pipes for stdin and stdout, stderr kept in a tail buffer, and a
// goroutine that reaps it.
type proc struct {
	cmd    *exec.Cmd
	tag    string   // TagVariable=… in its environment (see killTagged)
	stdin  *os.File // our end of the child's stdin
	stdout *os.File // our end of the child's stdout
	stderr *tailBuffer

	exited   chan struct{} // closed when Wait returned
	exitErr  *ExitError
	exitedAt time.Time     // when Wait returned; set before exited is closed
	errDone  chan struct{} // closed when stderr reached EOF
	stopOnce sync.Once
}

// startProc starts the command. Errors are the os/exec ones (not found,
// permission denied).
func startProc(src Source, extraStderr io.Writer) (*proc, error) {
	cmd := exec.Command(src.Command[0], src.Command[1:]...)
	cmd.Dir = src.Dir
	tag := fmt.Sprintf("%s=%d-%d", TagVariable, os.Getpid(), procSeq.Add(1))
	cmd.Env = append(append(os.Environ(), src.Env...), tag)
	setProcessGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	p := &proc{cmd: cmd, tag: tag, stdin: inW, stdout: outR, stderr: &tailBuffer{max: StderrTail},
		exited: make(chan struct{}), errDone: make(chan struct{})}
	err = cmd.Start()
	// The child has its own copies now (or never will).
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	go func() {
		defer close(p.errDone)
		var w io.Writer = p.stderr
		if extraStderr != nil {
			w = io.MultiWriter(p.stderr, extraStderr)
		}
		io.Copy(w, errR)
		errR.Close()
	}()
	go func() {
		err := cmd.Wait()
		ee := &ExitError{Status: "exit status 0", Code: 0}
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			ee.Status, ee.Code = xe.String(), xe.ExitCode()
		} else if err != nil {
			ee.Status, ee.Code = err.Error(), -1
		}
		p.exitErr = ee
		p.exitedAt = time.Now()
		close(p.exited)
	}()
	return p, nil
}

// exitedWithin reports whether the process has exited, waiting at most d
// for it (a server that closed stdout is usually about to be reaped).
func (p *proc) exitedWithin(d time.Duration) (*ExitError, bool) {
	// Checked first: with d = 0 a select over both channels would pick
	// the timer half the time even when the process has exited.
	select {
	case <-p.exited:
		return p.exitErr, true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return p.exitErr, true
	case <-t.C:
		return nil, false
	}
}

// stop ends the server and reaps it. Graceful follows the MCP stdio
// shutdown (specification 2025-11-25, Lifecycle §Shutdown, stdio): close
// its stdin, wait up to grace for it to exit, then SIGTERM, then SIGKILL.
// Otherwise (a failure, Ctrl-C) it goes straight to SIGTERM. Either way the
// whole process group gets a final SIGKILL, and so (on Linux) does every
// process carrying the server's tag, so no grandchild outlives us, not even
// one that left the group; stop returns only once the process has been
// reaped.
func (p *proc) stop(graceful bool, grace time.Duration) {
	p.stopOnce.Do(func() {
		p.stdin.Close()
		if graceful {
			if _, ok := p.exitedWithin(grace); ok {
				killGroup(p.cmd, true)
				killTagged(p.tag)
				p.finish()
				return
			}
		}
		killGroup(p.cmd, false) // SIGTERM
		if _, ok := p.exitedWithin(grace); !ok {
			killGroup(p.cmd, true) // SIGKILL
			<-p.exited
		}
		killGroup(p.cmd, true)
		killTagged(p.tag)
		p.finish()
	})
}

// finish closes our pipe ends once the process is gone; the stderr copier
// ends when the last writer (the group, now killed) is gone.
func (p *proc) finish() {
	p.stdout.Close()
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-p.errDone:
	case <-t.C:
	}
}

// stderrTail returns the last lines the server wrote to stderr.
func (p *proc) stderrTail() string { return p.stderr.tail(stderrLines) }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu        sync.Mutex
	max       int
	buf       []byte
	truncated bool
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.truncated = true
	}
	return len(b), nil
}

// tail returns at most n last lines, without a line cut by the size limit
// and without trailing blank lines. Invalid UTF-8 and control characters
// are shown escaped.
func (t *tailBuffer) tail(n int) string {
	t.mu.Lock()
	b := bytes.TrimRight(t.buf, "\r\n\t ")
	truncated := t.truncated
	t.mu.Unlock()
	lines := strings.Split(string(b), "\n")
	if truncated && len(lines) > 1 {
		lines = lines[1:]
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = printable(strings.TrimRight(l, "\r"))
	}
	return strings.Join(lines, "\n")
}

// printable escapes what would garble a terminal: control characters
// (tab kept) as \x1b and the like, bytes that are not UTF-8 as \xff.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
