package codexjs

import (
	"strings"
	"testing"
	"time"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func probeCatalog(t testing.TB) *corpus.Catalog {
	t.Helper()
	cat, err := corpus.Load("testdata/oracle-0.171.0/probe.json")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func newProbeSim(t testing.TB, opts search.Options) *CodeMode {
	t.Helper()
	if opts == nil {
		opts = search.Options{}
	}
	m, err := NewCodeMode(probeCatalog(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The expected outputs were recorded from the real Codex 0.171.0 with
// codex-oracle on testdata/oracle-0.171.0/probe.json (header item first,
// then the text items; Wall time normalised to 0.0).
func TestScriptsLikeCodex(t *testing.T) {
	m := newProbeSim(t, nil)
	const ok = "Script completed\nWall time 0.0 seconds\nOutput:\n"
	const failed = "Script failed\nWall time 0.0 seconds\nOutput:\n"
	const running = "Script running with cell ID 1\nWall time 0.0 seconds\nOutput:\n"
	tests := []struct {
		name, script string
		want         []string
	}{
		{"throw", "text(\"before\");\nthrow new Error(\"boom\")", []string{failed, "before", "Script error:\nError: boom\n    at exec_main.mjs:2:7"}},
		{"throw string", `throw "plain"`, []string{failed, "Script error:\nplain"}},
		{"values", "text(undefined); text(null); text(true); text(3.5); text({a:[1,\"é\"]}); text([1,2]); text(10n); text(function(){}); text(Symbol('s'))",
			[]string{ok, "undefined", "null", "true", "3.5", `{"a":[1,"é"]}`, "[1,2]", "10", "undefined", "undefined"}},
		{"exit", `text("a"); exit(); text("b")`, []string{ok, "a"}},
		{"console is not defined", `console.log("hi")`, []string{failed, "Script error:\nReferenceError: console is not defined\n    at exec_main.mjs:1:1"}},
		{"static import", "import x from \"fs\";\ntext(1)", []string{failed, "Script error:\nUnsupported import in exec: fs"}},
		{"top-level await", "const v = await Promise.resolve(42); text(v)", []string{ok, "42"}},
		{"awaited timer", `await new Promise(r => setTimeout(r, 50)); text("after")`, []string{ok, "after"}},
		{"pending timer dropped", `setTimeout(() => text("late"), 50); text("now")`, []string{ok, "now"}},
		{"no output", "const a = 1", []string{ok}},
		{"empty text items dropped", `text(""); text(""); text("a")`, []string{ok, "a"}},
		{"pragma budget", "// @exec: {\"max_output_tokens\": 5}\ntext(\"0123456789\".repeat(4))",
			[]string{ok, "Warning: truncated output (original token count: 10)\nTotal output lines: 1\n\n0123456789…5 tokens truncated…0123456789"}},
		{"store and load", `store("k", {a:1}); text(JSON.stringify(load("k"))); text(String(load("missing")))`, []string{ok, `{"a":1}`, "undefined"}},
		{"type error", "null.x", []string{failed, "Script error:\nTypeError: Cannot read properties of undefined (reading 'x')\n    at exec_main.mjs:1:6"}},
		{"rejected await", "await Promise.reject(new TypeError(\"bad\"))", []string{failed, "Script error:\nTypeError: bad\n    at exec_main.mjs:1:22"}},
		{"never settles", "// @exec: {\"yield_time_ms\": 500}\nawait new Promise(() => {}); text(1)", []string{running}},
		{"yield before a long timer", "// @exec: {\"yield_time_ms\": 300}\ntext(\"start\"); await new Promise(r => setTimeout(r, 2000)); text(\"end\")", []string{running, "start"}},
		{"bad argument rejects with a string", "try { await tools.mcp__probe__dup(5) } catch (e) { text(String(e)) }", []string{ok, "tool `mcp__probedup` expects a JSON object for arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := m.RunScript(tt.script, "")
			want := ShownText(tt.want)
			if res.Shown != want {
				t.Errorf("shown\n got %q\nwant %q", res.Shown, want)
			}
		})
	}
}

func TestPragmaRejected(t *testing.T) {
	m := newProbeSim(t, nil)
	res := m.RunScript("// @exec: {\"foo\": 1}\ntext(1)", "")
	if want := "exec pragma only supports `yield_time_ms` and `max_output_tokens`; got `foo`"; res.Shown != want {
		t.Errorf("got %q, want %q", res.Shown, want)
	}
}

func TestEndlessLoopStops(t *testing.T) {
	m := newProbeSim(t, search.Options{"timeout": "200ms"})
	start := time.Now()
	res := m.RunScript("text(\"start\"); while (true) {}", "")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	if !strings.HasPrefix(res.Shown, "Script running with cell ID 1\n") || !strings.Contains(res.Shown, "start") {
		t.Errorf("shown %q", res.Shown)
	}
	if e, _ := res.Extra["error"].(string); !strings.Contains(e, "time limit") {
		t.Errorf("error %q", e)
	}
}

func TestSandboxLimits(t *testing.T) {
	m := newProbeSim(t, search.Options{"timeout": "20s"})
	m.c.limits.MaxHeapGrowth = 256 << 20
	tests := []struct{ name, script, want string }{
		{"recursion", "function f(n){return f(n+1)+1}; f(0)", "Script error:\nRangeError: Maximum call stack size exceeded"},
		{"repeat bomb", `text("x".repeat(2**40))`, "Script error:\nRangeError: Invalid string length"},
		{"pad bomb", `text("x".padStart(2**40))`, "Script error:\nRangeError: Invalid string length"},
		{"memory hog", "const a = []; while (true) { a.push(\"x\".repeat(1 << 20) + a.length) }", "Script error:\nRangeError: toolfind: the script was stopped after allocating more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := m.RunScript(tt.script, "")
			if !strings.HasPrefix(res.Shown, "Script failed\n") || !strings.Contains(res.Shown, tt.want) {
				t.Errorf("shown %.300q", res.Shown)
			}
		})
	}
}

func TestToolCallsRecorded(t *testing.T) {
	m := newProbeSim(t, nil)
	res := m.RunScript("const r = await tools.mcp__probe__dup({q: QUERY, n: 1}); text(r.isError); text(r.content[0].text)", "find it")
	calls := res.Extra["calls"].([]Call)
	if len(calls) != 1 || calls[0].Tool != "probe/dup" || calls[0].Name != "mcp__probe__dup" {
		t.Fatalf("calls %+v", calls)
	}
	args := calls[0].Arguments.(map[string]any)
	if args["q"] != "find it" || args["n"] != float64(1) {
		t.Errorf("arguments %v", args)
	}
	if !strings.Contains(res.Shown, "\ntrue\ntoolfind: tools are not executed in simulation; the call was recorded") {
		t.Errorf("shown %q", res.Shown)
	}
}

func TestConsoleCompat(t *testing.T) {
	m := newProbeSim(t, search.Options{"console": "true"})
	res := m.RunScript(`console.log("a", 1, {b: 2})`, "")
	if want := ShownText([]string{"Script completed\nWall time 0.0 seconds\nOutput:\n", `a 1 {"b":2}`}); res.Shown != want {
		t.Errorf("got %q want %q", res.Shown, want)
	}
}

func TestDynamicImport(t *testing.T) {
	m := newProbeSim(t, nil)
	res := m.RunScript(`text("a"); const x = await import("fs"); text(1)`, "")
	if want := "Script failed\nWall time 0.0 seconds\nOutput:\na\nScript error:\nunsupported import in exec"; res.Shown != want {
		t.Errorf("got %q", res.Shown)
	}
}
