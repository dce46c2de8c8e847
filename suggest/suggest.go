package suggest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/bm25"
	"github.com/toolfind/toolfind/search/intent"
	"github.com/toolfind/toolfind/writer"
)

// Defaults of Options.
const (
	// DefaultDescriptionBudget bounds how many characters an edit may add
	// to a description, so that a suggestion never becomes keyword
	// stuffing.
	DefaultDescriptionBudget = 160
	// DefaultHintWords bounds the words an edit adds to a search hint.
	DefaultHintWords = 8
	// maxDescriptionWords bounds the words put at the front of a
	// description: a lead-in, not a keyword list.
	maxDescriptionWords = 4
	// titleBudget bounds the characters a title edit adds.
	titleBudget = 60
	// maxRejectedShown bounds the regressions kept per rejected edit.
	maxRejectedShown = 5
	// maxRepairs bounds the whole-corpus verifications after the search.
	maxRepairs = 12
)

// Builder builds the selected clients' simulators over a catalog.
type Builder func(cat *corpus.Catalog) ([]search.Simulator, error)

// Options tune Suggest.
type Options struct {
	// Limit and Workers are bench.Options' (0: each client's default; one
	// worker per CPU).
	Limit, Workers int
	// Writer writes each client's calls from the prompt (package writer);
	// nil means the query text is the search, as in bench without one.
	Writer writer.Writer
	// DescriptionBudget is how many characters a description may grow by
	// (0: DefaultDescriptionBudget); HintWords how many words a search
	// hint may gain (0: DefaultHintWords).
	DescriptionBudget, HintWords int
	// Rename allows renames, the last resort: they break callers.
	Rename bool
	// Holdout, when above 0, holds that share of the queries out (a seeded
	// shuffle): edits are learned on the rest and the report says what
	// they do on the held-out part.
	Holdout float64
	Seed    uint64
	// HeldOut, when set, holds out the queries it is true for instead of a
	// share (e.g. AlternateLines); Split names the rule in the report.
	HeldOut func(q corpus.Query) bool
	Split   string
	// Progress, when set, is called as the work goes on (serialised).
	Progress func(phase string, done, total int)
}

// pairKey is one (query, client row) pair.
type pairKey struct {
	q   int
	row string
}

// state is the search's view of one catalog: the found-probability of
// every pair, and what was written and shown.
type state struct {
	// found is each row's found@limit as bench reports it (whole-corpus
	// runs only).
	found map[string]float64
	p     map[pairKey]float64
	calls map[pairKey][]json.RawMessage
	shown map[pairKey][]corpus.ToolID // OutrankedBy: what was shown instead
}

// engine carries one Suggest run.
type engine struct {
	ctx   context.Context
	build Builder
	qs    *corpus.QuerySet
	opts  Options
	rows  []string // primary row labels, in report order
	// promptStems[q] are the stems of query q's prompt.
	promptStems []map[string]bool
	// claudeRows are the rows of Claude Code (search hints are Claude's
	// only); searchRows those of Codex's tool_search (titles).
	claudeRows, titleRows map[string]bool
	searches              int
	stemCache             map[string]map[string]bool
}

// callStems are the stems of a pair's keyword calls (callTexts), cached
// by the calls' bytes: the same calls are read for every candidate.
func (e *engine) callStems(calls []json.RawMessage) map[string]bool {
	var key strings.Builder
	for _, c := range calls {
		key.Write(c)
		key.WriteByte(0)
	}
	if m, ok := e.stemCache[key.String()]; ok {
		return m
	}
	if e.stemCache == nil {
		e.stemCache = map[string]map[string]bool{}
	}
	m := map[string]bool{}
	for _, t := range callTexts(calls) {
		maps.Copy(m, stemsOf(t))
	}
	e.stemCache[key.String()] = m
	return m
}

