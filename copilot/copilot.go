package copilot

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// ID is the profile.
var ID = search.ClientID{Name: "copilot", Version: "1.0.102"}

// Search-tool facts (copilot.md §1.1).
const (
	// SearchTool is the CLI's client-side search tool.
	SearchTool = "tool_search_tool"
	// DefaultLimit is tool_search_tool's default "limit".
	DefaultLimit = 5
	// MaxLimit is the schema's upper bound of "limit".
	MaxLimit = 10000
)

// Options are the simulator's settings.
type Options struct {
	// Model is COPILOT_MODEL ("" is DefaultModel).
	Model string
	// API is the wire ("" is DefaultAPI(Model)).
	API API
	// Offline is COPILOT_OFFLINE=true: two builtins fewer (Builtins).
	Offline bool
	// NoToolSearch is the user setting "toolSearch": false.
	NoToolSearch bool
	// NeverDefer are servers configured with "deferTools": "never".
	NeverDefer []string
}

// Entry is one MCP tool as the CLI sends it.
type Entry struct {
	Tool *corpus.Tool
	// Name is the final name (<server>-<tool>, sanitised and cut).
	Name string
	// Namespace is the server's namespace on the Responses wire.
	Namespace string
	// Deferred says the entry carries defer_loading: true (the Anthropic
	// and Responses wires) or, with chat completions, that the tool is
	// listed in the deferred-tools reminder and searchable.
	Deferred bool
	// Schema is the rewritten input schema.
	Schema ojson.Value
	// JSON is the entry exactly as the request carries it (for a deferred
	// Responses tool: the function object inside its namespace).
	JSON string

	cacheControl bool // the request's last entry on the Anthropic wire
}

// Simulator is Copilot CLI 1.0.102 over one catalog, for one model and
// wire. It is immutable after New and safe for concurrent use.
type Simulator struct {
	opts     Options
	model    string
	api      API
	mode     Mode
	builtins []string
	entries  []Entry // catalog order: raw server name, then final name
	byID     map[corpus.ToolID]int
	problems []corpus.Diagnostic
	servers  map[string]*corpus.Server
	// texts are what tool_search_tool matches per entry (searchTexts).
	texts [][]string

	intentOnce sync.Once // the heuristic writer's index (writable.go)
	intent     *intent.Index
}

