package opencode

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// DefaultSearchLimit is search()'s default limit (§C.2).
const DefaultSearchLimit = 10

// Score weights of search() (§C.2 "How search(...) ranks").
const (
	scoreLastSegment = 20 // the path equals the form or ends with "." + form
	scorePath        = 8  // the path contains the form
	scoreDescription = 4  // the description contains the form
	scoreText        = 2  // the search text contains the form
)

// Tokenize splits a search query into terms as search() does (§C.2): a
// space is put between a lowercase letter or digit and a following
// uppercase letter (camelCase, one pass, left to right, matches not
// overlapping), the result is lowercased, split on every run of
// characters outside [a-z0-9], and empty terms and "*" are dropped.
//
//	Tokenize("createIssue")       = [create issue]
//	Tokenize("list_pull-requests") = [list pull requests]
//	Tokenize("getHTTPStatus")      = [get httpstatus]   ("tS" is not lower-then-upper after "P")
func Tokenize(query string) []string {
	var b strings.Builder
	b.Grow(len(query) + 8)
	for i := 0; i < len(query); i++ {
		c := query[i]
		if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') && i+1 < len(query) && query[i+1] >= 'A' && query[i+1] <= 'Z' {
			b.WriteByte(c)
			b.WriteByte(' ')
			b.WriteByte(query[i+1])
			i++
			continue
		}
		b.WriteByte(c)
	}
	lower := jsLower(b.String())
	var terms []string
	start := -1
	for i := 0; i <= len(lower); i++ {
		alnum := i < len(lower) && (lower[i] >= 'a' && lower[i] <= 'z' || lower[i] >= '0' && lower[i] <= '9')
		if alnum && start < 0 {
			start = i
		} else if !alnum && start >= 0 {
			terms = append(terms, lower[start:i])
			start = -1
		}
	}
	return terms
}

// Forms are a term and its naive singulars (§C.2): without a trailing
// "es" when longer than 3, without a trailing "s" when longer than 2.
//
//	Forms("issues") = [issues issu issue]
//	Forms("files")  = [files fil file]
//	Forms("gas")    = [gas ga]
//	Forms("as")     = [as]
func Forms(term string) []string {
	f := []string{term}
	if len(term) > 3 && strings.HasSuffix(term, "es") {
		f = append(f, term[:len(term)-2])
	}
	if len(term) > 2 && strings.HasSuffix(term, "s") {
		f = append(f, term[:len(term)-1])
	}
	return f
}

// indexEntry is one tool in search()'s index.
type indexEntry struct {
	e         *entry
	rendered  string // tools.ns.tool
	lpath     string // lowercased unrendered path
	ldesc     string // lowercased description
	text      string // lowercased search text
	pathRank  int32  // place of the unrendered path in localeCompare order
	signature string
	desc      string
}

// newIndexEntry prepares one tool for search(). The lowercased path and
// description are, in the usual case, the start of the lowercased search
// text, and are then kept as slices of it rather than as copies.
func newIndexEntry(e *entry, rendered, desc, sig string, pathRank int32) *indexEntry {
	text := searchText(e.path, desc, e.tool.InputSchema)
	ie := &indexEntry{e: e, rendered: rendered, text: text, pathRank: pathRank, signature: sig, desc: desc}
	ie.lpath = lowerIn(text, 0, e.path)
	if len(text) > len(ie.lpath) && text[len(ie.lpath)] == '\n' {
		ie.ldesc = lowerIn(text, len(ie.lpath)+1, desc)
	} else {
		ie.ldesc = jsLower(desc)
	}
	return ie
}

// lowerIn returns jsLower(s), as the slice of text at off when text holds
// it there.
func lowerIn(text string, off int, s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			l := jsLower(s)
			if strings.HasPrefix(text[off:], l) {
				return text[off : off+len(l)]
			}
			return l
		}
	}
	// ASCII: compare with the lowercase bytes without building them.
	if len(text)-off < len(s) {
		return jsLower(s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if text[off+i] != c {
			return jsLower(s)
		}
	}
	return text[off : off+len(s)]
}

