package gojabox

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolfind/toolfind/jsbox"
)

// runLimited runs one exec input in a session of its own with the given
// limits and returns its output, failing the test when the engine does not
// return within a minute (a limit that does not hold; a safety net, not a
// timing assertion).
func runLimited(t *testing.T, limits jsbox.Limits, code string) jsbox.CodexOutput {
	t.Helper()
	s, err := New().Codex(jsbox.CodexSetup{Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		out jsbox.CodexOutput
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := s.Exec(context.Background(), jsbox.CodexRun{Code: code, YieldMs: 10000})
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.out
	case <-time.After(time.Minute):
		t.Fatalf("the script was not stopped a minute after its %s limit: %s", limits.Timeout, code)
	}
	panic("unreachable")
}

// TestBacktrackingRegexStops: a pattern with a back reference backtracks
// exponentially in regexp2 (32 a's: minutes), and goja's interrupt does
// not stop a match; the run ends all the same with the time-limit error
// (the match is bounded by the process's regexp2 match timeout, and the
// interrupt then stops the script before it sees the cut match).
func TestBacktrackingRegexStops(t *testing.T) {
	setMatchTimeout(200 * time.Millisecond) // in case no session set it yet
	out := runLimited(t, jsbox.Limits{Timeout: 200 * time.Millisecond},
		`text("start"); const r = /^((a+)+)\2b$/.test("a".repeat(32)); text("after " + r)`)
	if !out.TimedOut || out.Status != "Script running with cell ID 1" || !strings.Contains(out.Error, "time limit") {
		t.Errorf("status %q, error %q, timed out %v", out.Status, out.Error, out.TimedOut)
	}
	if strings.Join(out.Items, "|") != "start" {
		t.Errorf("items %q: the script went on after the cut match", out.Items)
	}
}

// TestOneStepAllocationsStop: a native step that would allocate past the
// heap limit in one go (which the heap sampling sees only once it is done)
// is refused before it runs, with the memory error: fill, split, JSON.parse
// and typed arrays. The limit is 16 MiB here; each step asks for about
// 50 MiB or more, and the process allocates far less than that meanwhile.
func TestOneStepAllocationsStop(t *testing.T) {
	limits := jsbox.Limits{Timeout: time.Minute, MaxHeapGrowth: 16 << 20}
	for _, tt := range []struct{ name, code string }{
		{"fill", `text("start"); const a = new Array(2**20).fill(1.5); text(a.length)`},                 // 2^20 × 48 B = 48 MiB
		{"split", `text("start"); const s = "xy".repeat(2**19); const p = s.split(""); text(p.length)`}, // 2^20 pieces
		{"json", `text("start"); const j = "[" + "0,".repeat(2**20) + "0]"; text(JSON.parse(j).length)`},
		{"typed array", `text("start"); const b = new Float64Array(2**24); text(b.length)`}, // 128 MiB
		{"array buffer", `text("start"); const b = new ArrayBuffer(2**27); text(b.byteLength)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out := runLimited(t, limits, tt.code)
			runtime.ReadMemStats(&after)
			if out.Status != "Script failed" || out.Error != "toolfind: memory limit exceeded" ||
				len(out.Items) != 2 || out.Items[0] != "start" || out.Items[1] != "Script error:\nRangeError: toolfind: the script was stopped after allocating more than 16 MiB" {
				t.Errorf("status %q, error %q, items %q", out.Status, out.Error, out.Items)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 40<<20 {
				t.Errorf("the run allocated %d MiB: the step ran", got>>20)
			}
		})
	}
	// Within the limit, the same steps run.
	out := runLimited(t, jsbox.Limits{Timeout: time.Minute, MaxHeapGrowth: 256 << 20},
		`text(new Array(2**16).fill(1).length + " " + "xy".repeat(2**10).split("").length + " " + new Float64Array(2**16).length + " " + (new Float64Array(4) instanceof Float64Array) + " " + (new Uint8Array(2).constructor === Uint8Array) + " " + Float64Array.from([1, 2]).length + " " + Float64Array.name)`)
	if out.Status != "Script completed" || strings.Join(out.Items, "|") != "65536 2048 65536 true true 2 Float64Array" {
		t.Errorf("within the limit: %q %q", out.Status, out.Items)
	}
}

// TestOpenCodeLimits: OpenCode code mode's scripts have the same limits:
// the backtracking match ends with the timeout, a one-step allocation
// past 1 GiB (2^27 elements × 48 B) with the memory error, before it runs.
func TestOpenCodeLimits(t *testing.T) {
	setMatchTimeout(200 * time.Millisecond)
	s, err := New().OpenCode(jsbox.OpenCodeSetup{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	run := func(code string) jsbox.OpenCodeOutput {
		done := make(chan jsbox.OpenCodeOutput, 1)
		go func() {
			out, err := s.Run(context.Background(), code, nil)
			if err != nil {
				t.Error(err)
			}
			done <- out
		}()
		select {
		case out := <-done:
			return out
		case <-time.After(time.Minute):
			t.Fatalf("not stopped a minute after its limit: %s", code)
		}
		panic("unreachable")
	}
	out := run(`return /^((a+)+)\2b$/.test("a".repeat(32))`)
	if !out.Failed || !strings.Contains(out.Error, "timeout") {
		t.Errorf("regex: failed %v, error %q", out.Failed, out.Error)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out = run(`return new Array(2**27).fill(1.5).length`)
	runtime.ReadMemStats(&after)
	if !out.Failed || !strings.Contains(out.Error, "toolfind: the script was stopped after allocating more than 1 GiB") {
		t.Errorf("fill: failed %v, error %q", out.Failed, out.Error)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("the run allocated %d MiB: the step ran", got>>20)
	}
}

// TestLongFillStops: a fill of 2^23 elements (seconds in goja, 400 MB)
// is the script's own loop, so the time limit stops it part way.
func TestLongFillStops(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := runLimited(t, jsbox.Limits{Timeout: 100 * time.Millisecond, MaxHeapGrowth: 4 << 30},
		`text("start"); const a = new Array(2**23).fill(1.5); text("filled")`)
	runtime.ReadMemStats(&after)
	if !out.TimedOut || strings.Join(out.Items, "|") != "start" {
		t.Errorf("timed out %v, items %q, error %q", out.TimedOut, out.Items, out.Error)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 200<<20 {
		t.Errorf("the run allocated %d MiB: the fill ran to its end", got>>20)
	}
	// Its result is fill's: start and end relative, negative from the end.
	out = runLimited(t, jsbox.Limits{Timeout: time.Minute},
		`const a = new Array(70000).fill(0); a.fill(7, -3); a.fill(5, 1, -69990); text([a[0], a[1], a[9], a[10], a[69996], a[69997], a[69999], a.length, Array.prototype.fill.length].join(","))`)
	if strings.Join(out.Items, "|") != "0,5,5,0,0,7,7,70000,1" {
		t.Errorf("fill: %q %q", out.Items, out.Error)
	}
}
