package claude

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// Limits on the ToolSearch input (spec §1 "Input").
const (
	DefaultMaxResults = 5     // max_results when the model omits it
	maxQueryLen       = 16384 // the query is cut to this many characters
	maxTerms          = 32    // a keyword query keeps its first 32 words
	maxSelectNames    = 64    // a select: list keeps at most 64 names
)

// NoMatch is the whole result text when nothing is found (spec §1).
const NoMatch = "No matching deferred tools found"

// Scoring weights (spec §1 step 6): MCP tool / built-in.
type weights struct{ partEq, partSub, coarseEq, coarseSub int }

var (
	mcpWeights     = weights{partEq: 12, partSub: 6, coarseEq: 12, coarseSub: 4}
	builtinWeights = weights{partEq: 10, partSub: 5, coarseEq: 10, coarseSub: 3}
)

// Weights of the signals that do not depend on the tool kind (spec §1).
const (
	fullWeight = 3 // term in the joined parts, only while the total is 0
	hintWeight = 4
	descWeight = 2
)

// Simulator is Claude Code's ToolSearch over one catalog. It is immutable
// after New and safe for concurrent use.
type Simulator struct {
	prof     Profile
	opts     Options
	pool     []*entry // the whole tool pool, in pool order
	deferred []*entry // the search pool, in pool order
	// idx is built by the second keyword query (see scanScore).
	idxOnce   sync.Once
	idx       *index
	queries   atomic.Int64
	scorePool sync.Pool // *scoreState
	client    string    // Client().String()
	// byID is built on first use (mapsOnce), and so are exact and
	// exactLower (namesOnce): the deferred pool then the whole pool,
	// stably sorted by name (lowercased), so that a binary search finds
	// the first tool with a name, deferred pool first (spec §1 step 1).
	// The first few name lookups scan the pool instead (findName), which
	// is all a single `rank` needs.
	mapsOnce          sync.Once
	byID              map[corpus.ToolID]*entry
	namesOnce         sync.Once
	exact, exactLower []*entry
	lookups           atomic.Int64
	problems          []corpus.Diagnostic
	notes             []string

	// The heuristic writer's index over the deferred MCP tools, built on
	// first use (writable.go).
	intentOnce    sync.Once
	intent        *intent.Index
	intentEntries []*entry
	// failed are the servers whose tools/list failed (dropped whole), by
	// their catalog names, for the failed-list note (spec §0).
	failed []string
}

var (
	_ search.Simulator = (*Simulator)(nil)
	_ search.Viewer    = (*Simulator)(nil)
	_ search.Reporter  = (*Simulator)(nil)
)

// New builds the simulator for a catalog. It never fails: what Claude Code
// would reject is left out and reported by Problems.
func New(cat *corpus.Catalog, prof Profile, opts Options) *Simulator {
	pool, probs := buildPool(cat, prof, opts)
	s := &Simulator{prof: prof, opts: opts, pool: pool}
	s.client = s.Client().String()
	s.scorePool.New = func() any { return &scoreState{} }
	ndeferred := 0
	for _, e := range pool {
		if e.deferred {
			ndeferred++
		}
	}
	s.deferred = make([]*entry, 0, ndeferred)
	for _, e := range pool {
		if e.deferred {
			s.deferred = append(s.deferred, e)
		}
	}
	var dropped []string
	hidden, skipped := 0, 0
	for _, p := range probs {
		d := corpus.Diagnostic{Severity: p.sev, Code: p.code, Tool: p.tool, Field: p.field, Message: p.message}
		if p.server != nil {
			d.File, d.Server = p.server.Source, p.server.Name
		}
		s.problems = append(s.problems, d)
		switch p.code {
		case CodeServerDropped:
			dropped = append(dropped, p.server.Name)
			s.failed = append(s.failed, p.server.Name)
		case CodeHidden:
			hidden++
		case CodeToolSkipped:
			skipped++
		}
	}
	if len(dropped) > 0 {
		s.notes = append(s.notes, fmt.Sprintf("servers dropped whole (a tool fails tools/list validation): %s", strings.Join(dropped, ", ")))
	}
	if skipped > 0 {
		s.notes = append(s.notes, fmt.Sprintf("%d %s skipped (bad property key or schema, or name over %d characters)", skipped, plural(skipped, "tool", "tools"), maxNameLen))
	}
	if hidden > 0 {
		s.notes = append(s.notes, fmt.Sprintf("%d %s hidden from the model by _meta.ui.visibility", hidden, plural(hidden, "tool", "tools")))
	}
	return s
}

