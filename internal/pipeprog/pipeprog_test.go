package pipeprog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// numbers is a protocol for these tests: the hello is "hi"; a request is
// its id, "-ID" cancels it; a request answers "ID done" (or "ID
// cancelled" once its context ends, for ids over 100).
var numbers = Serving{
	Noun: "number",
	Hello: func(line []byte) ([]byte, error) {
		if strings.TrimSpace(string(line)) != "hi" {
			return []byte("no\n"), errors.New("line 1: want hi")
		}
		return []byte("ready\n"), nil
	},
	Decode: func(line []byte) (Request, error) {
		s := strings.TrimSpace(string(line))
		n, err := strconv.ParseInt(strings.TrimPrefix(s, "-"), 10, 64)
		if err != nil {
			return Request{}, err
		}
		return Request{ID: n, Cancel: s[0] == '-', Run: func(ctx context.Context) []byte {
			if n > 100 {
				<-ctx.Done()
				return fmt.Appendf(nil, "%d cancelled\n", n)
			}
			return fmt.Appendf(nil, "%d done\n", n)
		}}, nil
	},
}

func TestServe(t *testing.T) {
	for _, tt := range []struct{ in, out, err string }{
		{"hi\n1\n\n2", "ready\n1 done\n2 done\n", ""},
		// The last line a cancel without a newline: the input's end
		// still ends Serve, which cancels the request left running.
		{"hi\n101\n-7", "ready\n101 cancelled\n", ""},
		{"hi\n101\n-101\n", "ready\n101 cancelled\n", ""},
		{"hi\n1\nx", "ready\n1 done\n", `line 3: strconv.ParseInt: parsing "x": invalid syntax`},
		{"hi\n101\n101\n", "ready\n101 cancelled\n", "line 3: number 101 is already running"},
		{"hello\n", "no\n", "line 1: want hi"},
		{"", "", "line 1: no hello"},
	} {
		var out bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- Serve(context.Background(), strings.NewReader(tt.in), &out, numbers) }()
		select {
		case err := <-done:
			if tt.err == "" {
				assert.NoError(t, err, tt.in)
			} else {
				assert.EqualError(t, err, tt.err, tt.in)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: Serve did not return", tt.in)
		}
		assert.Equal(t, sorted(tt.out), sorted(out.String()), tt.in)
	}
}

// sorted is the lines of s in order: requests answer in any order.
func sorted(s string) []string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return lines
}

// Serve's context ending cancels the requests, answers them and returns
// while the input is still open.
func TestServeContext(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, pr, &out, numbers) }()
	io.WriteString(pw, "hi\n")
	io.WriteString(pw, "101\n")
	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, []string{"ready\n101 cancelled\n", "ready\n"}, out.String())
}
