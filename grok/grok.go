package grok

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/bm25"
	"github.com/toolfind/toolfind/search/intent"
)

// Profile constants (grok.md B.1–B.3).
const (
	DefaultLimit   = 5    // B.1: search_tool `limit` default
	MaxLimit       = 255  // B.1: `limit` is a u8
	MaxDescription = 2048 // B.3: MAX_MCP_DESCRIPTION_LENGTH
	// B.3: TRUNCATION_SUFFIX, 15 bytes but 13 characters.
	truncationSuffix = "\u2026 [truncated]"
	maxQualifiedName = 64 // B.4: ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$
)

// Notes of the search_tool output (B.3).
const (
	notePartial = "Some MCP servers are still connecting. Results may be incomplete."
	noteEmpty   = "No MCP tools are available in this session. Connect MCP servers here, or if this is a subagent, check the agent's mcpInheritance."
)

// Diagnostic codes this client reports (search.Reporter).
const (
	CodeNameRejected   = "grok-name-rejected"
	CodeHidden         = "grok-hidden"
	CodeDuplicate      = "grok-duplicate"
	CodeDescriptionCut = "grok-description-cut"
	CodeUnreadable     = "grok-json-refused"
)

var clientID = search.ClientID{Name: "grok", Version: "1.0.0"}

func init() {
	search.Register(search.Profile{
		ID:      clientID,
		Default: true,
		Summary: "Grok Build search_tool: BM25 (bm25 crate 2.3.2) over name, description and parameter names; random tie order",
		// grok.md: a second implementation from the spec alone; bm25 cases compiled with rustc.
		Verified: "no runnable client: a second implementation, written independently from the same description of Grok's search, agrees on 12,054 searches; BM25 float32-exact against cases compiled from the Rust bm25 crate",
		Options: []search.Option{{
			Name:    "partial",
			Kind:    search.BoolOption,
			Default: "false",
			// grok.md B.3: the status a search reports while servers connect.
			Usage: `answer as while MCP servers are still connecting (search_tool reports status "partial")`,
		}},
		New: func(cat *corpus.Catalog, opts search.Options) (search.Simulator, error) {
			partial, err := opts.Bool("partial", false)
			if err != nil {
				return nil, err
			}
			return New(cat, Options{Partial: partial}), nil
		},
	})
}

// Options are the simulator's settings.
type Options struct {
	// Partial answers as Grok does before MCP initialisation has finished:
	// status "partial" and its note (B.3).
	Partial bool
}

// Simulator is Grok Build 1.0.0's search_tool over one catalog. It is
// immutable after New and safe for concurrent use.
type Simulator struct {
	opts    Options
	entries []entry // the searchable tools (ToolMetadata), catalog order
	// byID finds an entry by tool (View); built on first use.
	byIDOnce sync.Once
	byID     map[corpus.ToolID]int
	ix       *bm25.Index
	problems []corpus.Diagnostic
	servers  []serverInfo // connected servers, catalog order (B.1 reminder)

	// The heuristic writer's index, built on first use (writable.go).
	intentOnce    sync.Once
	intent        *intent.Index
	intentServers []string
	namesOnce     sync.Once
	names         []string // tool names by entry, for the writer's candidates (fitted.go)
}

// entry is one tool as Grok's ToolMetadata holds it (B.2): its input
// schema is the tool's, deduplicated when rendered; its parameter names
// are read from it when the document is built (params).
type entry struct {
	tool      *corpus.Tool
	qualified string // server__tool, ASCII (B.4)
}