// maps builds byID once.
func (s *Simulator) maps() {
	s.mapsOnce.Do(func() {
		s.byID = make(map[corpus.ToolID]*entry, len(s.pool))
		for _, e := range s.pool {
			if _, ok := s.byID[e.id]; !ok {
				s.byID[e.id] = e
			}
		}
	})
}

// names builds exact and exactLower once.
func (s *Simulator) names() {
	s.namesOnce.Do(func() {
		all := make([]*entry, 0, 2*(len(s.deferred)+len(s.pool)))
		all = append(append(all, s.deferred...), s.pool...)
		s.exact = all
		s.exactLower = append(all[len(all):], all...)
		slices.SortStableFunc(s.exact, func(a, b *entry) int { return strings.Compare(a.name, b.name) })
		slices.SortStableFunc(s.exactLower, func(a, b *entry) int { return strings.Compare(a.lower, b.lower) })
	})
}

// firstNamed returns the first of the sorted list whose key is name.
func firstNamed(list []*entry, name string, key func(*entry) string) *entry {
	i, ok := slices.BinarySearchFunc(list, name, func(e *entry, name string) int { return strings.Compare(key(e), name) })
	if !ok {
		return nil
	}
	return list[i]
}

// scanLookups is how many name lookups scan the pool before the maps are
// built: a keyword query makes two (spec §1 step 1).
const scanLookups = 4

// findName returns the first tool named name (lower: whose lowercased
// name is name), deferred pool first, then the whole pool (spec §1 step 1).
func (s *Simulator) findName(name string, lower bool) *entry {
	if s.lookups.Add(1) > scanLookups {
		s.names()
		if lower {
			return firstNamed(s.exactLower, name, func(e *entry) string { return e.lower })
		}
		return firstNamed(s.exact, name, func(e *entry) string { return e.name })
	}
	for _, list := range [][]*entry{s.deferred, s.pool} {
		for _, e := range list {
			if lower && e.lower == name || !lower && e.name == name {
				return e
			}
		}
	}
	return nil
}

// Client returns the profile's id.
func (s *Simulator) Client() search.ClientID {
	return search.ClientID{Name: "claude", Version: s.prof.Version}
}

// Problems lists the catalog's tools that Claude Code drops, skips, hides,
// renames or loads up front (search.Reporter).
func (s *Simulator) Problems() []corpus.Diagnostic {
	return append([]corpus.Diagnostic(nil), s.problems...)
}

// Search runs one ToolSearch call.
func (s *Simulator) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultMaxResults
	}
	res := search.Result{Client: s.client, Limit: limit}
	text, _ := search.SliceUTF16(q.Text, maxQueryLen)
	// The query's scratch: hits and scores below may live in it until
	// Search returns.
	st := s.scorePool.Get().(*scoreState)
	defer s.scorePool.Put(st)

	var hits []*entry
	var why [][]string
	var note string
	var scores []int
	matched := 0
	isSelect := false
	if names, ok := parseSelect(text); ok {
		isSelect = true
		hits, why = s.selectTools(names)
		matched = len(hits)
		note = fmt.Sprintf("select: %d of %d %s found; max_results does not apply", len(hits), len(names), plural(len(names), "name", "names"))
	} else {
		hits, scores, why, note, matched = s.keyword(text, limit, !q.Brief, st)
	}

	// In the caller's buffer when it has room (search.Query.Hits); never
	// nil, so that a result with no hits writes "hits": [].
	res.Hits = slices.Grow(q.Hits[:0], len(hits))[:len(hits)]
	if res.Hits == nil {
		res.Hits = []search.Hit{}
	}
	for i, e := range hits {
		h := search.Hit{Rank: i + 1, RankWorst: i + 1, PWithinLimit: 1, Tool: e.id, Name: e.name}
		if why != nil {
			h.Why = why[i]
		}
		if scores != nil {
			h.Score = float64(scores[i])
		}
		res.Hits[i] = h
	}
	if q.Brief && len(hits) > 0 {
		// Only the token estimate is read (search.Query.Brief): the
		// <functions> text is not built.
		for _, e := range hits {
			res.ShownTokens += e.tokens()
		}
		return res, nil
	}
	res.Shown, res.ShownTokens = s.render(hits)
	if len(hits) == 0 && s.prof.FailedListNote && len(s.failed) > 0 {
		res.Shown += failedNote(s.failed)
		res.ShownTokens = search.CeilDiv(2*len(res.Shown), 5)
		note = joinNotes(note, fmt.Sprintf("the no-match text names %d %s whose tools/list failed", len(s.failed), plural(len(s.failed), "server", "servers")))
	}
	if len(hits) == 0 && !isSelect {
		if loaded := s.alreadyLoaded(search.JSTrim(text)); loaded != nil {
			// Observed on 2.1.328: the query customer_lookup, the bare name
			// of an always-loaded tool, finds nothing and Claude Code adds
			// this reminder to the same turn ("Customer_Lookup" and
			// "customer" do not trigger it).
			r := "<system-reminder>\nAlready available in this conversation: " + loaded.name + ". Call it directly.\n</system-reminder>"
			res.Shown += "\n\n" + r
			res.ShownTokens = search.CeilDiv(2*len(res.Shown), 5)
			note = joinNotes(note, "the query names an always-loaded tool: "+loaded.name)
		}
	}
	if q.Brief {
		return res, nil
	}
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	res.Notes = append(res.Notes, s.notes...)
	res.Extra = map[string]any{"pool_size": len(s.deferred), "matched": matched}
	return res, nil
}

