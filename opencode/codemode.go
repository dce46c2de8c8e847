package opencode

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// Profile is one OpenCode code mode version.
type Profile struct {
	ID search.ClientID
	// V2 selects the unverified v2 differences of §C.2: a global search()
	// advertised as such, and the catalog in the system prompt.
	V2 bool
	// Budget is the catalog budget: CatalogBudget in both profiles; 0
	// shows no tool.
	Budget int
}

func profile118() Profile {
	return Profile{ID: search.ClientID{Name: "opencode-codemode", Version: "1.18.33"}, Budget: CatalogBudget}
}

func profileV2() Profile {
	return Profile{ID: search.ClientID{Name: "opencode-codemode", Version: "2"}, V2: true, Budget: CatalogBudget}
}

// CodeMode simulates OpenCode's code mode: the partial catalog in the
// execute tool's description and tools.$codemode.search(). Build it with
// NewCodeMode; it is safe for concurrent use.
type CodeMode struct {
	prof    Profile
	style   planStyle
	entries []*entry
	index   searchIndex
	catalog Catalog
	// shown tells which entries the catalog shows (their lines are built
	// when needed: line).
	shown []bool
	byID  map[corpus.ToolID]int
	// problems are built on the first Problems call from the parts kept
	// here (one note per tool the catalog leaves out: 100,000 of them on a
	// large catalog, which rank never reads).
	problemsOnce sync.Once
	problems     []corpus.Diagnostic
	problemsOf   func() []corpus.Diagnostic

	// The heuristic writer's index, built on first use (writable.go).
	intentOnce sync.Once
	intent     *intent.Index

	// js runs written scripts, opened on first use (writable.go).
	js jsbox.Lazy[jsbox.OpenCode]
}

// NewCodeMode builds the code mode simulator of OpenCode 1.18.33 (v2
// false) or of the v2 sources (v2 true) over a catalog.
func NewCodeMode(cat *corpus.Catalog, v2 bool) *CodeMode {
	if v2 {
		return newCodeMode(cat, profileV2())
	}
	return newCodeMode(cat, profile118())
}

func newCodeMode(cat *corpus.Catalog, p Profile) *CodeMode {
	s := &CodeMode{prof: p, style: style118, byID: make(map[corpus.ToolID]int, cat.Len())}
	if p.V2 {
		s.style = planStyle{header: "search(...)", advert: searchSignatureV2}
	}
	rejected := rejectedServers(cat)
	s.entries = buildEntries(cat, rejected)
	paths := make([]string, len(s.entries))
	for i, e := range s.entries {
		paths[i] = e.path
	}
	ranks := localeRanks(paths)
	cost := make([]int, len(s.entries))
	lost := outputFallback(cat, rejected)
	var budget []corpus.Diagnostic
	s.index = make(searchIndex, len(s.entries))
	for i, e := range s.entries {
		t := e.tool
		out := t.OutputSchema
		if lost[t.Server] != nil {
			out = ojson.Value{} // listed again without output schemas
		}
		rendered := RenderPath(e.path)
		sig, over := signatureBudget(rendered, t.InputSchema, out)
		if over != "" {
			budget = append(budget, corpus.Diagnostic{Severity: corpus.Error, Code: "opencode-schema-too-large", Client: p.ID.String(),
				File: fileOf(cat, t.Server), Server: t.Server, Tool: t.Name, Field: over,
				Message: fmt.Sprintf("its TypeScript type expands past %d schema nodes ($ref expansion), toolfind's limit (MaxTypeRenderNodes): shown as unknown here; "+
					"OpenCode's renderer has only its depth limit of %d, so it would expand the type in full", MaxTypeRenderNodes, maxTypeDepth)})
		}
		desc := toolDescription(t)
		cost[i] = lineTokens(sig, desc)
		s.index[i] = newIndexEntry(e, rendered, desc, sig, ranks[i])
		s.byID[t.ID()] = i
	}
	s.catalog, s.shown = planCatalog(paths, cost, s.line, ranks, p.Budget, s.style)
	s.problemsOf = func() []corpus.Diagnostic {
		ps := append(rejectionProblems(cat, p.ID.String(), rejected), outputFallbackProblems(cat, p.ID.String(), lost)...)
		ps = append(ps, s.diagnose(cat)...)
		return append(ps, budget...)
	}
	return s
}

// line is entry i's catalog line.
func (s *CodeMode) line(i int) string {
	return CatalogLine(s.index[i].signature, s.index[i].desc)
}

// toolDescription is `def.description ?? ""`.
func toolDescription(t *corpus.Tool) string {
	if t.HasDescription {
		return t.Description
	}
	return ""
}

// Client implements search.Simulator.
func (s *CodeMode) Client() search.ClientID { return s.prof.ID }

// Catalog returns the planned catalog section.
func (s *CodeMode) Catalog() Catalog { return s.catalog }

// InCatalog reports whether the catalog shows the tool.
func (s *CodeMode) InCatalog(id corpus.ToolID) bool {
	i, ok := s.byID[id]
	return ok && s.shown[i]
}