// New builds the simulator: it registers the catalog's tools as Grok does
// (B.4: hidden and badly named tools skipped), builds each tool's document
// (B.2) and indexes them once. Grok rebuilds the BM25 engine on every call
// from the same documents, which gives the same scores. The documents are
// built while the index tokenizes them and not kept.
func New(cat *corpus.Catalog, opts Options) *Simulator {
	s := &Simulator{opts: opts}
	for _, srv := range cat.Servers {
		if s.unreadable(srv) {
			continue
		}
		s.servers = append(s.servers, serverInfo{name: srv.Name, instructions: srv.Instructions})
		before := len(s.entries)
		seen := map[string]bool{}
		for _, t := range srv.Tools {
			d := corpus.Diagnostic{File: srv.Source, Server: srv.Name, Tool: t.Name}
			q := srv.Name + "__" + t.Name
			if why := nameProblem(q); why != "" {
				d.Severity, d.Code, d.Field = corpus.Error, CodeNameRejected, "name"
				// grok.md B.4
				d.Message = fmt.Sprintf("Grok refuses to register %q (%s); the tool is skipped", q, why)
				s.problems = append(s.problems, d)
				continue
			}
			if t.HiddenFromModel() {
				d.Severity, d.Code, d.Field = corpus.Info, CodeHidden, "_meta.ui.visibility"
				d.Message = "visibility lacks \"model\": not searchable in Grok" // grok.md B.4
				s.problems = append(s.problems, d)
				continue
			}
			if seen[t.Name] {
				d.Severity, d.Code, d.Field = corpus.Warning, CodeDuplicate, "name"
				// grok.md B.6
				d.Message = fmt.Sprintf("second tool named %q: only the first is indexed (which one Grok keeps is not established)", t.Name)
				s.problems = append(s.problems, d)
				continue
			}
			seen[t.Name] = true
			if cut, ok := TruncateDescription(t.Description); ok {
				d.Severity, d.Code, d.Field = corpus.Warning, CodeDescriptionCut, "description"
				// grok.md B.3
				d.Message = fmt.Sprintf("description of %d characters is cut to %d in search_tool results; it is still indexed in full",
					len([]rune(t.Description)), len([]rune(cut)))
				s.problems = append(s.problems, d)
			}
			s.entries = append(s.entries, entry{tool: t, qualified: q})
		}
		s.servers[len(s.servers)-1].tools = len(s.entries) - before
	}
	s.ix = bm25.NewAppend(len(s.entries), func(i int, dst []byte) []byte {
		e := &s.entries[i]
		var buf [16]string // the usual parameter names, without allocating
		return AppendDocument(dst, e.tool.Server, e.tool.Name, e.tool.Description, appendParams(buf[:0], e.tool.InputSchema))
	})
	return s
}

// unreadable reports whether serde_json refuses a tool of srv (serde.go),
// with an error for that tool naming the JSON path and one for each other
// tool of the server. The refusal fails the parse of the whole tools/list
// answer, so none of the server's tools reaches the index and the server
// is not listed as connected (grok.md B.3: Grok's JSON is serde_json's;
// what Grok then does, log or retry, is not established, B.6).
func (s *Simulator) unreadable(srv *corpus.Server) bool {
	bad, path, why := -1, "", ""
	for i, t := range srv.Tools {
		if p, w, ok := serdeRefusal(t.Raw); ok {
			bad, path, why = i, p, w
			break
		}
	}
	if bad < 0 {
		return false
	}
	// The refused tool first: lint places the finding at its path.
	culprit := srv.Tools[bad]
	s.problems = append(s.problems, corpus.Diagnostic{Severity: corpus.Error, Code: CodeUnreadable,
		File: srv.Source, Server: srv.Name, Tool: culprit.Name, Field: path,
		Message: fmt.Sprintf("serde_json refuses the tool at %s (%s): Grok cannot read server %q's tools/list answer, so none of its %d tools is searchable",
			path, why, srv.Name, len(srv.Tools))})
	for i, t := range srv.Tools {
		if i != bad {
			s.problems = append(s.problems, corpus.Diagnostic{Severity: corpus.Error, Code: CodeUnreadable,
				File: srv.Source, Server: srv.Name, Tool: t.Name,
				Message: fmt.Sprintf("not searchable: serde_json refuses tool %q at %s (%s), so Grok cannot read server %q's tools/list answer",
					culprit.Name, path, why, srv.Name)})
		}
	}
	return true
}

// appendParams appends extract_parameter_names (B.2) to dst: the keys of
// "properties" when it is an object. serde_json (preserve_order) keeps a
// repeated key at its first position with its last value; Get returns the
// last value, and a key is listed at its first position.
func appendParams(dst []string, schema ojson.Value) []string {
	props, ok := schema.Get("properties")
	if !ok || props.Kind != ojson.Object {
		return dst
	}
	if len(props.Members()) > 16 {
		return append(dst, props.Keys()...)
	}
	start := len(dst)
	for _, m := range props.Members() {
		if !slices.Contains(dst[start:], m.Key) {
			dst = append(dst, m.Key)
		}
	}
	return dst
}

