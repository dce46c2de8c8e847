package intent

import (
	"math"
	"testing"
)

// One feature that decides the label: the fit gives it a positive weight
// and separates the examples at P = 0.5; an uninformative one stays near 0.
func TestFitLogitSeparates(t *testing.T) {
	X := [][]float64{{1, 0.5}, {1, 0.5}, {0, 0.5}, {0, 0.5}, {1, 0.5}, {0, 0.5}}
	y := []float64{1, 1, 0, 0, 1, 0}
	m := FitLogit([]string{"signal", "noise"}, X, y, 0.001, 1, 2000)
	if m.Weights[0] <= 2 {
		t.Errorf("signal weight %v, want > 2", m.Weights[0])
	}
	for k, x := range X {
		if (m.P(x) >= 0.5) != (y[k] == 1) {
			t.Errorf("example %d: P %v for label %v", k, m.P(x), y[k])
		}
	}
	again := FitLogit([]string{"signal", "noise"}, X, y, 0.001, 1, 2000)
	if again.Weights[0] != m.Weights[0] || again.Bias != m.Bias {
		t.Errorf("not deterministic: %v %v", m, again)
	}
}

func TestLogitP(t *testing.T) {
	m := &Logit{Weights: []float64{2, -1}, Bias: -1}
	// z = -1 + 2·1 - 1·1 = 0 → 0.5; z = -1 + 2 = 1 → σ(1) = 0.731059
	if p := m.P([]float64{1, 1}); p != 0.5 {
		t.Errorf("P = %v, want 0.5", p)
	}
	if p := m.P([]float64{1, 0}); math.Abs(p-0.731059) > 1e-6 {
		t.Errorf("P = %v, want 0.731059", p)
	}
}

func TestParseLogit(t *testing.T) {
	if _, err := ParseLogit([]byte(`{"features":["a","b"],"weights":[1,2]}`), []string{"a", "c"}); err == nil || err.Error() != `feature 1 is "b", want "c"` {
		t.Errorf("err %v", err)
	}
	if _, err := ParseLogit([]byte(`{"features":["a"],"weights":[1]}`), []string{"a", "b"}); err == nil {
		t.Error("short model accepted")
	}
	m, err := ParseLogit([]byte(`{"features":["a"],"weights":[1.5],"bias":-2,"threshold":0.4,"max":3}`), []string{"a"})
	if err != nil || m.Max != 3 || m.Threshold != 0.4 || m.Bias != -2 {
		t.Errorf("%+v %v", m, err)
	}
}

// TestSelectWordsMinWords: one weight w and bias 0, so P = 1/(1+e^-w·x).
// Candidates: server "mongodb" x=3 (P 0.953), prompt words "aggregate" x=0
// (P 0.5), "stats" x=-1 (P 0.269), "movies" x=-2 (P 0.119). Threshold
// 0.6 keeps the server alone; "min_words" 2 adds the two most probable
// non-server words, aggregate then stats, in their kind's order.
func TestSelectWordsMinWords(t *testing.T) {
	cands := []WordCand{
		{Form: "mongodb", Stem: "mongodb", Kind: KindServer, X: []float64{3}},
		{Form: "movies", Stem: "movi", Kind: KindPrompt, Pos: 0, X: []float64{-2}},
		{Form: "stats", Stem: "stat", Kind: KindPrompt, Pos: 1, X: []float64{-1}},
		{Form: "aggregate", Stem: "aggreg", Kind: KindPrompt, Pos: 2, X: []float64{0}},
	}
	m := &Logit{Weights: []float64{1}, Threshold: 0.6, Max: 5}
	if got := JoinForms(SelectWords(m, cands)); got != "mongodb" {
		t.Errorf("no min_words: %q, want %q", got, "mongodb")
	}
	m.Options = map[string]float64{"min_words": 2}
	if got := JoinForms(SelectWords(m, cands)); got != "mongodb stats aggregate" {
		t.Errorf("min_words 2: %q, want %q", got, "mongodb stats aggregate")
	}
}
