package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Threshold is a minimum for one metric: a default for every client and
// values for named clients. A name is a client ("claude"), a profile
// ("claude@2.1.283") or a variant row label ("codex [names]",
// "codex@0.171.0 [names]"); the most specific match wins.
type Threshold struct {
	Default   *float64
	PerClient map[string]float64
}

// IsSet reports whether the threshold applies to anything.
func (t Threshold) IsSet() bool { return t.Default != nil || len(t.PerClient) > 0 }

// ParseThreshold reads threshold specs, each a comma-separated list of
// "X" (the default) or "client=X", where X is a fraction ("0.8") or a
// percentage ("80%"). Later entries override earlier ones.
func ParseThreshold(specs ...string) (Threshold, error) {
	return parseSpecs(specs, parseFraction)
}

// parseSpecs reads "X" and "client=X" entries with parse for X.
func parseSpecs(specs []string, parse func(string) (float64, error)) (Threshold, error) {
	var t Threshold
	for _, spec := range specs {
		for _, part := range strings.Split(spec, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			name, val, named := strings.Cut(part, "=")
			if !named {
				val, name = name, ""
			}
			name = strings.TrimSpace(name)
			x, err := parse(strings.TrimSpace(val))
			if err != nil {
				return Threshold{}, fmt.Errorf("%q: %v", part, err)
			}
			if !named {
				t.Default = &x
				continue
			}
			if name == "" {
				return Threshold{}, fmt.Errorf("%q: empty client name", part)
			}
			if t.PerClient == nil {
				t.PerClient = map[string]float64{}
			}
			t.PerClient[name] = x
		}
	}
	return t, nil
}

// parseNumber reads a finite number.
func parseNumber(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return x, nil
}

// parseFraction reads "0.8" or "80%" as 0.8; the value must be in [0, 1].
func parseFraction(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a number (write 0.8 or 80%%)", s)
	}
	if pct {
		x /= 100
	}
	if x < 0 || x > 1 {
		return 0, fmt.Errorf("%s is outside 0..1 (0%%..100%%)", s)
	}
	return x, nil
}

// For returns the threshold for a row label and whether there is one.
// Variant rows ("client [strategy]") only take a threshold named for them.
func (t Threshold) For(label string) (float64, bool) {
	base, strategy := label, ""
	if i := strings.Index(label, " ["); i >= 0 && strings.HasSuffix(label, "]") {
		base, strategy = label[:i], label[i:]
	}
	name, _, _ := strings.Cut(base, "@")
	for _, k := range []string{label, name + strategy} {
		if x, ok := t.PerClient[k]; ok {
			return x, true
		}
	}
	if strategy == "" && t.Default != nil {
		return *t.Default, true
	}
	return 0, false
}

// key is the per-client key that For uses for a row label ("" when the
// value is the default, or there is none).
func (t Threshold) key(label string) string {
	base, strategy := label, ""
	if i := strings.Index(label, " ["); i >= 0 && strings.HasSuffix(label, "]") {
		base, strategy = label[:i], label[i:]
	}
	name, _, _ := strings.Cut(base, "@")
	for _, k := range []string{label, name + strategy} {
		if _, ok := t.PerClient[k]; ok {
			return k
		}
	}
	return ""
}

// named reports whether a per-client value, not the default, applies to
// a row label.
func (t Threshold) named(label string) bool { return t.key(label) != "" }

// Thresholds are the minimums and maximums `check` enforces.
type Thresholds struct {
	MinFoundAtLimit Threshold // compared with ClientMetrics.FoundAtLimit (not for an uncapped row)
	MinMRR          Threshold // compared with ClientMetrics.MRR
	MaxMeanRank     Threshold // compared with ClientMetrics.MeanRank
	MaxReadTokens   Threshold // compared with ClientMetrics.MeanReadTokens
}

