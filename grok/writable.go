package grok

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/bm25"
	"github.com/toolfind/toolfind/search/intent"
)

var _ search.Writable = (*Simulator)(nil)

// Surface text keys (`--surface-file`). The defaults are toolfind's own
// wording of grok.md B.1; Grok Build's texts are not ours to copy.
const (
	TextSearchToolDescription = "search_tool_description"
	TextQueryDescription      = "query_description"
	TextLimitDescription      = "limit_description"
	TextUseToolDescription    = "use_tool_description"
	TextReminderFooter        = "reminder_footer"
)

const (
	defSearchToolDescription = "Finds MCP tools by keyword and returns their input schemas.\n\nA \"partial\" status means some servers may still be connecting."
	defQueryDescription      = "Keywords matched against tool names, server names and descriptions. Name the server and the action for the best results (e.g. \"linear create issue\", \"slack read thread history\")."
	defLimitDescription      = "How many results to return at most (default 5)."
	defUseToolDescription    = "Calls an MCP tool.\n\n`tool_name` is the qualified `server__tool` name (e.g. `linear__save_issue`); `tool_input` must follow the input schema that `search_tool` returned."
	defReminderFooter        = "Call `search_tool` to get an MCP tool's input schema before calling it with `use_tool`; never guess parameter names."
)

// Surface renders what Grok Build's model sees before it searches
// (grok.md B.1): the search_tool and use_tool definitions and the full
// connected-servers reminder, servers in alphabetical order, each with its
// tool count and its instructions collapsed to one line and cut as tool
// descriptions are (B.3).
func (s *Simulator) Surface(texts search.Texts) (search.Surface, error) {
	if err := search.CheckTexts("grok", texts, TextSearchToolDescription, TextQueryDescription, TextLimitDescription, TextUseToolDescription, TextReminderFooter); err != nil {
		return search.Surface{}, err
	}
	wording := map[string]string{}
	sdesc := search.ApplyTexts(texts, wording, TextSearchToolDescription, defSearchToolDescription, "toolfind")
	qdesc := search.ApplyTexts(texts, wording, TextQueryDescription, defQueryDescription, "toolfind")
	ldesc := search.ApplyTexts(texts, wording, TextLimitDescription, defLimitDescription, "toolfind")
	udesc := search.ApplyTexts(texts, wording, TextUseToolDescription, defUseToolDescription, "toolfind")
	footer := search.ApplyTexts(texts, wording, TextReminderFooter, defReminderFooter, "toolfind")
	searchSchema := search.MarshalSchema(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query": map[string]any{"type": "string", "description": qdesc},
			"limit": map[string]any{"type": "integer", "format": "uint8", "minimum": 0, "description": ldesc},
		},
		"required": []string{"query"},
	})
	useSchema := search.MarshalSchema(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"tool_name":  map[string]any{"type": "string"},
			"tool_input": map[string]any{"type": "object", "additionalProperties": true},
		},
		"required": []string{"tool_name", "tool_input"},
	})
	return search.Surface{
		Client: clientID.String(),
		Tools: []search.SurfaceTool{
			{Name: "search_tool", Description: sdesc, InputSchema: searchSchema},
			{Name: "use_tool", Description: udesc, InputSchema: useSchema},
		},
		Context: []search.SurfaceText{{Role: "system-reminder", Text: s.ServersReminder() + "\n" + footer}},
		Visible: 0,
		Total:   len(s.entries),
		Wording: wording,
		Sources: []string{"specs/grok.md B.1 (search_tool, use_tool, connected-servers reminder)", "specs/grok.md B.3 (description cut)"},
		Notes:   []string{"the model sees server names and instructions only; no tool name is visible before search_tool"},
	}, nil
}

// ServersReminder is the full form of the connected-servers reminder
// (B.1): "Connected MCP servers:" then "- {name} ({N} tool|tools):
// {description}" per server, alphabetical, each line ending in "\n". The
// count is of the tools Grok registered (B.4); the description is the
// server's instructions with newlines and runs of spaces collapsed, cut as
// in B.3.
func (s *Simulator) ServersReminder() string {
	srvs := append([]serverInfo(nil), s.servers...)
	sort.SliceStable(srvs, func(i, j int) bool { return srvs[i].name < srvs[j].name })
	var b strings.Builder
	b.WriteString("Connected MCP servers:\n")
	for _, sv := range srvs {
		unit := "tools"
		if sv.tools == 1 {
			unit = "tool"
		}
		desc, _ := TruncateDescription(strings.Join(strings.Fields(sv.instructions), " "))
		fmt.Fprintf(&b, "- %s (%d %s): %s\n", sv.name, sv.tools, unit, desc)
	}
	return b.String()
}

