package bench

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

// Gate is one verdict of a check (Report.Gates): a threshold on one row,
// whether one row's searches ran without error, or one (query, row)
// against the baseline. A check fails exactly when a gate has a Failure;
// the JUnit report of a check (WriteJUnitGates) has one test case per
// gate, so it fails exactly when the check does.
type Gate struct {
	// Client is the row's label.
	Client string `json:"client"`
	// Name says what is judged: "found@limit ≥ 90.0%", "MRR ≥ 0.500",
	// "mean rank ≤ 10", "read tokens ≤ 2,000", "searches finish without
	// error", "no worse than the baseline".
	Name string `json:"name"`
	// Query, Line and Expect name a baseline gate's query.
	Query  string          `json:"query,omitempty"`
	Line   int             `json:"line,omitempty"`
	Expect []corpus.ToolID `json:"expect,omitempty"`
	// Failure says why the gate failed ("" when it passed), Detail adds
	// the tools behind it.
	Failure string `json:"failure,omitempty"`
	Detail  string `json:"detail,omitempty"`
	// Skipped says why the gate does not judge the row (it then neither
	// passes nor fails): a found@limit minimum for every client meets an
	// uncapped row, or errors are allowed.
	Skipped string `json:"skipped,omitempty"`
	// kind is "threshold", "errors" or "baseline".
	kind string
}

// Failed reports whether the gate failed.
func (g Gate) Failed() bool { return g.Failure != "" }

// Checks are what a check judges: thresholds, the baseline (nil: none)
// and whether failed searches are accepted.
type Checks struct {
	Thresholds
	Baseline    *Report
	AllowErrors bool
}

// Gate names, for the test cases of a JUnit report (GateErrors: the
// gate of a row's failed searches).
const (
	GateErrors   = "searches finish without error"
	gateBaseline = "no worse than the baseline"
)

// ErrUncappedFoundAtLimit is returned (wrapped) by Gates and Check for a
// found@limit minimum named for an uncapped row: its found@limit says
// only that the tool is somewhere in what the model reads, so it cannot
// gate the row.
var ErrUncappedFoundAtLimit = errors.New("found@limit cannot gate a client without a cap on what its model reads")

// Gates judges the report: per row, in row order, each threshold that
// applies to it (Threshold.For), then whether its searches ran without
// error (every client row; a variant row only when some of its runs
// failed); then, with a baseline, every (query, client row) compared
// (Compare's matching), in outcome order.
//
// A found@limit minimum does not pass an uncapped row (ClientMetrics.
// Uncapped), whose found@limit says only that the tool is somewhere in
// what the model reads: given for every client, its gate fails the row
// only where the tool is not in it at all often enough to fall below the
// minimum, and is otherwise Skipped, saying why; named for that client,
// it is an error wrapping ErrUncappedFoundAtLimit. A threshold naming no row is an error (a typo
// never passes silently), as is a read-tokens maximum named for a row
// whose client does not say how much its model reads.
func (r *Report) Gates(c Checks) ([]Gate, error) {
	th := c.Thresholds
	for _, t := range []Threshold{th.MinFoundAtLimit, th.MinMRR, th.MaxMeanRank, th.MaxReadTokens} {
		if err := r.checkNames(t); err != nil {
			return nil, err
		}
	}
	var out []Gate
	for _, m := range r.Clients {
		g, err := thresholdGates(m, th)
		if err != nil {
			return nil, err
		}
		out = append(out, g...)
		if !m.Variant || m.Errors > 0 {
			eg := Gate{Client: m.Client, Name: GateErrors, kind: "errors"}
			switch {
			case m.Errors == 0:
			case c.AllowErrors:
				eg.Skipped = m.ErrorSummary() + "; failed searches allowed"
			default:
				eg.Failure = m.ErrorSummary()
			}
			out = append(out, eg)
		}
	}
	if c.Baseline != nil {
		out = append(out, baselineGates(c.Baseline, r)...)
	}
	return out, nil
}

