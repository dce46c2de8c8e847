package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/internal/pipeprog/pipeprogtest"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer/model"
)

// serveVar makes this test binary the program: TestMain serves the fake
// backend then (its value is the mode: "serve" or "protocol99").
const serveVar = "TOOLFIND_REMOTE_TEST_SERVE"

func TestMain(m *testing.M) {
	pipeprogtest.Main(m, serveVar, func() error { return Serve(context.Background(), os.Stdin, os.Stdout, newFake) }, nil)
}

// fake is the program's backend in these tests: each prompt's first word
// says what it does.
type fake struct {
	cfg model.Config
	mu  sync.Mutex
	in  int           // "barrier" asks arrived
	all chan struct{} // closed when the barrier's count arrived
}

func newFake(cfg model.Config) (model.Backend, error) {
	if cfg.Model == "bad" {
		return nil, errors.New("no such model bad")
	}
	cfg.Key = os.Getenv(model.KeyVar(cfg.API))
	return &fake{cfg: cfg, all: make(chan struct{})}, nil
}

func (f *fake) Ask(ctx context.Context, req model.Request, prompt string) (model.Answer, error) {
	word, arg, _ := strings.Cut(prompt, " ")
	switch word {
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: out of luck")
		os.Exit(3)
	case "slow":
		<-ctx.Done()
		fmt.Fprintf(os.Stderr, "%s: %v\n", prompt, ctx.Err())
		return model.Answer{}, ctx.Err()
	case "barrier":
		// Answers only when all of them are in flight at once.
		var n int
		fmt.Sscan(arg, &n)
		f.mu.Lock()
		if f.in++; f.in == n {
			close(f.all)
		}
		f.mu.Unlock()
		select {
		case <-f.all:
		case <-time.After(10 * time.Second):
			return model.Answer{}, errors.New("the barrier's asks did not all arrive")
		}
	case "429":
		return model.Answer{}, model.StatusError(429, "slow down", "7")
	case "transport":
		return model.Answer{}, errors.New("connection reset")
	case "fatal":
		return model.Answer{}, &model.BackendError{Err: errors.New("backend broke")}
	case "nocall":
		return model.NoToolCall(""), nil
	case "echo":
		return model.ToolCall(req.Tools[0].Name, arg, req), nil
	case "config":
		b, _ := json.Marshal(map[string]any{"key": f.cfg.Key, "args": os.Args[1:], "api": f.cfg.API, "url": f.cfg.BaseURL,
			"model": f.cfg.Model, "temperature": f.cfg.Temperature, "max_tokens": f.cfg.MaxTokens, "system": req.System, "parts": req.Parts})
		return model.ToolCall(req.Tools[0].Name, string(b), req), nil
	}
	q, _ := json.Marshal(prompt)
	a := model.ToolCall(req.Tools[0].Name, `{"query": `+string(q)+`}`, req)
	a.InputTokens, a.OutputTokens = int64(len(prompt)), 1
	return a, nil
}

const testKey = "sk-remote-test-0123"

var req = model.Request{Tools: []search.SurfaceTool{{Name: "ToolSearch", Description: "Search tools", InputSchema: json.RawMessage(`{"type":"object"}`)}},
	System: "sys", Parts: []string{"<system-reminder>\nmcp__a__b\n</system-reminder>"}}

// program is this test binary as the program, closed at the test's end.
func program(t *testing.T, mode string, mcfg model.Config) (*Backend, *pipeprogtest.Buffer) {
	t.Helper()
	if mcfg.API == "" {
		mcfg.API = model.OpenAI
	}
	if mcfg.Model == "" {
		mcfg.Model = "m"
	}
	stderr := &pipeprogtest.Buffer{}
	b, err := New(Config{Program: os.Args[0], Model: mcfg, Env: append(os.Environ(), serveVar+"="+mode), Stderr: stderr})
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return b, stderr
}

var name = filepath.Base(os.Args[0])