// alreadyLoaded returns the always-loaded MCP tool whose bare name (raw
// or sanitised) is exactly q, if any.
func (s *Simulator) alreadyLoaded(q string) *entry {
	for _, e := range s.pool {
		if e.mcp && !e.deferred && e.bare(q) {
			return e
		}
	}
	return nil
}

// parseSelect matches /^select:(.+)$/i: "." stops at line terminators, so a
// query with a newline after "select:" is a keyword query (observed on
// 2.1.328). Names are split on ",", trimmed, empties dropped, at most 64.
func parseSelect(text string) ([]string, bool) {
	if len(text) < 8 || !strings.EqualFold(text[:7], "select:") {
		return nil, false
	}
	rest := text[7:]
	if strings.ContainsAny(rest, "\n\r\u2028\u2029") {
		return nil, false
	}
	var names []string
	for _, n := range strings.Split(rest, ",") {
		if n = search.JSTrim(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) > maxSelectNames {
		names = names[:maxSelectNames]
	}
	return names, true
}

// selectTools looks each name up case-sensitively (spec §1 "select:"): the
// tool with exactly that name, deferred pool first, then the whole pool;
// else (2.1.156+) every MCP tool whose bare name, raw or sanitised, is that
// name. Order of the names, duplicates dropped, unknown names left out.
func (s *Simulator) selectTools(names []string) ([]*entry, [][]string) {
	var out []*entry
	var why [][]string
	seen := map[*entry]bool{}
	add := func(e *entry, w string) {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
			why = append(why, []string{w})
		}
	}
	for _, n := range names {
		if e := s.findName(n, false); e != nil {
			add(e, fmt.Sprintf("select: %q is its name", n))
			continue
		}
		if !s.prof.Coarse {
			continue
		}
		for _, e := range s.pool {
			if e.mcp && e.bare(n) {
				add(e, fmt.Sprintf("select: %q is its tool name", n))
			}
		}
	}
	return out, why
}

