package claudecode

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/toolfind/toolfind/verify/claudecode/apiproto"
)

// apiProcess is the emulated Messages API of one run: a child process
// (Runner.APICommand, package verify/claudecode/messagesapi) that this
// package talks to over package apiproto, so that it does not link
// net/http itself.
type apiProcess struct {
	name   string // the command, for errors
	cmd    *exec.Cmd
	in     io.WriteCloser
	stderr bytes.Buffer
	url    string

	done     chan struct{} // closed on "done": the call's result is in
	doneOnce sync.Once
	exited   chan struct{} // closed when the process's output ends
	state    *apiproto.State
	err      error // a protocol error (read once exited is closed)
}

// startAPI starts command, sends it the run's input and waits for its URL.
// onCall answers each "call".
func startAPI(ctx context.Context, command []string, input []byte, onCall func() []string) (*apiProcess, error) {
	p := &apiProcess{name: strings.Join(command, " "), done: make(chan struct{}), exited: make(chan struct{})}
	p.cmd = exec.Command(command[0], command[1:]...)
	p.cmd.Stderr = &p.stderr
	p.cmd.WaitDelay = 2 * time.Second // a grandchild holding stderr open
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, p.fail(err)
	}
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, p.fail(err)
	}
	if err := p.cmd.Start(); err != nil {
		return nil, p.fail(err)
	}
	urls := make(chan string, 1)
	go p.read(out, urls, onCall)
	_, _ = p.in.Write(apiproto.Encode(apiproto.Message{Type: apiproto.TypeInput, Input: input}))
	select {
	case p.url = <-urls:
		return p, nil
	case <-p.exited:
		_ = p.cmd.Process.Kill()
		werr := p.cmd.Wait()
		if p.err == nil {
			p.err = fmt.Errorf("exited before listening: %v", werr)
		}
		return nil, p.fail(p.err)
	case <-ctx.Done():
		p.kill()
		return nil, ctx.Err()
	}
}

// read decodes the process's lines until its output ends or a line is
// broken.
func (p *apiProcess) read(out io.Reader, urls chan<- string, onCall func() []string) {
	defer close(p.exited)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 0, 64<<10), apiproto.MaxLine)
	for n := 1; sc.Scan(); n++ {
		m, err := apiproto.Decode(sc.Bytes())
		switch {
		case err != nil:
		case n == 1 && m.Type != apiproto.TypeURL:
			err = fmt.Errorf(`a %q message, want "url" first`, m.Type)
		case m.Type == apiproto.TypeURL && n == 1:
			urls <- m.URL
		case m.Type == apiproto.TypeCall:
			_, _ = p.in.Write(apiproto.Encode(apiproto.Message{Type: apiproto.TypeUnlisted, Servers: onCall()}))
		case m.Type == apiproto.TypeDone:
			p.doneOnce.Do(func() { close(p.done) })
		case m.Type == apiproto.TypeState && p.state == nil:
			p.state = m.State
		default:
			err = fmt.Errorf("an unexpected %q message", m.Type)
		}
		if err != nil {
			p.err = fmt.Errorf("line %d: %w", n, err)
			return
		}
	}
	if err := sc.Err(); err != nil {
		p.err = err
	}
}

// finish ends the run: it closes the process's input and returns the
// state it then writes.
func (p *apiProcess) finish() (*apiproto.State, error) {
	_ = p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	werr := p.cmd.Wait()
	switch {
	case p.err != nil:
		return nil, p.fail(p.err)
	case p.state == nil && werr != nil:
		return nil, p.fail(fmt.Errorf("ended without its state: %v", werr))
	case p.state == nil:
		return nil, p.fail(errors.New("ended without its state"))
	}
	return p.state, nil
}

// kill stops the process at once (an abandoned run).
func (p *apiProcess) kill() {
	_ = p.in.Close()
	_ = p.cmd.Process.Kill()
	<-p.exited
	_ = p.cmd.Wait()
}

func (p *apiProcess) fail(err error) error {
	return fmt.Errorf("model API (%s): %w%s", p.name, err, tail("; stderr: ", p.stderr.String()))
}
