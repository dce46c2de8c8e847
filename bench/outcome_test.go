package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// hit builds a hit for tool id at positions rank..worst with probability p.
func hit(id string, rank, worst int, p float64) search.Hit {
	return search.Hit{Tool: corpus.ToolID(id), Rank: rank, RankWorst: worst, PWithinLimit: p}
}

func ids(ss ...string) []corpus.ToolID {
	out := make([]corpus.ToolID, len(ss))
	for i, s := range ss {
		out[i] = corpus.ToolID(s)
	}
	return out
}

// grokLike is worked example 2's result: a alone at 1, then b, c, x, d
// tied at 2-5 with 2 of 4 slots shown (limit 3).
func grokLike() search.Result {
	return search.Result{Client: "grok@1.0.0", Limit: 3, Hits: []search.Hit{
		hit("s/a", 1, 1, 1), hit("s/b", 2, 5, 0.5), hit("s/c", 2, 5, 0.5), hit("s/x", 2, 5, 0.5), hit("s/d", 2, 5, 0.5),
	}}
}

func TestEvaluateWorkedExamples(t *testing.T) {
	det := search.Result{Client: "claude@2.1.328", Limit: 5, ShownTokens: 42, Hits: []search.Hit{
		hit("s/a", 1, 1, 1), hit("s/b", 2, 2, 1), hit("s/x", 3, 3, 1),
	}}
	tests := []struct {
		name   string
		r      search.Result
		expect []corpus.ToolID
		want   Outcome
	}{
		{
			// Worked example 1: x at 3 of 3 shown: RR 1/3, outranked by a, b.
			name: "deterministic", r: det, expect: ids("s/x"),
			want: Outcome{Client: "claude@2.1.328", Limit: 5, ShownTokens: 42, Expect: ids("s/x"),
				Rank: 3, RankWorst: 3, PWithinLimit: 1, PAllWithinLimit: 1, Found: true, FoundAll: true,
				PAt1: 0, RR: 0.333333, MeanRank: 3, OutrankedBy: ids("s/a", "s/b"),
				Tools: []ToolOutcome{{Tool: "s/x", Rank: 3, RankWorst: 3, PWithinLimit: 1}},
				Dist:  []float64{0, 0, 1},
				// No hit says how much is read before it: the whole result.
				ReadTokens: 42},
		},
		{
			// An uncapped result (a script's output): x's name ends at
			// token 25 of 100; y, also expected, later (token 60). The
			// tokens read to reach the best-placed one: 25.
			name: "uncapped",
			r: search.Result{Client: "codex@0.171.0", Limit: 3, Uncapped: true, ShownTokens: 100, Hits: []search.Hit{
				{Tool: "s/a", Rank: 1, RankWorst: 1, PWithinLimit: 1, ReadTokens: 10},
				{Tool: "s/x", Rank: 2, RankWorst: 2, PWithinLimit: 1, ReadTokens: 25},
				{Tool: "s/y", Rank: 3, RankWorst: 3, PWithinLimit: 1, ReadTokens: 60}}},
			expect: ids("s/y", "s/x"),
			want: Outcome{Client: "codex@0.171.0", Limit: 3, ShownTokens: 100, Expect: ids("s/y", "s/x"),
				Uncapped: true, ReadTokens: 25,
				Rank: 2, RankWorst: 2, PWithinLimit: 1, PAllWithinLimit: 1, Found: true, FoundAll: true,
				RR: 0.5, MeanRank: 2, OutrankedBy: ids("s/a"),
				Tools: []ToolOutcome{{Tool: "s/y", Rank: 3, RankWorst: 3, PWithinLimit: 1}, {Tool: "s/x", Rank: 2, RankWorst: 2, PWithinLimit: 1}},
				Dist:  []float64{0, 1}},
		},
		{
			// Worked example 2: P(X=j) = 1/4 for j = 1..4, slots 1 and 2
			// shown at positions 2 and 3: found 0.5, RR 1/8 + 1/12.
			name: "random tie, one expected", r: grokLike(), expect: ids("s/x"),
			want: Outcome{Client: "grok@1.0.0", Limit: 3, Expect: ids("s/x"),
				Rank: 2, RankWorst: 5, PWithinLimit: 0.5, PAllWithinLimit: 0.5,
				PAt1: 0, RR: 0.208333, MeanRank: 2.5, OutrankedBy: ids("s/a"),
				Tools: []ToolOutcome{{Tool: "s/x", Rank: 2, RankWorst: 5, PWithinLimit: 0.5}},
				Dist:  []float64{0, 0.25, 0.25}},
		},
		{
			// Worked example 3: m = 2 of n = 4, k = 2: P(X=1) = 1/2,
			// P(X=2) = 1/2·2/3 = 1/3; found-all (2/4)(1/3) = 1/6;
			// RR = 1/4 + 1/9; MeanRank = (1/2·2 + 1/3·3)/(5/6) = 2.4.
			name: "random tie, two expected", r: grokLike(), expect: ids("s/x", "s/d"),
			want: Outcome{Client: "grok@1.0.0", Limit: 3, Expect: ids("s/x", "s/d"),
				Rank: 2, RankWorst: 4, PWithinLimit: 0.833333, PAllWithinLimit: 0.166667,
				PAt1: 0, RR: 0.361111, MeanRank: 2.4, OutrankedBy: ids("s/a"),
				Tools: []ToolOutcome{{Tool: "s/x", Rank: 2, RankWorst: 5, PWithinLimit: 0.5},
					{Tool: "s/d", Rank: 2, RankWorst: 5, PWithinLimit: 0.5}},
				Dist: []float64{0, 0.5, 0.333333}},
		},
		{
			// a certain at 1 and x in the tie: found-any is certain
			// (a decides first), found-all = 1 · 2/4.
			name: "found-any certain, found-all not", r: grokLike(), expect: ids("s/x", "s/a"),
			want: Outcome{Client: "grok@1.0.0", Limit: 3, Expect: ids("s/x", "s/a"),
				Rank: 1, RankWorst: 1, PWithinLimit: 1, PAllWithinLimit: 0.5, Found: true,
				PAt1: 1, RR: 1, MeanRank: 1,
				Tools: []ToolOutcome{{Tool: "s/x", Rank: 2, RankWorst: 5, PWithinLimit: 0.5},
					{Tool: "s/a", Rank: 1, RankWorst: 1, PWithinLimit: 1}},
				Dist: []float64{1}},
		},
		{
			// Not among the hits: rank 0; the shown tools are listed.
			name: "not a hit", r: det, expect: ids("s/zz"),
			want: Outcome{Client: "claude@2.1.328", Limit: 5, ShownTokens: 42, Expect: ids("s/zz"),
				OutrankedBy: ids("s/a", "s/b", "s/x"),
				Tools:       []ToolOutcome{{Tool: "s/zz"}}},
		},
		{
			// A hit listed beyond the limit (p 0): ranked, not shown.
			name: "beyond the limit",
			r: search.Result{Client: "c@1", Limit: 1, Hits: []search.Hit{
				hit("s/a", 1, 1, 1), hit("s/x", 2, 2, 0)}},
			expect: ids("s/x"),
			want: Outcome{Client: "c@1", Limit: 1, Expect: ids("s/x"), Rank: 2, RankWorst: 2,
				OutrankedBy: ids("s/a"),
				Tools:       []ToolOutcome{{Tool: "s/x", Rank: 2, RankWorst: 2}}},
		},
		{
			// p·n = 0.3 is not whole: independent tools, each shown with
			// p 0.3 at the group's first position 1.
			name: "other tie model",
			r: search.Result{Client: "c@1", Limit: 1, Hits: []search.Hit{
				hit("s/x", 1, 1, 0.3)}},
			expect: ids("s/x"),
			want: Outcome{Client: "c@1", Limit: 1, Expect: ids("s/x"), Rank: 1, RankWorst: 1,
				PWithinLimit: 0.3, PAllWithinLimit: 0.3, PAt1: 0.3, RR: 0.3, MeanRank: 1,
				Tools: []ToolOutcome{{Tool: "s/x", Rank: 1, RankWorst: 1, PWithinLimit: 0.3}},
				Dist:  []float64{0.3}},
		},
		{
			// A tool listed twice counts once, at its first listing.
			name: "duplicate listing",
			r: search.Result{Client: "c@1", Limit: 5, Hits: []search.Hit{
				hit("s/a", 1, 1, 1), hit("s/x", 2, 2, 1), hit("s/x", 3, 3, 1)}},
			expect: ids("s/x"),
			want: Outcome{Client: "c@1", Limit: 5, Expect: ids("s/x"), Rank: 2, RankWorst: 2,
				PWithinLimit: 1, PAllWithinLimit: 1, Found: true, FoundAll: true, RR: 0.5, MeanRank: 2,
				OutrankedBy: ids("s/a"),
				Tools:       []ToolOutcome{{Tool: "s/x", Rank: 2, RankWorst: 2, PWithinLimit: 1}},
				Dist:        []float64{0, 1}},
		},
		{
			// No expected tool: nothing to find.
			name: "no expectation", r: det, expect: nil,
			want: Outcome{Client: "claude@2.1.328", Limit: 5, ShownTokens: 42,
				OutrankedBy: ids("s/a", "s/b", "s/x"), Tools: []ToolOutcome{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := evaluate(tt.r, tt.expect)
			if len(got.Tools) == 0 && len(tt.want.Tools) == 0 {
				got.Tools, tt.want.Tools = nil, nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("evaluate:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// reference computes an outcome's probabilities the slow, obvious way:
// every order of every tie group, equally likely; a group of n tools with
// k shown slots shows its first k tools in that order.
func reference(r search.Result, expect []corpus.ToolID) (found, all, at1, rr, meanRank float64) {
	type grp struct {
		first int
		tools []corpus.ToolID
		k     int
	}
	var gs []grp
	idx := map[[2]int]int{}
	for _, h := range r.Hits {
		key := [2]int{h.Rank, h.RankWorst}
		i, ok := idx[key]
		if !ok {
			i = len(gs)
			idx[key] = i
			n := h.RankWorst - h.Rank + 1
			gs = append(gs, grp{first: h.Rank, k: int(math.Round(h.PWithinLimit * float64(n)))})
		}
		gs[i].tools = append(gs[i].tools, h.Tool)
	}
	want := map[corpus.ToolID]bool{}
	for _, e := range expect {
		want[e] = true
	}
	perms := make([][][]corpus.ToolID, len(gs))
	for i, g := range gs {
		perms[i] = permutations(g.tools)
	}
	total, sumPos := 0, 0.0
	var rec func(i int, chosen [][]corpus.ToolID)
	rec = func(i int, chosen [][]corpus.ToolID) {
		if i == len(gs) {
			total++
			first := 0
			shown := map[corpus.ToolID]bool{}
			for gi, order := range chosen {
				for j, id := range order {
					if j < gs[gi].k {
						shown[id] = true
						if want[id] && first == 0 {
							first = gs[gi].first + j
						}
					}
				}
			}
			if first > 0 {
				found++
				rr += 1 / float64(first)
				sumPos += float64(first)
				if first == 1 {
					at1++
				}
			}
			allShown := len(expect) > 0
			for _, e := range expect {
				allShown = allShown && shown[e]
			}
			if allShown {
				all++
			}
			return
		}
		for _, p := range perms[i] {
			rec(i+1, append(chosen, p))
		}
	}
	rec(0, nil)
	n := float64(total)
	if found > 0 {
		meanRank = sumPos / found
	}
	return found / n, all / n, at1 / n, rr / n, meanRank
}

func permutations(xs []corpus.ToolID) [][]corpus.ToolID {
	if len(xs) <= 1 {
		return [][]corpus.ToolID{append([]corpus.ToolID(nil), xs...)}
	}
	var out [][]corpus.ToolID
	for i := range xs {
		rest := append(append([]corpus.ToolID(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]corpus.ToolID{xs[i]}, p...))
		}
	}
	return out
}

// randomResult makes a result of up to four tie groups of up to four tools
// each, cut at a random limit the way a random-tie client cuts.
func randomResult(rng *rand.Rand) (search.Result, []corpus.ToolID) {
	r := search.Result{Client: "c@1"}
	pos, tool := 1, 0
	groups := 1 + rng.IntN(4)
	var all []corpus.ToolID
	sizes := make([]int, groups)
	total := 0
	for i := range sizes {
		sizes[i] = 1 + rng.IntN(4)
		total += sizes[i]
	}
	r.Limit = 1 + rng.IntN(total)
	for _, n := range sizes {
		first, last := pos, pos+n-1
		k := 0
		switch {
		case last <= r.Limit:
			k = n
		case first <= r.Limit:
			k = r.Limit - first + 1
		}
		for j := 0; j < n; j++ {
			id := corpus.ToolID(fmt.Sprintf("s/t%d", tool))
			tool++
			all = append(all, id)
			r.Hits = append(r.Hits, hit(string(id), first, last, float64(k)/float64(n)))
		}
		pos = last + 1
	}
	var expect []corpus.ToolID
	for _, id := range all {
		if rng.IntN(3) == 0 {
			expect = append(expect, id)
		}
	}
	if rng.IntN(5) == 0 {
		expect = append(expect, "s/absent")
	}
	return r, expect
}

// TestEvaluateAgainstReference checks the closed forms of the package doc
// against enumerating every tie order, on 2,000 random results.
func TestEvaluateAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 2000; i++ {
		r, expect := randomResult(rng)
		got := evaluate(r, expect)
		found, all, at1, rr, meanRank := reference(r, expect)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"p_within_limit", got.PWithinLimit, found},
			{"p_all_within_limit", got.PAllWithinLimit, all},
			{"p_at_1", got.PAt1, at1},
			{"rr", got.RR, rr},
			{"mean_rank", got.MeanRank, meanRank},
		} {
			if math.Abs(c.got-c.want) > 2e-6 {
				t.Fatalf("case %d: %s = %v, reference %v\nlimit %d hits %+v expect %v", i, c.name, c.got, c.want, r.Limit, r.Hits, expect)
			}
		}
		sum := 0.0
		for _, p := range got.Dist {
			sum += p
		}
		if math.Abs(sum-got.PWithinLimit) > 1e-5 {
			t.Fatalf("case %d: Σdist %v != p_within_limit %v", i, sum, got.PWithinLimit)
		}
	}
}

// TestEvaluateBrokenHits: hits ranked below 1 are ignored and absurd ranks
// are cut at maxRank, never a panic or an unbounded allocation.
func TestEvaluateBrokenHits(t *testing.T) {
	r := search.Result{Client: "c@1", Limit: 5, Hits: []search.Hit{
		hit("s/x", 0, 0, 1), hit("s/y", -3, 2, 1), hit("s/z", 1<<40, 1<<41, 1),
		hit("s/a", 2, 1<<40, 1)}}
	o := evaluate(r, ids("s/x", "s/a", "s/z"))
	if o.Rank != 2 || o.RankWorst != maxRank || o.PWithinLimit != 1 || len(o.Dist) != maxRank {
		t.Errorf("rank %d-%d p %v, %d dist entries", o.Rank, o.RankWorst, o.PWithinLimit, len(o.Dist))
	}
	if o.Tools[0].Rank != 0 || o.Tools[2].Rank != 0 || len(o.OutrankedBy) != 0 {
		t.Errorf("tools %+v, outranked %v", o.Tools, o.OutrankedBy)
	}
}

// FuzzEvaluate feeds arbitrary hits (as a buggy simulator might return)
// to evaluate: it must not panic, and its probabilities must stay
// probabilities with found-all ≤ found-any and RR ≤ found-any.
func FuzzEvaluate(f *testing.F) {
	f.Add([]byte{1, 1, 255, 2, 5, 128, 2, 5, 128, 2, 5, 128}, uint8(3), uint8(5))
	f.Add([]byte{0, 0, 0}, uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, expectMask, limit uint8) {
		r := search.Result{Client: "c@1", Limit: int(limit)}
		var expect []corpus.ToolID
		for i := 0; i+2 < len(data) && i < 3*64; i += 3 {
			id := fmt.Sprintf("s/t%d", (i/3)%7) // repeated ids: duplicate listings
			rank := int(int8(data[i]))
			r.Hits = append(r.Hits, hit(id, rank, rank+int(data[i+1]%8), float64(data[i+2])/255))
			if expectMask&(1<<((i/3)%8)) != 0 {
				expect = append(expect, corpus.ToolID(id))
			}
		}
		seen := map[corpus.ToolID]bool{}
		var uniq []corpus.ToolID
		for _, id := range expect {
			if !seen[id] {
				seen[id] = true
				uniq = append(uniq, id)
			}
		}
		o := evaluate(r, uniq)
		in := func(x float64) bool { return x >= 0 && x <= 1+1e-9 }
		if !in(o.PWithinLimit) || !in(o.PAllWithinLimit) || !in(o.PAt1) || !in(o.RR) {
			t.Fatalf("not probabilities: %+v", o)
		}
		if o.PAllWithinLimit > o.PWithinLimit+1e-6 || o.RR > o.PWithinLimit+1e-6 || o.PAt1 > o.RR+1e-6 {
			t.Fatalf("found-all %v / rr %v / p@1 %v exceed found-any %v", o.PAllWithinLimit, o.RR, o.PAt1, o.PWithinLimit)
		}
	})
}

// TestMergeCallsReadTokens: the model reads its calls' results in order,
// so the tokens read to reach the tool are the results before the best
// call's, then the best one up to the tool: 30 + 25 = 55; the tokens
// shown add up: 30 + 100 = 130.
func TestMergeCallsReadTokens(t *testing.T) {
	first := evaluate(search.Result{Client: "c@1", Limit: 5, ShownTokens: 30, Hits: []search.Hit{hit("s/a", 1, 1, 1)}}, ids("s/x"))
	second := evaluate(search.Result{Client: "c@1", Limit: 5, ShownTokens: 100, Uncapped: true, Hits: []search.Hit{
		{Tool: "s/x", Rank: 1, RankWorst: 1, PWithinLimit: 1, ReadTokens: 25}}}, ids("s/x"))
	m := mergeCalls([]Outcome{first, second})
	if m.ReadTokens != 55 || m.ShownTokens != 130 || !m.Found || !m.Uncapped {
		t.Errorf("read %d, shown %d, found %v, uncapped %v; want 55, 130, true, true", m.ReadTokens, m.ShownTokens, m.Found, m.Uncapped)
	}
	// Not found: nothing read to reach it.
	if m := mergeCalls([]Outcome{first, first}); m.ReadTokens != 0 {
		t.Errorf("not found: read %d, want 0", m.ReadTokens)
	}
}