// keyword is spec §1 "Keyword search". explained asks for the hits' Why
// (nil otherwise). The hits and scores returned may be st's, and ql, the
// lowercased query the terms are cut from, too: nothing of it is kept
// past the query (the term cache clones its keys).
func (s *Simulator) keyword(text string, limit int, explained bool, st *scoreState) (hits []*entry, scores []int, why [][]string, note string, matched int) {
	q := search.JSTrim(text)
	if q == "" {
		return nil, nil, nil, "", 0
	}
	ql := st.lower(q)
	// Step 1: exact name, case-sensitive then case-insensitive (2.1.88:
	// case-insensitive only), deferred pool first, then every tool.
	var e *entry
	if s.prof.Coarse {
		e = s.findName(q, false)
	}
	if e == nil {
		e = s.findName(ql, true)
	}
	if e != nil {
		w := fmt.Sprintf("exact name %q", q)
		n := fmt.Sprintf("exact-name shortcut: the query is the name of %s", e.name)
		if !e.deferred {
			n += " (already loaded)"
		}
		return []*entry{e}, nil, [][]string{{w}}, n, 1
	}
	// Step 2: mcp__ prefix.
	if strings.HasPrefix(ql, "mcp__") && search.UTF16Len(ql) > 5 {
		for _, e := range s.deferred {
			if strings.HasPrefix(e.lower, ql) {
				matched++
				if len(hits) < limit {
					hits = append(hits, e)
					why = append(why, []string{fmt.Sprintf("name starts with %q", ql)})
				}
			}
		}
		if len(hits) > 0 {
			return hits, nil, why, fmt.Sprintf("prefix shortcut: %d deferred %s start with %q", matched, plural(matched, "tool", "tools"), ql), matched
		}
		matched = 0
	}
	// Steps 3–7.
	var termBuf [maxTerms]string
	terms, nreq := parseTerms(ql, &termBuf)
	var top topK
	top.init(limit, st.items[:0])
	if s.queries.Add(1) == 1 {
		matched = s.scanScore(terms, nreq, &top)
	} else {
		matched = s.indexScore(terms, nreq, &top, st)
	}
	found := top.result()
	st.items = top.items[:0]
	hits, scores = st.hits[:0], st.scores[:0]
	for _, f := range found {
		e := s.deferred[f.i]
		hits = append(hits, e)
		scores = append(scores, f.score)
		if explained {
			why = append(why, explain(e, terms, nreq))
		}
	}
	st.hits, st.scores = hits[:0], scores[:0]
	return hits, scores, why, "", matched
}

// scanScore scores every deferred tool by scanning its fields (spec §1
// steps 5–6), adds those that pass and score to top and returns how many
// do. The first keyword query of a simulator takes this path (what a single
// `rank` needs: building the index costs more than one scan); later
// queries use the index (indexScore). Both give the same results (the
// fuzzers in reference_test.go compare them with a reference).
func (s *Simulator) scanScore(terms []string, nreq int, top *topK) (matched int) {
	flags := make([]uint8, len(terms))
tools:
	for i, e := range s.deferred {
		for k, t := range terms {
			flags[k] = directFlags(e, t)
			if k < nreq && flags[k]&requiredMask == 0 {
				continue tools // spec §1 step 5
			}
		}
		sc := 0
		for k := range terms {
			sc += termScore(e, flags[k], sc)
		}
		if sc > 0 {
			matched++
			top.add(scored{i, sc})
		}
	}
	return matched
}

// indexScore is scanScore by the index: each term's postings (the tools
// with any signal) add their points, so a tool no term touches costs
// nothing. A term never holds white space, so the full signal is set only
// with the part signal (see index.flags) and never scores: a term's points
// do not depend on the running total and can be added in any order.
func (s *Simulator) indexScore(terms []string, nreq int, top *topK, st *scoreState) (matched int) {
	s.idxOnce.Do(func() { s.idx = newIndex(s.deferred) })
	n := len(s.deferred)
	if len(st.score) != n {
		st.score, st.req = make([]int32, n), make([]uint8, n)
	}
	clear(st.score)
	clear(st.req)
	// Required terms first (parseTerms puts them first): a tool passes when
	// every one of them matched it (spec §1 step 5).
	for k, t := range terms {
		ps := s.idx.postings(t)
		if k >= nreq {
			for _, p := range ps {
				st.score[p.i] += int32(p.pts)
			}
			continue
		}
		for _, p := range ps {
			if p.req && int(st.req[p.i]) == k {
				st.req[p.i]++
				st.score[p.i] += int32(p.pts)
			}
		}
	}
	for i, sc := range st.score {
		if sc > 0 && int(st.req[i]) == nreq {
			matched++
			top.add(scored{i, int(sc)})
		}
	}
	return matched
}

// scoreState is one query's scratch (Search), kept in Simulator.scorePool
// from query to query.
type scoreState struct {
	score []int32 // per deferred tool (indexScore)
	req   []uint8 // required terms matched so far, in order
	// The keyword search's best items, hits and scores, and the buffer of
	// the lowercased query (lower).
	items  []scored
	hits   []*entry
	scores []int
	low    []byte
}

// lower is jsLower(q), in st's buffer when q is ASCII: valid only until
// st's next query.
func (st *scoreState) lower(q string) string {
	if !ascii.Is(q) {
		return jsLower(q)
	}
	if !hasUpperASCII(q) {
		return q
	}
	st.low = ascii.AppendLower(st.low[:0], q)
	return unsafe.String(unsafe.SliceData(st.low), len(st.low))
}

