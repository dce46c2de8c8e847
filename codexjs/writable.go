package codexjs

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/internal/lazyre"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

var (
	_ search.Writable = (*CodeMode)(nil)
	_ search.Writable = (*ToolSearch)(nil)
)

// Surface text keys (`--surface-file`). Codex is Apache-2.0; the spec
// gives its texts paraphrased (§1.6, §5.1), so the defaults are toolfind's
// restatement, and a user may supply the exact texts of their release.
const (
	TextExecDescription       = "exec_description"
	TextDeferredGuidance      = "deferred_guidance"
	TextToolSearchDescription = "tool_search_description"
)

// defExecDescription restates §1.6 item 1 (the template) and
// defDeferredGuidance item 2 (the deferred guidance).
const (
	defExecDescription = "Runs JavaScript that orchestrates tool calls. Each call gets a fresh V8 isolate; the code is evaluated as an async module.\n" +
		"Every nested tool is on the global `tools` object under a normalised identifier such as `tools.mcp__ologs__get_profile(...)`; tools take a string or an object and return an object or a string.\n" +
		"There is no Node, no filesystem, no network and no `console`. Send raw JavaScript, not JSON, quoted strings or markdown fences.\n" +
		"An optional first-line pragma sets `yield_time_ms` (default 10000) and `max_output_tokens` (default 10000). Unawaited promises are dropped when evaluation finishes.\n" +
		"Helpers: `exit()` ends the script as a success; `text(value)` appends a text item (non-strings are JSON-stringified); `image(...)`, `audio(...)` and `generatedImage(...)` append media; `store(key, value)` / `load(key)` keep values across calls; `notify(value)` emits output at once; `setTimeout` / `clearTimeout`; `ALL_TOOLS` is metadata for the enabled nested tools as `{ name, description }` entries; `yield_control()` returns the output so far while the script keeps running."
	defDeferredGuidance = "Some nested tools are deferred: they are not described here, but they are on `tools` and listed in `ALL_TOOLS`. Find them by filtering `ALL_TOOLS` on `name` and `description`."
	defToolSearchDesc   = "# Tool discovery\n\nSearches the metadata of deferred tools with BM25 and makes the matches available for the next call."
)

// Surface renders what Codex's model sees in code mode before it searches
// (§1.6): the exec tool (a freeform tool whose input is raw JavaScript;
// shown here as {"code": string}) with the template and, when any MCP tool
// is deferred, the deferred guidance.
func (m *CodeMode) Surface(texts search.Texts) (search.Surface, error) {
	if err := search.CheckTexts("codex", texts, TextExecDescription, TextDeferredGuidance); err != nil {
		return search.Surface{}, err
	}
	wording := map[string]string{}
	desc := search.ApplyTexts(texts, wording, TextExecDescription, defExecDescription, "toolfind")
	total := m.mcpCount()
	if total > 0 {
		desc += "\n\n" + search.ApplyTexts(texts, wording, TextDeferredGuidance, defDeferredGuidance, "toolfind")
	}
	schema := search.MarshalSchema(map[string]any{
		"type":       "object",
		"properties": map[string]any{"code": map[string]any{"type": "string", "description": "raw JavaScript (Codex sends exec as a freeform tool: the input is the code itself)"}},
		"required":   []string{"code"},
	})
	return search.Surface{
		Client:  m.Client().String(),
		Tools:   []search.SurfaceTool{{Name: "exec", Description: desc, InputSchema: schema}},
		Visible: 0,
		Total:   total,
		Wording: wording,
		Sources: []string{"specs/codex.md §1.6 (exec description, deferred guidance)", "specs/codex.md §1.4 (ALL_TOOLS)"},
		Notes:   []string{"the model sees no MCP tool name before it runs code over ALL_TOOLS"},
	}, nil
}

func (m *CodeMode) mcpCount() int {
	n := 0
	for _, e := range m.c.entries {
		if e.Tool != nil {
			n++
		}
	}
	return n
}