// Suggest finds edits that make the expected tools of qs findable by
// more of the clients build makes, verifies each by re-simulation, and
// reports them (see the package doc).
func Suggest(ctx context.Context, cat *corpus.Catalog, build Builder, qs *corpus.QuerySet, opts Options) (*Report, error) {
	if qs == nil || len(qs.Queries) == 0 {
		return nil, errors.New("suggest: no queries")
	}
	if opts.Holdout < 0 || opts.Holdout >= 1 {
		return nil, fmt.Errorf("suggest: holdout %v: want a share between 0 and 1", opts.Holdout)
	}
	if opts.DescriptionBudget <= 0 {
		opts.DescriptionBudget = DefaultDescriptionBudget
	}
	if opts.HintWords <= 0 {
		opts.HintWords = DefaultHintWords
	}
	e := &engine{ctx: ctx, build: build, qs: qs, opts: opts, claudeRows: map[string]bool{}, titleRows: map[string]bool{}}
	for _, q := range qs.Queries {
		e.promptStems = append(e.promptStems, stemsOf(q.Text))
	}
	all := make([]int, len(qs.Queries))
	for i := range all {
		all[i] = i
	}
	learn, held := all, []int(nil)
	if opts.HeldOut != nil {
		learn = nil
		for i, q := range qs.Queries {
			if opts.HeldOut(q) {
				held = append(held, i)
			} else {
				learn = append(learn, i)
			}
		}
		if len(held) == 0 || len(learn) == 0 {
			return nil, fmt.Errorf("suggest: %s leaves %d of %d queries to learn on and %d held out: both need one at least", opts.Split, len(learn), len(all), len(held))
		}
	} else if opts.Holdout > 0 {
		learn, held = split(len(all), opts.Holdout, opts.Seed)
		if len(held) == 0 || len(learn) == 0 {
			return nil, fmt.Errorf("suggest: holdout %v of %d queries leaves %d to learn on and %d held out: both need one at least", opts.Holdout, len(all), len(learn), len(held))
		}
	}

	e.progress("before", 0, 1)
	before, err := e.eval(cat, all, true)
	if err != nil {
		return nil, err
	}
	e.progress("before", 1, 1)
	s := &greedy{engine: e, base: cat, cur: cat, origQS: qs, learnIdx: learn, fold: foldsOf(learn), before: before, state: before.clone(), edits: map[toolRef]*ToolEdit{}}
	if err := s.run(); err != nil {
		return nil, err
	}
	after, final, err := s.verify(all)
	if err != nil {
		return nil, err
	}
	return s.report(final, before, after, all, learn, held)
}

func (e *engine) progress(phase string, done, total int) {
	if e.opts.Progress != nil {
		e.opts.Progress(phase, done, total)
	}
}

// AlternateLines holds out the queries on even-numbered lines of their
// file (2, 4, 6, …): the edits are learned on lines 1, 3, 5, … (the even
// lines when counting from 0, as corpora/held-out.json does).
func AlternateLines(q corpus.Query) bool { return q.Line%2 == 0 }

// foldsOf deals the learning queries into the folds by position.
func foldsOf(learn []int) map[int]int {
	m := make(map[int]int, len(learn))
	for i, q := range learn {
		m[q] = i % folds
	}
	return m
}

// split shuffles 0..n-1 with the seed and holds out the first share.
func split(n int, share float64, seed uint64) (learn, held []int) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	r := rand.New(rand.NewPCG(seed, 0x70_6f_6f_6c_66_69_6e_64))
	r.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	k := int(float64(n)*share + 0.5)
	held, learn = append([]int(nil), idx[:k]...), append([]int(nil), idx[k:]...)
	sort.Ints(held)
	sort.Ints(learn)
	return learn, held
}

func (s *state) clone() *state {
	c := &state{p: make(map[pairKey]float64, len(s.p)), calls: make(map[pairKey][]json.RawMessage, len(s.calls)),
		shown: make(map[pairKey][]corpus.ToolID, len(s.shown))}
	c.merge(s)
	return c
}

