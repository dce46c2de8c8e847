package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/internal/pipeprog/pipeprogtest"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
)

// serveVar makes this test binary the program: TestMain serves then (its
// value is the mode: "serve", "protocol99", "garbage", "silent-exit").
const serveVar = "TOOLFIND_JSBOX_TEST_SERVE"

func TestMain(m *testing.M) {
	serve := func() error { return Serve(context.Background(), os.Stdin, os.Stdout, misbehaving{gojabox.New()}) }
	pipeprogtest.Main(m, serveVar, serve, map[string]func() int{
		"garbage": func() int {
			fmt.Println("hello, I am not toolfind-js")
			os.Stdin.Read(make([]byte, 4096))
			return 0
		},
		"silent-exit": func() int {
			fmt.Fprintln(os.Stderr, "panic: no engine today")
			return 3
		},
	})
}

// misbehaving is the goja engine, except for scripts whose code starts
// with "//crash" (the program exits 3), "//kill" (it is killed),
// "//garbage" (it writes a line that is not the protocol), "//stuck" (it
// never answers, whatever the time limit).
type misbehaving struct{ gojabox.Engine }

func (m misbehaving) Codex(setup jsbox.CodexSetup) (jsbox.Codex, error) {
	if len(setup.Tools) > 0 && setup.Tools[0].Name == "refuse" {
		return nil, errors.New("no session for you")
	}
	s, err := m.Engine.Codex(setup)
	return misbehavingCodex{s}, err
}

type misbehavingCodex struct{ jsbox.Codex }

func (m misbehavingCodex) Exec(ctx context.Context, run jsbox.CodexRun) (jsbox.CodexOutput, error) {
	switch {
	case strings.HasPrefix(run.Code, "//crash"):
		fmt.Fprintln(os.Stderr, "fatal: out of luck")
		os.Exit(3)
	case strings.HasPrefix(run.Code, "//kill"):
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case strings.HasPrefix(run.Code, "//garbage"):
		fmt.Println("{not json")
		select {}
	case strings.HasPrefix(run.Code, "//stuck"):
		select {} // one step the engine cannot interrupt
	}
	return m.Codex.Exec(ctx, run)
}