// New builds the simulator.
func New(cat *corpus.Catalog, opts Options) *Simulator {
	s := &Simulator{opts: opts, model: opts.Model, api: opts.API, byID: map[corpus.ToolID]int{}, servers: map[string]*corpus.Server{}}
	if s.model == "" {
		s.model = DefaultModel
	}
	if s.api == "" {
		s.api = DefaultAPI(s.model)
	}
	s.builtins = Builtins(s.model, opts.Offline)
	never := map[string]bool{}
	for _, n := range opts.NeverDefer {
		never[n] = true
	}
	var tools []*corpus.Tool
	for _, srv := range cat.Servers {
		if _, ok := s.servers[srv.Name]; !ok {
			s.servers[srv.Name] = srv
		}
		if t := unreadable(srv); t != nil {
			s.problems = append(s.problems, corpus.Diagnostic{Severity: corpus.Error, Code: CodeServerDropped,
				File: srv.Source, Server: srv.Name, Tool: t.Name, Field: "inputSchema",
				Message: fmt.Sprintf("a number in this tool is outside the range of a 64-bit float; Copilot CLI cannot read the server's tools/list and sends none of its %d tools; write the number within ±1.7e308", len(srv.Tools))})
			continue
		}
		tools = append(tools, srv.Tools...)
	}
	names := assignNames(tools)
	rw := rewriter{anthropic: s.api == Anthropic}
	for _, n := range names {
		t := n.tool
		d := corpus.Diagnostic{File: s.sourceOf(t.Server), Server: t.Server, Tool: t.Name, Field: "name"}
		if n.lost != nil && n.lost.Server == t.Server && n.lost.Name == t.Name {
			d.Severity, d.Code = corpus.Warning, CodeDuplicate
			d.Message = fmt.Sprintf("a second definition of %q in this server: Copilot CLI sends one tool of that name, the later definition", t.Name)
			s.problems = append(s.problems, d)
			continue
		}
		if n.lost != nil {
			d.Severity, d.Code = corpus.Error, CodeNameCollision
			d.Message = fmt.Sprintf("Copilot CLI turns this tool's name into %q, as it does %s/%s; only one tool keeps the name (the last in name order, %s/%s) and this one is not sent at all; rename it so that its letters, digits, '_' and '-' differ",
				cut(n.full), n.lost.Server, n.lost.Name, n.lost.Server, n.lost.Name)
			s.problems = append(s.problems, d)
			continue
		}
		if len(n.full) > MaxName {
			d.Severity, d.Code = corpus.Warning, CodeNameCut
			d.Message = fmt.Sprintf("%q is %d characters; Copilot CLI cuts tool names to %d: the model sees %q", n.full, len(n.full), MaxName, n.name)
			if n.suffix > 0 {
				d.Message += fmt.Sprintf(" (its cut collided with another tool's, so it got the counter %d)", n.suffix)
			}
			s.problems = append(s.problems, d)
		} else if !isASCII(t.Server+t.Name) || mapBytes(t.Server+"-"+t.Name) != t.Server+"-"+t.Name {
			d.Severity, d.Code = corpus.Info, CodeNameRewritten
			d.Message = fmt.Sprintf("Copilot CLI's model sees this tool as %q (characters other than letters, digits, '_' and '-' become '-'; a non-ASCII name is punycode)", n.name)
			s.problems = append(s.problems, d)
		}
		s.entries = append(s.entries, Entry{Tool: t, Name: n.name, Namespace: NamespaceName(t.Server), Schema: rw.Schema(t.InputSchema)})
		if d, ok := exampleSpill(t, s.sourceOf(t.Server)); ok {
			s.problems = append(s.problems, d)
		}
	}
	// copilot.md §1.1 "order" (observed: the tools array, the search
	// results and the namespaces follow the raw server name, then the
	// final name, in byte order).
	sort.SliceStable(s.entries, func(i, j int) bool {
		a, b := s.entries[i], s.entries[j]
		if a.Tool.Server != b.Tool.Server {
			return a.Tool.Server < b.Tool.Server
		}
		return a.Name < b.Name
	})
	s.mode = Decide(s.model, s.api, len(s.builtins)+len(s.entries), !opts.NoToolSearch)
	for i := range s.entries {
		e := &s.entries[i]
		e.Deferred = s.mode != Full && !never[e.Tool.Server]
		// copilot.md §1.3 "Request framing": on the Anthropic wire the last
		// entry carries cache_control; tool_search_tool is last when it is
		// sent, else the last MCP tool (observed, runs TH13 and
		// claude-3.7-sonnet).
		e.cacheControl = s.api == Anthropic && i == len(s.entries)-1 && !s.Searchable()
		e.JSON = s.render(e)
		s.byID[e.Tool.ID()] = i
		s.texts = append(s.texts, searchTexts(e))
	}
	return s
}

// Diagnostic codes (search.Reporter).
const (
	CodeNameCollision = "copilot-name-collision"
	CodeNameCut       = "copilot-name-cut"
	CodeNameRewritten = "copilot-name-rewritten"
	CodeServerDropped = "copilot-server-dropped"
	CodeDuplicate     = "copilot-duplicate"
	CodeResultSpill   = "copilot-result-spill"
)