// index returns the entry of a tool, or false.
func (s *Simulator) index(id corpus.ToolID) (int, bool) {
	s.byIDOnce.Do(func() {
		s.byID = make(map[corpus.ToolID]int, len(s.entries))
		for i, e := range s.entries {
			s.byID[e.tool.ID()] = i
		}
	})
	i, ok := s.byID[id]
	return i, ok
}

// rejected counts the tools whose name Grok refuses (B.4) and returns the
// first refusal's message.
func (s *Simulator) rejected() (n int, first string) {
	for _, p := range s.problems {
		if p.Code == CodeNameRejected {
			if n == 0 {
				first = p.Message
			}
			n++
		}
	}
	return n, first
}

// Client implements search.Simulator.
func (s *Simulator) Client() search.ClientID { return clientID }

// Problems implements search.Reporter: tools Grok skips, hides or cuts.
func (s *Simulator) Problems() []corpus.Diagnostic {
	return append([]corpus.Diagnostic(nil), s.problems...)
}

// Len returns the number of searchable tools (total_hidden_tools).
func (s *Simulator) Len() int { return len(s.entries) }

// Document returns the BM25 document of one tool (B.2):
// "{server} {tool} {description} {params…}" followed by a space and the
// split components of the server name, the tool name and each parameter
// name, all joined by spaces.
func Document(server, tool, description string, params []string) string {
	n := 2*len(server) + 2*len(tool) + len(description) + 8
	for _, p := range params {
		n += 2*len(p) + 2
	}
	return string(AppendDocument(make([]byte, 0, n), server, tool, description, params))
}

// AppendDocument appends Document's text to dst and returns the extended
// slice.
func AppendDocument(dst []byte, server, tool, description string, params []string) []byte {
	dst = append(dst, server...)
	dst = append(dst, ' ')
	dst = append(dst, tool...)
	dst = append(dst, ' ')
	dst = append(dst, description...)
	dst = append(dst, ' ')
	for i, p := range params {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, p...)
	}
	dst = append(dst, ' ')
	first := true
	part := func(s string) {
		if !first {
			dst = append(dst, ' ')
		}
		first = false
		dst = append(dst, s...)
	}
	eachIdentifierPart(server, part)
	eachIdentifierPart(tool, part)
	for _, p := range params {
		eachIdentifierPart(p, part)
	}
	return dst
}

// SplitIdentifier is Grok's split_identifier (B.2): split on "__", then
// "_", then "-", drop empty pieces, then split each piece before every
// ASCII uppercase letter that follows an ASCII lowercase letter.
//
//	SearchDashboards → [Search Dashboards]
//	grafana-ai       → [grafana ai]
//	HTTPServer       → [HTTPServer]
//	get__me_Now      → [get me Now]
func SplitIdentifier(s string) []string {
	var out []string
	eachIdentifierPart(s, func(p string) { out = append(out, p) })
	return out
}

