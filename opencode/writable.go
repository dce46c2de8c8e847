package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/toolfind/toolfind/internal/lazyre"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

var (
	_ search.Writable = (*CodeMode)(nil)
	_ search.NoSearch = (*Eager)(nil)
)

// SearchesNothing: in eager mode every tool is a top-level tool (§C.1);
// the model never searches.
func (s *Eager) SearchesNothing() bool { return true }

// Surface text keys (`--surface-file`).
const (
	TextExecuteIntro = "execute_intro"
	TextWorkflow     = "workflow"
)

// The execute description's first sentence is OpenCode's own (MIT,
// © opencode contributors; quoted in specs/opencode.md §0). The workflow
// text is toolfind's restatement of §C.2's "Workflow"/"Rules" sections.
const (
	defExecuteIntro = "Run a confined orchestration script with access to connected MCP tools."
	defWorkflow     = "Workflow:\n1. If needed, discover tools with the search function and return its result.\n2. Call tools with `await` and their exact signatures; return what the user needs.\n\nRules: the code is the body of an async function; return a value to see it; no network, filesystem or console."
)

// Surface renders what OpenCode's model sees in code mode before it
// searches (§0, §C.2): the execute tool, whose description holds the
// intro, the workflow and the partial catalog section (exact, as built by
// PlanCatalog); in the v2 profile the catalog goes to the system prompt.
func (s *CodeMode) Surface(texts search.Texts) (search.Surface, error) {
	if err := search.CheckTexts(s.prof.ID.Name, texts, TextExecuteIntro, TextWorkflow); err != nil {
		return search.Surface{}, err
	}
	wording := map[string]string{}
	intro := search.ApplyTexts(texts, wording, TextExecuteIntro, defExecuteIntro, "client")
	work := search.ApplyTexts(texts, wording, TextWorkflow, defWorkflow, "toolfind")
	wording["catalog"] = "client"
	schema := search.MarshalSchema(map[string]any{
		"type":       "object",
		"properties": map[string]any{"code": map[string]any{"type": "string"}},
		"required":   []string{"code"},
	})
	desc := intro + "\n\n" + work
	sf := search.Surface{
		Client:  s.prof.ID.String(),
		Visible: s.catalog.Shown,
		Total:   s.catalog.Total,
		Wording: wording,
		Sources: []string{"specs/opencode.md §0 (execute description, catalog placement, tools.$codemode.search)", "specs/opencode.md §C.2 (catalog selection and rendering)"},
	}
	if s.prof.V2 {
		sf.Context = []search.SurfaceText{{Role: "system", Text: s.catalog.Text}}
		sf.Notes = append(sf.Notes, "v2 profile: catalog in the system prompt, global search() (unverified)")
	} else {
		desc += "\n\n" + s.catalog.Text
	}
	sf.Tools = []search.SurfaceTool{{Name: "execute", Description: desc, InputSchema: schema}}
	if len(s.entries) == 0 {
		sf.Tools = nil
		sf.Notes = append(sf.Notes, "no MCP tool is visible: OpenCode offers no execute tool")
	}
	return sf, nil
}

// searchCallRe matches searchScript's output for either profile.
var searchCallRe = lazyre.New(`^return (?:await tools\.\$codemode\.search|search)\(\{ query: ("(?:[^"\\]|\\.)*")(?:, limit: ([0-9]+))? \}\)$`)

// Replay runs one execute call, {"code": string}: the body of an async
// function with tools.$codemode.search (1.18.33) or search (v2) bound to
// the simulated search(). What the function returns is the output
// (strings as they are, other values as JSON.stringify(value, null, 2)),
// cut by Truncate (§C.1); a tool is found when its path appears in that
// output, ranked by first appearance. Code that is exactly one search
// call as searchScript writes it runs natively (same bytes: the search
// result's JSON is what JSON.stringify prints, §0).
func (s *CodeMode) Replay(ctx context.Context, call json.RawMessage) (search.Result, error) {
	o, err := search.CallObject(call)
	if err != nil {
		return search.Result{}, err
	}
	code, err := search.CallString(o, "code", true)
	if err != nil {
		return search.Result{}, err
	}
	if q, limit, ok := s.parseSearchCall(code); ok {
		r, err := s.Search(ctx, search.Query{Text: q, Limit: limit})
		r.Strategy = "written"
		return r, err
	}
	return s.runCode(ctx, code)
}

func (s *CodeMode) parseSearchCall(code string) (string, int, bool) {
	m := searchCallRe.Re().FindStringSubmatch(code)
	if m == nil {
		return "", 0, false
	}
	var q string
	if err := json.Unmarshal([]byte(m[1]), &q); err != nil {
		return "", 0, false
	}
	limit := 0
	if m[2] != "" {
		n, err := strconv.Atoi(m[2])
		if err != nil || n <= 0 {
			return "", 0, false
		}
		limit = n
	}
	if s.searchScript(q, limit) != code {
		return "", 0, false
	}
	return q, limit, true
}

// scriptTimeout bounds one replayed script.
const scriptTimeout = 2 * time.Second

