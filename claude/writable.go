package claude

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

var _ search.Writable = (*Simulator)(nil)

// Surface text keys a user may replace with the exact texts of the release
// they run (`--surface-file`). Our defaults restate the instructions of
// spec background §1–§2 in toolfind's own words; Claude Code's texts are
// not ours to copy.
const (
	TextToolSearchDescription = "tool_search_description"
	TextQueryDescription      = "query_description"
	TextMaxResultsDescription = "max_results_description"
	TextReminderHeader        = "reminder_header"
)

// Our wording of the ToolSearch definition (spec background §1: name
// "ToolSearch"; select:, keywords and +required query forms; max_results
// default 5, no maximum) and of the deferred-tools reminder (background
// §2: names only, one per line, sorted).
const (
	defToolSearchDescription = "Loads the full definitions of deferred tools so that they can be called.\n\n" +
		"Deferred tools are listed by name only in a system reminder; until a tool's definition is loaded it has no " +
		"parameter schema and calling it fails. Load a tool named anywhere (a reminder, an instruction, another tool's " +
		"description) with the query \"select:<name>\" before calling it. The result lists each matched tool's complete " +
		"definition; once shown, the tool can be called like any other.\n\n" +
		"Query forms:\n" +
		"- \"select:Read,Edit,Grep\" loads these exact tools by name\n" +
		"- \"notebook jupyter\" searches by keyword and returns up to max_results best matches\n" +
		"- \"+slack send\" requires \"slack\" in the name and ranks by the other words"
	defQueryDescription      = "The search: \"select:<tool_name>\" to load tools by name, or keywords."
	defMaxResultsDescription = "How many tools to return at most (default: 5)."
	defReminderHeader        = "These deferred tools are available through ToolSearch. Their schemas are not loaded: calling one directly fails. Load them first with ToolSearch and the query \"select:<name>[,<name>...]\":"
)

// Surface renders what Claude Code's model sees before it searches (spec
// background §1–§2): the ToolSearch definition and a system reminder with
// the deferred tools' names, one per line, in JavaScript's default sort
// order (UTF-16 code units).
func (s *Simulator) Surface(texts search.Texts) (search.Surface, error) {
	if err := search.CheckTexts("claude", texts, TextToolSearchDescription, TextQueryDescription, TextMaxResultsDescription, TextReminderHeader); err != nil {
		return search.Surface{}, err
	}
	wording := map[string]string{}
	desc := search.ApplyTexts(texts, wording, TextToolSearchDescription, defToolSearchDescription, "toolfind")
	qdesc := search.ApplyTexts(texts, wording, TextQueryDescription, defQueryDescription, "toolfind")
	mdesc := search.ApplyTexts(texts, wording, TextMaxResultsDescription, defMaxResultsDescription, "toolfind")
	header := search.ApplyTexts(texts, wording, TextReminderHeader, defReminderHeader, "toolfind")
	schema := search.MarshalSchema(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query":       map[string]any{"type": "string", "description": qdesc},
			"max_results": map[string]any{"type": "number", "default": DefaultMaxResults, "description": mdesc},
		},
		"required":             s.toolSearchRequired(),
		"additionalProperties": false,
	})
	names := s.DeferredNames()
	mcp := 0
	for _, e := range s.pool {
		if e.mcp {
			mcp++
		}
	}
	visible := 0
	for _, e := range s.deferred {
		if e.mcp {
			visible++
		}
	}
	sf := search.Surface{
		Client: s.Client().String(),
		Tools:  []search.SurfaceTool{{Name: "ToolSearch", Description: desc, InputSchema: schema}},
		Context: []search.SurfaceText{{Role: "system-reminder",
			Text: header + "\n" + strings.Join(names, "\n")}},
		Visible: visible,
		Total:   mcp,
		Wording: wording,
		Sources: []string{"specs/claude.md §1 (query forms, max_results)", "specs/claude.md background §1 (ToolSearch definition)", "specs/claude.md background §2 (deferred names reminder)"},
		Notes:   []string{"the model reads only the deferred tools' names before it searches; descriptions are loaded with the result"},
	}
	return sf, nil
}

// toolSearchRequired is the ToolSearch schema's "required" list of the
// profile (spec §0: both members up to 2.1.331, only "query" in 2.1.332).
func (s *Simulator) toolSearchRequired() []string {
	if s.prof.SchemaRequired == nil {
		return []string{"query", "max_results"}
	}
	return s.prof.SchemaRequired
}

// DeferredNames are the names in the deferred-tools reminder, sorted by
// UTF-16 code units as JavaScript's default sort does (background §2).
func (s *Simulator) DeferredNames() []string {
	names := make([]string, 0, len(s.deferred))
	for _, e := range s.deferred {
		names = append(names, e.name)
	}
	slices.SortFunc(names, compareUTF16)
	return names
}

// Replay runs one ToolSearch call: {"query": string, "max_results":
// number (optional, default 5)} (background §1).
func (s *Simulator) Replay(ctx context.Context, call json.RawMessage) (search.Result, error) {
	q, err := search.QueryCall(call, "max_results")
	if err != nil {
		return search.Result{}, err
	}
	return s.Search(ctx, q)
}

// VerbatimCall is {"query": prompt}.
func (s *Simulator) VerbatimCall(prompt string) json.RawMessage {
	return search.MarshalCall("query", prompt)
}

// heuristicKeywords bounds the keyword query the heuristic writer writes
// when it loads no name.
const heuristicKeywords = 4

// HeuristicCalls is the deterministic writer for Claude Code. The model
// reads only the deferred names (background §2) and mostly loads tools by
// name: 190 of 201 blind calls in the older calibration sets were
// "select:", with 1.3 names on average. The writer scores the candidates
// (WriterCandidates: the deferred MCP tools that fit the prompt best by
// package intent, and the deferred WebSearch and WebFetch) with the
// selection model fitted on model-written calls (WriterModel, Select) and
// loads those it selects:
//
//	{"query": "select:mcp__mongodb__aggregate"}
//
// When it selects none (no name fits well enough), the model cannot tell
// which name to load and writes a short keyword search instead, "server
// action object" (KeywordCall):
//
//	{"query": "weather forecast paris", "max_results": 5}
func (s *Simulator) HeuristicCalls(prompt string) []json.RawMessage {
	return s.HeuristicCallsWith(prompt, WriterModel())
}

// intentIndex builds (once) the intent index over the deferred MCP tools.
func (s *Simulator) intentIndex() (*intent.Index, []*entry) {
	s.intentOnce.Do(func() {
		var docs []intent.Doc
		for _, e := range s.deferred {
			if !e.mcp {
				continue
			}
			s.intentEntries = append(s.intentEntries, e)
			docs = append(docs, intent.Doc{Server: e.srv.Name, Tool: e.tool.Name, Description: e.tool.Description, Params: intent.SchemaText(e.tool.InputSchema)})
		}
		s.intent = intent.NewIndex(docs)
	})
	return s.intent, s.intentEntries
}
