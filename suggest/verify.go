package suggest

import (
	"sort"

	"github.com/toolfind/toolfind/corpus"
)

// kept is the catalog with the edits of refs applied to the base, and the
// query set with the renames among them.
func (s *greedy) kept(refs []toolRef) (*corpus.Catalog, *corpus.QuerySet) {
	repl := map[toolRef]*corpus.Tool{}
	renames := map[corpus.ToolID]corpus.ToolID{}
	for _, r := range refs {
		te := s.edits[r]
		repl[r] = te.edited
		if te.edited.Name != te.original.Name {
			renames[te.original.ID()] = te.edited.ID()
		}
	}
	qs := withRenames(s.origQS, renames)
	return withTools(s.base, repl), qs
}

// verify re-simulates the whole corpus with the accepted edits, which the
// search screened only on the queries each could change, and drops edits
// until no learning pair is worse than before and every kept edit fixes
// something: an edit is dropped when its tool is shown instead of the
// expected one in a regressed pair (or, failing that, when its words are
// in the regressed prompt; or, failing that, the last accepted), and when
// none of its tool's pairs improved. It returns the final figures and the
// refs of the kept edits.
func (s *greedy) verify(all []int) (*state, []toolRef, error) {
	refs := append([]toolRef(nil), s.order...)
	learn := map[int]bool{}
	for _, q := range s.learnIdx {
		learn[q] = true
	}
	for round := 1; ; round++ {
		s.progress("verify", round, 0)
		cat, qs := s.kept(refs)
		s.engine.qs = qs
		after, err := s.eval(cat, all, false)
		if err != nil {
			return nil, nil, err
		}
		if len(refs) == 0 {
			s.cur = cat
			return after, refs, nil
		}
		blame := map[toolRef]int{}
		regressed := false
		for k, p := range after.p {
			if !learn[k.q] || p >= s.before.p[k]-eps {
				continue
			}
			regressed = true
			blamed := false
			for _, r := range refs {
				for _, id := range after.shown[k] {
					if id == s.edits[r].edited.ID() {
						blame[r] += 2
						blamed = true
					}
				}
			}
			if blamed {
				continue
			}
			for _, r := range refs {
				for _, st := range s.edits[r].stems {
					if s.promptStems[k.q][st] {
						blame[r]++
						blamed = true
						break
					}
				}
			}
		}
		if regressed {
			drop := -1
			for i, r := range refs {
				if drop < 0 || blame[r] > blame[refs[drop]] ||
					blame[r] == blame[refs[drop]] && s.edits[r].seq > s.edits[refs[drop]].seq {
					drop = i
				}
			}
			s.edits[refs[drop]].Dropped = "re-simulating the whole corpus found regressions it causes"
			refs = append(refs[:drop:drop], refs[drop+1:]...)
			continue
		}
		// Every kept edit must fix one of its tool's pairs.
		useless := map[toolRef]bool{}
		for _, r := range refs {
			useless[r] = true
		}
		for k, p := range after.p {
			if !learn[k.q] || p <= s.before.p[k]+eps {
				continue
			}
			for _, r := range refs {
				if expects(qs.Queries[k.q], s.edits[r].edited.ID()) {
					delete(useless, r)
				}
			}
		}
		if len(useless) == 0 {
			s.cur = cat
			return s.redundant(refs, after, learn)
		}
		var next []toolRef
		for _, r := range refs {
			if useless[r] {
				s.edits[r].Dropped = "the other edits fix its prompts already"
				continue
			}
			next = append(next, r)
		}
		refs = next
	}
}

// redundant drops, latest first, each kept edit all of whose improved
// pairs also expect another kept edit's tool, when the corpus without it
// is no worse anywhere: two tools expected by the same prompt need not
// both be edited.
func (s *greedy) redundant(refs []toolRef, after *state, learn map[int]bool) (*state, []toolRef, error) {
	// The most intrusive first (a rename before a title before a
	// description before a hint), the latest accepted among equals.
	try := append([]toolRef(nil), refs...)
	sort.SliceStable(try, func(i, j int) bool {
		a, b := s.edits[try[i]], s.edits[try[j]]
		if a.intrusiveness() != b.intrusiveness() {
			return a.intrusiveness() > b.intrusiveness()
		}
		return a.seq > b.seq
	})
	for _, r := range try {
		i := indexOf(refs, r)
		id := s.edits[r].edited.ID()
		shared, own := false, false
		for k, p := range after.p {
			if !learn[k.q] || p <= s.before.p[k]+eps || !expects(s.engine.qs.Queries[k.q], id) {
				continue
			}
			other := false
			for _, o := range refs {
				if o != r && expects(s.engine.qs.Queries[k.q], s.edits[o].edited.ID()) {
					other = true
				}
			}
			if other {
				shared = true
			} else {
				own = true
			}
		}
		if own || !shared {
			continue
		}
		rest := append(append([]toolRef(nil), refs[:i]...), refs[i+1:]...)
		var cat *corpus.Catalog
		cat, s.engine.qs = s.kept(rest)
		without, err := s.eval(cat, keys(after.p), false)
		if err != nil {
			return nil, nil, err
		}
		worse := false
		for k, p := range without.p {
			if p < after.p[k]-eps {
				worse = true
				break
			}
		}
		if worse {
			continue
		}
		s.edits[r].Dropped = "another edit fixes the same prompts (they expect both tools)"
		// without covers every query with an expected tool, so its
		// found@limit figures are the whole corpus's.
		refs, after = rest, without
	}
	s.cur, s.engine.qs = s.kept(refs)
	return after, refs, nil
}

func indexOf(refs []toolRef, r toolRef) int {
	for i, x := range refs {
		if x == r {
			return i
		}
	}
	return -1
}

// intrusiveness ranks an edit by its most intrusive change.
func (t *ToolEdit) intrusiveness() int {
	n := 0
	for _, c := range t.Changes {
		for i, f := range []Field{Hint, Description, Title, Name} {
			if c.Field == f {
				n = max(n, i)
			}
		}
	}
	return n
}

// keys lists the distinct queries of a state's pairs, in order.
func keys(p map[pairKey]float64) []int {
	seen := map[int]bool{}
	var out []int
	for k := range p {
		if !seen[k.q] {
			seen[k.q] = true
			out = append(out, k.q)
		}
	}
	sort.Ints(out)
	return out
}

// sortRefs orders edits by tool id.
func (s *greedy) sortRefs(refs []toolRef) {
	sort.Slice(refs, func(i, j int) bool { return s.edits[refs[i]].Tool < s.edits[refs[j]].Tool })
}