// Failure is one client row below a threshold, or one query that got
// worse than in the baseline.
type Failure struct {
	Client string `json:"client"`
	Query  string `json:"query,omitempty"`
	Reason string `json:"reason"`
}

func (f Failure) String() string {
	if f.Query != "" {
		return fmt.Sprintf("%s: %q: %s", f.Client, f.Query, f.Reason)
	}
	return f.Client + ": " + f.Reason
}

// Check returns one failure per client row that misses a threshold (one
// line naming every metric it misses), in row order: the failing
// threshold gates of Gates. Thresholds name rows as described at
// Threshold; a threshold naming no row is an error, so a typo never
// passes silently, and so is a found@limit minimum named for an uncapped
// row (see Gates).
func (r *Report) Check(th Thresholds) ([]Failure, error) {
	for _, t := range []Threshold{th.MinFoundAtLimit, th.MinMRR, th.MaxMeanRank, th.MaxReadTokens} {
		if err := r.checkNames(t); err != nil {
			return nil, err
		}
	}
	var out []Failure
	for _, c := range r.Clients {
		gates, err := thresholdGates(c, th)
		if err != nil {
			return nil, err
		}
		var why []string
		for _, g := range gates {
			if g.Failed() && !slices.Contains(why, g.Failure) {
				why = append(why, g.Failure)
			}
		}
		if len(why) > 0 {
			out = append(out, Failure{Client: c.Client, Reason: strings.Join(why, "; ")})
		}
	}
	return out, nil
}

// matches reports whether a per-client threshold key names some row.
func (r *Report) matches(key string) bool {
	probe := Threshold{PerClient: map[string]float64{key: 0}}
	for _, c := range r.Clients {
		if _, ok := probe.For(c.Client); ok {
			return true
		}
	}
	return false
}

// Compare returns the queries that got worse in cur than in base: for
// each row and query present in both, a lower PWithinLimit or a lower
// expected reciprocal rank (the expected tool shown less often, or
// further down). Rows are matched by label, or, when the label is not in
// base, by label without the version ("claude@2.1.328" matches
// "claude@2.1.283" when only that is in base); queries by their text, their
// expected tools and their occurrence among equal ones. Queries only in
// one report, and strategy variant rows, are ignored (as thresholds do,
// the client's own row decides). Failures are in cur's outcome order.
func Compare(base, cur *Report) []Failure {
	var out []Failure
	match(base, cur, func(o, b *Outcome) {
		if b == nil || len(o.Expect) == 0 {
			return
		}
		if worse(o, b) {
			out = append(out, Failure{Client: o.Client, Query: o.Query,
				Reason: fmt.Sprintf("%s → %s", describe(b), describe(o))})
		}
	})
	return out
}

// Overlap counts how Compare pairs cur's outcomes with base's (strategy
// variant rows left out): Matched pairs, the (query, client) outcomes only
// in cur (New) and those only in base (Gone). A baseline with Matched 0
// compares nothing — it was made from another query set or client list.
type Overlap struct {
	Matched, New, Gone int
}

// CompareOverlap returns the Overlap of cur with base.
func CompareOverlap(base, cur *Report) Overlap {
	var ov Overlap
	match(base, cur, func(o, b *Outcome) {
		if b == nil {
			ov.New++
		} else {
			ov.Matched++
		}
	})
	variant := map[string]bool{}
	for _, c := range base.Clients {
		variant[c.Client] = c.Variant
	}
	for i := range base.Outcomes {
		if !variant[base.Outcomes[i].Client] {
			ov.Gone++
		}
	}
	// Two versions of a client may both match the one in base.
	ov.Gone = max(ov.Gone-ov.Matched, 0)
	return ov
}

