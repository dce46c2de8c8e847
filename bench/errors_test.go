package bench

import (
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 12: "12", 999: "999", 1000: "1,000", 2487: "2,487", 1234567: "1,234,567", -2487: "-2,487"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestErrorSummary(t *testing.T) {
	tests := []struct {
		c    ClientMetrics
		want string
	}{
		{ClientMetrics{Client: "claude@2.1.328", Runs: 2487}, ""},
		{ClientMetrics{Client: "codex@0.171.0", Runs: 2487, Errors: 12, TimedOut: 12}, "codex@0.171.0: 12 of 2,487 runs timed out"},
		{ClientMetrics{Client: "codex@0.171.0", Runs: 40, Errors: 3}, "codex@0.171.0: 3 of 40 runs failed"},
		{ClientMetrics{Client: "codex@0.171.0", Runs: 40, Errors: 15, TimedOut: 12}, "codex@0.171.0: 15 of 40 runs failed (12 timed out)"},
		{ClientMetrics{Client: "x@1", Runs: 1, Errors: 1, TimedOut: 1}, "x@1: 1 of 1 run timed out"},
	}
	for _, tt := range tests {
		if got := tt.c.ErrorSummary(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.c, got, tt.want)
		}
	}
}

// TestResultErrorCounted: a result whose script failed is an outcome with
// its error, counted in Errors (and TimedOut), though its hits still count
// as the model saw them.
func TestResultErrorCounted(t *testing.T) {
	expect := []corpus.ToolID{"billing/export"}
	res := search.Result{Client: "codex@0.171.0", Strategy: "script", Limit: 1,
		Hits:  []search.Hit{{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: "billing/export"}},
		Error: "the script was stopped at the 2s time limit", TimedOut: true}
	o := evaluate(res, expect)
	if o.Error != res.Error || !o.TimedOut || !o.Found {
		t.Fatalf("outcome %+v", o)
	}
	thrown := evaluate(search.Result{Client: "codex@0.171.0", Error: "TypeError: x"}, expect)
	fine := evaluate(search.Result{Client: "codex@0.171.0"}, expect)
	m := metrics("codex@0.171.0", []*Outcome{&o, &thrown, &fine})
	// 3 runs: one timed out (found), one threw, one completed (not found).
	if m.Runs != 3 || m.Errors != 2 || m.TimedOut != 1 || m.NotFound != 2 {
		t.Errorf("runs %d, errors %d, timed out %d, not found %d; want 3, 2, 1, 2", m.Runs, m.Errors, m.TimedOut, m.NotFound)
	}
	if got, want := m.ErrorSummary(), "codex@0.171.0: 2 of 3 runs failed (1 timed out)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
