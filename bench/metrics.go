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
	m := ClientMetrics{Client: label, RankDist: []float64{}}
	limits := map[int]int{}
	var ranks, reads []float64
	tokens := 0
	capped, uncapped := 0, 0
	for _, o := range os {
		limits[o.Limit]++
		tokens += o.ShownTokens
		m.Runs++
		switch {
		case o.Uncapped:
			uncapped++
		case o.Error == "" && !o.NoCall:
			capped++
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
			continue
		}
		m.Queries++
		if o.ReadTokens > 0 {
			reads = append(reads, float64(o.ReadTokens))
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
			ranks = append(ranks, o.MeanRank)
		default:
			m.FoundAtLimitBest++
			ranks = append(ranks, o.MeanRank)
		}
		for i, p := range o.Dist {
			for len(m.RankDist) <= i {
				m.RankDist = append(m.RankDist, 0)
			}
			m.RankDist[i] += p
		}
	}
	m.Limit = mode(limits)
	m.Uncapped = uncapped > 0 && capped == 0
	if len(reads) > 0 {
		sum := 0.0
		for _, r := range reads {
			sum += r
		}
		m.MeanReadTokens = round(sum / float64(len(reads)))
		m.P95ReadTokens = percentile(reads, 0.95)
	}
	if len(os) > 0 {
		m.MeanShownTokens = round(float64(tokens) / float64(len(os)))
	}
	if q := float64(m.Queries); q > 0 {
		m.FoundAt1 = round(m.FoundAt1 / q)
		m.FoundAtLimit = round(m.FoundAtLimit / q)
		m.FoundAtLimitBest = round(m.FoundAtLimitBest / q)
		m.FoundAtLimitWorst = round(m.FoundAtLimitWorst / q)
		m.FoundAllAtLimit = round(m.FoundAllAtLimit / q)
		m.MRR = round(m.MRR / q)
	}
	if len(ranks) > 0 {
		sum := 0.0
		for _, r := range ranks {
			sum += r
		}
		m.MeanRank = round(sum / float64(len(ranks)))
		m.P95Rank = percentile(ranks, 0.95)
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

// percentile is the nearest-rank percentile: the value at 1-based
// position ceil(p·n) of the sorted values. xs is sorted in place.
func percentile(xs []float64, p float64) float64 {
	sort.Float64s(xs)
	i := int(math.Ceil(p*float64(len(xs)))) - 1
	if i < 0 {
		i = 0
	}
	return xs[i]
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

// breakdown groups outcomes by the value of tag key: values in byte order,
// queries without the tag last.
func breakdown(key string, labels []string, outs []Outcome, rowOf map[string]int) Breakdown {
	b := Breakdown{Key: key, Groups: []Group{}}
	byValue := map[string][][]*Outcome{}
	queries := map[string]map[int]bool{} // distinct query lines per value
	for i := range outs {
		o := &outs[i]
		v := o.Tags[key]
		if byValue[v] == nil {
			byValue[v] = make([][]*Outcome, len(labels))
			queries[v] = map[int]bool{}
		}
		r := rowOf[o.Client]
		byValue[v][r] = append(byValue[v][r], o)
		queries[v][o.index] = true
	}
	values := make([]string, 0, len(byValue))
	for v := range byValue {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool {
		if (values[i] == "") != (values[j] == "") {
			return values[j] == ""
		}
		return values[i] < values[j]
	})
	for _, v := range values {
		g := Group{Value: v, Queries: len(queries[v]), Clients: make([]ClientMetrics, len(labels))}
		for r, l := range labels {
			g.Clients[r] = metrics(l, byValue[v][r])
		}
		b.Groups = append(b.Groups, g)
	}
	return b
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

// perTool builds the per-tool view, tools in byte order of their ids.
func perTool(labels []string, outs []Outcome, rowOf map[string]int) []ToolMetrics {
	type acc struct {
		queries map[int]bool
		rows    []ToolClient
		rankSum []int
		rankN   []int
	}
	tools := map[corpus.ToolID]*acc{}
	for i := range outs {
		o := &outs[i]
		r := rowOf[o.Client]
		for _, t := range o.Tools {
			a := tools[t.Tool]
			if a == nil {
				a = &acc{queries: map[int]bool{}, rows: make([]ToolClient, len(labels)),
					rankSum: make([]int, len(labels)), rankN: make([]int, len(labels))}
				for k, l := range labels {
					a.rows[k].Client = l
				}
				tools[t.Tool] = a
			}
			a.queries[o.index] = true
			tc := &a.rows[r]
			tc.Found += t.PWithinLimit
			if t.PWithinLimit > 0 {
				tc.FoundBest++
			}
			if t.PWithinLimit == 1 {
				tc.FoundWorst++
			}
			if t.Rank > 0 {
				a.rankSum[r] += t.Rank
				a.rankN[r]++
			}
		}
	}
	ids := make([]corpus.ToolID, 0, len(tools))
	for id := range tools {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]ToolMetrics, 0, len(ids))
	for _, id := range ids {
		a := tools[id]
		for r := range a.rows {
			a.rows[r].Found = round(a.rows[r].Found)
			if a.rankN[r] > 0 {
				a.rows[r].MeanRank = round(float64(a.rankSum[r]) / float64(a.rankN[r]))
			}
		}
		out = append(out, ToolMetrics{Tool: id, Queries: len(a.queries), Clients: a.rows})
	}
	return out
}