func TestAsk(t *testing.T) {
	temp := 0.25
	b, _ := program(t, "serve", model.Config{API: model.Anthropic, BaseURL: "http://127.0.0.1:9", Model: "m1", Key: testKey, Temperature: &temp, MaxTokens: 99})
	a, err := b.Ask(context.Background(), req, "find the invoice")
	require.NoError(t, err)
	assert.Equal(t, model.Answer{Call: json.RawMessage(`{"query":"find the invoice"}`), InputTokens: 16, OutputTokens: 1}, a)

	// The configuration crosses in the hello; the key only in the
	// environment (the command line is just "serve").
	a, err = b.Ask(context.Background(), req, "config")
	require.NoError(t, err)
	assert.JSONEq(t, `{"key":"`+testKey+`","args":["serve"],"api":"anthropic","url":"http://127.0.0.1:9","model":"m1","temperature":0.25,"max_tokens":99,
		"system":"sys","parts":["<system-reminder>\nmcp__a__b\n</system-reminder>"]}`, string(a.Call))

	// HTML characters and U+2028 arrive byte for byte; a no-call stays one.
	const odd = `{"query":"a<b & c` + "\u2028" + `>"}`
	a, err = b.Ask(context.Background(), req, "config")
	require.NoError(t, err)
	local := model.ToolCall("ToolSearch", odd, req)
	require.Equal(t, odd, string(local.Call))
	a, err = b.Ask(context.Background(), req, "echo "+odd)
	require.NoError(t, err)
	assert.Equal(t, odd, string(a.Call))
	a, err = b.Ask(context.Background(), req, "nocall")
	require.NoError(t, err)
	assert.Equal(t, model.Answer{NoCall: "answered without a tool call"}, a)
}

// Several asks are in flight at once (the fake answers none of the six
// before all six arrived), each matched to its own answer by id.
func TestConcurrentAsks(t *testing.T) {
	b, _ := program(t, "serve", model.Config{})
	const n = 6
	var wg sync.WaitGroup
	got := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := b.Ask(context.Background(), req, fmt.Sprintf("barrier %d #%d", n, i))
			got[i], errs[i] = string(a.Call), err
		}()
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, fmt.Sprintf(`{"query":"barrier %d #%d"}`, n, i), got[i])
	}
}

// A cancelled or timed-out ask returns at once, and the program cancels
// it too; the program goes on serving.
func TestCancelAndTimeout(t *testing.T) {
	b, stderr := program(t, "serve", model.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := b.Ask(ctx, req, "slow one")
	assert.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = b.Ask(ctx, req, "slow two")
	assert.ErrorIs(t, err, context.DeadlineExceeded)

	a, err := b.Ask(context.Background(), req, "still there")
	require.NoError(t, err)
	assert.Equal(t, `{"query":"still there"}`, string(a.Call))
	require.NoError(t, b.Close())
	// The program saw the cancel and the deadline (as a cancel, or as its
	// own timeout_ms: TestServeTimeout).
	assert.Contains(t, stderr.String(), "slow one: context canceled\n")
	assert.Contains(t, stderr.String(), "slow two: context ")
	_, err = b.Ask(context.Background(), req, "after")
	assert.EqualError(t, err, "model writer: "+name+" was closed")
}

// The program's end fails the asks in flight and every later one, with
// its exit status and its last words on standard error.
func TestProgramCrash(t *testing.T) {
	b, stderr := program(t, "serve", model.Config{})
	_, err := b.Ask(context.Background(), req, "warm up")
	require.NoError(t, err)
	slow := make(chan error, 1)
	go func() {
		_, err := b.Ask(context.Background(), req, "slow forever")
		slow <- err
	}()
	time.Sleep(50 * time.Millisecond)
	_, err = b.Ask(context.Background(), req, "crash")
	want := "model writer: " + name + " exited unexpectedly (exit status 3): fatal: out of luck"
	var be *model.BackendError
	require.ErrorAs(t, err, &be)
	assert.EqualError(t, err, want)
	assert.EqualError(t, <-slow, want)
	_, err = b.Ask(context.Background(), req, "later")
	assert.EqualError(t, err, want)
	assert.Equal(t, "fatal: out of luck\n", stderr.String(), "standard error passed on")
}

// Each kind of error crosses as what it was.
func TestErrorsCross(t *testing.T) {
	b, _ := program(t, "serve", model.Config{})
	_, err := b.Ask(context.Background(), req, "429")
	var ae *model.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, model.APIError{Status: 429, Message: "slow down", RetryAfter: 7 * time.Second}, *ae)

	_, err = b.Ask(context.Background(), req, "transport")
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 0, ae.Status)
	assert.EqualError(t, ae.Transport, "connection reset")

	_, err = b.Ask(context.Background(), req, "fatal")
	var be *model.BackendError
	require.ErrorAs(t, err, &be)
	assert.EqualError(t, err, "model writer: "+name+": backend broke")
}