// eachIdentifierPart calls fn with SplitIdentifier's components in order,
// without building the intermediate lists. Splitting on "__", then "_",
// then "-" and dropping empty pieces leaves the maximal runs of bytes
// other than '_' and '-'.
func eachIdentifierPart(s string, fn func(string)) {
	for i := 0; i < len(s); {
		if s[i] == '_' || s[i] == '-' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != '_' && s[j] != '-' {
			j++
		}
		part := s[i:j]
		start := 0
		for k := 1; k < len(part); k++ {
			if isLower(part[k-1]) && isUpper(part[k]) {
				fn(part[start:k])
				start = k
			}
		}
		fn(part[start:])
		i = j
	}
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// NormalizeQuery is Grok's normalize_query (B.2): when the query contains
// "_" (which covers "__"), "-" or an ASCII lower→upper pair, the split
// components of its whitespace-separated words are appended after a space;
// otherwise (or when there are no components) the query is unchanged.
func NormalizeQuery(q string) string {
	need := strings.ContainsAny(q, "_-")
	for i := 1; !need && i < len(q); i++ {
		need = isLower(q[i-1]) && isUpper(q[i])
	}
	if !need {
		return q
	}
	var extra []string
	for _, w := range strings.FieldsFunc(q, unicode.IsSpace) { // Rust split_whitespace
		extra = append(extra, SplitIdentifier(w)...)
	}
	if len(extra) == 0 {
		return q
	}
	return q + " " + strings.Join(extra, " ")
}

// nameProblem applies B.4's registration check to a qualified name and
// says what is wrong, or "" when Grok accepts it.
func nameProblem(q string) string {
	n := 0
	for i := 0; i+1 < len(q); i++ { // overlapping "__" boundaries count
		if q[i] == '_' && q[i+1] == '_' {
			n++
		}
	}
	if n != 1 {
		return fmt.Sprintf("%d \"__\" boundaries, want exactly 1", n)
	}
	srv, tool, _ := strings.Cut(q, "__")
	if srv == "" || tool == "" {
		return "empty server or tool part"
	}
	if len(q) > maxQualifiedName {
		return fmt.Sprintf("%d characters, at most %d", len(q), maxQualifiedName)
	}
	for i, r := range q {
		ok := r < utf8.RuneSelf && (r == '_' || isLower(byte(r)) || isUpper(byte(r)) || i > 0 && (r == '-' || '0' <= r && r <= '9'))
		if !ok {
			return fmt.Sprintf("character %q at byte %d does not match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$", r, i)
		}
	}
	return ""
}

// TruncateDescription is Grok's truncate_description (B.3): a description
// longer than 2,048 bytes and 2,048 characters keeps its first 2,033
// characters (2,048 minus the suffix's 15 bytes) and gets "… [truncated]",
// 2,046 characters in all.
func TruncateDescription(s string) (string, bool) {
	if len(s) <= MaxDescription {
		return s, false
	}
	n := 0
	for range s {
		n++
	}
	if n <= MaxDescription {
		return s, false
	}
	cut, _ := search.TruncateRunes(s, MaxDescription-len(truncationSuffix))
	return cut + truncationSuffix, true
}

// Search implements search.Simulator (B.2, B.3).
func (s *Simulator) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	res := search.Result{Client: clientID.String(), Hits: []search.Hit{}}
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = DefaultLimit
	case limit > MaxLimit:
		res.Notes = append(res.Notes, fmt.Sprintf("limit %d is above the u8 range; Grok's model cannot ask for more than %d", limit, MaxLimit))
		limit = MaxLimit
	}
	res.Limit = limit
	if len(s.entries) == 0 { // tool_index.rs: empty snapshot, no search
		if n, first := s.rejected(); n > 0 {
			// grok.md B.4
			res.Notes = append(res.Notes, fmt.Sprintf("0 hits because no tool is searchable: Grok refuses all %d tool names, e.g. %s", n, first))
		}
		s.render(&res, nil)
		return res, nil
	}
	// Exact match first (B.2): limit ignored.
	if i := s.exactName(q.Text); i >= 0 {
		e := s.entries[i]
		res.Notes = append(res.Notes, fmt.Sprintf("exact-name shortcut: %q matches %s; it is returned alone with score 1.0, limit ignored", strings.TrimSpace(q.Text), e.qualified))
		res.Hits = append(res.Hits, search.Hit{
			Rank: 1, RankWorst: 1, PWithinLimit: 1,
			Tool: e.tool.ID(), Name: e.qualified, Score: 1,
			Why: []string{"exact name match (score fixed at 1.0)"},
		})
		res.Extra = map[string]any{"shortcut": "exact-name"}
		s.render(&res, []shown{{i, 1}})
		return res, nil
	}
	norm, qtoks, matches := s.match(q.Text)
	res.Extra = map[string]any{
		"normalized_query": norm,
		"query_tokens":     nonNil(qtoks),
		"candidates":       len(matches),
	}
	var out []shown
	straddle := false
	for start := 0; start < len(matches) && start < limit; {
		end := start + 1 // the tie group is matches[start:end]
		for end < len(matches) && matches[end].Score == matches[start].Score {
			end++
		}
		p := 1.0
		if end > limit {
			p = float64(limit-start) / float64(end-start)
			straddle = true
		}
		for _, m := range matches[start:end] {
			e := s.entries[m.Doc]
			h := search.Hit{
				Rank: start + 1, RankWorst: end, PWithinLimit: p,
				Tool: e.tool.ID(), Name: e.qualified, Score: float64(m.Score),
				Why: s.why(qtoks, m.Doc),
			}
			if end-start > 1 {
				h.Extra = map[string]any{"tie_group": end - start}
			}
			res.Hits = append(res.Hits, h)
		}
		for i := start; i < end && i < limit; i++ {
			out = append(out, shown{matches[i].Doc, matches[i].Score})
		}
		start = end
	}
	if straddle {
		res.Notes = append(res.Notes, fmt.Sprintf("tied scores cross the limit of %d: Grok picks among the tied tools at random (HashSet order); p_within_limit gives each one's chance, and the text shown uses catalog order for them", limit))
	} else if hasTies(res.Hits) {
		res.Notes = append(res.Notes, "tied scores come back in random order in Grok; ranks show each tie group's range, and the text shown uses catalog order for them")
	}
	s.render(&res, out)
	return res, nil
}