type scored struct{ i, score int }

// topK keeps the first k items of a stable sort by score, highest first,
// of the items added in pool order: an item enters only by beating a score
// strictly, so equal scores keep pool order (spec §1 step 7). Small k use
// insertion into a sorted list; large k collect everything and sort.
type topK struct {
	k     int
	items []scored
	all   bool
}

// init empties t for the k best, its items in buf (empty, reused).
func (t *topK) init(k int, buf []scored) {
	t.k = k
	t.all = k > 64
	t.items = buf
	if !t.all && cap(buf) < k {
		t.items = make([]scored, 0, k)
	}
}

func (t *topK) add(x scored) {
	if t.all {
		t.items = append(t.items, x)
		return
	}
	if len(t.items) == t.k && t.items[len(t.items)-1].score >= x.score {
		return
	}
	j := len(t.items)
	for j > 0 && t.items[j-1].score < x.score {
		j--
	}
	if len(t.items) < t.k {
		t.items = append(t.items, scored{})
	}
	copy(t.items[j+1:], t.items[j:len(t.items)-1])
	t.items[j] = x
}

func (t *topK) result() []scored {
	if t.all {
		slices.SortStableFunc(t.items, func(a, b scored) int { return b.score - a.score })
		if len(t.items) > t.k {
			return t.items[:t.k]
		}
	}
	return t.items
}