func TestStartErrors(t *testing.T) {
	ask := func(cfg Config) error {
		if cfg.Model.API == "" {
			cfg.Model = model.Config{API: model.OpenAI, Model: "m"}
		}
		b, err := New(cfg)
		require.NoError(t, err)
		defer b.Close()
		_, err = b.Ask(context.Background(), req, "x")
		var be *model.BackendError
		require.ErrorAs(t, err, &be)
		// A failed start is every ask's error.
		_, err2 := b.Ask(context.Background(), req, "y")
		assert.Equal(t, err, err2)
		return err
	}
	env := func(mode string) []string { return append(os.Environ(), serveVar+"="+mode) }
	missing := filepath.Join(t.TempDir(), "toolfind-model")
	assert.EqualError(t, ask(Config{Program: missing}), "model writer: cannot start "+missing+": fork/exec "+missing+": no such file or directory")
	assert.EqualError(t, ask(Config{Program: os.Args[0], Env: env("protocol99")}),
		"model writer: "+name+" speaks protocol 99, this toolfind 1: install both from the same version (go install ./cmd/...)")
	assert.EqualError(t, ask(Config{Program: os.Args[0], Env: env("serve"), Model: model.Config{API: model.OpenAI, Model: "bad"}}),
		"model writer: "+name+": no such model bad")
	assert.EqualError(t, ask(Config{Program: "/bin/sh", Args: []string{"-c", "exec sleep 10"}, StartTimeout: 200 * time.Millisecond}),
		"model writer: sh did not answer within 200ms: is it toolfind-model? (/bin/sh)")
	assert.EqualError(t, ask(Config{Program: "/bin/sh", Args: []string{"-c", "echo '{\"id\":0}'; exec sleep 10"}}),
		`model writer: sh is not toolfind-model (/bin/sh): its line 1 is not the protocol (want exactly one of "ready", "answer" and "error"): "{\"id\":0}"`)
	assert.EqualError(t, ask(Config{Program: "/bin/sh", Args: []string{"-c", "echo oops >&2; exit 4"}, Stderr: &pipeprogtest.Buffer{}}),
		"model writer: sh exited before it was ready (exit status 4): oops")

	_, err := New(Config{Model: model.Config{API: model.OpenAI}})
	assert.EqualError(t, err, "model writer: no toolfind-model program given")
	_, err = New(Config{Program: "x", Model: model.Config{API: "gemini"}})
	assert.EqualError(t, err, `model writer: unknown API "gemini" (known: openai, anthropic)`)
}

// Closed before its first ask, a backend never starts the program.
func TestCloseBeforeStart(t *testing.T) {
	b, err := New(Config{Program: filepath.Join(t.TempDir(), "never"), Model: model.Config{API: model.OpenAI, Model: "m"}})
	require.NoError(t, err)
	require.NoError(t, b.Close())
	_, err = b.Ask(context.Background(), req, "x")
	assert.EqualError(t, err, "model writer: never was closed")
}

// serveLines runs Serve over input lines and returns its error and its
// output lines, sorted (asks answer in any order).
func serveLines(t *testing.T, lines ...string) ([]string, error) {
	t.Helper()
	var out bytes.Buffer
	err := Serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")), &out, newFake)
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	sort.Strings(got)
	return got, err
}

const (
	helloLine = `{"id":0,"hello":{"protocol":1,"api":"openai","model":"m"}}`
	tools     = `"request":{"tools":[{"name":"ToolSearch","description":"d","input_schema":{}}]}`
)