// merge overwrites s with the pairs of sub.
func (s *state) merge(sub *state) {
	maps.Copy(s.p, sub.p)
	maps.Copy(s.calls, sub.calls)
	maps.Copy(s.shown, sub.shown)
}

// eval runs every client over the queries at idx on cat (bench.Run with
// the writer) and returns each pair's found-probability. first records
// the primary rows.
func (e *engine) eval(cat *corpus.Catalog, idx []int, first bool) (*state, error) {
	st := &state{p: map[pairKey]float64{}, calls: map[pairKey][]json.RawMessage{}, shown: map[pairKey][]corpus.ToolID{}}
	if len(idx) == 0 {
		return st, nil
	}
	sims, err := e.build(cat)
	if err != nil {
		return nil, err
	}
	sub := &corpus.QuerySet{Source: e.qs.Source, Queries: make([]corpus.Query, len(idx))}
	for i, q := range idx {
		sub.Queries[i] = e.qs.Queries[q]
	}
	bo := bench.Options{Limit: e.opts.Limit, Workers: e.opts.Workers}
	if e.opts.Writer != nil {
		bo.Writers = []writer.Writer{e.opts.Writer}
	}
	rep, err := bench.Run(e.ctx, sims, sub, bo)
	if err != nil {
		return nil, err
	}
	e.searches += len(idx) * len(sims)
	primary := map[string]bool{}
	st.found = map[string]float64{}
	for _, c := range rep.Clients {
		if !c.Variant {
			primary[c.Client] = true
			st.found[c.Client] = c.FoundAtLimit
			if first {
				e.rows = append(e.rows, c.Client)
			}
		}
	}
	if first {
		for _, s := range sims {
			switch s.Client().Name {
			case "claude":
				e.claudeRows[s.Client().String()] = true
			case "codex-search":
				e.titleRows[s.Client().String()] = true
			}
		}
	}
	for i := range rep.Outcomes {
		o := &rep.Outcomes[i]
		if !primary[o.Client] || len(o.Expect) == 0 {
			continue
		}
		k := pairKey{idx[o.QueryIndex()], o.Client}
		st.p[k] = o.PWithinLimit
		st.calls[k] = o.Calls
		st.shown[k] = o.OutrankedBy
	}
	return st, nil
}

// affected lists the queries an edit adding stems to tool t can change:
// those expecting t, and those whose prompt or written calls use one of
// the stems. In any other query the edit can only lower t's score (a
// longer text weighs each of its words less), which never hurts another
// tool's pair: t moves down, the expected tool up. (Other queries can move only through a collection statistic
// such as BM25's average length; the final whole-corpus verification
// catches those.)
func (s *greedy) affected(t corpus.ToolID, stems []string) []int {
	var out []int
	for _, q := range s.learnIdx {
		hit := false
		for _, id := range s.engine.qs.Queries[q].Expect {
			if id == t {
				hit = true
			}
		}
		for _, st := range stems {
			if hit {
				break
			}
			if s.engine.promptStems[q][st] {
				hit = true
			}
		}
		for _, row := range s.engine.rows {
			if hit {
				break
			}
			cs := s.callStems(s.state.calls[pairKey{q, row}])
			for _, st := range stems {
				if cs[st] {
					hit = true
				}
			}
		}
		if hit {
			out = append(out, q)
		}
	}
	return out
}

// greedy is the greedy search over edits.
type greedy struct {
	*engine
	base, cur *corpus.Catalog
	origQS    *corpus.QuerySet
	learnIdx  []int
	// fold is each learning query's cross-validation fold.
	fold     map[int]int
	before   *state
	state    *state
	edits    map[toolRef]*ToolEdit
	order    []toolRef // edited tools, in the order first edited
	rejected []Rejected
	tried    int
}

