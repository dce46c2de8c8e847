package intent

import (
	"encoding/json"
	"fmt"
	"math"
)

// Logit is a small learned model of one choice a model makes when it
// writes its call (load this tool? put this word in the query?): a
// logistic regression over named features, P = σ(Bias + Σ Weights[i]·x[i]),
// and the decision rule fitted with it: a candidate is taken when P ≥
// Threshold, at most Max candidates, best first. Its values are data,
// derived from model-written calls by the fitting program
// (writer/internal/calibrate fit) and embedded in each client's package.
type Logit struct {
	Features  []string  `json:"features"`
	Weights   []float64 `json:"weights"`
	Bias      float64   `json:"bias"`
	Threshold float64   `json:"threshold"`
	Max       int       `json:"max"`
	// Options are the client's other fitted choices (e.g. Grok's
	// "follow_up": 1 when a second search is written).
	Options map[string]float64 `json:"options,omitempty"`
	// Trained says what the values were fitted on.
	Trained string `json:"trained,omitempty"`
}

// P is the model's probability for a candidate's features.
func (m *Logit) P(x []float64) float64 {
	z := m.Bias
	for i, w := range m.Weights {
		if i < len(x) {
			z += w * x[i]
		}
	}
	return 1 / (1 + math.Exp(-z))
}

// ParseLogit reads a Logit and checks it against the features its user
// computes, in order.
func ParseLogit(data []byte, features []string) (*Logit, error) {
	var m Logit
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if len(m.Features) != len(features) || len(m.Weights) != len(features) {
		return nil, fmt.Errorf("model has %d features and %d weights, want %d", len(m.Features), len(m.Weights), len(features))
	}
	for i, f := range features {
		if m.Features[i] != f {
			return nil, fmt.Errorf("feature %d is %q, want %q", i, m.Features[i], f)
		}
	}
	return &m, nil
}

// FitLogit fits a logistic regression by full-batch gradient descent from
// zero weights (deterministic: the same examples give the same weights,
// bit for bit): iters steps of rate lr on the mean log-loss plus
// l2/2·|w|² (the bias is not penalised).
func FitLogit(features []string, X [][]float64, y []float64, l2, lr float64, iters int) *Logit {
	n := len(features)
	w := make([]float64, n)
	var bias float64
	g := make([]float64, n)
	m := &Logit{Features: features, Weights: w}
	for it := 0; it < iters; it++ {
		for i := range g {
			g[i] = 0
		}
		var gb float64
		for k, x := range X {
			m.Bias = bias
			d := m.P(x) - y[k]
			for i := 0; i < n; i++ {
				g[i] += d * x[i]
			}
			gb += d
		}
		inv := 1 / float64(max(len(X), 1))
		for i := 0; i < n; i++ {
			w[i] -= lr * (g[i]*inv + l2*w[i])
		}
		bias -= lr * gb * inv
	}
	m.Bias = bias
	for i := range w {
		w[i] = round6(w[i])
	}
	m.Bias = round6(m.Bias)
	return m
}

// round6 rounds to 6 decimals, so that weights written as data read back
// the same.
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
