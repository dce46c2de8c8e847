package bench

import (
	"math"
	"sort"

	"github.com/toolfind/toolfind/corpus"
)

// ClientMetrics sums up one client row over a set of queries. Fractions
// are in [0, 1]. Only queries with at least one expected tool count
// towards the findability metrics; MeanShownTokens counts every query.
type ClientMetrics struct {
	Client string `json:"client"`
	// Variant marks the row of a strategy variant ("client [strategy]").
	Variant bool `json:"variant,omitempty"`
	// Limit is the effective result limit the client used most often.
	Limit   int `json:"limit"`
	Queries int `json:"queries"`
	// FoundAt1 is the mean probability that an expected tool comes first.
	FoundAt1 float64 `json:"found_at_1"`
	// FoundAtLimit is the mean of PWithinLimit: the expected share of
	// queries where an expected tool is shown, over the client's tie
	// orders. FoundAtLimitBest counts a query found when some tie order
	// shows one (PWithinLimit > 0), FoundAtLimitWorst only when every
	// order does (PWithinLimit = 1): the band the real client falls in.
	FoundAtLimit      float64 `json:"found_at_limit"`
	FoundAtLimitBest  float64 `json:"found_at_limit_best"`
	FoundAtLimitWorst float64 `json:"found_at_limit_worst"`
	// FoundAllAtLimit is the mean of PAllWithinLimit (found-all).
	FoundAllAtLimit float64 `json:"found_all_at_limit"`
	// MRR is the mean of the expected reciprocal ranks (0 for a query
	// where nothing expected is shown).
	MRR float64 `json:"mrr"`
	// MeanRank and P95Rank are the mean and the 95th percentile (nearest
	// rank) of Outcome.MeanRank over the queries found in some tie order.
	MeanRank float64 `json:"mean_rank"`
	P95Rank  float64 `json:"p95_rank"`
	// NotFound counts queries where no tie order shows an expected tool.
	NotFound        int     `json:"not_found"`
	MeanShownTokens float64 `json:"mean_shown_tokens"`
	// Uncapped marks a row whose client sets no cap on what its model
	// reads (every result Outcome.Uncapped: Codex code mode's script
	// output, OpenCode's eager tool list). Its found@limit says only that
	// the tool is somewhere in what the model reads; the reports do not
	// headline it and a found@limit gate does not judge it. Where the tool
	// lands (FoundAt1, MRR, MeanRank) and MeanReadTokens decide.
	Uncapped bool `json:"uncapped,omitempty"`
	// MeanReadTokens and P95ReadTokens (nearest rank) are the tokens the
	// model reads to reach the expected tool (Outcome.ReadTokens), over the
	// queries where one is shown.
	MeanReadTokens float64 `json:"mean_read_tokens"`
	P95ReadTokens  float64 `json:"p95_read_tokens"`
	// Runs counts the row's outcomes (every query the row ran, with or
	// without an expected tool).
	Runs int `json:"runs,omitempty"`
	// Errors counts runs that failed: the simulator returned an error
	// (counted not found) or the search failed the way a script does —
	// threw, overflowed its stack, hit its time or memory limit (counted
	// as what the model saw). TimedOut counts the time limits among them.
	Errors   int `json:"errors"`
	TimedOut int `json:"timed_out,omitempty"`
	// Writer names who wrote the row's calls ("" when the query text was
	// the search); NoCall counts prompts for which the client's model made
	// no call (counted not found).
	Writer string `json:"writer,omitempty"`
	NoCall int    `json:"no_call,omitempty"`
	// WriterLabel is what reports say about the writer of the row's calls
	// (writer.Label: its name and what its calls are).
	WriterLabel string `json:"writer_label,omitempty"`
	// RankDist[i] is the expected number of queries whose first shown
	// expected tool is at position i+1.
	RankDist []float64 `json:"rank_dist"`
}

// metrics sums up outcomes of one row.
func metrics(label string, os []*Outcome) ClientMetrics {
	a := newRowAcc(label)
	for _, o := range os {
		a.add(o)
	}
	return a.result()
}

// rowAcc sums up one row's outcomes as they come (Run's summary mode
// keeps only these): counts, sums in the order added, and the rank and
// read-token values as counts per value, from which the nearest-rank
// percentile is the same as over the sorted values. Its memory grows with
// the distinct values, not with the outcomes.
type rowAcc struct {
	m                 ClientMetrics
	limits            map[int]int
	ranks, reads      map[float64]int
	nRanks, nReads    int
	sumRanks, sumRead float64
	tokens            int
	capped, uncapped  int
}