// newEngine is a remote engine running this test binary in mode.
func newEngine(t *testing.T, mode string) *Engine {
	t.Helper()
	var stderr bytes.Buffer
	e, err := New(Config{Program: mustExe(t), Env: envWith(serveVar + "=" + mode), Stderr: &lockedWriter{w: &stderr}, StartTimeout: 20 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	return e
}

func mustExe(tb testing.TB) string {
	exe, err := os.Executable()
	require.NoError(tb, err)
	return exe
}

// envWith is this process's environment and kv.
func envWith(kv string) []string { return append(os.Environ(), kv) }

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// probeSetup has a Codex tool, a freeform tool and a description that is
// not UTF-8 (its bytes must reach the script as in one process).
func probeSetup() jsbox.CodexSetup {
	return jsbox.CodexSetup{
		Tools: []jsbox.CodexTool{
			{Name: "apply_patch", Description: "Patch files.", CallName: "apply_patch", Freeform: true},
			{Name: "mcp__gh__list_prs", Description: "List pull requests <b>&amp;</b>.", CallName: "mcp__ghlist_prs", Tool: "gh/list_prs"},
			{Name: "mcp__odd__x", Description: "bytes \xff\xfe end", CallName: "mcp__oddx", Tool: "odd/\xc3x"},
		},
		Limits: jsbox.Limits{Timeout: 5 * time.Second},
	}
}

// Every kind of output crosses the pipe as the in-process engine gives
// it: texts, calls and their arguments, notices, failures, the time limit.
func TestCodexRoundTrip(t *testing.T) {
	ctx := context.Background()
	local, err := gojabox.New().Codex(probeSetup())
	require.NoError(t, err)
	remote, err := newEngine(t, "serve").Codex(probeSetup())
	require.NoError(t, err)
	short := probeSetup()
	short.Limits.Timeout = 50 * time.Millisecond
	shortLocal, _ := gojabox.New().Codex(short)
	shortRemote, err := newEngine(t, "serve").Codex(short)
	require.NoError(t, err)

	for _, tt := range []struct {
		name string
		run  jsbox.CodexRun
		// want: the status and the first item, both engines
		status, item string
		short        bool
	}{
		{name: "text", run: jsbox.CodexRun{Code: `text(QUERY + "|" + TERMS.join(","))`, Query: "find prs", Terms: []string{"find", "prs"}},
			status: "Script completed", item: "find prs|find,prs"},
		{name: "bytes that are not UTF-8", run: jsbox.CodexRun{Code: `text(ALL_TOOLS[2].description + QUERY)`, Query: "q\xff"},
			status: "Script completed", item: "bytes \ufffd\ufffd end" + "q\ufffd"},
		{name: "calls", run: jsbox.CodexRun{Code: "await tools.mcp__gh__list_prs({n: 1.5, big: 1e21, s: \"<x>\", a: [true, null]});\n" +
			"try { await tools.apply_patch({}) } catch (e) { text(String(e)) }\nawait tools.mcp__odd__x();"},
			status: "Script completed", item: "tool `apply_patch` expects a string input"},
		{name: "notices", run: jsbox.CodexRun{Code: `notify({a: 1}); image("x")`}, status: "Script completed"},
		{name: "throw", run: jsbox.CodexRun{Code: "text(1)\nthrow new Error(\"boom\")"}, status: "Script failed", item: "1"},
		{name: "syntax error", run: jsbox.CodexRun{Code: "const = ;"}, status: "Script failed", item: "Script error:\nSyntaxError: Unexpected token ="},
		{name: "yield", run: jsbox.CodexRun{Code: `text("a"); await new Promise(r => setTimeout(r, 500))`, YieldMs: 100},
			status: "Script running with cell ID 1", item: "a"},
		{name: "time limit", run: jsbox.CodexRun{Code: `text("spin"); for (;;) {}`}, status: "Script running with cell ID 1", item: "spin", short: true},
		{name: "trusted", run: jsbox.CodexRun{Code: `text(ALL_TOOLS.length)`, Trusted: true}, status: "Script completed", item: "3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, r := local, remote
			if tt.short {
				l, r = shortLocal, shortRemote
			}
			if tt.run.YieldMs == 0 {
				tt.run.YieldMs = 10_000
			}
			want, err := l.Exec(ctx, tt.run)
			require.NoError(t, err)
			got, err := r.Exec(ctx, tt.run)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, tt.status, got.Status)
			if tt.item != "" {
				require.NotEmpty(t, got.Items)
				assert.True(t, strings.HasPrefix(got.Items[0], tt.item), "item %q", got.Items[0])
			}
		})
	}

	// The calls' arguments decode as encoding/json decodes into any.
	out, err := remote.Exec(ctx, jsbox.CodexRun{Code: `await tools.mcp__gh__list_prs({n: 1.5, s: "<x>"}); await tools.mcp__odd__x()`, YieldMs: 10_000})
	require.NoError(t, err)
	assert.Equal(t, []jsbox.Call{
		{Tool: "gh/list_prs", Name: "mcp__gh__list_prs", Arguments: map[string]any{"n": 1.5, "s": "<x>"}},
		{Tool: "odd/\xc3x", Name: "mcp__odd__x", Arguments: map[string]any{}},
	}, out.Calls)
}

func TestCodexCompile(t *testing.T) {
	js, err := newEngine(t, "serve").Codex(probeSetup())
	require.NoError(t, err)
	ce, err := js.Compile(context.Background(), "text(1)")
	require.NoError(t, err)
	assert.Nil(t, ce)
	ce, err = js.Compile(context.Background(), "text(1)\nconst x = ;")
	require.NoError(t, err)
	assert.Equal(t, &jsbox.CompileError{Message: "SyntaxError: Unexpected token ; (and 2 more errors)", Line: 2, Column: 11}, ce)
	ce, err = js.Compile(context.Background(), "import x from \"fs\"")
	require.NoError(t, err)
	assert.Equal(t, &jsbox.CompileError{Message: "Unsupported import in exec: fs", Line: 1}, ce)
}