// exampleSpill reports the first example result of a tool that Copilot
// CLI would not show the model inline (copilot.md §1.4 "Large outputs").
// An example result is an item of the tool's outputSchema "examples": the
// structuredContent a call returns. Servers also send it as a text block
// of the same JSON (MCP "Structured Content"), which the CLI does not
// repeat (changelog 1.0.56), so the model's text is the example's compact
// JSON; over LargeOutputBytes UTF-8 bytes it is saved to a file and the
// model reads a 500-character preview.
func exampleSpill(t *corpus.Tool, file string) (corpus.Diagnostic, bool) {
	ex, ok := t.OutputSchema.Get("examples")
	if !ok {
		return corpus.Diagnostic{}, false
	}
	for i, v := range ex.Array() {
		js := compact(v)
		res := ojson.ObjectOf(
			ojson.Member{Key: "content", Value: ojson.ArrayOf(ojson.ObjectOf(
				ojson.Member{Key: "type", Value: ojson.StringOf("text")},
				ojson.Member{Key: "text", Value: ojson.StringOf(js)}))},
			ojson.Member{Key: "structuredContent", Value: v})
		d := Deliver(t.Server, res, DeliverOptions{})
		if !d.Spilled {
			continue
		}
		return corpus.Diagnostic{Severity: corpus.Warning, Code: CodeResultSpill,
			File: file, Server: t.Server, Tool: t.Name, Field: fmt.Sprintf("outputSchema.examples[%d]", i),
			Message: fmt.Sprintf("this example result is %s bytes; Copilot CLI saves results over %s bytes to a file and the model reads only a %d-character preview: return less per call (paginate, summarise, or let the caller pick fields)", textfit.Thousands(d.Bytes), textfit.Thousands(LargeOutputBytes), PreviewChars)}, true
	}
	return corpus.Diagnostic{}, false
}

// unreadable is the first tool of a server holding a number the CLI
// cannot read (overflows), or nil.
func unreadable(srv *corpus.Server) *corpus.Tool {
	for _, t := range srv.Tools {
		if overflows(t.Value) {
			return t
		}
	}
	return nil
}

func cut(s string) string {
	if len(s) > MaxName {
		return s[:MaxName]
	}
	return s
}

func (s *Simulator) sourceOf(server string) string {
	if srv := s.servers[server]; srv != nil {
		return srv.Source
	}
	return ""
}

// render writes an entry as the request carries it (copilot.md §1.3
// "Request framing", observed):
//
//	chat completions  {"type":"function","function":{"name","description","parameters"}}
//	Anthropic         {"name","description","input_schema"[,"defer_loading":true]}
//	Responses         {"name","description","parameters","strict":false,"type":"function"[,"defer_loading":true]}
//
// A missing description is "" (§1.3).
func (s *Simulator) render(e *Entry) string {
	name, desc := ojson.StringOf(e.Name), ojson.StringOf(e.Tool.Description)
	var v ojson.Value
	switch s.api {
	case Anthropic:
		v = obj("name", name, "description", desc, "input_schema", e.Schema)
		if e.Deferred {
			v = ojson.ObjectOf(append(v.Members(), ojson.Member{Key: "defer_loading", Value: jsonTrue})...)
		}
		if e.cacheControl {
			v = ojson.ObjectOf(append(v.Members(), ojson.Member{Key: "cache_control", Value: obj("type", ojson.StringOf("ephemeral"))})...)
		}
	case Responses:
		v = obj("name", name, "description", desc, "parameters", e.Schema, "strict", jsonFalse, "type", ojson.StringOf("function"))
		if e.Deferred {
			v = ojson.ObjectOf(append(v.Members(), ojson.Member{Key: "defer_loading", Value: jsonTrue})...)
		}
	default:
		v = obj("type", ojson.StringOf("function"), "function", obj("name", name, "description", desc, "parameters", e.Schema))
	}
	return compact(v)
}