// exactName is the exact-name shortcut (B.2): the first tool in catalog
// order whose lowercased qualified or bare name equals the trimmed, lowercased query,
// or -1. Rust's to_lowercase is the full Unicode mapping: U+0130 (İ)
// becomes "i\u0307", so "İssue_write" is no exact name (search.JSLower maps
// it the same way; Go's strings.ToLower would give a plain "i").
func (s *Simulator) exactName(query string) int {
	ql := search.JSLower(strings.TrimSpace(query))
	for i, e := range s.entries {
		// qualified is ASCII: its lowercase is byte by byte, and the
		// bare name is its end.
		if lowerEquals(e.qualified, ql) || lowerEquals(e.qualified[len(e.qualified)-len(e.tool.Name):], ql) {
			return i
		}
	}
	return -1
}

// lowerEquals reports whether the ASCII lowercase of the ASCII name is
// lower, without building it.
func lowerEquals(name, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// match is the BM25 step of Search (B.2): the normalised query, its tokens
// and the scored tools, best first.
func (s *Simulator) match(query string) (norm string, qtoks []string, matches []bm25.Match) {
	norm = NormalizeQuery(query)
	qtoks = bm25.Tokenize(norm)
	return norm, qtoks, s.ix.SearchTokens(qtoks)
}

// shownDocs lists the tools search_tool's text shows for a query at the
// default limit (what Search renders: the first DefaultLimit matches, a
// tie group that crosses the limit cut in catalog order), without
// rendering it.
func (s *Simulator) shownDocs(query string) []int {
	if i := s.exactName(query); i >= 0 {
		return []int{i}
	}
	_, _, matches := s.match(query)
	out := make([]int, 0, DefaultLimit)
	for _, m := range matches[:min(DefaultLimit, len(matches))] {
		out = append(out, m.Doc)
	}
	return out
}

func hasTies(hs []search.Hit) bool {
	for _, h := range hs {
		if h.RankWorst > h.Rank {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// why explains a document's score token by token (duplicates included).
func (s *Simulator) why(qtoks []string, doc int) []string {
	var out []string
	for _, ts := range s.ix.ExplainTokens(qtoks, doc) {
		if ts.TF == 0 {
			out = append(out, fmt.Sprintf("%s: not in the tool's text", ts.Token))
			continue
		}
		out = append(out, fmt.Sprintf("%s: tf %d in %d tokens, df %d → idf %s × tf weight %s = +%s",
			ts.Token, ts.TF, s.ix.DocLen(doc), ts.DF, fmtF32(ts.IDF), fmtF32(ts.Value), fmtF32(ts.Score)))
	}
	return out
}

func fmtF32(f float32) string { return fmt.Sprintf("%.4f", f) }

// View implements search.Viewer: the model sees an MCP tool only through
// search_tool, so the view is search_tool's answer when the model searches
// the tool's qualified name (the exact-name shortcut, B.2).
func (s *Simulator) View(id corpus.ToolID) (search.ToolView, bool) {
	i, ok := s.index(id)
	if !ok {
		return search.ToolView{}, false
	}
	e := s.entries[i]
	res := search.Result{}
	s.render(&res, []shown{{i, 1}})
	v := search.ToolView{Tool: id, Name: e.qualified, Text: res.Shown, Tokens: res.ShownTokens}
	v.Notes = append(v.Notes, "as returned by search_tool for the query "+e.qualified)
	if _, cut := TruncateDescription(e.tool.Description); cut {
		v.Notes = append(v.Notes, "description cut to 2,046 characters") // grok.md B.3
	}
	return v, true
}
