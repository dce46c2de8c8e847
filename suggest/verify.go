package suggest

import (
	"sort"

	"github.com/toolfind/toolfind/corpus"
)

// kept is the catalog with the edits of refs applied to the base, and the
// query set with the renames among them.
func (s *search_) kept(refs []toolRef) (*corpus.Catalog, *corpus.QuerySet) {
	repl := map[toolRef]*corpus.Tool{}
	renames := map[corpus.ToolID]corpus.ToolID{}
	for _, r := range refs {
		te := s.edits[r]
		repl[r] = te.edited
		if te.edited.Name != te.original.Name {
			renames[te.original.ID()] = te.edited.ID()
		}
	}
	qs := s.origQS
	if len(renames) > 0 {
		qs = &corpus.QuerySet{Source: qs.Source, Queries: append([]corpus.Query(nil), qs.Queries...)}
		for i := range qs.Queries {
			q := &qs.Queries[i]
			for j, id := range q.Expect {
				if n, ok := renames[id]; ok {
					q.Expect = append([]corpus.ToolID(nil), q.Expect...)
					q.Expect[j] = n
				}
			}
		}
	}
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
func (s *search_) verify(all []int) (*state, []toolRef, error) {
	refs := append([]toolRef(nil), s.order...)
	learn := map[int]bool{}
	for _, q := range s.learn {
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
			return after, refs, nil
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

// sortRefs orders edits by tool id.
func (s *search_) sortRefs(refs []toolRef) {
	sort.Slice(refs, func(i, j int) bool { return s.edits[refs[i]].Tool < s.edits[refs[j]].Tool })
}