// serverInfo is one connected server as the reminder lists it.
type serverInfo struct {
	name, instructions string
	tools              int
}

// Replay runs one search_tool call: {"query": string, "limit": u8
// (optional, default 5)} (B.1).
func (s *Simulator) Replay(ctx context.Context, call json.RawMessage) (search.Result, error) {
	q, err := search.QueryCall(call, "limit")
	if err != nil {
		return search.Result{}, err
	}
	return s.Search(ctx, q)
}

// VerbatimCall is {"query": prompt}.
func (s *Simulator) VerbatimCall(prompt string) json.RawMessage {
	return search.MarshalCall("query", prompt)
}

// HeuristicCalls is the deterministic writer for Grok Build: the model
// follows search_tool's advice (B.1) and writes "server action object"
// keywords. Which words is fitted on model-written calls (WriterModel):
// the candidates are the servers of the tools that fit the prompt best
// (package intent; the model reads the servers' names and instructions),
// the prompt's keywords, a family word per keyword ("remove" → "delete")
// and the words of the best tools' names, each with its features
// (intent.WordFeatures); the words the model selects are printed servers
// first, then in the prompt's order:
//
//	{"query": "mongodb aggregate group movies"}
//
// search_tool shows each result's description and input schema, and the
// model reads them before it acts; when the fitted model's "follow_up"
// option is 1 and they do not show the tool the prompt needs, it searches
// again, once (followUp): for the tool whose schema takes an identifier
// the prompt names, else for the tool that fits the prompt best. "Run a
// vectorSearch query on mflix.movies" gives a first query whose results
// take no $vectorSearch; aggregate's pipeline does, so the second call is
// {"query": "mongodb aggregate"}.
func (s *Simulator) HeuristicCalls(prompt string) []json.RawMessage {
	return s.HeuristicCallsWith(prompt, WriterModel())
}

// followUp is the second search_tool call the model makes after reading
// the first call's result (first is its query), or "" when that result
// fits. The model reads the tools shown (shownDocs: names, descriptions,
// input schemas) and searches again when
//
//  1. the prompt names API identifiers that some tool declares
//     (intent.Index.Declared: "vectorSearch", "$documents") and no shown
//     tool's input schema declares any of them: it searches for the tool
//     that takes them (intent.Index.BestDeclarer); else
//  2. the tool that best fits the prompt (the first of ranked, the
//     intent index's ranking standing in for what the model knows the
//     server offers) is not shown: it searches for that tool.
//
// The second query is the server, then the words of the wanted tool's
// name (SplitIdentifier, lowercased; words with the server's stems left
// out): "mongodb aggregate", "azure mysql server param get". Bench counts a
// prompt found when either result shows an expected tool: the model has
// read both.
func (s *Simulator) followUp(ix *intent.Index, server, prompt, first string, ranked []intent.Scored) string {
	shown := map[int]bool{}
	for _, d := range s.shownDocs(first) {
		shown[d] = true
	}
	want := -1
	if ids := ix.Declared(prompt); len(ids) > 0 {
		declared := false
		for d := range shown {
			declared = declared || ix.Declares(d, ids)
		}
		if !declared {
			want = ix.BestDeclarer(ids, ranked)
		}
	}
	if want < 0 && len(ranked) > 0 && !shown[ranked[0].Doc] {
		want = ranked[0].Doc
	}
	if want < 0 {
		return ""
	}
	var words []string
	seen := map[string]bool{}
	if server != "" {
		words = append(words, strings.ToLower(server))
		for _, w := range intent.Words(server) {
			seen[w.Stem] = true
		}
	}
	named := false
	for _, piece := range SplitIdentifier(s.entries[want].tool.Name) {
		w := strings.ToLower(piece)
		if st := bm25.Stem(w); !seen[st] {
			seen[st] = true
			words = append(words, w)
			named = true
		}
	}
	if q := strings.Join(words, " "); named && q != first {
		return q
	}
	return ""
}

func (s *Simulator) intentIndex() (*intent.Index, []string) {
	s.intentOnce.Do(func() {
		docs := make([]intent.Doc, len(s.entries))
		s.intentServers = make([]string, len(s.entries))
		for i, e := range s.entries {
			docs[i] = intent.Doc{Server: e.tool.Server, Tool: e.tool.Name, Description: e.tool.Description, Identifiers: intent.SchemaIdentifiers(e.tool.InputSchema)}
			s.intentServers[i] = e.tool.Server
		}
		s.intent = intent.NewIndex(docs)
	})
	return s.intent, s.intentServers
}