func TestServe(t *testing.T) {
	got, err := serveLines(t, helloLine,
		`{"id":1,"ask":{`+tools+`,"prompt":"one"}}`,
		``,
		`{"id":2,"ask":{`+tools+`,"prompt":"429","timeout_ms":5000}}`,
		`{"id":9,"cancel":true}`) // no newline at the end: the last line still counts
	require.NoError(t, err)
	assert.Equal(t, []string{
		`{"id":0,"ready":{"protocol":1}}`,
		`{"id":1,"answer":{"call":{"query":"one"},"input_tokens":3,"output_tokens":1}}`,
		`{"id":2,"error":{"status":429,"message":"slow down","retry_after_ms":7000}}`,
	}, got)

	for _, tt := range []struct {
		lines []string
		err   string
		out   string
	}{
		{[]string{`{"id":1,"ask":{` + tools + `,"prompt":"x"}}`}, "line 1: want hello first", `{"id":0,"error":{"fatal":"line 1: want hello first"}}`},
		{[]string{`nonsense`}, "line 1: not a JSON object: invalid character 'o' in literal null (expecting 'u')", ""},
		{[]string{`{"id":0,"hello":{"protocol":2,"api":"openai","model":"m"}}`}, "protocol 2: this program speaks 1", `{"id":0,"error":{"fatal":"protocol 2: this program speaks 1"}}`},
		{[]string{`{"id":0,"hello":{"protocol":1,"api":"openai","model":"bad"}}`}, "no such model bad", `{"id":0,"error":{"fatal":"no such model bad"}}`},
		{[]string{helloLine, helloLine}, "line 2: a second hello", `{"id":0,"ready":{"protocol":1}}`},
		{[]string{helloLine, `{"id":3,"ask":{"request":{"tools":[]},"prompt":"x"}}`}, "line 2: ask 3: the request has no tools", `{"id":0,"ready":{"protocol":1}}`},
		{[]string{}, "line 1: no hello", ""},
	} {
		got, err := serveLines(t, tt.lines...)
		assert.EqualError(t, err, tt.err)
		if tt.out != "" {
			assert.Equal(t, tt.out, got[0])
		}
	}
}

// An ask's timeout_ms bounds it in the program.
func TestServeTimeout(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), inR, outW, newFake)
		outW.Close()
	}()
	go fmt.Fprintf(inW, "%s\n{\"id\":1,\"ask\":{%s,\"prompt\":\"slow\",\"timeout_ms\":50}}\n", helloLine, tools)
	sc := bufio.NewScanner(outR)
	require.True(t, sc.Scan())
	assert.Equal(t, `{"id":0,"ready":{"protocol":1}}`, sc.Text())
	require.True(t, sc.Scan())
	assert.Equal(t, `{"id":1,"error":{"transport":"context deadline exceeded"}}`, sc.Text())
	inW.Close()
	require.NoError(t, <-done)
}

func TestDecode(t *testing.T) {
	for _, tt := range []struct{ line, err string }{
		{`{"id":0,"hello":{"protocol":1}}`, ""},
		{`{"id":4,"cancel":true}`, ""},
		{`[]`, "not a JSON object: json: cannot unmarshal array into Go value of type remote.call"},
		{`{"id":1}`, `want exactly one of "hello", "ask" and "cancel"`},
		{`{"id":1,"cancel":true,"hello":{}}`, `want exactly one of "hello", "ask" and "cancel"`},
		{`{"id":2,"hello":{}}`, "hello with id 2: want 0"},
		{`{"id":0,"cancel":true}`, "id 0: want 1 or more"},
		{`{"id":1,"ask":{` + tools + `,"timeout_ms":-1}}`, "ask 1: timeout_ms -1: want 0 or more"},
	} {
		_, err := decodeCall([]byte(tt.line))
		if tt.err == "" {
			assert.NoError(t, err, tt.line)
		} else {
			assert.EqualError(t, err, tt.err, tt.line)
		}
	}
	for _, tt := range []struct{ line, err string }{
		{`{"id":0,"ready":{"protocol":1}}`, ""},
		{`{"id":3,"answer":{"call":null,"no_call":"x"}}`, ""},
		{`{"id":3,"error":{"transport":"EOF"}}`, ""},
		{`{"id":0,"error":{"fatal":"no"}}`, ""},
		{`{"id":3}`, `want exactly one of "ready", "answer" and "error"`},
		{`{"id":-1,"error":{"fatal":"x"}}`, "id -1: want 0 or more"},
		{`{"id":2,"ready":{"protocol":1}}`, "ready with id 2: want 0"},
		{`{"id":0,"answer":{}}`, "answer with id 0: want 1 or more"},
		{`{"id":3,"error":{}}`, `error of id 3: want exactly one of "status", "transport" and "fatal"`},
		{`{"id":3,"error":{"status":429,"fatal":"x"}}`, `error of id 3: want exactly one of "status", "transport" and "fatal"`},
		{`{"id":3,"error":{"status":42}}`, "error of id 3: status 42: want an HTTP status"},
		{`{"id":3,"error":{"status":429,"retry_after_ms":-5}}`, "error of id 3: retry_after_ms -5: want 0 or more"},
	} {
		_, err := decodeReply([]byte(tt.line))
		if tt.err == "" {
			assert.NoError(t, err, tt.line)
		} else {
			assert.EqualError(t, err, tt.err, tt.line)
		}
	}
	r, err := decodeReply([]byte(`{"id":3,"answer":{"call":null,"no_call":"x"}}`))
	require.NoError(t, err)
	assert.Nil(t, r.Answer.Call, "a JSON null call is no call")
}