// RunSearch runs tools.$codemode.search with the given input.
func (s *CodeMode) RunSearch(in SearchInput) (SearchResult, error) {
	if err := in.validate(); err != nil {
		return SearchResult{}, err
	}
	return s.index.run(in), nil
}

func (s *CodeMode) runSearch(in SearchInput) SearchResult { return s.index.run(in) }

// searchScript is the execute script a model writes to search (§0).
func (s *CodeMode) searchScript(q string, limit int) string {
	fn := "await tools.$codemode.search"
	if s.prof.V2 {
		fn = "search"
	}
	arg := "{ query: " + jsonString(q)
	if limit > 0 {
		arg += ", limit: " + strconv.Itoa(limit)
	}
	return "return " + fn + "(" + arg + " })"
}

// Search implements search.Simulator. The primary result is search()'s
// answer (strategy "search"): its items in order, each hit marked
// in_catalog when the catalog already shows the tool. Shown is the
// catalog section, a blank line, then the search result as the execute
// tool returns it (JSON, cut by Truncate if over the limits). A variant
// (strategy "catalog") lists the tools the catalog shows: the model sees
// them without searching, so each is found at rank 1.
func (s *CodeMode) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	if q.Limit < 0 {
		return search.Result{}, fmt.Errorf("limit %d: must be 0 (default %d) or more", q.Limit, DefaultSearchLimit)
	}
	limit := q.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	res := s.index.run(SearchInput{Query: q.Text, Limit: limit})
	raw := res.JSON()
	tr := Truncate(raw, TruncateOptions{})
	client := s.prof.ID.String()
	r := search.Result{Client: client, Strategy: "search", Limit: limit, Hits: []search.Hit{}}
	for i, it := range res.Items {
		e := it.entry.e
		shown := s.shown[s.byID[e.tool.ID()]]
		why := append([]string(nil), it.Why...)
		if shown {
			why = append(why, "shown in the catalog: found without searching")
		}
		r.Hits = append(r.Hits, search.Hit{
			Rank: i + 1, RankWorst: i + 1, PWithinLimit: 1,
			Tool: e.tool.ID(), Name: it.Path, Score: float64(it.Score), Why: why,
			Extra: map[string]any{"in_catalog": shown},
		})
	}
	if len(s.entries) == 0 {
		r.Notes = append(r.Notes, "no MCP tool is visible: OpenCode offers no execute tool, so there is no catalog and no search")
		r.Extra = map[string]any{"catalog": "", "search_result": ""}
		return r, nil
	}
	r.Shown = s.catalog.Text + "\n\n" + tr.Content
	searchTokens := Tokens(tr.Content)
	r.ShownTokens = s.catalog.Tokens + searchTokens
	var next any
	if res.Next >= 0 {
		next = res.Next
	}
	r.Extra = map[string]any{
		"catalog":          s.catalog.Text,
		"catalog_shown":    s.catalog.Shown,
		"catalog_total":    s.catalog.Total,
		"catalog_used":     s.catalog.Used,
		"catalog_tokens":   s.catalog.Tokens,
		"search_script":    s.searchScript(q.Text, q.Limit),
		"search_result":    tr.Content,
		"search_tokens":    searchTokens,
		"search_remaining": res.Remaining,
		"search_next":      next,
		"search_matched":   res.Matched,
	}
	where := "the execute tool's description"
	if s.prof.V2 {
		where = "the system prompt (v2 sources, unverified)"
	}
	r.Notes = append(r.Notes, fmt.Sprintf("catalog in %s shows %d of %d tools (%d of %d budget tokens)", where, s.catalog.Shown, s.catalog.Total, s.catalog.Used, s.catalog.Budget))
	switch {
	case res.Exact:
		r.Notes = append(r.Notes, "the query is a tool path: search() returns that tool alone")
	case len(res.Items) == 0:
		r.Notes = append(r.Notes, "search() found nothing (no term matched any tool)")
	}
	if len(res.Items) > 0 {
		var in []string
		for _, h := range r.Hits {
			if h.Extra["in_catalog"] == true {
				in = append(in, fmt.Sprintf("#%d %s", h.Rank, h.Name))
			}
		}
		member := "none of them is in the catalog: the model must search to find them"
		if len(in) > 0 {
			member = fmt.Sprintf("%d in the catalog already (found without searching): %s", len(in), strings.Join(in, ", "))
		}
		r.Notes = append(r.Notes, fmt.Sprintf("search() returns %d hits (%d more remaining); %s", len(res.Items), res.Remaining, member))
	}
	if tr.Truncated {
		r.Notes = append(r.Notes, fmt.Sprintf("the search result exceeds OpenCode's output limit: %d %s cut", tr.Removed, tr.Unit))
	}
	if s.prof.V2 {
		// opencode.md §C.2
		r.Notes = append(r.Notes, "v2 profile: global search() and catalog placement from the v2 sources, not verified against a release")
	}
	r.Variants = []search.Result{s.catalogResult(client)}
	return r, nil
}