// session is the engine's session over the search index's tool paths,
// opened on first use (package jsbox).
func (s *CodeMode) session() (jsbox.OpenCode, error) {
	return s.js.Get(func(e jsbox.Engine) (jsbox.OpenCode, error) {
		tools := make([]jsbox.OpenCodeTool, len(s.index))
		for i, e := range s.index {
			tools[i] = jsbox.OpenCodeTool{Namespace: e.e.namespace, Local: e.e.local}
		}
		return e.OpenCode(jsbox.OpenCodeSetup{Tools: tools, GlobalSearch: s.prof.V2, Timeout: scriptTimeout})
	})
}

// runCode runs arbitrary model code in the process's JavaScript engine.
func (s *CodeMode) runCode(ctx context.Context, code string) (search.Result, error) {
	client := s.prof.ID.String()
	res := search.Result{Client: client, Strategy: "written", Hits: []search.Hit{}}
	js, err := s.session()
	if err != nil {
		return search.Result{}, fmt.Errorf("%s: %w", client, err)
	}
	run, err := js.Run(ctx, code, func(in jsbox.SearchInput) (string, error) {
		sin := SearchInput{Query: in.Query, Namespace: in.Namespace, Limit: in.Limit, Offset: in.Offset}
		if err := sin.validate(); err != nil {
			return "", err
		}
		return s.index.run(sin).JSON(), nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return search.Result{}, ctx.Err()
		}
		return search.Result{}, fmt.Errorf("%s: %w", client, err)
	}
	output := run.Output
	if run.Failed {
		output = "Error: " + run.Error
		res.Extra = map[string]any{"error": run.Error}
		res.Notes = append(res.Notes, "the script failed: "+run.Error)
	}
	called := make([]*indexEntry, len(run.Called))
	for i, k := range run.Called {
		if k < 0 || k >= len(s.index) {
			return search.Result{}, fmt.Errorf("%s: the engine reported a call of tool %d of %d", client, k, len(s.index))
		}
		called[i] = s.index[k]
	}
	tr := Truncate(output, TruncateOptions{})
	res.Shown = tr.Content
	res.ShownTokens = Tokens(tr.Content)
	// Hits: the tools the script called, in call order, then the tools
	// whose path is visible in the output (plain, or escaped inside a JSON
	// string), by first appearance.
	seen := map[*indexEntry]bool{}
	for _, e := range called {
		if !seen[e] {
			seen[e] = true
			res.Hits = append(res.Hits, search.Hit{Tool: e.e.tool.ID(), Name: e.rendered, Score: -1,
				Why: []string{"called by the script (calls are recorded, not executed)"}})
		}
	}
	var visible []search.Hit
	for _, e := range s.index {
		if seen[e] {
			continue
		}
		i := pathIndex(tr.Content, e.rendered)
		if j := pathIndex(tr.Content, strings.ReplaceAll(e.rendered, `"`, `\"`)); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i >= 0 {
			visible = append(visible, search.Hit{Tool: e.e.tool.ID(), Name: e.rendered, Score: float64(i),
				Why: []string{fmt.Sprintf("path visible at byte %d of the output", i)}})
		}
	}
	sort.SliceStable(visible, func(i, j int) bool { return visible[i].Score < visible[j].Score })
	res.Hits = append(res.Hits, visible...)
	for i := range res.Hits {
		res.Hits[i].Rank, res.Hits[i].RankWorst, res.Hits[i].PWithinLimit, res.Hits[i].Score = i+1, i+1, 1, 0
	}
	res.Limit = len(res.Hits)
	if tr.Truncated {
		res.Notes = append(res.Notes, fmt.Sprintf("the output exceeds OpenCode's output limit: %d %s cut", tr.Removed, tr.Unit))
	}
	if res.Extra == nil {
		res.Extra = map[string]any{}
	}
	res.Extra["search_calls"] = run.Searches
	res.Extra["tool_calls"] = len(called)
	if len(called) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d tool call(s) recorded, none executed", len(called)))
	}
	return res, nil
}

// pathIndex is the first offset of path in text not followed by an
// identifier character (tools.a.find is not tools.a.find_one), or -1.
func pathIndex(text, path string) int {
	for off := 0; ; {
		k := strings.Index(text[off:], path)
		if k < 0 {
			return -1
		}
		end := off + k + len(path)
		if end == len(text) || !isIdentChar(text[end]) {
			return off + k
		}
		off += k + 1
	}
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// VerbatimCall is one search with the prompt as the query.
func (s *CodeMode) VerbatimCall(prompt string) json.RawMessage {
	return search.MarshalCall("code", s.searchScript(prompt, 0))
}

// HeuristicCalls is the deterministic writer for OpenCode code mode: the
// workflow asks for `search({ query: "<intent + key nouns>" })` (§C.2), so
// the model writes one search call with the prompt's four most telling
// keywords (intent.Index.KeywordQuery), OpenCode's default limit:
//
//	return await tools.$codemode.search({ query: "group movies release year count" })
func (s *CodeMode) HeuristicCalls(prompt string) []json.RawMessage {
	s.intentOnce.Do(func() {
		docs := make([]intent.Doc, len(s.index))
		for i, e := range s.index {
			docs[i] = intent.Doc{Server: e.e.tool.Server, Tool: e.e.tool.Name, Description: e.desc}
		}
		s.intent = intent.NewIndex(docs)
	})
	q := s.intent.KeywordQuery("", prompt, s.intent.Rank(prompt), 4)
	if q == "" {
		return nil
	}
	return []json.RawMessage{search.MarshalCall("code", s.searchScript(q, 0))}
}