// NamespaceJSON is a Responses namespace entry holding the given
// functions (their JSON as Entry.JSON has them): {"type":"namespace",
// "name", "description": "MCP server \"<raw name>\".", "tools": [...]}
// (copilot.md §1.1 "The Responses path").
func NamespaceJSON(namespace, server string, functions []string) string {
	var b strings.Builder
	b.WriteString(`{"type":"namespace","name":`)
	search.AppendSerdeString(&b, namespace)
	b.WriteString(`,"description":`)
	search.AppendSerdeString(&b, `MCP server "`+server+`".`)
	b.WriteString(`,"tools":[`)
	b.WriteString(strings.Join(functions, ","))
	b.WriteString("]}")
	return b.String()
}

// searchTexts are what tool_search_tool matches for an entry, each alone
// (copilot.md §1.1, observed): the final name, the description, and each
// top-level parameter's name and raw description ("^Generic" matches a
// description's start, "alpha_tool.*Generic" matches nothing, "^Second
// line" no second line, "query text" a parameter description, while
// "{minLength" of the rewritten schema, enum values, titles and nested
// properties match nothing). The order is the tier order: a tool matched
// by its name comes before one matched by its description, and that
// before one matched by a parameter.
func searchTexts(e *Entry) []string {
	out := []string{e.Name, e.Tool.Description}
	props, ok := e.Tool.InputSchema.Get("properties")
	if !ok || props.Kind != ojson.Object {
		return out
	}
	for _, m := range props.Members() {
		out = append(out, m.Key)
		if d, ok := m.Value.Get("description"); ok && d.Kind == ojson.String {
			out = append(out, d.Str())
		}
	}
	return out
}

// tier of a text index: 0 name, 1 description, 2 parameters.
func tier(i int) int { return min(i, 2) }

// Client implements search.Simulator.
func (s *Simulator) Client() search.ClientID { return ID }

// Model, API and Mode say what the simulator was built for.
func (s *Simulator) Model() string { return s.model }

// API is the wire.
func (s *Simulator) API() API { return s.api }

// Mode is how the MCP tools reach the model.
func (s *Simulator) Mode() Mode { return s.mode }

// BuiltinNames are the CLI's own tools counted before the MCP tools.
func (s *Simulator) BuiltinNames() []string { return append([]string(nil), s.builtins...) }

// Entries are the MCP tools as sent, in request order within their kind
// (for the Responses wire with namespaces, non-deferred functions come
// first in the request, then the namespaces; Entries keeps catalog order).
func (s *Simulator) Entries() []Entry { return append([]Entry(nil), s.entries...) }

// Total is the tool count the >30 rule sees: builtins and MCP tools.
func (s *Simulator) Total() int { return len(s.builtins) + len(s.entries) }

// Searchable reports whether the model has the CLI's tool_search_tool.
func (s *Simulator) Searchable() bool { return s.mode == Deferred || s.mode == ReminderOnly }

// SearchesNothing implements search.NoSearch: in Full mode every tool is
// sent and the model searches nothing. (Hosted mode searches at OpenAI.)
func (s *Simulator) SearchesNothing() bool { return s.mode == Full }

// Problems implements search.Reporter.
func (s *Simulator) Problems() []corpus.Diagnostic {
	return append([]corpus.Diagnostic(nil), s.problems...)
}

