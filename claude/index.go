package claude

import (
	"index/suffixarray"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/toolfind/toolfind/internal/ascii"
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
	size, count := 0, 0
	for i := 0; i < n; i++ {
		for _, s := range each(i) {
			size += len(s) + len(sep)
			count++
		}
	}
	b.Grow(size)
	st.spans = make([]span, 0, count)
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

// wordText answers \bterm\b over one text per tool by a word→tools table.
// A term of word characters only matches where it is a whole maximal run
// of word characters: one lookup. A term with other characters (rare: a
// query is split on white space, so only terms like "pull-request",
// "<name>" or "v1.2") is checked with search.ContainsWord (contains) on
// the texts that hold its rarest word run, which every match holds as a
// maximal run too (the characters around a run inside the term are not
// word characters, and a run at the term's edge is bounded by the \b
// there); a term with no word character is checked on every text.
type wordText struct {
	words map[string]int32 // word run (lowercase) → its entry in offsets
	// owners[offsets[w]:offsets[w+1]] are word w's owners, ascending.
	offsets []int32
	owners  []int32
	texts   []string
	has     []bool // texts[i] is present
	// fold[i]: texts[i] is ASCII in its own case and stands for its
	// lowercase (entry.descFold); nil when no text is.
	fold []bool
}

// contains reports whether \bterm\b matches text o, lowercased.
func (wt *wordText) contains(o int, term string) bool {
	if wt.fold != nil && wt.fold[o] {
		return containsWordFold(wt.texts[o], term)
	}
	return search.ContainsWord(wt.texts[o], term)
}

// newWordText indexes the texts text gives (ok false: text i is absent;
// fold true: it is ASCII and stands for its lowercase, see wordText.fold).
func newWordText(n int, text func(i int) (s string, ok, fold bool)) *wordText {
	wt := &wordText{texts: make([]string, n), has: make([]bool, n)}
	// Pass 1: number the distinct words, count each word's owners and
	// remember every text's words in order (runs); pass 2 lays the owner
	// lists out in one slice.
	var runs, counts, last []int32
	ends := make([]int32, n) // runs[ends[i-1]:ends[i]] are text i's
	total := 0
	for i := 0; i < n; i++ {
		if s, ok, fold := text(i); ok {
			wt.texts[i], wt.has[i] = s, true
			total += len(s)
			if fold {
				if wt.fold == nil {
					wt.fold = make([]bool, n)
				}
				wt.fold[i] = true
			}
		}
	}
	wt.words = make(map[string]int32, total/16)
	runs = make([]int32, 0, total/6)
	// The lowercase copies of words with an uppercase letter (in a folded
	// text) are cut from keys, a few words per allocation.
	var lower, keys []byte
	for i, s := range wt.texts {
		owner := int32(i)
		fold := wt.fold != nil && wt.fold[i]
		wordRuns(s, func(w string) {
			var id int32
			var ok bool
			if fold && hasUpperASCII(w) {
				// Looked up without a copy; a new word's key is cut
				// from keys.
				lower = ascii.AppendLower(lower[:0], w)
				if id, ok = wt.words[string(lower)]; !ok {
					if cap(keys)-len(keys) < len(lower) {
						keys = make([]byte, 0, max(4096, len(lower)))
					}
					start := len(keys)
					keys = append(keys, lower...) // never past its capacity: earlier keys stay
					w = unsafe.String(&keys[start], len(lower))
				}
			} else {
				id, ok = wt.words[w]
			}
			if !ok {
				id = int32(len(counts))
				wt.words[w] = id
				counts = append(counts, 0)
				last = append(last, -1)
			}
			if last[id] != owner {
				last[id] = owner
				counts[id]++
				runs = append(runs, id)
			}
		})
		ends[i] = int32(len(runs))
	}
	wt.offsets = make([]int32, len(counts)+1)
	for id, c := range counts {
		wt.offsets[id+1] = wt.offsets[id] + c
	}
	wt.owners = make([]int32, len(runs))
	next := counts[:0:0]
	next = append(next, wt.offsets[:len(counts)]...)
	start := int32(0)
	for i := range wt.texts {
		for _, id := range runs[start:ends[i]] {
			wt.owners[next[id]] = int32(i)
			next[id]++
		}
		start = ends[i]
	}
	return wt
}

// ownersOf returns the owners whose text has w as a whole word run.
func (wt *wordText) ownersOf(w string) []int32 {
	id, ok := wt.words[w]
	if !ok {
		return nil
	}
	return wt.owners[wt.offsets[id]:wt.offsets[id+1]]
}

// mark sets bit on every owner whose text matches \bterm\b. term must be
// non-empty.
func (wt *wordText) mark(term string, flags []uint8, bit uint8) {
	if isWordTerm(term) {
		for _, o := range wt.ownersOf(term) {
			flags[o] |= bit
		}
		return
	}
	var rarest []int32
	found := false
	wordRuns(term, func(w string) {
		if l := wt.ownersOf(w); !found || len(l) < len(rarest) {
			rarest, found = l, true
		}
	})
	if !found {
		for o := range wt.texts {
			if wt.has[o] && wt.contains(o, term) {
				flags[o] |= bit
			}
		}
		return
	}
	for _, o := range rarest {
		if wt.contains(int(o), term) {
			flags[o] |= bit
		}
	}
}

// index is the search structure over the deferred pool, built once. Each
// term's flags are kept (terms repeat across the queries of a bench run),
// as postings: the tools with a flag set, ascending.
type index struct {
	es            []*entry
	parts, coarse spanText
	fullOnce      sync.Once
	full          spanText // built only for a term with white space (never from a query)
	desc, hint    *wordText

	// cache holds each cached term's postings as a place in chunks, where
	// they are laid end to end (a small map value, and no allocation per
	// term); a list longer than postChunk has a chunk of its own.
	mu      sync.RWMutex
	cache   map[string]postRef
	chunks  [][]posting
	cached  int       // postings held by cache
	scratch sync.Pool // *postScratch
}

// postRef is where a cached term's postings are: chunks[chunk][start:][:n].
type postRef struct {
	chunk, start uint16
	n            uint32
}

// postChunk is the size of a chunk of cached postings (8 KiB).
const postChunk = 1 << 10

// postScratch is one term's scratch: its flags per tool, and its postings
// before they are cached.
type postScratch struct {
	flags []uint8
	ps    []posting
}

// posting is one tool's match of a term: its points (termScore; the full
// signal, the only one that depends on the running total, never scores
// for a term without white space, see flags) and whether the term's
// signals let it pass as a required term (requiredMask).
type posting struct {
	i   int32
	pts uint8
	req bool
}

// Bounds of the term cache: terms longer than maxCachedTerm bytes are not
// kept, and nothing more is kept once it holds maxCachedPostings postings
// (8 bytes each) or would need more than maxChunks chunks.
const (
	maxCachedTerm     = 64
	maxCachedPostings = 1 << 20
	maxChunks         = 1 << 16 // postRef.chunk
)

func newIndex(es []*entry) *index {
	n := len(es)
	ix := &index{
		es:     es,
		parts:  newSpanText(n, func(i int) []string { return es[i].parts }),
		coarse: newSpanText(n, func(i int) []string { return es[i].coarse }),
		desc:   newWordText(n, func(i int) (string, bool, bool) { return es[i].desc, true, es[i].descFold }),
		hint:   newWordText(n, func(i int) (string, bool, bool) { return es[i].hint, es[i].hasHint, false }),
		cache:  map[string]postRef{},
	}
	ix.scratch.New = func() any { return &postScratch{flags: make([]uint8, n)} }
	return ix
}

// postings returns the tools matching one lowercased term and their flags,
// in pool order. The slice is shared: callers must not modify it.
func (ix *index) postings(term string) []posting {
	ix.mu.RLock()
	ref, ok := ix.cache[term]
	var ps []posting
	if ok && ref.n > 0 {
		ps = ix.chunks[ref.chunk][ref.start:][:ref.n]
	}
	ix.mu.RUnlock()
	if ok {
		return ps
	}
	sc := ix.scratch.Get().(*postScratch)
	defer ix.scratch.Put(sc)
	ix.flags(term, sc.flags)
	ps = sc.ps[:0]
	for i, f := range sc.flags {
		if f != 0 {
			ps = append(ps, posting{int32(i), uint8(termScore(ix.es[i], f, 1)), f&requiredMask != 0})
		}
	}
	sc.ps = ps[:0]
	if len(term) <= maxCachedTerm {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		if ref, ok := ix.cache[term]; ok {
			if ref.n == 0 {
				return nil
			}
			return ix.chunks[ref.chunk][ref.start:][:ref.n]
		}
		if ix.cached+len(ps) <= maxCachedPostings {
			if kept, ok := ix.keep(ps); ok {
				// term may be cut from a query's scratch (keyword): a copy.
				ix.cache[strings.Clone(term)] = kept
				ix.cached += len(ps)
				if kept.n == 0 {
					return nil
				}
				return ix.chunks[kept.chunk][kept.start:][:kept.n]
			}
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return slices.Clone(ps)
}

// keep copies ps into the chunks (ix.mu held), reporting false when the
// chunks are full.
func (ix *index) keep(ps []posting) (postRef, bool) {
	if len(ps) == 0 {
		return postRef{}, true
	}
	last := len(ix.chunks) - 1
	if len(ps) > postChunk || last < 0 || len(ix.chunks[last])+len(ps) > postChunk {
		if len(ix.chunks) == maxChunks {
			return postRef{}, false
		}
		ix.chunks = append(ix.chunks, make([]posting, 0, max(postChunk, len(ps))))
		last++
	}
	start := len(ix.chunks[last])
	ix.chunks[last] = append(ix.chunks[last], ps...)
	return postRef{chunk: uint16(last), start: uint16(start), n: uint32(len(ps))}, true
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
		ix.fullOnce.Do(func() {
			ix.full = newSpanText(len(ix.es), func(i int) []string { return []string{ix.es[i].fullName()} })
		})
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
	// full is the parts joined with " ": a non-empty term without " "
	// (every term of a query) is inside it exactly when it is inside a
	// part.
	if f&fPartSub != 0 || (term == "" || strings.Contains(term, " ")) && strings.Contains(e.fullName(), term) {
		f |= fFull
	}
	if e.hasHint && search.ContainsWord(e.hint, term) {
		f |= fHint
	}
	if e.searchDesc(term) {
		f |= fDesc
	}
	return f
}
