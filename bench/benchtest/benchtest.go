// Package benchtest provides small fake client simulators for testing code
// that evaluates simulators (package bench, the CLI, a server author's own
// harness) without depending on any real client's scoring, so that golden
// files stay stable when the real simulators change.
//
// The fakes score a tool by the number of distinct query words (lowercase
// runs of letters and digits, two characters or more) that occur as words
// of its name or description. Tools with a positive score are hits, best
// score first; tools of equal score are tied.
//
//   - Ordered ("fake"): ties in catalog order; each hit its own position
//     (Rank == RankWorst); the first Limit hits are returned, each with
//     PWithinLimit 1. Default limit 3.
//   - Random ("fake-random"): ties broken at random, as Grok Build does:
//     tied tools share Rank (the group's first position) and RankWorst (its
//     last); every group that starts within the limit is returned whole,
//     and a group that straddles the limit has PWithinLimit = slots/size.
//     Default limit 3.
//   - Multi ("fake-multi"): Ordered, plus one Variant with strategy
//     "names", which scores names only (Codex code mode's several scripts
//     are the real case).
//
// Worked example on the demo catalog, query "ticket": the words "ticket"
// occur in create_ticket ("Opens a new support ticket…"), close-ticket,
// addComment ("…to a ticket thread") and render_board ("…the ticket
// board…"), score 1 each (search_tickets says "tickets", another word).
// Ordered returns create_ticket 1, close-ticket 2, addComment 3; Random
// returns all four with Rank 1, RankWorst 4, PWithinLimit 3/4.
package benchtest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Mode selects a fake's behaviour.
type Mode int

// The fakes.
const (
	Ordered Mode = iota
	Random
	Multi
)

// Names are the registered client names of the modes.
var Names = map[Mode]string{Ordered: "fake", Random: "fake-random", Multi: "fake-multi"}

// Version is the fakes' profile version.
const Version = "1"

// DefaultLimit is the fakes' default result limit.
const DefaultLimit = 3

type doc struct {
	id    corpus.ToolID
	name  string
	words map[string]bool // name and description
	names map[string]bool // name only
}

// Sim is a fake simulator.
type Sim struct {
	mode  Mode
	docs  []doc
	words map[string][]int // word → docs containing it (name or description)
	names map[string][]int // word → docs whose name contains it
}

// New builds a fake over cat (first definition of each tool wins).
func New(cat *corpus.Catalog, mode Mode) *Sim {
	s := &Sim{mode: mode, words: map[string][]int{}, names: map[string][]int{}}
	for i, t := range cat.UniqueTools() {
		d := doc{
			id:    t.ID(),
			name:  t.Server + "__" + t.Name,
			words: wordSet(t.Name + " " + t.Description),
			names: wordSet(t.Name),
		}
		s.docs = append(s.docs, d)
		for w := range d.words {
			s.words[w] = append(s.words[w], i)
		}
		for w := range d.names {
			s.names[w] = append(s.names[w], i)
		}
	}
	return s
}

// Client implements search.Simulator.
func (s *Sim) Client() search.ClientID {
	return search.ClientID{Name: Names[s.mode], Version: Version}
}

// Search implements search.Simulator. A query "ERROR" fails, so that
// error handling can be tested.
func (s *Sim) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	if q.Text == "ERROR" {
		return search.Result{}, fmt.Errorf("fake failure for query %q", q.Text)
	}
	limit := q.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	mode := s.mode
	if mode == Multi {
		mode = Ordered
	}
	r := s.search(q.Text, limit, mode, false)
	if s.mode == Multi {
		v := s.search(q.Text, limit, Ordered, true)
		v.Strategy = "names"
		r.Strategy = "words"
		r.Variants = []search.Result{v}
	}
	return r, nil
}

func (s *Sim) search(text string, limit int, mode Mode, namesOnly bool) search.Result {
	type scored struct {
		i     int
		score int
	}
	index := s.words
	if namesOnly {
		index = s.names
	}
	counts := map[int]int{}
	for w := range wordSet(text) {
		for _, i := range index[w] {
			counts[i]++
		}
	}
	cands := make([]scored, 0, len(counts))
	for i, n := range counts {
		cands = append(cands, scored{i, n})
	}
	// Best score first, ties in catalog order.
	sort.Slice(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].i < cands[b].i
	})
	r := search.Result{Client: s.Client().String(), Limit: limit, Hits: []search.Hit{}}
	for start := 0; start < len(cands); {
		end := start
		for end < len(cands) && cands[end].score == cands[start].score {
			end++
		}
		for k := start; k < end; k++ {
			c := cands[k]
			h := search.Hit{Tool: s.docs[c.i].id, Name: s.docs[c.i].name, Score: float64(c.score),
				Why: []string{fmt.Sprintf("%d query words", c.score)}}
			if mode == Ordered {
				if k >= limit {
					break
				}
				h.Rank, h.RankWorst, h.PWithinLimit = k+1, k+1, 1
			} else {
				if start >= limit {
					break
				}
				h.Rank, h.RankWorst = start+1, end
				h.PWithinLimit = 1
				if end > limit {
					h.PWithinLimit = float64(limit-start) / float64(end-start)
				}
			}
			r.Hits = append(r.Hits, h)
		}
		if mode == Ordered && end >= limit || start >= limit {
			break
		}
		start = end
	}
	var names []string
	for _, h := range r.Hits {
		names = append(names, h.Name)
	}
	r.Shown = strings.Join(names, "\n")
	r.ShownTokens = (len(r.Shown) + 3) / 4
	return r
}

// wordSet splits lowercase text into runs of letters and digits of two
// characters or more.
func wordSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) >= 2 {
			set[w] = true
		}
	}
	return set
}

var once sync.Once

// Register adds the three fakes to package search's registry (once; later
// calls do nothing), as fake@1, fake-random@1 and fake-multi@1. They are
// not default profiles, so "all" never selects them; name them
// ("--client fake,fake-random").
func Register() {
	once.Do(func() {
		for _, m := range []Mode{Ordered, Random, Multi} {
			m := m
			search.Register(search.Profile{
				ID:      search.ClientID{Name: Names[m], Version: Version},
				Summary: "test fake (" + Names[m] + "): counts query words in names and descriptions",
				New: func(cat *corpus.Catalog, _ search.Options) (search.Simulator, error) {
					return New(cat, m), nil
				},
			})
		}
	})
}