// catalogResult is the "catalog" strategy: every tool the catalog shows,
// at rank 1 (the model reads them all before it writes any code).
func (s *CodeMode) catalogResult(client string) search.Result {
	r := search.Result{Client: client, Strategy: "catalog", Limit: s.catalog.Shown, Hits: []search.Hit{},
		Shown: s.catalog.Text, ShownTokens: s.catalog.Tokens,
		Notes: []string{"every tool the catalog shows is visible without searching: rank 1 for all, not an order"},
		Extra: map[string]any{"catalog": s.catalog.Text, "catalog_shown": s.catalog.Shown, "catalog_total": s.catalog.Total,
			"catalog_used": s.catalog.Used, "catalog_tokens": s.catalog.Tokens}}
	for i, e := range s.entries {
		if !s.shown[i] {
			continue
		}
		r.Hits = append(r.Hits, search.Hit{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: e.tool.ID(),
			Name: RenderPath(e.path), Why: []string{"shown in the catalog"}, Extra: map[string]any{"in_catalog": true}})
	}
	return r
}

// View implements search.Viewer: the tool's catalog line when the catalog
// shows it, else the signature search() returns for it.
func (s *CodeMode) View(id corpus.ToolID) (search.ToolView, bool) {
	i, ok := s.byID[id]
	if !ok {
		return search.ToolView{}, false
	}
	e := s.index[i]
	v := search.ToolView{Tool: id, Name: e.rendered}
	if s.shown[i] {
		v.Text = s.line(i)
		v.Notes = []string{"shown in the code mode catalog"}
	} else {
		v.Text = e.signature
		v.Notes = []string{"not in the catalog: the model sees this signature only in a tools.$codemode.search result"}
	}
	v.Tokens = Tokens(v.Text)
	return v, true
}

// Problems implements search.Reporter.
func (s *CodeMode) Problems() []corpus.Diagnostic {
	s.problemsOnce.Do(func() { s.problems, s.problemsOf = s.problemsOf(), nil })
	return s.problems
}

func (s *CodeMode) diagnose(cat *corpus.Catalog) []corpus.Diagnostic {
	client := s.prof.ID.String()
	out := commonProblems(cat, client, s.entries)
	for i, e := range s.entries {
		t := e.tool
		d := func(sev corpus.Severity, code, field, msg string) {
			out = append(out, corpus.Diagnostic{Severity: sev, Code: code, Client: client, File: fileOf(cat, t.Server),
				Server: t.Server, Tool: t.Name, Field: field, Message: msg})
		}
		if e.namespace != Sanitize(t.Server) {
			d(corpus.Warning, "opencode-namespace", "", fmt.Sprintf("code mode files this tool under namespace %q as %s (the longest connected server name that prefixes its key %q wins)", e.namespace, RenderPath(e.path), e.key))
		}
		if strings.Contains(s.index[i].signature, "(input: unknown)") && t.InputSchema.Kind != ojson.Invalid {
			d(corpus.Warning, "opencode-schema-unknown", "inputSchema", "the input schema renders as `unknown` in the code mode signature (the renderer failed on its shape), so the model gets no parameter list")
		}
		desc := toolDescription(t)
		if first, _, _ := strings.Cut(desc, "\n"); utf16Len(search.JSTrim(first)) > descriptionCut {
			d(corpus.Info, "opencode-description-cut", "description", fmt.Sprintf("the catalog line keeps only the first %d characters of the description's first line plus \"...\"", descriptionKeep))
		} else if FirstLine(desc) == "" {
			d(corpus.Info, "opencode-description-empty", "description", "the description's first line is empty, so the catalog line has no comment")
		}
		if !s.shown[i] {
			d(corpus.Info, "opencode-not-in-catalog", "", fmt.Sprintf("not among the %d of %d tools the code mode catalog shows (its line costs %d of the %d budget); the model finds it only through tools.$codemode.search", s.catalog.Shown, s.catalog.Total, Tokens(s.line(i)), s.catalog.Budget))
		}
	}
	return out
}

// commonProblems are the renames and collisions both modes share.
func commonProblems(cat *corpus.Catalog, client string, entries []*entry) []corpus.Diagnostic {
	var out []corpus.Diagnostic
	for _, e := range entries {
		for _, t := range e.shadowed {
			out = append(out, corpus.Diagnostic{Severity: corpus.Error, Code: "opencode-key-collision", Client: client, File: fileOf(cat, t.Server),
				Server: t.Server, Tool: t.Name, Field: "name",
				Message: fmt.Sprintf("hidden: a later tool (%s) has the same OpenCode name %q and replaces it", e.tool.ID(), e.key)})
		}
		t := e.tool
		if Sanitize(t.Name) != t.Name || Sanitize(t.Server) != t.Server {
			out = append(out, corpus.Diagnostic{Severity: corpus.Info, Code: "opencode-sanitized", Client: client, File: fileOf(cat, t.Server),
				Server: t.Server, Tool: t.Name, Field: "name",
				Message: fmt.Sprintf("renamed to %q: characters outside [a-zA-Z0-9_-] become \"_\"", e.key)})
		}
	}
	return out
}

func fileOf(cat *corpus.Catalog, server string) string {
	if s := cat.Server(server); s != nil {
		return s.Source
	}
	return ""
}
