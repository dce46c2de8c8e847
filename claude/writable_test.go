package claude

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search/intent"
)

// JavaScript's default sort compares UTF-16 code units: a supplementary
// character (surrogate pair, 0xD83D…) sorts before U+FF21 although its
// code point is larger; uppercase before lowercase; "_" (0x5F) before
// lowercase letters.
func TestUTF16Order(t *testing.T) {
	names := []string{"mcp__a__ｆ", "mcp__a__😀", "mcp__a__b", "mcp__a__B", "mcp__a___x"}
	slices.SortFunc(names, compareUTF16)
	want := []string{"mcp__a__B", "mcp__a___x", "mcp__a__b", "mcp__a__😀", "mcp__a__ｆ"}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("order %q, want %q", names, want)
		}
	}
}

// handModel is a selection model written by hand for these tests (the
// fitted one changes with the calibration set): z = -5 + 10·rel_score, so
// a tool scoring at least half the best one's intent score reaches P =
// 0.5; the built-ins (rel_score 0) never do.
func handModel() *intent.Logit {
	m := &intent.Logit{Features: WriterFeatures, Weights: make([]float64, len(WriterFeatures)), Bias: -5, Threshold: 0.5, Max: 5}
	m.Weights[0] = 10
	return m
}

func TestHeuristicCallsDemo(t *testing.T) {
	s := New(corpus.Demo(), V2_1_332, DefaultOptions())
	tests := []struct{ prompt, want string }{
		// "look up" adds "find" (intent's phrases): findInvoice's name holds
		// find and invoice, invoice_lookup's invoice; search_files falls
		// below half the best score.
		{"look up invoice INV-7 for ACME", `{"query":"select:mcp__billing__findInvoice,mcp__billing__invoice_lookup"}`},
		// Nothing in the catalog matches: keywords, the first four.
		{"zebra quantum lattice origami telescope", `{"query":"zebra quantum lattice origami","max_results":5}`},
	}
	for _, tt := range tests {
		calls := s.HeuristicCallsWith(tt.prompt, handModel())
		if len(calls) != 1 || string(calls[0]) != tt.want {
			t.Errorf("HeuristicCalls(%q) = %s, want %s", tt.prompt, calls, tt.want)
		}
	}
	if calls := s.HeuristicCallsWith("the of and", handModel()); calls != nil {
		t.Errorf("stop words only: %s, want no call", calls)
	}
}

func TestReplayMatchesSearch(t *testing.T) {
	s := New(corpus.Demo(), V2_1_332, DefaultOptions())
	r, err := s.Replay(context.Background(), json.RawMessage(`{"query":"invoice","max_results":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Limit != 2 || len(r.Hits) != 2 || r.Hits[0].Tool != "billing/invoice_lookup" {
		t.Errorf("replay = %+v", r.Hits)
	}
	for call, want := range map[string]string{
		`{"max_results":2}`:                     `call: field "query" is missing`,
		`{"query":"x","max_results":"five"}`:    `call: field "max_results": not a number: "five"`,
		`{"query":"x","max_results":2.5}`:       `call: field "max_results": 2.5 is not a whole number ≥ 0`,
		`"select:mcp__billing__invoice_lookup"`: `call: not a JSON object: "select:mcp__billing__invoice_lookup"`,
	} {
		if _, err := s.Replay(context.Background(), json.RawMessage(call)); err == nil || err.Error() != want {
			t.Errorf("Replay(%s) = %v, want %q", call, err, want)
		}
	}
}