// checkNames refuses a per-client threshold that names no row.
func (r *Report) checkNames(t Threshold) error {
	var unknown []string
	for k := range t.PerClient {
		if !r.matches(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	var rows []string
	for _, c := range r.Clients {
		rows = append(rows, c.Client)
	}
	return fmt.Errorf("threshold for %s: no such client in the report (clients: %s)",
		strings.Join(unknown, ", "), strings.Join(rows, ", "))
}

// thresholdGates are one row's threshold gates, in the order found@limit,
// MRR, mean rank, read tokens.
func thresholdGates(m ClientMetrics, th Thresholds) ([]Gate, error) {
	var out []Gate
	gate := func(name string) *Gate {
		out = append(out, Gate{Client: m.Client, Name: name, kind: "threshold"})
		return &out[len(out)-1]
	}
	nothing := m.Queries == 0
	const noQuery = "no query with expected tools to measure"
	if min, ok := th.MinFoundAtLimit.For(m.Client); ok {
		g := gate("found@limit ≥ " + Percent(min))
		switch {
		case m.Uncapped && th.MinFoundAtLimit.named(m.Client):
			return nil, fmt.Errorf("%s=%s: %s has no cap on what its model reads, so its found@limit (%s) says only that the tool is somewhere in it: %w; gate where the tool lands (MRR, mean rank) or the tokens read to reach it",
				th.MinFoundAtLimit.key(m.Client), Percent(min), m.Client, Percent(m.FoundAtLimit), ErrUncappedFoundAtLimit)
		case m.Uncapped && !nothing && m.FoundAtLimit < min-epsilon:
			// Below the minimum, an uncapped row's found@limit is a real
			// failure: the tool is not in what its model reads at all.
			g.Failure = fmt.Sprintf("found@limit %s < %s: the tool is not in what the model reads at all for %s of the queries",
				Percent(m.FoundAtLimit), Percent(min), Percent(1-m.FoundAtLimit))
		case m.Uncapped:
			g.Skipped = fmt.Sprintf("%s has no cap on what its model reads: found@limit (%s) says only that the tool is somewhere in it, so it cannot fail; where the tool lands (MRR %s, mean rank %s) and the tokens read to reach it (%s) decide",
				m.Client, Percent(m.FoundAtLimit), num(m.MRR, 3), rankStat(m, m.MeanRank, 2), Thousands(int(math.Round(m.MeanReadTokens))))
		case nothing:
			g.Failure = noQuery
		case m.FoundAtLimit < min-epsilon:
			g.Failure = fmt.Sprintf("found@limit %s < %s", Percent(m.FoundAtLimit), Percent(min))
		}
	}
	if min, ok := th.MinMRR.For(m.Client); ok {
		g := gate(fmt.Sprintf("MRR ≥ %.3f", min))
		switch {
		case nothing:
			g.Failure = noQuery
		case m.MRR < min-epsilon:
			g.Failure = fmt.Sprintf("MRR %.3f < %.3f", m.MRR, min)
		}
	}
	if max, ok := th.MaxMeanRank.For(m.Client); ok {
		g := gate("mean rank ≤ " + maxText(max))
		switch {
		case nothing:
			g.Failure = noQuery
		case m.Queries == m.NotFound:
			g.Failure = "no query shows an expected tool: no rank to average"
		case m.MeanRank > max+epsilon:
			g.Failure = fmt.Sprintf("mean rank %s > %s", num(m.MeanRank, 2), maxText(max))
		}
	}
	if max, ok := th.MaxReadTokens.For(m.Client); ok {
		g := gate("read tokens ≤ " + maxText(max))
		switch {
		case nothing:
			g.Failure = noQuery
		case m.Queries == m.NotFound:
			g.Failure = "no query shows an expected tool: nothing read to reach it"
		case m.MeanReadTokens > max+epsilon:
			g.Failure = fmt.Sprintf("read tokens %s > %s", Thousands(int(math.Round(m.MeanReadTokens))), maxText(max))
		}
	}
	return out, nil
}

// maxText formats a maximum: "10", "2.5", "2,000".
func maxText(x float64) string {
	if x == math.Trunc(x) && x < 1e15 {
		return Thousands(int(x))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", x), "0"), ".")
}

// baselineGates is one gate per (query, client row) compared with base,
// failing where Compare reports the query worse.
func baselineGates(base, cur *Report) []Gate {
	var out []Gate
	match(base, cur, func(o, b *Outcome) {
		if b == nil || len(o.Expect) == 0 {
			return
		}
		g := Gate{Client: o.Client, Name: gateBaseline, Query: o.Query, Line: o.Line, Expect: o.Expect, kind: "baseline"}
		if worse(o, b) {
			g.Failure = fmt.Sprintf("%s → %s", describe(b), describe(o))
			g.Detail = failureText(o)
		}
		out = append(out, g)
	})
	return out
}

// worse reports whether o got worse than b: shown less often, or further
// down.
func worse(o, b *Outcome) bool {
	return o.PWithinLimit < b.PWithinLimit-epsilon || o.RR < b.RR-epsilon
}

// ParseMaximum reads maximum specs as ParseThreshold does, each value a
// number above 0 ("10", "2.5", "2000"): the maximum mean rank or read
// tokens.
func ParseMaximum(specs ...string) (Threshold, error) {
	return parseSpecs(specs, func(s string) (float64, error) {
		x, err := parseNumber(s)
		if err != nil {
			return 0, err
		}
		if x <= 0 {
			return 0, fmt.Errorf("%s: must be above 0", s)
		}
		return x, nil
	})
}