func newRowAcc(label string) *rowAcc {
	return &rowAcc{m: ClientMetrics{Client: label, RankDist: []float64{}},
		limits: map[int]int{}, ranks: map[float64]int{}, reads: map[float64]int{}}
}

// add counts one outcome.
func (a *rowAcc) add(o *Outcome) {
	m := &a.m
	a.limits[o.Limit]++
	a.tokens += o.ShownTokens
	m.Runs++
	switch {
	case o.Uncapped:
		a.uncapped++
	case o.Error == "" && !o.NoCall:
		a.capped++
	}
	if o.Error != "" {
		m.Errors++
	}
	if o.NoCall {
		m.NoCall++
	}
	if o.TimedOut {
		m.TimedOut++
	}
	if len(o.Expect) == 0 {
		return
	}
	m.Queries++
	if o.ReadTokens > 0 {
		a.reads[float64(o.ReadTokens)]++
		a.nReads++
		a.sumRead += float64(o.ReadTokens)
	}
	m.FoundAt1 += o.PAt1
	m.FoundAtLimit += o.PWithinLimit
	m.FoundAllAtLimit += o.PAllWithinLimit
	m.MRR += o.RR
	switch {
	case o.PWithinLimit == 0:
		m.NotFound++
	case o.PWithinLimit == 1:
		m.FoundAtLimitWorst++
		m.FoundAtLimitBest++
		a.rank(o.MeanRank)
	default:
		m.FoundAtLimitBest++
		a.rank(o.MeanRank)
	}
	a.addDist(o.Dist)
}

func (a *rowAcc) rank(r float64) {
	a.ranks[r]++
	a.nRanks++
	a.sumRanks += r
}

func (a *rowAcc) addDist(dist []float64) {
	m := &a.m
	for i, p := range dist {
		for len(m.RankDist) <= i {
			m.RankDist = append(m.RankDist, 0)
		}
		m.RankDist[i] += p
	}
}

// result is the row's metrics.
func (a *rowAcc) result() ClientMetrics {
	m := a.m
	m.RankDist = append([]float64{}, a.m.RankDist...)
	m.Limit = mode(a.limits)
	m.Uncapped = a.uncapped > 0 && a.capped == 0
	if a.nReads > 0 {
		m.MeanReadTokens = round(a.sumRead / float64(a.nReads))
		m.P95ReadTokens = percentileOf(a.reads, a.nReads, 0.95)
	}
	if m.Runs > 0 {
		m.MeanShownTokens = round(float64(a.tokens) / float64(m.Runs))
	}
	if q := float64(m.Queries); q > 0 {
		m.FoundAt1 = round(m.FoundAt1 / q)
		m.FoundAtLimit = round(m.FoundAtLimit / q)
		m.FoundAtLimitBest = round(m.FoundAtLimitBest / q)
		m.FoundAtLimitWorst = round(m.FoundAtLimitWorst / q)
		m.FoundAllAtLimit = round(m.FoundAllAtLimit / q)
		m.MRR = round(m.MRR / q)
	}
	if a.nRanks > 0 {
		m.MeanRank = round(a.sumRanks / float64(a.nRanks))
		m.P95Rank = percentileOf(a.ranks, a.nRanks, 0.95)
	}
	for i := range m.RankDist {
		m.RankDist[i] = round(m.RankDist[i])
	}
	return m
}

// mode is the most frequent key, the smallest among equals.
func mode(counts map[int]int) int {
	best, bestN := 0, -1
	for k, n := range counts {
		if n > bestN || n == bestN && k < best {
			best, bestN = k, n
		}
	}
	return best
}

// percentileOf is the nearest-rank percentile of n values given as counts
// per value: the value at 1-based position ceil(p·n) of the sorted values.
func percentileOf(counts map[float64]int, n int, p float64) float64 {
	vals := make([]float64, 0, len(counts))
	for v := range counts {
		vals = append(vals, v)
	}
	sort.Float64s(vals)
	i := max(int(math.Ceil(p*float64(n)))-1, 0)
	for _, v := range vals {
		if i < counts[v] {
			return v
		}
		i -= counts[v]
	}
	return vals[len(vals)-1]
}

// Breakdown is the metrics per value of one tag key.
type Breakdown struct {
	Key    string  `json:"key"`
	Groups []Group `json:"groups"`
}

// Group is the metrics of the queries whose tag has one value ("" for
// queries without the tag).
type Group struct {
	Value   string          `json:"value"`
	Queries int             `json:"queries"`
	Clients []ClientMetrics `json:"clients"`
}