// View implements search.Viewer: the tool's entry as the request carries
// it; on the Responses wire with namespaces, its function inside its
// server's namespace.
func (s *Simulator) View(id corpus.ToolID) (search.ToolView, bool) {
	i, ok := s.byID[id]
	if !ok {
		return search.ToolView{}, false
	}
	e := s.entries[i]
	text := e.JSON
	var notes []string
	switch {
	case s.mode == Hosted && e.Deferred:
		text = NamespaceJSON(e.Namespace, e.Tool.Server, []string{e.JSON})
		notes = append(notes, "deferred: inside its server's namespace, reached through OpenAI's hosted tool_search")
	case s.mode == Deferred && e.Deferred:
		notes = append(notes, "deferred: the model sees its name in the deferred-tools reminder and loads it with tool_search_tool")
	case s.mode == ReminderOnly:
		notes = append(notes, "sent in full; also listed in the deferred-tools reminder (chat completions has no defer flag)")
	default:
		notes = append(notes, "sent in full with every request")
	}
	notes = append(notes, s.decisionNote())
	if strings.HasPrefix(strings.ToLower(s.model), "gemini") {
		notes = append(notes, "approximate for Gemini models: the CLI rewrites their schemas further (a type list such as [\"object\",\"null\"], a type beside anyOf/oneOf/allOf); toolfind shows the chat-completions form")
	}
	return search.ToolView{Tool: id, Name: e.Name, Text: text, Tokens: search.CeilDiv(len(text), 4), Notes: notes}, true
}

// decisionNote says why the tools are or are not deferred.
func (s *Simulator) decisionNote() string {
	total := s.Total()
	head := fmt.Sprintf("%s over %s: %d tools in all (%d built-in + %d MCP)", s.model, apiName(s.api), total, len(s.builtins), len(s.entries))
	switch {
	case s.opts.NoToolSearch:
		return head + "; tool search is off in the settings, so every tool is sent in full"
	case total <= DeferThreshold:
		return head + fmt.Sprintf("; tools are deferred only above %d, so every tool is sent in full", DeferThreshold)
	case s.mode == Full:
		return head + "; this model and wire get no tool search, so every tool is sent in full"
	case s.mode == Hosted:
		return head + "; above 30, MCP tools are deferred into per-server namespaces and found by OpenAI's hosted tool_search"
	case s.mode == ReminderOnly:
		return head + "; above 30 the reminder and tool_search_tool are added, but chat completions still carries every definition"
	}
	return head + "; above 30, MCP tools are deferred and found with tool_search_tool (a regular expression)"
}

func apiName(a API) string {
	switch a {
	case Anthropic:
		return "the Anthropic Messages API"
	case Responses:
		return "the OpenAI Responses API"
	}
	return "OpenAI chat completions"
}

// Search implements search.Simulator: Query.Text is the pattern the model
// writes (tool_search_tool's "pattern"), Query.Limit its "limit".
func (s *Simulator) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	switch s.mode {
	case Full:
		return s.fullResult(q), nil
	case Hosted:
		return search.Result{Client: ID.String(), Limit: 0, Hits: []search.Hit{},
			Notes: []string{s.decisionNote(), "the model searches with OpenAI's hosted tool_search, which runs at OpenAI; toolfind does not rank it (try --copilot-api anthropic or openai to see the CLI's own regular-expression search)"},
			Extra: map[string]any{"mode": s.mode.String(), "hosted": true}}, nil
	}
	return s.searchPattern(q)
}

// fullResult: every MCP tool is sent, each a hit at rank 1.
func (s *Simulator) fullResult(q search.Query) search.Result {
	total := 0
	for _, e := range s.entries {
		total += search.CeilDiv(len(e.JSON), 4)
	}
	r := search.Result{Client: ID.String(), Limit: len(s.entries), Uncapped: true, ShownTokens: total, Hits: make([]search.Hit, 0, len(s.entries))}
	for _, e := range s.entries {
		h := search.Hit{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: e.Tool.ID(), Name: e.Name, ReadTokens: total}
		if !q.Brief {
			h.Why = []string{"sent in full with every request (no tool search)"}
		}
		r.Hits = append(r.Hits, h)
	}
	if !q.Brief {
		var b strings.Builder
		for _, e := range s.entries {
			b.WriteString(e.JSON)
			b.WriteByte('\n')
		}
		r.Shown = b.String()
		r.Notes = []string{s.decisionNote(), "every MCP tool is found at rank 1 whatever the query (the order is the request's, not a ranking)"}
		r.Extra = map[string]any{"mode": s.mode.String()}
	}
	return r
}
