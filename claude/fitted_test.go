package claude

import (
	"reflect"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search/intent"
)

// Select takes the most probable candidate when it reaches the threshold,
// then the next while they reach "more", at most Max.
func TestSelect(t *testing.T) {
	// One feature, weight 1, bias 0: P = σ(x); σ(2) = 0.88, σ(1) = 0.73,
	// σ(0) = 0.5, σ(-1) = 0.27.
	m := &intent.Logit{Weights: []float64{1}, Threshold: 0.6, Max: 2, Options: map[string]float64{"more": 0.7}}
	c := func(name string, x float64) Candidate { return Candidate{Name: name, X: []float64{x}} }
	tests := []struct {
		cands []Candidate
		want  []string
	}{
		{[]Candidate{c("a", 0), c("b", 2), c("c", 1)}, []string{"b", "c"}}, // 0.88 ≥ 0.6, 0.73 ≥ 0.7
		{[]Candidate{c("a", 0), c("b", 2), c("c", 0)}, []string{"b"}},      // 0.5 < 0.7
		{[]Candidate{c("a", -1), c("b", 0)}, nil},                          // 0.5 < 0.6
		{[]Candidate{c("a", 2), c("b", 2), c("c", 2)}, []string{"a", "b"}}, // Max 2, ties in order
	}
	for _, tt := range tests {
		var got []string
		for _, s := range Select(m, tt.cands) {
			got = append(got, s.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Select = %v, want %v", got, tt.want)
		}
	}
}

// WriterCandidates on the demo: the MCP tools that fit, best first, then
// the deferred WebFetch and WebSearch; HeuristicCalls uses the embedded
// fitted model.
func TestWriterCandidatesDemo(t *testing.T) {
	s := New(corpus.Demo(), V2_1_328, DefaultOptions())
	cands := s.WriterCandidates("what is the weather forecast for Paris? see https://example.com")
	if len(cands) < 3 || cands[0].Name != "mcp__weather__get_forecast" || cands[0].X[0] != 1 || cands[0].X[2] != 1 {
		t.Fatalf("candidates %+v", cands)
	}
	last, prev := cands[len(cands)-1], cands[len(cands)-2]
	// In the pool's order: WebFetch (the prompt holds a URL), WebSearch.
	if prev.Name != "WebFetch" || prev.X[9] != 1 || last.Name != "WebSearch" || last.X[6] != 1 || last.X[7] != 1/(1+topScore(s, "what is the weather forecast for Paris? see https://example.com")) {
		t.Errorf("built-ins %+v %+v", prev, last)
	}
	p := "what is the weather forecast for Paris?"
	if got, want := s.HeuristicCalls(p), s.HeuristicCallsWith(p, WriterModel()); !reflect.DeepEqual(got, want) {
		t.Errorf("HeuristicCalls %s, want %s", got, want)
	}
}

func topScore(s *Simulator, prompt string) float64 {
	ix, _ := s.intentIndex()
	return ix.Rank(prompt)[0].Score
}
