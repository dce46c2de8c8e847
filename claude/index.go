package claude

import (
	"index/suffixarray"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/search"
)

// Per-term match flags of one tool (spec §1 steps 5–6).
const (
	fPartEq    uint8 = 1 << iota // a part equals the term
	fPartSub                     // a part contains the term (equal included)
	fCoarseEq                    // a coarse part equals the term
	fCoarseSub                   // a coarse part contains the term
	fFull                        // the joined parts contain the term
	fHint                        // \bterm\b in the search hint
	fDesc                        // \bterm\b in the description
)

// sep separates the strings of a concatenated field. A term without it
// cannot match across two strings; it is also a non-word character, so a \b
// next to it behaves as at the edge of a text.
const sep = "\x00"

// spanText is many short strings joined by sep, with each byte mapped to
// its string and a suffix array over the whole, so one lookup finds every
// tool whose string contains a term, and whether it equals it.
type spanText struct {
	text  string
	sa    *suffixarray.Index
	spans []span
	at    []int32 // byte offset → span index (-1 on a separator)
}

type span struct {
	start, end int32
	owner      int32
}

func newSpanText(n int, each func(i int) []string) spanText {
	var b strings.Builder
	var st spanText
	for i := 0; i < n; i++ {
		for _, s := range each(i) {
			start := b.Len()
			b.WriteString(s)
			st.spans = append(st.spans, span{int32(start), int32(b.Len()), int32(i)})
			b.WriteString(sep)
		}
	}
	st.text = b.String()
	st.sa = suffixarray.New([]byte(st.text))
	st.at = make([]int32, len(st.text))
	for i := range st.at {
		st.at[i] = -1
	}
	for k, sp := range st.spans {
		for j := sp.start; j < sp.end; j++ {
			st.at[j] = int32(k)
		}
	}
	return st
}

// mark sets sub on every owner with a string containing term and eq where
// the string equals it. term must be non-empty and free of sep.
func (st *spanText) mark(term string, flags []uint8, sub, eq uint8) {
	for _, pos := range st.sa.Lookup([]byte(term), -1) {
		sp := st.spans[st.at[pos]]
		flags[sp.owner] |= sub
		if int32(pos) == sp.start && int32(pos+len(term)) == sp.end {
			flags[sp.owner] |= eq
		}
	}
}

// wordText answers \bterm\b over one text per tool: by a word→tools table
// when the term is all word characters, else by a suffix array over the
// texts joined with sep. Such terms are rare (a query is split on
// white space, so only terms like "pull-request" or "v1.2" need it), so
// the suffix array is built on first use.
type wordText struct {
	words  map[string][]int32 // word run → owners, ascending
	text   string
	saOnce sync.Once
	sa     *suffixarray.Index
	starts []int32 // start offset of each owner's text
}

func newWordText(n int, text func(i int) (string, bool)) *wordText {
	wt := &wordText{words: map[string][]int32{}, starts: make([]int32, n)}
	var b strings.Builder
	for i := 0; i < n; i++ {
		wt.starts[i] = int32(b.Len())
		s, ok := text(i)
		if !ok {
			b.WriteString(sep)
			continue
		}
		owner := int32(i)
		wordRuns(s, func(w string) {
			list := wt.words[w]
			if len(list) == 0 || list[len(list)-1] != owner {
				wt.words[w] = append(list, owner)
			}
		})
		b.WriteString(s)
		b.WriteString(sep)
	}
	wt.text = b.String()
	return wt
}

// mark sets bit on every owner whose text matches \bterm\b. term must be
// non-empty and free of sep.
func (wt *wordText) mark(term string, flags []uint8, bit uint8) {
	if isWordTerm(term) {
		for _, o := range wt.words[term] {
			flags[o] |= bit
		}
		return
	}
	wt.saOnce.Do(func() { wt.sa = suffixarray.New([]byte(wt.text)) })
	t := wt.text
	for _, pos := range wt.sa.Lookup([]byte(term), -1) {
		if search.BoundaryAt(t, pos) && search.BoundaryAt(t, pos+len(term)) {
			o := sort.Search(len(wt.starts), func(k int) bool { return int(wt.starts[k]) > pos }) - 1
			flags[o] |= bit
		}
	}
}

// index is the search structure over the deferred pool, built once.
type index struct {
	es                  []*entry
	parts, coarse, full spanText
	desc, hint          *wordText
}

func newIndex(es []*entry) *index {
	n := len(es)
	return &index{
		es:     es,
		parts:  newSpanText(n, func(i int) []string { return es[i].parts }),
		coarse: newSpanText(n, func(i int) []string { return es[i].coarse }),
		full:   newSpanText(n, func(i int) []string { return []string{es[i].full} }),
		desc:   newWordText(n, func(i int) (string, bool) { return es[i].desc, true }),
		hint:   newWordText(n, func(i int) (string, bool) { return es[i].hint, es[i].hasHint }),
	}
}

// flags computes every tool's match flags for one lowercased term.
func (ix *index) flags(term string, out []uint8) {
	clear(out)
	if term == "" {
		return
	}
	if strings.Contains(term, sep) {
		for i, e := range ix.es {
			out[i] = directFlags(e, term)
		}
		return
	}
	ix.parts.mark(term, out, fPartSub, fPartEq)
	ix.coarse.mark(term, out, fCoarseSub, fCoarseEq)
	// full is the parts joined with spaces and a term never contains
	// whitespace (it comes from a split on \s+), so the term is inside full
	// exactly when it is inside one part: fFull == fPartSub, no scan needed.
	// (directFlags checks full itself; the fuzzers compare the two.)
	if !strings.ContainsFunc(term, search.IsJSSpace) {
		for i, f := range out {
			if f&fPartSub != 0 {
				out[i] |= fFull
			}
		}
	} else {
		ix.full.mark(term, out, fFull, 0)
	}
	ix.hint.mark(term, out, fHint)
	ix.desc.mark(term, out, fDesc)
}

// directFlags computes one tool's flags for a term with plain string
// operations (used for terms the concatenated texts cannot serve, and to
// explain hits).
func directFlags(e *entry, term string) uint8 {
	var f uint8
	for _, p := range e.parts {
		if p == term {
			f |= fPartEq
		}
		if strings.Contains(p, term) {
			f |= fPartSub
		}
	}
	for _, c := range e.coarse {
		if c == term {
			f |= fCoarseEq
		}
		if strings.Contains(c, term) {
			f |= fCoarseSub
		}
	}
	if strings.Contains(e.full, term) {
		f |= fFull
	}
	if e.hasHint && search.ContainsWord(e.hint, term) {
		f |= fHint
	}
	if search.ContainsWord(e.desc, term) {
		f |= fDesc
	}
	return f
}
