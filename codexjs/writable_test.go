package codexjs

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// The heuristic writer's and the verbatim baseline's code run natively on
// replay; goja must print the same bytes and find the same tools.
func TestWrittenCodeNativeMatchesGoja(t *testing.T) {
	cats := demoAndShared(t)
	prompts := []string{"Find the invoice for ACME and export it", "list all pull requests", "Group all the movies by release year", "search ÄÖÜ ſtrange Kelvin", "delete the cluster"}
	for name, cat := range cats {
		native, _ := NewCodeMode(cat, search.Options{})
		gj, _ := NewCodeMode(cat, search.Options{"engine": "goja", "timeout": "60s"}) // a loaded machine must not turn a slow run into a difference
		for _, p := range prompts {
			for _, call := range append(native.HeuristicCalls(p), native.VerbatimCall(p)) {
				a, err := native.Replay(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				b, err := gj.Replay(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				if a.Shown != b.Shown || len(a.Hits) != len(b.Hits) {
					t.Errorf("%s %q %s: native and goja differ:\n%q\n%q", name, p, call, clipS(a.Shown), clipS(b.Shown))
					continue
				}
				for i := range a.Hits {
					if a.Hits[i].Tool != b.Hits[i].Tool {
						t.Errorf("%s %q: hit %d %s vs %s", name, p, i, a.Hits[i].Tool, b.Hits[i].Tool)
					}
				}
			}
		}
	}
}

func clipS(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// handModel is a term model written by hand for these tests (the fitted
// one changes with the calibration set): every prompt keyword and every
// family word a tool name holds, z = -6 + 6 = 0, so P = 0.5 reaches the
// threshold; at most eight.
func handModel() *intent.Logit {
	m := &intent.Logit{Features: intent.WordFeatures, Bias: -6, Threshold: 0.5, Max: 8}
	for _, f := range intent.WordFeatures {
		w := 0.0
		if f == "is_prompt_word" || f == "is_related" {
			w = 6
		}
		m.Weights = append(m.Weights, w)
	}
	return m
}

// The embedded fitted model is the one HeuristicCalls uses.
func TestHeuristicCallsUseFittedModel(t *testing.T) {
	m, _ := NewCodeMode(corpus.Demo(), search.Options{})
	for _, p := range []string{"Please remove the old tickets", "weather in Paris", ""} {
		got, want := m.HeuristicCalls(p), m.HeuristicCallsWith(p, WriterModel())
		if len(got) != len(want) || len(got) > 0 && string(got[0]) != string(want[0]) {
			t.Errorf("%q: %s, want %s", p, got, want)
		}
	}
}

func TestHeuristicCallsDemo(t *testing.T) {
	m, _ := NewCodeMode(corpus.Demo(), search.Options{})
	calls := m.HeuristicCallsWith("Please remove the old tickets", handModel())
	if len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}
	var c struct{ Code string }
	if err := json.Unmarshal(calls[0], &c); err != nil {
		t.Fatal(err)
	}
	// Keywords remov, old, ticket (stems); remove's family words
	// (delete, drop, erase…) are in no demo tool name, so none is added.
	want := "const re = /remov|old|ticket/i;\n" +
		"text(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join(\"\\n\"));"
	if c.Code != want {
		t.Errorf("code =\n%s\nwant\n%s", c.Code, want)
	}
	r, err := m.Replay(context.Background(), calls[0])
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range r.Hits {
		names = append(names, string(h.Tool))
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "tickets/close-ticket") {
		t.Errorf("hits %s lack tickets/close-ticket", got)
	}
}

func TestReplayErrors(t *testing.T) {
	m, _ := NewCodeMode(corpus.Demo(), search.Options{})
	for call, want := range map[string]string{
		`[]`:           "call: not a JSON object: []",
		`{}`:           `call: field "code" is missing`,
		`{"code": 42}`: `call: field "code": not a string: 42`,
	} {
		if _, err := m.Replay(context.Background(), json.RawMessage(call)); err == nil || err.Error() != want {
			t.Errorf("Replay(%s) = %v, want %q", call, err, want)
		}
	}
}