// match calls f for every outcome of cur's non-variant rows, in order,
// with the base outcome it compares with (nil when there is none): rows by
// label, or without the version when the exact label is not in base;
// queries by text, expected tools and occurrence among equal ones.
func match(base, cur *Report, f func(o, b *Outcome)) {
	type key struct {
		row, query, expect string
		nth                int
	}
	exact := map[string]bool{}
	for _, c := range base.Clients {
		exact[c.Client] = true
	}
	rowKey := func(label string, inBase bool) string {
		if inBase {
			return label
		}
		return unversioned(label)
	}
	index := func(rep *Report, inBase func(string) bool) map[key]*Outcome {
		m := map[key]*Outcome{}
		count := map[key]int{}
		for i := range rep.Outcomes {
			o := &rep.Outcomes[i]
			k := key{row: rowKey(o.Client, inBase(o.Client)), query: o.Query, expect: joinIDs(o.Expect)}
			n := count[k]
			count[k]++
			k.nth = n
			m[k] = o
		}
		return m
	}
	// Base outcomes are indexed twice: by exact label and unversioned.
	baseExact := index(base, func(string) bool { return true })
	baseLoose := index(base, func(string) bool { return false })
	variant := map[string]bool{}
	for _, c := range cur.Clients {
		variant[c.Client] = c.Variant
	}
	count := map[key]int{}
	for i := range cur.Outcomes {
		o := &cur.Outcomes[i]
		if variant[o.Client] {
			continue
		}
		k := key{row: o.Client, query: o.Query, expect: joinIDs(o.Expect)}
		k.nth = count[k]
		count[k]++
		b, ok := baseExact[k]
		if !exact[o.Client] {
			lk := k
			lk.row = unversioned(o.Client)
			b, ok = baseLoose[lk]
		}
		if !ok {
			b = nil
		}
		f(o, b)
	}
}

// describe summarises an outcome for a regression line: "rank 2",
// "rank 3-7 (shown 40.0%)", "not found".
func describe(o *Outcome) string {
	switch {
	case o.Rank == 0 || o.PWithinLimit == 0:
		if o.Rank > 0 {
			return fmt.Sprintf("rank %s (not shown)", RankText(o.Rank, o.RankWorst))
		}
		return "not found"
	case o.PWithinLimit < 1:
		return fmt.Sprintf("rank %s (shown %s)", RankText(o.Rank, o.RankWorst), Percent(o.PWithinLimit))
	}
	return "rank " + RankText(o.Rank, o.RankWorst)
}

// unversioned drops "@version" from a row label, keeping a variant's
// " [strategy]".
func unversioned(label string) string {
	base, strategy := label, ""
	if i := strings.Index(label, " ["); i >= 0 {
		base, strategy = label[:i], label[i:]
	}
	name, _, _ := strings.Cut(base, "@")
	return name + strategy
}

// ReadReport reads a report written as JSON (a baseline). Unknown keys are
// ignored; a report without "clients" or "outcomes" is an error.
func ReadReport(r io.Reader) (*Report, error) {
	var raw struct {
		Report
		Clients  *json.RawMessage `json:"clients"`
		Outcomes *json.RawMessage `json:"outcomes"`
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a toolfind bench JSON report: %v", err)
	}
	if raw.Clients == nil || raw.Outcomes == nil {
		return nil, errors.New(`not a toolfind bench JSON report: "clients" and "outcomes" are required`)
	}
	rep := raw.Report
	if err := json.Unmarshal(*raw.Clients, &rep.Clients); err != nil {
		return nil, fmt.Errorf("clients: %v", err)
	}
	if err := json.Unmarshal(*raw.Outcomes, &rep.Outcomes); err != nil {
		return nil, fmt.Errorf("outcomes: %v", err)
	}
	for i, o := range rep.Outcomes {
		if o.Client == "" {
			return nil, fmt.Errorf("outcomes[%d]: missing client", i)
		}
		if math.IsNaN(o.PWithinLimit) || o.PWithinLimit < 0 || o.PWithinLimit > 1 {
			return nil, fmt.Errorf("outcomes[%d]: p_within_limit %v is outside 0..1", i, o.PWithinLimit)
		}
	}
	return &rep, nil
}