// searchText is what search()'s +2 signal reads (§C.2): the path, the
// description, then each input property's name and (string) description,
// joined with newlines and lowercased. Properties come from the input
// schema's top level, or from the local definition a top-level $ref
// names; any shape the JavaScript would trip over gives no properties.
func searchText(path, description string, input ojson.Value) string {
	props := propertyText(input)
	n := len(path) + 1 + len(description)
	for _, p := range props {
		n += 1 + len(p)
	}
	// The parts are joined and their ASCII letters lowercased in one
	// copy; jsLower then has only non-ASCII text left to map, if any.
	var b strings.Builder
	b.Grow(n)
	ascii := true
	add := func(s string) {
		for start := 0; start < len(s); {
			i := start
			for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') && s[i] < utf8.RuneSelf {
				i++
			}
			b.WriteString(s[start:i]) // a run that needs no change
			if i < len(s) {
				c := s[i]
				if c >= utf8.RuneSelf {
					ascii = false
				} else {
					c += 'a' - 'A'
				}
				b.WriteByte(c)
				i++
			}
			start = i
		}
	}
	add(path)
	b.WriteByte('\n')
	add(description)
	for _, p := range props {
		b.WriteByte('\n')
		add(p)
	}
	if !ascii {
		return jsLower(b.String())
	}
	return b.String()
}

func propertyText(input ojson.Value) (out []string) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(jsThrow); !ok {
				panic(r)
			}
			out = nil
		}
	}()
	if nullish(input) {
		return nil
	}
	n := node{v: input}
	scope := withDefs(n, nil)
	if ref := n.get("$ref"); ref.Kind != ojson.Invalid {
		name, ok := refName(ref)
		if !ok {
			return nil
		}
		def, found := scope.lookup(name)
		if !found {
			return nil
		}
		n = def
	}
	iterate(n.get("required"), "required")
	props := n.get("properties")
	if nullish(props) {
		return nil
	}
	ms := entries(props)
	out = make([]string, 0, 2*len(ms))
	for _, m := range ms {
		d := node{v: m.Value}.get("description")
		out = append(out, m.Key)
		if d.Kind == ojson.String {
			out = append(out, d.Str())
		}
	}
	return out
}

// SearchInput is the argument of tools.$codemode.search (§C.2): query,
// an optional exact namespace filter, limit (0 = the default 10) and
// offset.
type SearchInput struct {
	Query     string
	Namespace *string
	Limit     int
	Offset    int
}

// SearchItem is one item of a search() result.
type SearchItem struct {
	Path        string // rendered: tools.ns.tool
	Description string // the full tool description
	Signature   string
	Score       int
	Why         []string
	entry       *indexEntry
}

// SearchResult is what search() returns.
type SearchResult struct {
	Items     []SearchItem
	Remaining int
	// Next is the offset of the next page, or -1 for null.
	Next int
	// Exact is true when the query named one tool's path exactly.
	Exact bool
	// Matched is how many tools matched before slicing.
	Matched int
}

// JSON is the result as the model reads it: JSON.stringify(value, null, 2)
// of {items: [{path, description, signature}], remaining, next: {offset} |
// null} (§0).
func (r SearchResult) JSON() string {
	var b strings.Builder
	b.WriteString("{\n  \"items\": ")
	if len(r.Items) == 0 {
		b.WriteString("[]")
	} else {
		b.WriteString("[")
		for i, it := range r.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n    {\n      \"path\": ")
			b.WriteString(jsonString(it.Path))
			b.WriteString(",\n      \"description\": ")
			b.WriteString(jsonString(it.Description))
			b.WriteString(",\n      \"signature\": ")
			b.WriteString(jsonString(it.Signature))
			b.WriteString("\n    }")
		}
		b.WriteString("\n  ]")
	}
	b.WriteString(",\n  \"remaining\": ")
	b.WriteString(strconv.Itoa(r.Remaining))
	b.WriteString(",\n  \"next\": ")
	if r.Next < 0 {
		b.WriteString("null")
	} else {
		b.WriteString("{\n    \"offset\": ")
		b.WriteString(strconv.Itoa(r.Next))
		b.WriteString("\n  }")
	}
	b.WriteString("\n}")
	return b.String()
}

// searchIndex is search()'s index, in path order.
type searchIndex []*indexEntry

// validate reports the input errors search()'s schema rejects: limit must
// be a positive integer, offset a non-negative one.
func (in SearchInput) validate() error {
	if in.Limit < 0 {
		return fmt.Errorf("search: limit %d: must be a positive integer", in.Limit)
	}
	if in.Offset < 0 {
		return fmt.Errorf("search: offset %d: must be a non-negative integer", in.Offset)
	}
	return nil
}

