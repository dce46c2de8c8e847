package suggest

import (
	"math"
	"sort"

	"github.com/toolfind/toolfind/corpus"
)

// Report is what Suggest found.
type Report struct {
	// Queries names the query set and QueryCount counts its queries;
	// Writer names who wrote the calls ("" when the query text was the
	// search).
	Queries    string `json:"queries"`
	QueryCount int    `json:"query_count"`
	Writer     string `json:"writer,omitempty"`
	// Clients are the found@limit figures over the whole query set before
	// and after the kept edits, exactly as bench reports them.
	Clients []ClientFigures `json:"clients"`
	// Edits are the kept edits, one entry per tool, by tool id.
	Edits []ToolEdit `json:"edits"`
	// Regressions are the regressions that made candidate edits be
	// rejected (each names its edit's tool and field). The kept edits
	// have none on the learning queries.
	Regressions []Regression `json:"regressions"`
	// Rejected are the candidates tried and not kept, in the order tried.
	Rejected []Rejected `json:"rejected"`
	// Unfixed are the tools some client still misses, most misses first.
	Unfixed []Unfixed `json:"unfixed"`
	// Holdout says what the edits learned on part of the queries do on
	// the part held out (Options.Holdout).
	Holdout *Holdout `json:"holdout,omitempty"`
	// Tried counts the candidate edits screened, Searches the searches
	// run (every client, every query re-simulated).
	Tried    int `json:"tried"`
	Searches int `json:"searches"`

	// Catalog is the catalog with the kept edits.
	Catalog *corpus.Catalog `json:"-"`
	// Renames maps renamed tools to their new ids.
	Renames map[corpus.ToolID]corpus.ToolID `json:"renames,omitempty"`
}

// ClientFigures are one client's found@limit before and after.
type ClientFigures struct {
	Client  string  `json:"client"`
	Before  float64 `json:"before"`
	After   float64 `json:"after"`
	Queries int     `json:"queries,omitempty"`
}

// ToolEdit is the kept edit of one tool: its changes, what they do per
// client over the tool's queries, and the pairs they fix.
type ToolEdit struct {
	Tool corpus.ToolID `json:"tool"`
	// NewID is the tool's id after a rename.
	NewID   corpus.ToolID   `json:"new_id,omitempty"`
	Changes []Change        `json:"changes"`
	Clients []ClientFigures `json:"clients"`
	Fixes   []Fix           `json:"fixes"`
	// Breaking is set when a change breaks callers (a rename).
	Breaking bool `json:"breaking,omitempty"`
	// Dropped says why verification dropped an accepted edit (only in
	// Rejected's copy).
	Dropped string `json:"-"`

	original, edited *corpus.Tool
	stems            []string
	seq              int
}

// Original and Edited are the tool before and after the edit.
func (t *ToolEdit) Original() *corpus.Tool { return t.original }

// Edited is the tool with the edit made.
func (t *ToolEdit) Edited() *corpus.Tool { return t.edited }

