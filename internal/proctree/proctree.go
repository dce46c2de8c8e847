// Package proctree starts a child process so that it ends together with
// everything it started, and so that no wait of toolfind's outlasts it.
//
// A command toolfind runs (a live MCP server, a client under `verify`, a
// --writer command) may start processes of its own: stub servers, a
// backgrounded `sleep`, a daemon that calls setsid. Two things make them
// outlive it or hang toolfind:
//
//   - Killing the child leaves its children running. So the child gets a
//     process group of its own (SetGroup; a terminal's Ctrl-C then reaches
//     toolfind only, which cancels and ends the tree), and a tag in its
//     environment (Tag) that every descendant inherits: ending it kills
//     the group (KillGroup) and, on Linux, every process carrying the tag
//     (KillTagged), a grandchild that left the group with setsid included.
//   - A descendant holding the child's standard output keeps the pipe
//     open after the child exits, and os/exec's Wait waits for the pipe's
//     end. So Start copies the child's standard streams through pipes of
//     its own: Exited is closed when the child itself exits, and Stop, once
//     the tree is killed, waits at most Linger for the output to end.
package proctree

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// Linger is how long Stop waits for the output still in the pipes once
// the tree has been killed (only a descendant that cleared its
// environment and left the group can still hold them).
const Linger = 2 * time.Second

var seq atomic.Int64

// Tag is a VARIABLE=VALUE entry unique to one command of this process
// (toolfind's pid and a sequence number), for the command's environment.
func Tag(variable string) string {
	return fmt.Sprintf("%s=%d-%d", variable, os.Getpid(), seq.Add(1))
}

// Proc is a started command (Start).
type Proc struct {
	cmd     *exec.Cmd
	tag     string
	exited  chan struct{}
	err     error
	copies  sync.WaitGroup
	ours    []*os.File // our pipe ends, closed by Stop
	stopped sync.Once
}

// Start starts cmd in a process group of its own with a Tag of variable
// added to its environment (cmd.Env, or this process's when nil). Its
// Stdin, Stdout and Stderr, when set and not files, are copied through
// pipes of Start's own.
func Start(cmd *exec.Cmd, variable string) (*Proc, error) {
	p := &Proc{cmd: cmd, tag: Tag(variable), exited: make(chan struct{})}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], p.tag)
	SetGroup(cmd)
	var theirs []*os.File
	fail := func(err error) (*Proc, error) {
		for _, f := range append(theirs, p.ours...) {
			f.Close()
		}
		return nil, err
	}
	if r := cmd.Stdin; r != nil {
		if _, isFile := r.(*os.File); !isFile {
			pr, pw, err := os.Pipe()
			if err != nil {
				return fail(err)
			}
			theirs, p.ours = append(theirs, pr), append(p.ours, pw)
			cmd.Stdin = pr
			go func() {
				_, _ = io.Copy(pw, r)
				pw.Close()
			}()
		}
	}
	for _, w := range []*io.Writer{&cmd.Stdout, &cmd.Stderr} {
		if *w == nil {
			continue
		}
		if _, isFile := (*w).(*os.File); isFile {
			continue
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			return fail(err)
		}
		theirs, p.ours = append(theirs, pw), append(p.ours, pr)
		dst := *w
		*w = pw
		p.copies.Add(1)
		go func() {
			defer p.copies.Done()
			_, _ = io.Copy(dst, pr)
		}()
	}
	err := cmd.Start()
	for _, f := range theirs { // the child has its own copies now (or never will)
		f.Close()
	}
	if err != nil {
		for _, f := range p.ours {
			f.Close()
		}
		return nil, err
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Exited is closed when the command itself has exited (Err then says how).
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// Err is the command's exit error (nil for status 0), once Exited is
// closed.
func (p *Proc) Err() error { return p.err }

// Stop kills the command's process group and every process carrying its
// tag, waits for the command to exit, then at most Linger for its output
// to end, and closes the pipes. It may be called more than once.
func (p *Proc) Stop() {
	p.stopped.Do(func() {
		KillGroup(p.cmd, true)
		KillTagged(p.tag)
		<-p.exited
		KillGroup(p.cmd, true) // what forked while the command died
		KillTagged(p.tag)
		done := make(chan struct{})
		go func() {
			p.copies.Wait()
			close(done)
		}()
		t := time.NewTimer(Linger)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		}
		for _, f := range p.ours {
			f.Close()
		}
		<-done
	})
}

// Wait waits until the command exits or stop is closed, then Stops it;
// ended reports whether stop came first.
func (p *Proc) Wait(stop <-chan struct{}) (ended bool) {
	select {
	case <-p.exited:
	case <-stop:
		ended = true
	}
	p.Stop()
	return ended
}