// The decoders take any line without panicking, and what they accept
// encodes to a line they read back the same.
func FuzzDecodeCall(f *testing.F) {
	for _, s := range []string{helloLine, `{"id":1,"ask":{` + tools + `,"prompt":"p","timeout_ms":5}}`, `{"id":2,"cancel":true}`, `{"id":1,"ask":{"request":{"tools":[{"name":"a","input_schema":null}],"parts":["x"]}}}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := decodeCall(line)
		if err != nil {
			return
		}
		b, err := encode(c)
		if err != nil {
			return // e.g. an input schema that is JSON only to the decoder's leniency
		}
		c2, err := decodeCall(b)
		require.NoError(t, err, "%s", b)
		b2, err := encode(c2)
		require.NoError(t, err)
		assert.Equal(t, string(b), string(b2))
	})
}

func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{`{"id":0,"ready":{"protocol":1}}`, `{"id":3,"answer":{"call":{"query":"a<b"},"input_tokens":3}}`,
		`{"id":3,"answer":{"call":null,"no_call":"x"}}`, `{"id":4,"error":{"status":429,"message":"m","retry_after_ms":7}}`,
		`{"id":5,"error":{"transport":"EOF"}}`, `{"id":0,"error":{"fatal":"no"}}`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := decodeReply(line)
		if err != nil {
			return
		}
		if r.Error != nil {
			_ = r.Error.err("p").Error()
		}
		b, err := encode(r)
		require.NoError(t, err)
		r2, err := decodeReply(b)
		require.NoError(t, err, "%s", b)
		b2, err := encode(r2)
		require.NoError(t, err)
		assert.Equal(t, string(b), string(b2))
	})
}

// BenchmarkAsk is the pipe's cost per ask (the program's fake backend
// answers at once): a Claude-sized request out, a call back. Against a
// model's hundreds of milliseconds per answer it is noise.
func BenchmarkAsk(b *testing.B) {
	stderr := &pipeprogtest.Buffer{}
	be, err := New(Config{Program: os.Args[0], Model: model.Config{API: model.OpenAI, Model: "m"}, Env: append(os.Environ(), serveVar+"=serve"), Stderr: stderr})
	require.NoError(b, err)
	defer be.Close()
	big := req
	big.Parts = []string{"<system-reminder>\n" + strings.Repeat("mcp__server__some_tool_name\n", 400) + "</system-reminder>"}
	_, err = be.Ask(context.Background(), big, "warm up")
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := be.Ask(context.Background(), big, "find the invoice"); err != nil {
			b.Fatal(err)
		}
	}
}

// An error answer that arrives once the caller's deadline has passed is
// the caller's timeout, even before the context's timer has fired (the
// program timed out on its own timeout_ms first).
func TestCallerEnded(t *testing.T) {
	assert.NoError(t, callerEnded(context.Background()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, callerEnded(ctx), context.Canceled)
	// A deadline in the past whose timer has not been seen to fire: the
	// context's own Err may still be nil here, callerEnded is not.
	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	assert.ErrorIs(t, callerEnded(past), context.DeadlineExceeded)
	future, cancel3 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel3()
	assert.NoError(t, callerEnded(future))
}