// Replay runs one exec call, {"code": string}, as a user script (§1.6,
// §1.7, §2): a tool is found when its name is visible in the output after
// truncation. Code that is exactly what HeuristicCode writes runs on a
// native path proven to print the same bytes (TestHeuristicNativeMatchesGoja).
func (m *CodeMode) Replay(ctx context.Context, call json.RawMessage) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	o, err := search.CallObject(call)
	if err != nil {
		return search.Result{}, err
	}
	code, err := search.CallString(o, "code", true)
	if err != nil {
		return search.Result{}, err
	}
	if m.engine == "native" {
		if terms, ok := parseHeuristicCode(code); ok {
			out := ExecOutput{Status: "Script completed", pieces: m.c.regexNames(terms), MaxOutputTokens: DefaultMaxOutputTokens}
			return m.c.result(m.Client().String(), "written", out), nil
		}
		if terms, ok := parseVerbatimCode(code); ok {
			r := m.c.result(m.Client().String(), "written", m.nativeOutput(builtinStrategies[0], terms))
			return r, nil
		}
	}
	r, err := m.runScript(ctx, newUserScript(code), "", Terms(""))
	if err != nil {
		return search.Result{}, err
	}
	r.Strategy = "written"
	return r, nil
}

// VerbatimCall is the primary built-in strategy (all-terms) with the
// prompt's words written into the code: what the verbatim baseline has
// always measured for Codex.
func (m *CodeMode) VerbatimCall(prompt string) json.RawMessage {
	terms := Terms(prompt)
	return search.MarshalCall("code", verbatimCode(terms))
}

func verbatimCode(terms []string) string {
	lits := make([]string, len(terms))
	for i, t := range terms {
		lits[i] = jsString(t)
	}
	return "const TERMS = [" + strings.Join(lits, ", ") + "];\n" + builtinStrategies[0].Source
}

// parseVerbatimCode recognises verbatimCode's output exactly.
func parseVerbatimCode(code string) ([]string, bool) {
	first, _, ok := strings.Cut(code, "\n")
	if !ok || !strings.HasPrefix(first, "const TERMS = [") || !strings.HasSuffix(first, "];") {
		return nil, false
	}
	var terms []string
	if err := json.Unmarshal([]byte(first[len("const TERMS = "):len(first)-1]), &terms); err != nil {
		return nil, false
	}
	return terms, verbatimCode(terms) == code
}

// heuristicMaxTerms bounds the alternatives of the heuristic regex.
const heuristicMaxTerms = 8

// HeuristicCalls is the deterministic writer for Codex code mode: the
// model cannot see any tool name, so it writes JavaScript that filters
// ALL_TOOLS with a case-insensitive regular expression over name and
// description and prints the matching names (§1.6's deferred guidance).
// The alternatives are the stems of the prompt's keywords (package intent)
// and the words a model knows to mean the same (intent.Related), at most
// eight:
//
//	const re = /group|movi|releas|year|aggreg/i;
//	text(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join("\n"));
//
// Which words become alternatives is fitted on model-written calls
// (WriterModel, fitted.go); heuristicTerms is the fallback when the
// fitted model selects none.
func (m *CodeMode) HeuristicCalls(prompt string) []json.RawMessage {
	return m.HeuristicCallsWith(prompt, WriterModel())
}

// heuristicTerms are the regex alternatives for a prompt: each keyword's
// stem (or the word itself when the stem is not a prefix of it), then the
// related stems, lowercase ASCII letters and digits only, at most
// heuristicMaxTerms, each at least three characters long.
func heuristicTerms(prompt string) []string {
	var terms []string
	seen := map[string]bool{}
	add := func(t string) {
		if len(terms) >= heuristicMaxTerms || len(t) < 3 || seen[t] || !asciiAlnum(t) {
			return
		}
		seen[t] = true
		terms = append(terms, t)
	}
	kws := intent.Keywords(prompt)
	for _, w := range kws {
		if strings.HasPrefix(w.Form, w.Stem) {
			add(w.Stem)
		} else {
			add(w.Form)
		}
	}
	for _, w := range kws {
		for _, r := range intent.Related(w.Stem) {
			add(r)
		}
	}
	return terms
}

func asciiAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// HeuristicCode is the heuristic writer's JavaScript for the given
// alternatives (lowercase ASCII letters and digits).
func HeuristicCode(terms []string) string {
	return "const re = /" + strings.Join(terms, "|") + "/i;\n" +
		"text(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join(\"\\n\"));"
}

var heuristicRe = lazyre.New(`^const re = /([a-z0-9]+(?:\|[a-z0-9]+)*)/i;\n`)

// parseHeuristicCode recognises HeuristicCode's output exactly.
func parseHeuristicCode(code string) ([]string, bool) {
	sm := heuristicRe.Re().FindStringSubmatch(code)
	if sm == nil {
		return nil, false
	}
	terms := strings.Split(sm[1], "|")
	return terms, HeuristicCode(terms) == code
}