// breakdownAcc groups outcomes by the value of tag key as they come (in
// query order): per value, the distinct queries and each row's sums.
type breakdownAcc struct {
	key     string
	byValue map[string]*valueAcc
}

type valueAcc struct {
	queries, last int
	rows          map[string]*rowAcc
}

func newBreakdownAcc(key string) *breakdownAcc {
	return &breakdownAcc{key: key, byValue: map[string]*valueAcc{}}
}

func (b *breakdownAcc) add(o *Outcome) {
	v := o.Tags[b.key]
	va := b.byValue[v]
	if va == nil {
		va = &valueAcc{last: -1, rows: map[string]*rowAcc{}}
		b.byValue[v] = va
	}
	if o.index != va.last {
		va.queries++
		va.last = o.index
	}
	ra := va.rows[o.Client]
	if ra == nil {
		ra = newRowAcc(o.Client)
		va.rows[o.Client] = ra
	}
	ra.add(o)
}

// result is the breakdown over labels: values in byte order, queries
// without the tag last.
func (b *breakdownAcc) result(labels []string) Breakdown {
	out := Breakdown{Key: b.key, Groups: []Group{}}
	values := make([]string, 0, len(b.byValue))
	for v := range b.byValue {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool {
		if (values[i] == "") != (values[j] == "") {
			return values[j] == ""
		}
		return values[i] < values[j]
	})
	for _, v := range values {
		va := b.byValue[v]
		g := Group{Value: v, Queries: va.queries, Clients: make([]ClientMetrics, len(labels))}
		for r, l := range labels {
			if ra := va.rows[l]; ra != nil {
				g.Clients[r] = ra.result()
			} else {
				g.Clients[r] = newRowAcc(l).result()
			}
		}
		out.Groups = append(out.Groups, g)
	}
	return out
}

// ToolMetrics is the server author's view of one tool: how many of the
// queries expecting it show it, per client.
type ToolMetrics struct {
	Tool    corpus.ToolID `json:"tool"`
	Queries int           `json:"queries"`
	Clients []ToolClient  `json:"clients"`
}

// ToolClient is one client's findability of one tool. Found is the
// expected number of its queries that show it (the sum of the tool's
// PWithinLimit); FoundBest and FoundWorst bound it over tie orders.
type ToolClient struct {
	Client     string  `json:"client"`
	Found      float64 `json:"found"`
	FoundBest  int     `json:"found_best"`
	FoundWorst int     `json:"found_worst"`
	// MeanRank is the mean Rank over the queries where the tool is a hit
	// (0 when it never is).
	MeanRank float64 `json:"mean_rank"`
}

// toolAcc sums up one expected tool's outcomes as they come (in query
// order): its distinct queries and, per row, what ToolClient reports.
type toolAcc struct {
	queries, last int
	rows          map[string]*toolRow
}

type toolRow struct {
	tc             ToolClient
	rankSum, rankN int
}

// perToolAcc builds the per-tool view.
type perToolAcc map[corpus.ToolID]*toolAcc

func (p perToolAcc) add(o *Outcome) {
	for _, t := range o.Tools {
		a := p[t.Tool]
		if a == nil {
			a = &toolAcc{last: -1, rows: map[string]*toolRow{}}
			p[t.Tool] = a
		}
		if o.index != a.last {
			a.queries++
			a.last = o.index
		}
		r := a.rows[o.Client]
		if r == nil {
			r = &toolRow{tc: ToolClient{Client: o.Client}}
			a.rows[o.Client] = r
		}
		r.tc.Found += t.PWithinLimit
		if t.PWithinLimit > 0 {
			r.tc.FoundBest++
		}
		if t.PWithinLimit == 1 {
			r.tc.FoundWorst++
		}
		if t.Rank > 0 {
			r.rankSum += t.Rank
			r.rankN++
		}
	}
}

// result is the per-tool view over labels, tools in byte order of their
// ids.
func (p perToolAcc) result(labels []string) []ToolMetrics {
	ids := make([]corpus.ToolID, 0, len(p))
	for id := range p {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]ToolMetrics, 0, len(ids))
	for _, id := range ids {
		a := p[id]
		rows := make([]ToolClient, len(labels))
		for k, l := range labels {
			rows[k].Client = l
			r := a.rows[l]
			if r == nil {
				continue
			}
			rows[k] = r.tc
			rows[k].Found = round(r.tc.Found)
			if r.rankN > 0 {
				rows[k].MeanRank = round(float64(r.rankSum) / float64(r.rankN))
			}
		}
		out = append(out, ToolMetrics{Tool: id, Queries: a.queries, Clients: rows})
	}
	return out
}
