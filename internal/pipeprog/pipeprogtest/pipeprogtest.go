// Package pipeprogtest makes a pipeprog client's test binary its own fake
// program: the test starts os.Args[0] with an environment variable naming
// a mode, and TestMain calls Main, which then serves in that mode instead
// of running the tests.
package pipeprogtest

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"testing"
)

// Main runs the tests (m) when the environment variable env is unset or
// empty. Otherwise the binary is the program, in the mode env holds:
// "protocol99" reads the hello and answers with a ready line of protocol
// 99; a mode in modes runs its function and exits with the code it
// returns; any other mode runs serve, and exits 0, or 1 after printing
// "serve: " and its error to standard error. Main does not return.
func Main(m *testing.M, env string, serve func() error, modes map[string]func() int) {
	mode := os.Getenv(env)
	switch {
	case mode == "":
		os.Exit(m.Run())
	case mode == "protocol99":
		os.Stdin.Read(make([]byte, 4096))
		fmt.Println(`{"id":0,"ready":{"protocol":99}}`)
		os.Exit(0)
	case modes[mode] != nil:
		os.Exit(modes[mode]())
	}
	if err := serve(); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Buffer is a bytes.Buffer safe for concurrent use: a program's standard
// error, written by exec's copier while a test reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