// missedPairs returns the learning pairs where some expected tool is
// t and no expected tool is certainly shown.
func (s *greedy) missedPairs(t corpus.ToolID) []pairKey {
	var out []pairKey
	for _, q := range s.learnIdx {
		exp := false
		for _, id := range s.qs.Queries[q].Expect {
			if id == t {
				exp = true
			}
		}
		if !exp {
			continue
		}
		for _, row := range s.rows {
			k := pairKey{q, row}
			if p, ok := s.state.p[k]; ok && p < 1-eps {
				out = append(out, k)
			}
		}
	}
	return out
}

const eps = 1e-9

// targets lists the tools with missed pairs, most missed first.
func (s *greedy) targets() []corpus.ToolID {
	count := map[corpus.ToolID]int{}
	for _, q := range s.learnIdx {
		for _, row := range s.rows {
			if p, ok := s.state.p[pairKey{q, row}]; ok && p < 1-eps {
				for _, id := range s.qs.Queries[q].Expect {
					count[id]++
				}
			}
		}
	}
	ids := make([]corpus.ToolID, 0, len(count))
	for id := range count {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if count[ids[i]] != count[ids[j]] {
			return count[ids[i]] > count[ids[j]]
		}
		return ids[i] < ids[j]
	})
	return ids
}

func (s *greedy) run() error {
	targets := s.targets()
	for i, id := range targets {
		s.progress("search", i, len(targets))
		if err := s.improve(id); err != nil {
			return err
		}
	}
	s.progress("search", len(targets), len(targets))
	return nil
}

// improve tries the edits of one tool, least intrusive field first, and
// keeps each field's edit that cross-validation shows to carry over to
// prompts it was not learned on (see crossValidate).
func (s *greedy) improve(id corpus.ToolID) error {
	for _, f := range []Field{Hint, Description, Title, Name} {
		if f == Name && !s.opts.Rename {
			continue
		}
		t := s.cur.Tool(id)
		if t == nil {
			return nil // renamed away
		}
		missed := s.missedPairs(id)
		if len(missed) == 0 {
			return nil
		}
		var words []missedWords
		for _, k := range missed {
			if s.fieldReaches(f, k) {
				words = append(words, missedWords{query: k.q, fold: s.fold[k.q], text: s.qs.Queries[k.q].Text,
					words: pairWords(s.qs.Queries[k.q].Text, s.state.calls[k])})
			}
		}
		if len(words) == 0 {
			continue
		}
		tr, err := s.crossValidate(f, t, words)
		if err != nil {
			return err
		}
		if tr != nil {
			s.accept(tr)
		}
	}
	return nil
}

// learn is the word learner cross-validation judges: the words of the
// missed pairs outside fold skip (-1: none skipped) that are not generic
// and that are the tool's vocabulary: used by the learning prompts that
// expect the tool (found or missed) in at least minFolds folds, or used
// by one and either a longer form or a part of a word of the tool's name
// (nameRelated), in the tool's input schema (a parameter's name or
// description: "size" for a disk update with a size-gb parameter) or of
// the action family (intent.Families: "remove" and "delete") of an action
// the tool's name or description has. A word of one prompt is that
// prompt's, not the tool's ("groceries", "d4s").
func (s *greedy) learn(t *corpus.Tool, words []missedWords, skip int) []candidateWord {
	var in []missedWords
	for _, w := range words {
		if w.fold != skip {
			in = append(in, w)
		}
	}
	var others []map[string]bool
	support := map[string]map[int]bool{}
	for _, q := range s.learnIdx {
		if s.fold[q] == skip {
			continue
		}
		if !expects(s.qs.Queries[q], t.ID()) {
			others = append(others, s.promptStems[q])
			continue
		}
		for st := range s.promptStems[q] {
			if support[st] == nil {
				support[st] = map[int]bool{}
			}
			support[st][s.fold[q]] = true
		}
	}
	have := stemsOf(toolText(t))
	schema := s.schemaStems(t)
	var out []candidateWord
	for _, w := range rankWords(t, in, others) {
		w.Initials = initialsOf(w.Form, t)
		if n := len(support[w.Stem]); n >= minFolds || n > 0 && ownWord(w, t, have, schema) {
			out = append(out, w)
		}
	}
	return out
}

