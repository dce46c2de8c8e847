package bench

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Outcome is one query evaluated for one client row (a client's primary
// result, or one of its strategy variants; see Row).
type Outcome struct {
	Query  string            `json:"query"`
	Line   int               `json:"line,omitempty"`
	Expect []corpus.ToolID   `json:"expect"`
	Tags   map[string]string `json:"tags,omitempty"`
	// Client is the row's label: "claude@2.1.328", or "codex@0.171.0
	// [regex]" for a strategy variant.
	Client   string `json:"client"`
	Strategy string `json:"strategy,omitempty"`
	Limit    int    `json:"limit"`
	// Rank is the best position of any expected tool in the client's hits
	// (0: none of them is among the hits); RankWorst is the last position
	// that best-placed expected tool can take in any tie order.
	Rank      int `json:"rank"`
	RankWorst int `json:"rank_worst"`
	// PWithinLimit is the probability, over the client's tie orders, that
	// at least one expected tool is shown (found-any); PAllWithinLimit
	// that every expected tool is (found-all).
	PWithinLimit    float64 `json:"p_within_limit"`
	PAllWithinLimit float64 `json:"p_all_within_limit"`
	// Found and FoundAll are PWithinLimit == 1 and PAllWithinLimit == 1.
	Found    bool `json:"found"`
	FoundAll bool `json:"found_all"`
	// PAt1 is the probability that an expected tool comes first; RR the
	// expected reciprocal rank of the first expected tool shown (0 when
	// none is); MeanRank the expected position of that tool given that
	// one is shown (0 when none can be).
	PAt1        float64 `json:"p_at_1"`
	RR          float64 `json:"rr"`
	MeanRank    float64 `json:"mean_rank"`
	ShownTokens int     `json:"shown_tokens"`
	// Uncapped marks a result the client sets no cap on
	// (search.Result.Uncapped): the model reads every tool in it, so
	// being shown decides little, the rank and ReadTokens do.
	Uncapped bool `json:"uncapped,omitempty"`
	// ReadTokens is how much the model reads to reach the best-placed
	// expected tool shown: the simulator's Hit.ReadTokens, else the whole
	// result (ShownTokens); over several calls, the calls read before the
	// best one too. 0 when no expected tool is shown.
	ReadTokens int `json:"read_tokens,omitempty"`
	// OutrankedBy are the tools placed above the best-placed expected tool
	// in every tie order, or, when no expected tool is among the hits, the
	// tools shown instead; at most max(Limit, 10), in the client's order.
	OutrankedBy []corpus.ToolID `json:"outranked_by,omitempty"`
	// Tools reports every expected tool on its own.
	Tools []ToolOutcome `json:"tools"`
	// Dist is the distribution of the position of the first expected tool
	// shown: Dist[i] is the probability that it is at position i+1.
	Dist []float64 `json:"-"`
	// Error is why the search failed, if it did: the simulator's error
	// (the outcome then counts as not found) or the result's own Error, a
	// script that threw or was stopped (the outcome counts what the model
	// saw). TimedOut marks a run stopped at its time limit.
	Error    string `json:"error,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
	// Writer names who wrote the client's calls, and Calls are the calls
	// replayed (package writer); NoCall marks a prompt for which the
	// client's model made no search call (counted as not found).
	Writer string            `json:"writer,omitempty"`
	Calls  []json.RawMessage `json:"calls,omitempty"`
	NoCall bool              `json:"no_call,omitempty"`

	index int // the query's position in its set
}

// QueryIndex is the position of the outcome's query in the query set Run
// was given (0 for an outcome read back from JSON).
func (o *Outcome) QueryIndex() int { return o.index }

// ToolOutcome is one expected tool of one query for one client row.
type ToolOutcome struct {
	Tool         corpus.ToolID `json:"tool"`
	Rank         int           `json:"rank"`
	RankWorst    int           `json:"rank_worst"`
	PWithinLimit float64       `json:"p_within_limit"`
}

// group is a run of hits tied with each other: the positions first..last
// (1-based), of which shown are shown to the model.
type group struct {
	first, last int
	n           int     // last - first + 1
	p           float64 // probability that a member is shown
	shown       int     // slots shown: p·n when that is whole (see fair)
	fair        bool    // p·n is whole: a uniform shuffle of the group
	expected    int     // expected tools among the group's hits
}

// epsilon is the tolerance for probabilities that should be whole numbers
// of slots (p·n) and for comparisons with 0 and 1.
const epsilon = 1e-9

// scorer is one worker's scratch for scoring (evaluate), reused outcome
// after outcome: what an Outcome keeps is copied out of it at its exact
// size, so that a run of thousands of searches allocates little besides
// the outcomes themselves.
type scorer struct {
	first  firstHits
	groups []group
	dist   []float64
	above  []corpus.ToolID
	// hits is the buffer the worker's searches may return their hits in
	// (search.Query.Hits); the hits are read before the next search.
	hits []search.Hit
}

// keepHits makes the hits of the last search, which are the caller's
// (search.Query.Hits), the buffer of the next, unless more than
// maxBufferedHits fit in them.
func (sc *scorer) keepHits(hits []search.Hit) {
	if cap(hits) <= maxBufferedHits {
		sc.hits = hits[:0]
	}
}

// maxBufferedHits bounds the hits buffer of a worker.
const maxBufferedHits = 1024

// evaluate scores one Result against the expected tools. It is the
// arithmetic of the package doc, section "One outcome".
func evaluate(r search.Result, expect []corpus.ToolID) Outcome {
	var sc scorer
	return sc.evaluate(r, expect)
}

// evaluate is evaluate with sc's scratch.
func (sc *scorer) evaluate(r search.Result, expect []corpus.ToolID) Outcome {
	o := Outcome{
		Client:      r.Client,
		Strategy:    r.Strategy,
		Limit:       r.Limit,
		ShownTokens: r.ShownTokens,
		Expect:      expect,
		Tools:       make([]ToolOutcome, 0, len(expect)),
		Error:       r.Error,
		TimedOut:    r.TimedOut,
	}
	// Per expected tool: its first hit (a client may list a tool twice;
	// the first listing is the one the model meets first).
	first := &sc.first
	first.reset(expect)
	for _, h := range r.Hits {
		if validHit(h) {
			first.see(h)
		}
	}
	o.Uncapped = r.Uncapped
	readTokens := 0 // the fewest tokens read to reach an expected hit
	for _, id := range expect {
		h, ok := first.get(id)
		t := ToolOutcome{Tool: id}
		if ok {
			t.Rank, t.RankWorst, t.PWithinLimit = h.Rank, worst(h), clampP(h.PWithinLimit)
			if h.ReadTokens > 0 && t.PWithinLimit > 0 && (readTokens == 0 || h.ReadTokens < readTokens) {
				readTokens = h.ReadTokens
			}
		}
		o.Tools = append(o.Tools, t)
	}
	groups := tieGroups(r.Hits, first, sc.groups[:0])
	sc.groups = groups

	// Found-all: the product over groups of P(all of the group's expected
	// tools are shown); an expected tool that is not a hit is never shown.
	pAll := 0.0
	if len(expect) > 0 && first.found == len(expect) {
		pAll = 1
		for _, g := range groups {
			if g.expected > 0 {
				pAll *= g.pAllShown()
			}
		}
	}
	o.PAllWithinLimit = round(pAll)
	o.FoundAll = o.PAllWithinLimit == 1

	// The distribution of the first shown expected tool's position.
	none := 1.0 // P(no expected tool shown so far)
	dist := sc.dist[:0]
	add := func(pos int, p float64) {
		for len(dist) < pos {
			dist = append(dist, 0)
		}
		dist[pos-1] += p
	}
	for _, g := range groups {
		if g.expected == 0 || none == 0 {
			continue
		}
		if g.fair {
			// X = position within the group of the first expected tool in
			// a uniform shuffle of n tools of which m are expected:
			// P(X > j) = C(n-j, m)/C(n, m), P(X = j) = P(X > j-1)·m/(n-j+1).
			m, n := g.expected, g.n
			gt := 1.0 // P(X > j-1)
			for j := 1; j <= g.shown; j++ {
				add(g.first+j-1, none*gt*float64(m)/float64(n-j+1))
				gt *= float64(n-j+1-m) / float64(n-j+1)
			}
			none *= gt // P(X > shown): no expected tool in the shown slots
		} else {
			// Not a whole number of slots: the client's probabilities are
			// taken as independent per tool, each at the group's first
			// position.
			miss := math.Pow(1-g.p, float64(g.expected))
			add(g.first, none*(1-miss))
			none *= miss
		}
	}
	found := 0.0
	for i, p := range dist {
		found += p
		o.RR += p / float64(i+1)
		o.MeanRank += p * float64(i+1)
	}
	if found > epsilon {
		o.MeanRank /= found
	} else {
		o.MeanRank = 0
	}
	if len(dist) > 0 {
		o.PAt1 = dist[0]
	}
	sc.dist = dist
	if len(dist) > 0 {
		o.Dist = make([]float64, len(dist))
		for i := range dist {
			o.Dist[i] = round(dist[i])
		}
	}
	o.PWithinLimit = round(found)
	o.Found = o.PWithinLimit == 1
	if o.PWithinLimit > 0 {
		if readTokens == 0 {
			readTokens = o.ShownTokens // the model reads the whole result
		}
		o.ReadTokens = readTokens
	}
	o.PAt1, o.RR, o.MeanRank = round(o.PAt1), round(o.RR), round(o.MeanRank)

	// Rank, RankWorst: the best-placed expected tool's group.
	for _, g := range groups {
		if g.expected > 0 {
			o.Rank = g.first
			o.RankWorst = g.last - g.expected + 1
			break
		}
	}
	sc.above = outranked(r, o.Rank, sc.above[:0])
	if len(sc.above) > 0 {
		o.OutrankedBy = slices.Clone(sc.above)
	}
	return o
}

// maxRank bounds the positions bench believes: a hit ranked below 1 or
// beyond it is a simulator bug and is ignored, and a RankWorst beyond it is
// cut to it, so that a broken result cannot make bench allocate or loop
// without bound.
const maxRank = 1 << 14

// validHit reports whether a hit's Rank is usable.
func validHit(h search.Hit) bool { return h.Rank >= 1 && h.Rank <= maxRank }

// worst is a hit's RankWorst, at least its Rank and at most maxRank.
func worst(h search.Hit) int {
	switch {
	case h.RankWorst < h.Rank:
		return h.Rank
	case h.RankWorst > maxRank:
		return maxRank
	}
	return h.RankWorst
}

func clampP(p float64) float64 {
	switch {
	case p < 0 || math.IsNaN(p):
		return 0
	case p > 1:
		return 1
	}
	return p
}

// firstHits holds each expected tool's first valid hit. Expected lists
// are short: tools are found by a scan, or by a map past manyExpected.
type firstHits struct {
	slots []firstHit // one per distinct expected tool, in order
	found int        // how many have a hit
	index map[corpus.ToolID]int
}

type firstHit struct {
	id      corpus.ToolID
	hit     search.Hit // when has
	has     bool
	counted bool // tieGroups: already counted in its group
}

const manyExpected = 16

// reset empties f for the expected tools expect, keeping its memory.
func (f *firstHits) reset(expect []corpus.ToolID) {
	f.slots, f.found = f.slots[:0], 0
	if len(expect) > manyExpected {
		if f.index == nil {
			f.index = make(map[corpus.ToolID]int, len(expect))
		} else {
			clear(f.index)
		}
	} else if f.index != nil {
		f.index = nil
	}
	for _, id := range expect {
		if f.find(id) < 0 {
			if f.index != nil {
				f.index[id] = len(f.slots)
			}
			f.slots = append(f.slots, firstHit{id: id})
		}
	}
}

// find returns id's slot, or -1.
func (f *firstHits) find(id corpus.ToolID) int {
	if f.index != nil {
		if i, ok := f.index[id]; ok {
			return i
		}
		return -1
	}
	for i := range f.slots {
		if f.slots[i].id == id {
			return i
		}
	}
	return -1
}

// see records h when it is an expected tool's first hit.
func (f *firstHits) see(h search.Hit) {
	if i := f.find(h.Tool); i >= 0 && !f.slots[i].has {
		f.slots[i].hit, f.slots[i].has = h, true
		f.found++
	}
}

// get returns id's first hit and whether it has one.
func (f *firstHits) get(id corpus.ToolID) (search.Hit, bool) {
	if i := f.find(id); i >= 0 && f.slots[i].has {
		return f.slots[i].hit, true
	}
	return search.Hit{}, false
}

// tieGroups groups the hits by their (Rank, RankWorst) range, in rank
// order, counting the expected tools (their first listings) in each. It
// appends the groups to gs, which must be empty.
func tieGroups(hits []search.Hit, expected *firstHits, gs []group) []group {
	type key struct{ first, last int }
	var idx map[key]int // past a few groups
	lookup := func(k key) (int, bool) {
		if n := len(gs); n > 0 && gs[n-1].first == k.first && gs[n-1].last == k.last {
			return n - 1, true // hits come in rank order
		}
		if idx != nil {
			i, ok := idx[k]
			return i, ok
		}
		for i := range gs {
			if gs[i].first == k.first && gs[i].last == k.last {
				return i, true
			}
		}
		return 0, false
	}
	for _, h := range hits {
		if !validHit(h) {
			continue
		}
		k := key{h.Rank, worst(h)}
		i, ok := lookup(k)
		if !ok {
			i = len(gs)
			gs = append(gs, group{first: k.first, last: k.last, n: k.last - k.first + 1})
			if idx != nil {
				idx[k] = i
			} else if len(gs) > manyExpected {
				idx = make(map[key]int, 2*len(gs))
				for j := range gs {
					idx[key{gs[j].first, gs[j].last}] = j
				}
			}
		}
		g := &gs[i]
		if p := clampP(h.PWithinLimit); p > g.p {
			g.p = p // members share p; take the largest if a client disagrees
		}
		if j := expected.find(h.Tool); j >= 0 && expected.slots[j].has && !expected.slots[j].counted {
			if e := expected.slots[j].hit; e.Rank == h.Rank && worst(e) == k.last {
				expected.slots[j].counted = true
				g.expected++
			}
		}
	}
	for i := range gs {
		g := &gs[i]
		slots := g.p * float64(g.n)
		whole := math.Round(slots)
		g.fair = math.Abs(slots-whole) < 1e-6 && g.expected <= g.n
		if g.fair {
			g.shown = int(whole)
		}
	}
	slices.SortStableFunc(gs, func(a, b group) int { return cmp.Compare(a.first, b.first) })
	return gs
}

// pAllShown is the probability that all the group's expected tools are
// shown: C(n-m, k-m)/C(n, k) = Π_{i<m} (k-i)/(n-i) for a uniform shuffle,
// p^m for independent tools.
func (g group) pAllShown() float64 {
	if !g.fair {
		return math.Pow(g.p, float64(g.expected))
	}
	p := 1.0
	for i := 0; i < g.expected; i++ {
		if g.shown-i <= 0 {
			return 0
		}
		p *= float64(g.shown-i) / float64(g.n-i)
	}
	return p
}

// outranked appends to out, which must be empty, the tools above rank
// (their worst rank is better), or when rank is 0 the tools shown, capped
// at max(limit, 10).
func outranked(r search.Result, rank int, out []corpus.ToolID) []corpus.ToolID {
	max := r.Limit
	if max < 10 {
		max = 10
	}
	var seen map[corpus.ToolID]bool // past manyExpected tools; a scan before
	for _, h := range r.Hits {
		if len(out) == max {
			break
		}
		if !validHit(h) {
			continue
		}
		above := rank > 0 && worst(h) < rank
		shown := rank == 0 && clampP(h.PWithinLimit) > 0
		if !above && !shown {
			continue
		}
		if seen != nil {
			if seen[h.Tool] {
				continue
			}
			seen[h.Tool] = true
		} else if slices.Contains(out, h.Tool) {
			continue
		}
		out = append(out, h.Tool)
		if seen == nil && len(out) > manyExpected {
			seen = make(map[corpus.ToolID]bool, 2*len(out))
			for _, id := range out {
				seen[id] = true
			}
		}
	}
	return out
}

// round keeps six decimals, so that sums taken in different orders print
// the same and 0.1+0.2 prints as 0.3.
func round(x float64) float64 {
	return math.Round(x*1e6) / 1e6
}