// A run's search() calls back into this process; its answer reaches the
// script, its error is thrown, and the calls of tools are reported.
func TestOpenCodeRoundTrip(t *testing.T) {
	setup := jsbox.OpenCodeSetup{
		Tools:        []jsbox.OpenCodeTool{{Namespace: "gh", Local: "list"}, {Namespace: "gh", Local: "get"}, {Namespace: "fs", Local: "read"}},
		GlobalSearch: true,
		Timeout:      5 * time.Second,
	}
	local, err := gojabox.New().OpenCode(setup)
	require.NoError(t, err)
	remote, err := newEngine(t, "serve").OpenCode(setup)
	require.NoError(t, err)
	var mu sync.Mutex
	var asked []jsbox.SearchInput
	search := func(in jsbox.SearchInput) (string, error) {
		mu.Lock()
		asked = append(asked, in)
		mu.Unlock()
		if in.Limit < 0 {
			return "", fmt.Errorf("search: limit %d: must be a positive integer", in.Limit)
		}
		return fmt.Sprintf(`{"items": [{"path": "tools.gh.list", "q": %q}], "remaining": 0}`, in.Query), nil
	}
	for _, tt := range []struct {
		name, code string
		want       jsbox.OpenCodeOutput
	}{
		{"search", `return await tools.$codemode.search({query: "prs", namespace: "gh", limit: 3, offset: 1})`,
			jsbox.OpenCodeOutput{Output: "{\n  \"items\": [\n    {\n      \"path\": \"tools.gh.list\",\n      \"q\": \"prs\"\n    }\n  ],\n  \"remaining\": 0\n}", Searches: 1}},
		{"global search and calls", `const r = await search({query: "x"}); await tools.fs.read({}); await tools.gh.list(); await tools.fs.read(); return r.items[0].q`,
			jsbox.OpenCodeOutput{Output: "x", Called: []int{2, 0, 2}, Searches: 1}},
		{"search error", `return await search({query: "x", limit: -1})`,
			jsbox.OpenCodeOutput{Failed: true, Error: "TypeError: search: limit -1: must be a positive integer"}},
		{"never settles", `await new Promise(() => {})`,
			jsbox.OpenCodeOutput{Failed: true, Error: "script did not finish (a promise never settled)"}},
		{"string", `return "plain <text>"`, jsbox.OpenCodeOutput{Output: "plain <text>"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			asked = nil
			want, err := local.Run(context.Background(), tt.code, search)
			require.NoError(t, err)
			wantAsked := asked
			asked = nil
			got, err := remote.Run(context.Background(), tt.code, search)
			require.NoError(t, err)
			assert.Equal(t, tt.want, want, "in process")
			assert.Equal(t, want, got, "remote")
			assert.Equal(t, wantAsked, asked, "search inputs")
		})
	}
}

// Runs are concurrent: each waits for its own reply (and searches).
func TestConcurrentRuns(t *testing.T) {
	e := newEngine(t, "serve")
	js, err := e.Codex(probeSetup())
	require.NoError(t, err)
	oc, err := e.OpenCode(jsbox.OpenCodeSetup{Tools: []jsbox.OpenCodeTool{{Namespace: "a", Local: "b"}}, Timeout: 5 * time.Second})
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			out, err := js.Exec(context.Background(), jsbox.CodexRun{Code: `text(QUERY)`, Query: fmt.Sprint(i), YieldMs: 10_000})
			if err == nil && (len(out.Items) != 1 || out.Items[0] != fmt.Sprint(i)) {
				err = fmt.Errorf("run %d: items %q", i, out.Items)
			}
			errs <- err
		}()
		go func() {
			defer wg.Done()
			out, err := oc.Run(context.Background(), `return (await tools.$codemode.search({query: "q"})).n`, func(in jsbox.SearchInput) (string, error) {
				return fmt.Sprintf(`{"n": "%d"}`, i), nil
			})
			if err == nil && out.Output != fmt.Sprint(i) {
				err = fmt.Errorf("run %d: output %q", i, out.Output)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

// A cancelled run returns ctx's error at once; the program stops it and
// serves the next.
func TestCancel(t *testing.T) {
	js, err := newEngine(t, "serve").Codex(jsbox.CodexSetup{Limits: jsbox.Limits{Timeout: time.Minute}})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = js.Exec(ctx, jsbox.CodexRun{Code: `for (;;) {}`, YieldMs: 10_000})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	out, err := js.Exec(context.Background(), jsbox.CodexRun{Code: `text("next")`, YieldMs: 10_000})
	require.NoError(t, err)
	assert.Equal(t, []string{"next"}, out.Items)
}

// A program that crashes, is killed or writes garbage fails the run in
// flight and every later one, naming how it ended.
func TestProgramEnds(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{"//crash", "exited unexpectedly (exit status 3): fatal: out of luck"},
		{"//kill", "exited unexpectedly (signal: killed)"},
		{"//garbage", `wrote what is not the protocol: its line 3 is not the protocol (not a JSON object: invalid character 'n' looking for beginning of object key string): "{not json"`},
	} {
		t.Run(tt.code, func(t *testing.T) {
			e := newEngine(t, "serve")
			js, err := e.Codex(probeSetup())
			require.NoError(t, err)
			_, err = js.Exec(context.Background(), jsbox.CodexRun{Code: tt.code, YieldMs: 10_000})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), e.name+" "), err.Error())
			_, err2 := js.Exec(context.Background(), jsbox.CodexRun{Code: `text(1)`, YieldMs: 10_000})
			assert.Equal(t, err, err2, "a later run")
			_, err3 := e.OpenCode(jsbox.OpenCodeSetup{Timeout: time.Second})
			assert.Equal(t, err, err3, "a later session")
		})
	}
}