// Fix is one (prompt, client) pair an edit improves.
type Fix struct {
	Client string  `json:"client"`
	Query  string  `json:"query"`
	Line   int     `json:"line,omitempty"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// Regression is one (prompt, client) pair an edit makes worse.
type Regression struct {
	// Tool and Field name the rejected edit (in Report.Regressions).
	Tool   corpus.ToolID   `json:"tool,omitempty"`
	Field  Field           `json:"field,omitempty"`
	Client string          `json:"client"`
	Query  string          `json:"query"`
	Line   int             `json:"line,omitempty"`
	Expect []corpus.ToolID `json:"expect"`
	Before float64         `json:"before"`
	After  float64         `json:"after"`
	// ShownInstead are the tools shown in place of the expected ones.
	ShownInstead []corpus.ToolID `json:"shown_instead,omitempty"`
}

// Rejected is a candidate edit not kept, and why.
type Rejected struct {
	Tool   corpus.ToolID `json:"tool"`
	Change Change        `json:"change"`
	// Reason: "fixes nothing", "N regressions", or why verification
	// dropped it.
	Reason      string       `json:"reason"`
	Regressions int          `json:"regressions"`
	Examples    []Regression `json:"examples,omitempty"`
}

// Unfixed is a tool some client still misses after the edits.
type Unfixed struct {
	Tool   corpus.ToolID `json:"tool"`
	Misses int           `json:"misses"`
	// Tried counts the candidates tried for it.
	Tried int `json:"tried"`
}

// Holdout is the held-out check: per client, found@limit on the learning
// part and on the held-out part, before and after.
type Holdout struct {
	Share float64 `json:"share,omitempty"`
	Seed  uint64  `json:"seed,omitempty"`
	// Split names the rule of Options.HeldOut when one chose the part.
	Split   string          `json:"split,omitempty"`
	Learn   int             `json:"learn_queries"`
	Held    int             `json:"held_queries"`
	Clients []HoldoutClient `json:"clients"`
	// Regressions are the held-out pairs the edits make worse.
	Regressions []Regression `json:"regressions"`
}

// HoldoutClient is one client's row of the held-out check. Note says why
// a client does not improve on the held-out part.
type HoldoutClient struct {
	Client      string  `json:"client"`
	LearnBefore float64 `json:"learn_before"`
	LearnAfter  float64 `json:"learn_after"`
	HeldBefore  float64 `json:"held_before"`
	HeldAfter   float64 `json:"held_after"`
	Note        string  `json:"note,omitempty"`
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// mean is the mean found-probability of a row over the queries at idx
// that expect a tool, rounded as bench rounds.
func mean(st *state, row string, idx []int) (float64, int) {
	sum, n := 0.0, 0
	for _, q := range idx {
		if p, ok := st.p[pairKey{q, row}]; ok {
			sum += p
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return round6(sum / float64(n)), n
}

// report assembles the Report from the final state.
func (s *greedy) report(refs []toolRef, before, after *state, all, learn, held []int) (*Report, error) {
	rep := &Report{Queries: s.origQS.Source, QueryCount: len(s.origQS.Queries), Catalog: s.cur,
		Tried: s.tried, Searches: s.searches, Edits: []ToolEdit{}, Regressions: []Regression{}, Rejected: []Rejected{}, Unfixed: []Unfixed{}}
	if s.opts.Writer != nil {
		rep.Writer = s.opts.Writer.Name()
	}
	for _, row := range s.rows {
		_, n := mean(before, row, all)
		rep.Clients = append(rep.Clients, ClientFigures{Client: row, Before: before.found[row], After: after.found[row], Queries: n})
	}
	s.sortRefs(refs)
	keptSet := map[toolRef]bool{}
	for _, r := range refs {
		keptSet[r] = true
		te := *s.edits[r]
		if te.edited.Name != te.original.Name {
			te.NewID = te.edited.ID()
			if rep.Renames == nil {
				rep.Renames = map[corpus.ToolID]corpus.ToolID{}
			}
			rep.Renames[te.Tool] = te.NewID
		}
		for _, c := range te.Changes {
			te.Breaking = te.Breaking || c.Breaking
		}
		var idx []int
		for _, q := range all {
			if expects(s.engine.qs.Queries[q], te.edited.ID()) {
				idx = append(idx, q)
			}
		}
		for _, row := range s.rows {
			b, n := mean(before, row, idx)
			a, _ := mean(after, row, idx)
			if n > 0 {
				te.Clients = append(te.Clients, ClientFigures{Client: row, Before: b, After: a, Queries: n})
			}
		}
		te.Fixes = []Fix{}
		for _, q := range idx {
			for _, row := range s.rows {
				k := pairKey{q, row}
				pa, ok := after.p[k]
				if ok && pa > before.p[k]+eps {
					qq := s.origQS.Queries[q]
					te.Fixes = append(te.Fixes, Fix{Client: row, Query: qq.Text, Line: qq.Line, Before: before.p[k], After: pa})
				}
			}
		}
		rep.Edits = append(rep.Edits, te)
	}
	// Dropped edits join the rejected ones.
	for _, r := range s.order {
		if te := s.edits[r]; !keptSet[r] {
			for _, c := range te.Changes {
				s.rejected = append(s.rejected, Rejected{Tool: te.Tool, Change: c, Reason: te.Dropped})
			}
		}
	}
	rep.Rejected = s.rejected
	for _, rj := range s.rejected {
		for _, ex := range rj.Examples {
			ex.Tool, ex.Field = rj.Tool, rj.Change.Field
			rep.Regressions = append(rep.Regressions, ex)
		}
	}
	// What is still missed (on the learning queries).
	tried := map[corpus.ToolID]int{}
	for _, rj := range s.rejected {
		tried[rj.Tool]++
	}
	for _, e := range rep.Edits {
		tried[e.Tool] += len(e.Changes)
	}
	misses := map[corpus.ToolID]int{}
	for _, q := range learn {
		for _, row := range s.rows {
			if p, ok := after.p[pairKey{q, row}]; ok && p < 1-eps {
				for _, id := range s.origQS.Queries[q].Expect {
					misses[id]++
				}
			}
		}
	}
	for id, n := range misses {
		rep.Unfixed = append(rep.Unfixed, Unfixed{Tool: id, Misses: n, Tried: tried[id]})
	}
	sort.Slice(rep.Unfixed, func(i, j int) bool {
		a, b := rep.Unfixed[i], rep.Unfixed[j]
		if a.Misses != b.Misses {
			return a.Misses > b.Misses
		}
		return a.Tool < b.Tool
	})
	if len(held) > 0 {
		rep.Holdout = s.holdout(refs, before, after, learn, held)
	}
	return rep, nil
}

// holdout fills the held-out check.
func (s *greedy) holdout(refs []toolRef, before, after *state, learn, held []int) *Holdout {
	h := &Holdout{Share: s.opts.Holdout, Seed: s.opts.Seed, Split: s.opts.Split, Learn: len(learn), Held: len(held), Regressions: []Regression{}}
	for _, row := range s.rows {
		c := HoldoutClient{Client: row}
		c.LearnBefore, _ = mean(before, row, learn)
		c.LearnAfter, _ = mean(after, row, learn)
		c.HeldBefore, _ = mean(before, row, held)
		c.HeldAfter, _ = mean(after, row, held)
		switch {
		case c.HeldAfter > c.HeldBefore:
		case c.HeldBefore == 1:
			c.Note = "nothing to fix: every held-out prompt was found already"
		case len(refs) == 0:
			c.Note = "no edit was kept"
		case c.HeldAfter < c.HeldBefore:
			c.Note = "the edits make held-out prompts worse (see the regressions): they fit the learning prompts' words only"
		default:
			c.Note = "the held-out misses use words the learning misses did not, or the edits' words do not move this client's ranking"
		}
		h.Clients = append(h.Clients, c)
	}
	for _, q := range held {
		for _, row := range s.rows {
			k := pairKey{q, row}
			if pa, ok := after.p[k]; ok && pa < before.p[k]-eps {
				h.Regressions = append(h.Regressions, regression(s.origQS.Queries[q], row, before.p[k], pa, after.shown[k]))
			}
		}
	}
	sortRegressions(h.Regressions)
	return h
}