// run is search() (§C.2):
//
//  1. namespace, when given, keeps the tools whose namespace equals it.
//  2. Exact lookup: the trimmed query without a leading "tools." equals a
//     path, or the trimmed query equals a rendered path: that tool alone.
//  3. Else every tool scores, per term (Tokenize) and per signal, when
//     any of the term's Forms passes: +20 the lowercased path equals the
//     form or ends with "." + form; +8 the path contains it; +4 the
//     description contains it; +2 the search text contains it.
//  4. Keep score > 0 (everything when there are no terms); order by score
//     descending, then path localeCompare (stable: ties keep path order).
//  5. Slice [offset, offset+limit); remaining = matched − offset − shown
//     (not below 0); next = {offset: offset+shown} when remaining > 0.
func (idx searchIndex) run(in SearchInput) SearchResult {
	limit := in.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	pool := []*indexEntry(idx)
	if in.Namespace != nil {
		pool = nil
		for _, e := range idx {
			if e.e.namespace == *in.Namespace {
				pool = append(pool, e)
			}
		}
	}
	trimmed := search.JSTrim(in.Query)
	bare := strings.TrimPrefix(trimmed, "tools.")
	type scored struct {
		e     *indexEntry
		score int
	}
	var list []scored
	exact := false
	if bare != "" {
		for _, e := range pool {
			if e.e.path == bare || e.rendered == trimmed {
				list = []scored{{e: e}}
				exact = true
				break
			}
		}
	}
	if !exact {
		terms := Tokenize(in.Query)
		forms := make([][]string, len(terms))
		for i, t := range terms {
			forms[i] = Forms(t)
		}
		for _, e := range pool {
			s := 0
			for _, f := range forms {
				s += termScore(e, f)
			}
			if len(terms) == 0 || s > 0 {
				list = append(list, scored{e: e, score: s})
			}
		}
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].score != list[j].score {
				return list[i].score > list[j].score
			}
			return list[i].e.pathRank < list[j].e.pathRank
		})
	}
	res := SearchResult{Exact: exact, Matched: len(list), Next: -1}
	lo := min(in.Offset, len(list))
	hi := min(lo+limit, len(list))
	for _, s := range list[lo:hi] {
		it := SearchItem{Path: s.e.rendered, Description: s.e.desc, Signature: s.e.signature, Score: s.score, entry: s.e}
		if exact {
			it.Why = []string{"exact path match: only this tool is returned"}
		} else {
			it.Why = explain(s.e, Tokenize(in.Query))
		}
		res.Items = append(res.Items, it)
	}
	res.Remaining = max(0, len(list)-in.Offset-len(res.Items))
	if res.Remaining > 0 {
		res.Next = in.Offset + len(res.Items)
	}
	return res
}

// termScore is one term's contribution to a tool's score.
func termScore(e *indexEntry, forms []string) int {
	s := 0
	for _, x := range forms {
		if e.lpath == x || strings.HasSuffix(e.lpath, x) && len(e.lpath) > len(x) && e.lpath[len(e.lpath)-len(x)-1] == '.' {
			s += scoreLastSegment
			break
		}
	}
	for _, x := range forms {
		if strings.Contains(e.lpath, x) {
			s += scorePath
			break
		}
	}
	for _, x := range forms {
		if strings.Contains(e.ldesc, x) {
			s += scoreDescription
			break
		}
	}
	for _, x := range forms {
		if strings.Contains(e.text, x) {
			s += scoreText
			break
		}
	}
	return s
}

// explain writes one line per term: which signals fired, with the first
// form that passed each.
func explain(e *indexEntry, terms []string) []string {
	var out []string
	for _, t := range terms {
		f := Forms(t)
		var parts []string
		first := func(pass func(string) bool) string {
			for _, x := range f {
				if pass(x) {
					return x
				}
			}
			return ""
		}
		if x := first(func(x string) bool {
			return e.lpath == x || strings.HasSuffix(e.lpath, "."+x)
		}); x != "" {
			parts = append(parts, fmt.Sprintf("last path segment %q +%d", x, scoreLastSegment))
		}
		if x := first(func(x string) bool { return strings.Contains(e.lpath, x) }); x != "" {
			parts = append(parts, fmt.Sprintf("path contains %q +%d", x, scorePath))
		}
		if x := first(func(x string) bool { return strings.Contains(e.ldesc, x) }); x != "" {
			parts = append(parts, fmt.Sprintf("description contains %q +%d", x, scoreDescription))
		}
		if x := first(func(x string) bool { return strings.Contains(e.text, x) }); x != "" {
			parts = append(parts, fmt.Sprintf("search text contains %q +%d", x, scoreText))
		}
		if len(parts) == 0 {
			parts = append(parts, "no match")
		}
		out = append(out, t+": "+strings.Join(parts, "; "))
	}
	return out
}