// schemaStems are the stems of a tool's input schema text (property
// names and descriptions, intent.SchemaText): words the author already
// uses for the tool, which its description may lack.
func (s *greedy) schemaStems(t *corpus.Tool) map[string]bool {
	return stemsOf(intent.SchemaText(t.InputSchema))
}

// ownWord reports whether a word of one prompt is the tool's own
// vocabulary all the same: an action (actionVerbs: what the prompt asks
// the tool to do, "resize"), a longer form or a part of a name word
// (nameRelated), the initials of words of its name or description
// (initialsOf: "WAF"), or a word of its input schema.
func ownWord(w candidateWord, t *corpus.Tool, have, schema map[string]bool) bool {
	_, act := actionBase(w.Form, w.Stem)
	return act || schema[w.Stem] || nameRelated(w.Form, t) || nameRelated(w.Stem, t) ||
		w.Initials
}

// initialsOf reports whether a word of 2 to 5 letters is the initials of
// consecutive words of the tool's name or description ("waf" for "Well-
// Architected Framework").
func initialsOf(form string, t *corpus.Tool) bool {
	if len(form) < 2 || len(form) > 5 {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(humanize(t.Name)+" "+t.Description), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for i := 0; i+len(form) <= len(words); i++ {
		ok := true
		for j := 0; j < len(form) && ok; j++ {
			ok = words[i+j][0] == form[j]
		}
		if ok {
			return true
		}
	}
	return false
}

// nameRelated reports whether a word is a compound part or a longer form
// of a word of the tool's name: one starts or ends with the other, the
// shorter having two letters at least when it is the name's ("vms" for
// compute_vm_get, "cosmosdb" for cosmos_list) and four when it is the
// word ("config" for appconfig_kv_get). Actions do not count: "get" is
// in "target".
func nameRelated(form string, t *corpus.Tool) bool {
	for _, part := range strings.Fields(strings.ToLower(humanize(t.Name))) {
		if part == form || isAction(bm25.Stem(part)) {
			continue
		}
		if len(part) >= 2 && len(form) > len(part) && (strings.HasPrefix(form, part) || strings.HasSuffix(form, part)) {
			return true
		}
		if len(form) >= 4 && len(part) > len(form) && (strings.HasPrefix(part, form) || strings.HasSuffix(part, form)) {
			return true
		}
	}
	return false
}

// Cross-validation constants: the learning queries are dealt into folds
// folds by their position (so that the prompts of one tool, often on
// neighbouring lines, spread over every fold); a word must be used by
// missed prompts of minFolds folds.
const (
	folds    = 3
	minFolds = 2
)

// cvScore is what the edits learned without each fold do on that fold.
type cvScore struct {
	gain  float64
	regs  int
	fixes int
}

// crossValidate chooses the number of words of field f's edit of t by
// what it does on prompts it was not learned on: for each size n, and
// each fold k, the top n words learned on the other folds are phrased
// and re-simulated, and their gains and regressions on fold k's pairs
// are summed over k. The size with the largest held-out gain and no
// held-out regression wins (fewest words among equals); no size with a
// held-out gain means the edit does not carry over, and it is rejected.
// The edit kept is that size's words learned on every fold, re-simulated
// on every learning query it can change: it must fix something and make
// nothing worse.
func (s *greedy) crossValidate(f Field, t *corpus.Tool, words []missedWords) (*trial, error) {
	full := s.learn(t, words, -1)
	if len(full) == 0 {
		return nil, nil
	}
	cache := map[string]*trial{}
	screen := func(ws []candidateWord) (*trial, error) {
		c := s.change(f, t, ws)
		if tr, ok := cache[c.After]; ok {
			return tr, nil
		}
		tr, err := s.try(t, c, ws)
		if err != nil {
			return nil, err
		}
		cache[c.After] = tr
		return tr, nil
	}
	sizes := s.sizes(f, t, full)
	if len(sizes) == 0 {
		return nil, nil // no room in the budget
	}
	var best cvScore
	bestN, heldRegs := 0, 0
	var heldEx []Regression
	for _, n := range sizes {
		var sc cvScore
		for k := 0; k < folds; k++ {
			rk := s.learn(t, words, k)
			m := min(n, s.maxWords(f, t, rk))
			if m == 0 {
				continue
			}
			tr, err := screen(rk[:m])
			if err != nil {
				return nil, err
			}
			for key, p := range tr.sub.p {
				if s.fold[key.q] != k {
					continue
				}
				switch old := s.state.p[key]; {
				case p < old-eps:
					sc.regs++
					if len(heldEx) < maxRejectedShown {
						heldEx = append(heldEx, regression(s.qs.Queries[key.q], key.row, old, p, tr.sub.shown[key]))
					}
				case p > old+eps:
					sc.gain += p - old
					sc.fixes++
				}
			}
		}
		heldRegs += sc.regs
		if sc.regs == 0 && (bestN == 0 || sc.gain > best.gain+eps) {
			best, bestN = sc, n
		}
	}
	if bestN == 0 {
		c := s.change(f, t, full[:sizes[0]])
		rj := Rejected{Tool: t.ID(), Change: c, Regressions: heldRegs}
		if heldRegs > 0 {
			rj.Reason = fmt.Sprintf("learned without a fold, it makes %d of that fold's %s worse", heldRegs, plural(heldRegs, "pair", "pairs"))
			sortRegressions(heldEx)
			rj.Examples = heldEx
		} else {
			rj.Reason = "does not carry over: learned without a fold, it fixes none of that fold's prompts"
		}
		s.rejected = append(s.rejected, rj)
		return nil, nil
	}
	tr, err := screen(full[:min(bestN, s.maxWords(f, t, full))])
	if err != nil {
		return nil, err
	}
	if len(tr.regs) > 0 || tr.gain <= eps {
		rj := Rejected{Tool: t.ID(), Change: tr.change, Regressions: len(tr.regs)}
		regs := append([]Regression(nil), tr.regs...)
		sortRegressions(regs)
		if len(regs) > maxRejectedShown {
			regs = regs[:maxRejectedShown]
		}
		rj.Examples = regs
		if len(regs) == 0 {
			rj.Reason = "fixes nothing"
		} else {
			rj.Reason = fmt.Sprintf("%d %s", rj.Regressions, plural(rj.Regressions, "regression", "regressions"))
		}
		s.rejected = append(s.rejected, rj)
		return nil, nil
	}
	return tr, nil
}

// fieldReaches reports whether an edit of f can change pair k: a search
// hint only Claude's keyword searches (a select: call looks names up,
// specs/claude.md §1), a title only Codex's tool_search (specs/codex.md
// §5.1 item 5); descriptions and names every client.
func (s *greedy) fieldReaches(f Field, k pairKey) bool {
	switch f {
	case Hint:
		return s.claudeRows[k.row] && (s.opts.Writer == nil || len(callTexts(s.state.calls[k])) > 0)
	case Title:
		return s.titleRows[k.row]
	}
	return true
}

func expects(q corpus.Query, id corpus.ToolID) bool {
	for _, e := range q.Expect {
		if e == id {
			return true
		}
	}
	return false
}

// maxWords is the most words of ranked a field's edit may take within
// its budget.
func (s *greedy) maxWords(f Field, t *corpus.Tool, ranked []candidateWord) int {
	switch f {
	case Hint:
		return min(len(ranked), s.opts.HintWords)
	case Description:
		n := 0
		for n < len(ranked) && n < maxDescriptionWords &&
			len(insertSentence(t.Description, sentenceFor(t, ranked[:n+1])))-len(t.Description) <= s.opts.DescriptionBudget {
			n++
		}
		return n
	case Title:
		n := 0
		for n < len(ranked) && n < 4 && len(titleFor(t, ranked[:n+1]))-len(t.Title) <= titleBudget {
			n++
		}
		return n
	case Name:
		return min(len(ranked), 2)
	}
	return 0
}

// sizes are the numbers of words tried for a field, fewest first, within
// the budgets: 1, 2, 4, 8 and the most the budget allows.
func (s *greedy) sizes(f Field, t *corpus.Tool, ranked []candidateWord) []int {
	max := s.maxWords(f, t, ranked)
	var out []int
	for _, n := range []int{1, 2, 4, 8} {
		if n < max {
			out = append(out, n)
		}
	}
	if max > 0 {
		out = append(out, max)
	}
	return out
}

// change builds the change of field f adding the words: a search hint
// gains them as keywords, a description a sentence (sentenceFor), a title
// the words in brackets, a name the words in its own style.
func (s *greedy) change(f Field, t *corpus.Tool, words []candidateWord) Change {
	forms := make([]string, len(words))
	for i, w := range words {
		forms[i] = w.Form
	}
	c := Change{Field: f, Before: currentValue(t, f), Words: forms}
	switch f {
	case Hint:
		c.After = strings.TrimSpace(c.Before + " " + strings.Join(forms, " "))
	case Description:
		c.Sentence = sentenceFor(t, words)
		c.After = insertSentence(t.Description, c.Sentence)
	case Title:
		c.After = titleFor(t, words)
	case Name:
		c.After = renamed(t.Name, forms)
		c.Breaking = true
	}
	return c
}

// titleFor is the title (or the humanized name) followed by the words in
// brackets.
func titleFor(t *corpus.Tool, words []candidateWord) string {
	base := t.Title
	if base == "" {
		base = humanize(t.Name)
	}
	forms := make([]string, len(words))
	for i, w := range words {
		forms[i] = w.Form
	}
	return base + " (" + strings.Join(forms, ", ") + ")"
}

// renamed appends the words to a name in its own style: snake_case,
// kebab-case or camelCase.
func renamed(name string, words []string) string {
	switch {
	case strings.Contains(name, "_"):
		return name + "_" + strings.Join(words, "_")
	case strings.Contains(name, "-"):
		return name + "-" + strings.Join(words, "-")
	}
	for _, w := range words {
		name += upperFirst(w)
	}
	return name
}

// trial is one candidate edit screened on the queries it can change.
type trial struct {
	tool    *corpus.Tool // the tool as it is now
	change  Change
	edited  *corpus.Tool
	cat     *corpus.Catalog
	sub     *state
	gain    float64
	fixes   []pairKey
	regs    []Regression
	words   []candidateWord
	renamed corpus.ToolID
}

// fixedAll reports whether the trial certainly shows the tool in every
// missed pair of the rows the field reaches.
func (tr *trial) fixedAll(missed []pairKey, rows map[string]bool) bool {
	for _, k := range missed {
		if !rows[k.row] {
			continue
		}
		if p, ok := tr.sub.p[k]; !ok || p < 1-eps {
			return false
		}
	}
	return true
}

// try applies a change on top of the accepted edits and re-simulates the
// learning queries it can change (affected), recording its gains and its
// regressions.
func (s *greedy) try(t *corpus.Tool, c Change, words []candidateWord) (*trial, error) {
	s.tried++
	edited, err := editTool(t, []Change{c})
	if err != nil {
		return nil, err
	}
	cat := withTools(s.cur, map[toolRef]*corpus.Tool{refOf(t): edited})
	// The stems of the added text: its words, and for a description the
	// sentence's every word (a word the description had already weighs
	// more now).
	added := strings.Join(c.Words, " ")
	if c.Field == Description {
		added = c.Sentence
	}
	var stems []string
	for st := range stemsOf(added) {
		stems = append(stems, st)
	}
	sort.Strings(stems)
	idx := s.affected(t.ID(), stems)
	var sub *state
	if edited.Name != t.Name {
		// Expectations follow the rename.
		sub, err = s.evalRenamed(cat, idx, t.ID(), edited.ID())
	} else {
		sub, err = s.eval(cat, idx, false)
	}
	if err != nil {
		return nil, err
	}
	tr := &trial{tool: t, change: c, edited: edited, cat: cat, sub: sub, words: words}
	for k, p := range sub.p {
		old := s.state.p[k]
		switch {
		case p < old-eps:
			tr.regs = append(tr.regs, regression(s.qs.Queries[k.q], k.row, old, p, sub.shown[k]))
		case p > old+eps:
			tr.gain += p - old
			tr.fixes = append(tr.fixes, k)
		}
	}
	return tr, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// evalRenamed evaluates with the query set's expectations of old renamed.
func (s *greedy) evalRenamed(cat *corpus.Catalog, idx []int, old, new corpus.ToolID) (*state, error) {
	saved := s.engine.qs
	s.engine.qs = withRenames(saved, map[corpus.ToolID]corpus.ToolID{old: new})
	defer func() { s.engine.qs = saved }()
	return s.eval(cat, idx, false)
}

// withRenames returns qs with every expectation of a renamed tool
// following the rename (qs itself when nothing is renamed).
func withRenames(qs *corpus.QuerySet, renames map[corpus.ToolID]corpus.ToolID) *corpus.QuerySet {
	if len(renames) == 0 {
		return qs
	}
	out := &corpus.QuerySet{Source: qs.Source, Queries: append([]corpus.Query(nil), qs.Queries...)}
	for i := range out.Queries {
		q := &out.Queries[i]
		for j, id := range q.Expect {
			if n, ok := renames[id]; ok {
				q.Expect = append([]corpus.ToolID(nil), q.Expect...)
				q.Expect[j] = n
			}
		}
	}
	return out
}

// accept makes a trial's edit part of the working catalog.
func (s *greedy) accept(tr *trial) {
	ref := refOf(tr.tool)
	te := s.edits[ref]
	if te == nil {
		te = &ToolEdit{Tool: tr.tool.ID(), original: s.base.Tool(tr.tool.ID())}
		for _, srv := range s.base.Servers {
			if srv.Name == ref.server && ref.index < len(srv.Tools) {
				te.original = srv.Tools[ref.index]
			}
		}
		s.edits[ref] = te
		s.order = append(s.order, ref)
	}
	te.Changes = append(te.Changes, tr.change)
	te.edited = tr.edited
	te.seq = s.tried
	for _, w := range tr.words {
		te.stems = append(te.stems, w.Stem)
	}
	s.cur = tr.cat
	s.state.merge(tr.sub)
	if tr.edited.Name != tr.tool.Name {
		s.rename(tr.tool.ID(), tr.edited.ID())
	}
}

// rename makes the query set expect the renamed tool from now on.
func (s *greedy) rename(old, new corpus.ToolID) {
	s.engine.qs = withRenames(s.engine.qs, map[corpus.ToolID]corpus.ToolID{old: new})
}

func regression(q corpus.Query, row string, before, after float64, shown []corpus.ToolID) Regression {
	return Regression{Client: row, Query: q.Text, Line: q.Line, Expect: q.Expect, Before: before, After: after,
		ShownInstead: shown}
}

func sortRegressions(rs []Regression) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Line != rs[j].Line {
			return rs[i].Line < rs[j].Line
		}
		return rs[i].Client < rs[j].Client
	})
}