// parseTerms splits the lowercased query into terms (spec §1 step 3): the
// first 32 whitespace-separated words; "+word" (longer than one character)
// is required. It returns the scored terms, required ones first, and how
// many are required, in out.
func parseTerms(ql string, out *[maxTerms]string) (terms []string, nreq int) {
	var buf [maxTerms]string
	words := buf[:0]
	start := -1 // jsFields(ql), stopping at the 33rd word
	for i := 0; i < len(ql) && len(words) < maxTerms; {
		r, size := rune(ql[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(ql[i:])
		}
		if search.IsJSSpace(r) {
			if start >= 0 {
				words = append(words, ql[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 && len(words) < maxTerms {
		words = append(words, ql[start:])
	}
	required := func(w string) bool { return strings.HasPrefix(w, "+") && search.UTF16Len(w) > 1 }
	terms = out[:0]
	for _, w := range words {
		if required(w) {
			terms = append(terms, w[1:])
		}
	}
	nreq = len(terms)
	for _, w := range words {
		if !required(w) {
			terms = append(terms, w)
		}
	}
	return terms, nreq
}

// requiredMask are the signals that let a required term pass (spec §1
// step 5): in a part or a coarse part (equal or contained), or a whole
// word of the description or hint.
const requiredMask = fPartSub | fCoarseSub | fDesc | fHint

// termScore is one term's points for a tool whose running total is total
// (spec §1 step 6).
func termScore(e *entry, f uint8, total int) int {
	w := builtinWeights
	if e.mcp {
		w = mcpWeights
	}
	s := 0
	switch {
	case f&fPartEq != 0:
		s += w.partEq
	case f&fPartSub != 0:
		s += w.partSub
	}
	switch {
	case f&fCoarseEq != 0:
		s += w.coarseEq
	case f&fCoarseSub != 0:
		s += w.coarseSub
	}
	if total+s == 0 && f&fFull != 0 {
		s += fullWeight
	}
	if f&fHint != 0 {
		s += hintWeight
	}
	if f&fDesc != 0 {
		s += descWeight
	}
	return s
}

// explain spells out a hit's score, one entry per term that scored, e.g.
// `invoice: part "invoice" +12; coarse "invoice_lookup" contains +4`.
func explain(e *entry, terms []string, nreq int) []string {
	w := builtinWeights
	if e.mcp {
		w = mcpWeights
	}
	var out []string
	total := 0
	for k, t := range terms {
		f := directFlags(e, t)
		var sig []string
		s := 0
		switch {
		case f&fPartEq != 0:
			sig = append(sig, fmt.Sprintf("part %q +%d", t, w.partEq))
			s += w.partEq
		case f&fPartSub != 0:
			sig = append(sig, fmt.Sprintf("part %q contains +%d", firstContaining(e.parts, t), w.partSub))
			s += w.partSub
		}
		switch {
		case f&fCoarseEq != 0:
			sig = append(sig, fmt.Sprintf("coarse %q +%d", t, w.coarseEq))
			s += w.coarseEq
		case f&fCoarseSub != 0:
			sig = append(sig, fmt.Sprintf("coarse %q contains +%d", firstContaining(e.coarse, t), w.coarseSub))
			s += w.coarseSub
		}
		if total+s == 0 && f&fFull != 0 {
			sig = append(sig, fmt.Sprintf("name %q contains +%d", e.fullName(), fullWeight))
			s += fullWeight
		}
		if f&fHint != 0 {
			sig = append(sig, fmt.Sprintf("hint +%d", hintWeight))
			s += hintWeight
		}
		if f&fDesc != 0 {
			sig = append(sig, fmt.Sprintf("description +%d", descWeight))
			s += descWeight
		}
		total += s
		if len(sig) > 0 {
			label := t
			if k < nreq {
				label = "+" + t
			}
			out = append(out, label+": "+strings.Join(sig, "; "))
		}
	}
	return out
}

func firstContaining(list []string, t string) string {
	for _, p := range list {
		if strings.Contains(p, t) {
			return p
		}
	}
	return ""
}

// render is what the model reads: the loaded definitions of the matched
// tools in a <functions> block, one <function> line each, in the format the
// ToolSearch prompt describes (the API expands the tool_reference blocks;
// its exact text is not observable), or NoMatch. Tokens follow spec §3:
// ceil((schema JSON bytes + description bytes) / 2.5) per tool.
func (s *Simulator) render(hits []*entry) (string, int) {
	if len(hits) == 0 {
		return NoMatch, search.CeilDiv(2*len(NoMatch), 5)
	}
	var b strings.Builder
	size := len("<functions>\n</functions>")
	for _, e := range hits {
		size += len(e.line()) + 1
	}
	b.Grow(size)
	tokens := 0
	b.WriteString("<functions>\n")
	for _, e := range hits {
		b.WriteString(e.line())
		b.WriteByte('\n')
		tokens += e.tokens()
	}
	b.WriteString("</functions>")
	return b.String(), tokens
}

// functionLine renders one loaded definition, its input schema rendered
// as schema.
func functionLine(e *entry, schema string) string {
	if e.tool == nil {
		return fmt.Sprintf(`<function>{"name": %s} (Claude Code's own definition, not reproduced)</function>`, ojson.JSString(e.name))
	}
	params := schema
	if params == "" {
		params = "{}"
	}
	return fmt.Sprintf(`<function>{"description": %s, "name": %s, "parameters": %s}</function>`,
		ojson.JSString(e.loadedDesc), ojson.JSString(e.name), params)
}

// View returns a tool's definition as the model reads it once loaded
// (search.Viewer). Dropped, skipped and hidden tools are never shown.
func (s *Simulator) View(id corpus.ToolID) (search.ToolView, bool) {
	s.maps()
	e, ok := s.byID[id]
	if !ok {
		return search.ToolView{}, false
	}
	v := search.ToolView{Tool: e.id, Name: e.name, Text: e.line(), Tokens: e.tokens()}
	switch {
	case e.tool == nil:
		v.Notes = append(v.Notes, "Claude Code's own tool")
	case e.deferred:
		v.Notes = append(v.Notes, "deferred: the model sees only the name until ToolSearch loads this definition")
	default:
		v.Notes = append(v.Notes, "always loaded (_meta anthropic/alwaysLoad): sent up front, never returned by keyword search")
		listed, _ := capText(e.tool.Description, s.listCap())
		v.Text = fmt.Sprintf(`<function>{"description": %s, "name": %s, "parameters": %s}</function>`,
			ojson.JSString(listed), ojson.JSString(e.name), nonEmpty(e.schemaJSON()))
		v.Tokens = search.CeilDiv(2*(len(e.schemaJSON())+len(listed)), 5)
	}
	if e.descCut {
		v.Notes = append(v.Notes, fmt.Sprintf("description cut to %d characters when listed and searched", s.listCap()))
	}
	return v, true
}

func (s *Simulator) listCap() int {
	if s.opts.MaxDescription > 0 {
		return s.opts.MaxDescription
	}
	return s.prof.ListCap
}

func nonEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// joinNotes joins two notes with "; ", either possibly empty.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