// The hard time limit: a run not answered within its time limit and
// Overrun kills the program; that run, one in flight beside it and every
// later call fail saying why.
func TestOverrun(t *testing.T) {
	e, err := New(Config{Program: mustExe(t), Env: envWith(serveVar + "=serve"), StartTimeout: 20 * time.Second, Overrun: 50 * time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	js, err := e.Codex(jsbox.CodexSetup{Limits: jsbox.Limits{Timeout: 10 * time.Millisecond}})
	require.NoError(t, err)
	// A run beside it, stuck too but with a minute's limit: the first
	// run's overrun ends it.
	slow, err := e.Codex(jsbox.CodexSetup{Limits: jsbox.Limits{Timeout: time.Minute}})
	require.NoError(t, err)
	beside := make(chan error, 1)
	go func() {
		_, err := slow.Exec(context.Background(), jsbox.CodexRun{Code: "//stuck", YieldMs: 10_000})
		beside <- err
	}()
	_, err = js.Exec(context.Background(), jsbox.CodexRun{Code: "//stuck", YieldMs: 10_000})
	want := e.name + " was stopped: a script ran 50ms past its 10ms time limit without being interrupted"
	assert.EqualError(t, err, want)
	assert.EqualError(t, <-beside, want, "the run in flight beside it")
	_, err = js.Exec(context.Background(), jsbox.CodexRun{Code: `text(1)`, YieldMs: 10_000})
	assert.EqualError(t, err, want, "a later run")
	_, err = e.OpenCode(jsbox.OpenCodeSetup{Timeout: time.Second})
	assert.EqualError(t, err, want, "a later session")
}

// A program that is not a JavaScript child, or not this version of it, is
// refused at the handshake.
func TestHandshakeRefused(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"protocol99", "speaks protocol 99, this toolfind 1: install both from the same version (go install ./cmd/...)"},
		{"garbage", `is not a toolfind JavaScript child`},
		{"silent-exit", "exited before it was ready (exit status 3): panic: no engine today"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			_, err := newEngine(t, tt.mode).Codex(probeSetup())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	e, err := New(Config{Program: "/nonexistent/toolfind-js"})
	require.NoError(t, err)
	_, err = e.Codex(probeSetup())
	assert.EqualError(t, err, "cannot start /nonexistent/toolfind-js: fork/exec /nonexistent/toolfind-js: no such file or directory")
}

// A session the engine refuses is an error of that call; the program
// goes on.
func TestSessionRefused(t *testing.T) {
	e := newEngine(t, "serve")
	_, err := e.Codex(jsbox.CodexSetup{Tools: []jsbox.CodexTool{{Name: "refuse"}}})
	assert.EqualError(t, err, e.name+": no session for you")
	_, err = e.Codex(probeSetup())
	assert.NoError(t, err)
}

func TestClosed(t *testing.T) {
	e := newEngine(t, "serve")
	js, err := e.Codex(probeSetup())
	require.NoError(t, err)
	require.NoError(t, e.Close())
	_, err = js.Exec(context.Background(), jsbox.CodexRun{Code: `text(1)`})
	assert.EqualError(t, err, e.name+" was closed")
	never, err := New(Config{Program: "/nonexistent"})
	require.NoError(t, err)
	require.NoError(t, never.Close())
	_, err = never.Codex(probeSetup())
	assert.EqualError(t, err, "nonexistent was closed")
}

// Serve's side of protocol errors: each names its line; a call of an
// unknown session is that call's error.
func TestServeErrors(t *testing.T) {
	const hello = `{"id":0,"hello":{"protocol":1}}` + "\n"
	for _, tt := range []struct{ in, err, out string }{
		{"", "line 1: no hello", ""},
		{`{"id":1,"cancel":true}` + "\n", "line 1: want hello first", `{"id":0,"error":"line 1: want hello first"}` + "\n"},
		{`{"id":0,"hello":{"protocol":2}}` + "\n", "line 1: protocol 2: this program speaks 1", `{"id":0,"error":"line 1: protocol 2: this program speaks 1"}` + "\n"},
		{hello + "nope\n", "line 2: not a JSON object: invalid character 'o' in literal null (expecting 'u')", ""},
		{hello + hello, "line 2: a second hello", ""},
		{hello + `{"id":3,"exec":{"session":9,"code":"x"}}` + "\n", "", `{"id":3,"error":"exec: no codex session 9"}` + "\n"},
		{hello + `{"id":3,"opencode":{"tools":[],"timeout_ns":1000000000}}` + "\n" + `{"id":3,"opencode":{"tools":[],"timeout_ns":1000000000}}` + "\n",
			"line 3: id 3 is already in use", `{"id":3,"opened":true}` + "\n"},
		{hello + `{"id":4,"found":{"json":"{}"}}` + "\n", "", ""},
	} {
		var out bytes.Buffer
		err := Serve(context.Background(), strings.NewReader(tt.in), &out, gojabox.New())
		if tt.err == "" {
			assert.NoError(t, err, tt.in)
		} else {
			assert.EqualError(t, err, tt.err, tt.in)
		}
		want := `{"id":0,"ready":{"protocol":1}}` + "\n" + tt.out
		if !strings.HasPrefix(tt.in, hello) {
			want = tt.out
		}
		assert.Equal(t, want, out.String(), tt.in)
	}
}

// Texts cross byte for byte: UTF-8 as JSON strings, other bytes (and a
// text that starts with the marker) as base64 after the marker.
func TestTextRoundTrip(t *testing.T) {
	for _, tt := range []struct{ in, wire string }{
		{"plain", `"plain"`},
		{"<&> \"q\"\n", `"<&> \"q\"\n"`},
		{"é\u2028", `"é\u2028"`},
		{"\xff\xfe", `"\u0000base64://4="`},
		{"\x00base64:x", `"\u0000base64:AGJhc2U2NDp4"`},
		{"\x00base", `"\u0000base"`},
		{"", `""`},
	} {
		b, err := encode(text(tt.in))
		require.NoError(t, err)
		assert.Equal(t, tt.wire+"\n", string(b))
		var back text
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, tt.in, string(back))
	}
	var t2 text
	assert.EqualError(t, json.Unmarshal([]byte(`"\u0000base64:!"`), &t2), "base64 text: illegal base64 data at input byte 0")
	assert.EqualError(t, json.Unmarshal([]byte(`{}`), &t2), "json: cannot unmarshal object into Go value of type *remote.text")
}

func TestDecodeReplyErrors(t *testing.T) {
	for _, tt := range []struct{ line, err string }{
		{`{"id":1}`, `want exactly one of "ready", "opened", "compiled", "output", "ran", "search" and "error"`},
		{`{"id":1,"opened":true,"ran":{}}`, `want exactly one of "ready", "opened", "compiled", "output", "ran", "search" and "error"`},
		{`{"id":-1,"opened":true}`, "id -1: want 0 or more"},
		{`{"id":2,"ready":{"protocol":1}}`, "ready with id 2: want 0"},
		{`{"id":0,"opened":true}`, "a reply with id 0 that is not ready or an error"},
		{`{"id":2,"output":{"status":"x","calls":[{"name":"n"}]}}`, "output 2: call 1 has no arguments"},
		{`{"id":2,"ran":{"called":[-1]}}`, "ran 2: called tool -1: want 0 or more"},
		{`[]`, "not a JSON object: json: cannot unmarshal array into Go value of type remote.reply"},
	} {
		_, err := decodeReply([]byte(tt.line))
		assert.EqualError(t, err, tt.err, tt.line)
	}
}

func TestDecodeCallErrors(t *testing.T) {
	for _, tt := range []struct{ line, err string }{
		{`{"id":1}`, `want exactly one of "hello", "codex", "opencode", "compile", "exec", "run", "found" and "cancel"`},
		{`{"id":1,"hello":{"protocol":1}}`, "hello with id 1: want 0"},
		{`{"id":0,"cancel":true}`, "id 0: want 1 or more"},
		{`{"id":1,"codex":{"tools":[],"limits":{"timeout_ns":0,"max_output_bytes":1,"max_call_stack":1,"max_heap_growth":1}}}`,
			"codex 1: limits {TimeoutNS:0 MaxOutputBytes:1 MaxCallStack:1 MaxHeapGrowth:1}: want every limit more than 0"},
		{`{"id":1,"opencode":{"tools":[],"timeout_ns":-5}}`, "opencode 1: timeout_ns -5: want more than 0"},
		{`{"id":1,"exec":{"code":"x"}}`, "call 1: no session"},
	} {
		_, err := decodeCall([]byte(tt.line))
		assert.EqualError(t, err, tt.err, tt.line)
	}
}