// regexNames is the native run of HeuristicCode: the names of the entries
// whose name or description contains an alternative, ASCII letters
// compared case-insensitively, in ALL_TOOLS order, one per line. A regular
// expression with the i flag and without u folds only ASCII letters onto
// an ASCII pattern (ECMA-262 Canonicalize: a character ≥ 128 never maps to
// one below 128), so ASCII lowercasing is exact here.
func (c *compiled) regexNames(terms []string) [][]string {
	var name, desc []byte
	return c.namesWhere(func(i int) bool {
		name = ascii.AppendLower(name[:0], c.entries[i].Name)
		desc = ascii.AppendLower(desc[:0], c.entries[i].Description)
		for _, t := range terms {
			if strings.Contains(bytesString(name), t) || strings.Contains(bytesString(desc), t) {
				return true
			}
		}
		return false
	})
}

// Surface renders the tool_search definition (§5.1): its description
// (paraphrased: the "# Tool discovery" heading, BM25 over deferred tool
// metadata) with the sources list, "- <source>: <description>" per server,
// deduplicated and sorted, and its parameters query and limit (default 8).
func (s *ToolSearch) Surface(texts search.Texts) (search.Surface, error) {
	if err := search.CheckTexts("codex-search", texts, TextToolSearchDescription); err != nil {
		return search.Surface{}, err
	}
	wording := map[string]string{}
	desc := search.ApplyTexts(texts, wording, TextToolSearchDescription, defToolSearchDesc, "toolfind")
	if src := s.sources(); len(src) > 0 {
		desc += "\n\nYou have access to tools from the following sources:\n" + strings.Join(src, "\n")
	}
	schema := search.MarshalSchema(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query": map[string]any{"type": "string", "description": "Search query for deferred tools."},
			"limit": map[string]any{"type": "number", "description": fmt.Sprintf("Maximum number of tools to return. Defaults to %d.", DefaultSearchLimit)},
		},
		"required":             []string{"query"},
		"additionalProperties": false,
	})
	n := 0
	for _, d := range s.docs {
		if d.entry != nil {
			n++
		}
	}
	return search.Surface{
		Client:  s.Client().String(),
		Tools:   []search.SurfaceTool{{Name: "tool_search", Description: desc, InputSchema: schema}},
		Total:   n,
		Wording: wording,
		Sources: []string{"specs/codex.md §5.1 (tool_search definition, sources list, default limit 8)"},
		Notes:   []string{"every MCP tool is deferred behind tool_search; the model sees the sources (servers) only"},
	}, nil
}

// sources lists "- <server>: <instructions>" per server, deduplicated by
// name and sorted (§5.1).
func (s *ToolSearch) sources() []string {
	seen := map[string]string{}
	for _, d := range s.docs {
		if d.entry == nil {
			continue
		}
		if _, ok := seen[d.entry.Tool.Server]; !ok {
			seen[d.entry.Tool.Server] = strings.TrimSpace(d.entry.NamespaceDescription)
		}
	}
	var out []string
	for name, desc := range seen {
		line := "- " + name
		if desc != "" {
			line += ": " + strings.Join(strings.Fields(desc), " ")
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}

// Replay runs one tool_search call: {"query": string, "limit": number
// (optional, default 8)} (§5.1).
func (s *ToolSearch) Replay(ctx context.Context, call json.RawMessage) (search.Result, error) {
	q, err := search.QueryCall(call, "limit")
	if err != nil {
		return search.Result{}, err
	}
	return s.Search(ctx, q)
}

// VerbatimCall is {"query": prompt}.
func (s *ToolSearch) VerbatimCall(prompt string) json.RawMessage {
	return search.MarshalCall("query", prompt)
}

// HeuristicCalls writes "source action object" keywords, as for Grok
// Build: the source (server) whose tools best fit the prompt, then the
// prompt's six most telling keywords.
func (s *ToolSearch) HeuristicCalls(prompt string) []json.RawMessage {
	s.intentOnce.Do(func() {
		var docs []intent.Doc
		for _, d := range s.docs {
			if d.entry != nil {
				docs = append(docs, intent.Doc{Server: d.entry.Tool.Server, Tool: d.entry.Tool.Name, Description: d.entry.Tool.Description})
				s.intentServers = append(s.intentServers, d.entry.Tool.Server)
			}
		}
		s.intent = intent.NewIndex(docs)
	})
	ranked := s.intent.Rank(prompt)
	server := intent.BestServer(ranked, s.intentServers)
	max := 6
	if server != "" {
		max++
	}
	q := s.intent.KeywordQuery(server, prompt, ranked, max)
	if q == "" {
		return nil
	}
	return []json.RawMessage{search.MarshalCall("query", q)}
}
