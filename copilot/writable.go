package copilot

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

var _ search.Writable = (*Simulator)(nil)

// Surface text keys. The defaults are toolfind's own wording of what the
// CLI's texts say (copilot.md §1.1); Copilot CLI's own texts are not ours
// to copy, and a user can supply them.
const (
	TextSearchToolDescription = "search_tool_description"
	TextPatternDescription    = "pattern_description"
	TextLimitDescription      = "limit_description"
	TextReminderIntro         = "reminder_intro"
)

const (
	defSearchToolDescription = "Finds deferred tools whose name, description or parameters match a regular expression, and loads the ones it returns so that they can be called."
	defPatternDescription    = "A JavaScript (ECMAScript) regular expression, matched without regard to case, e.g. \"issue\" or \"create.*issue\"."
	defLimitDescription      = "How many matching tools to return at most (5 when left out)."
	defReminderIntro         = "The tools below are deferred: their definitions are not loaded, so they cannot be called yet. Before using any of them, search for it with the tool search tool; do not guess a deferred tool's arguments."
)

// SearchToolSchema is tool_search_tool's input schema as the CLI sends it
// (copilot.md §1.1: pattern, a string of at most 200 characters; limit, an
// integer 1..10000 defaulting to 5; only pattern required; the limits
// written into the descriptions as the CLI's schema rewrite does).
func SearchToolSchema(patternDesc, limitDesc string) json.RawMessage {
	return json.RawMessage(compact(obj(
		"type", jsonString("object"),
		"properties", obj(
			"pattern", obj("type", jsonString("string"), "description", jsonString(patternDesc+"\n\n{maxLength: 200}")),
			"limit", obj("type", jsonString("integer"), "description", jsonString(limitDesc+"\n\n{minimum: 1, maximum: 10000}\n\n{default: 5}")),
		),
		"required", arrayOf(jsonString("pattern")),
	)))
}

// Surface renders what the model sees before it searches (copilot.md
// §1.1): tool_search_tool's definition and the deferred-tools reminder in
// the first user turn. In the modes without the CLI's own search the
// surface says so.
func (s *Simulator) Surface(texts search.Texts) (search.Surface, error) {
	if err := search.CheckTexts("copilot", texts, TextSearchToolDescription, TextPatternDescription, TextLimitDescription, TextReminderIntro); err != nil {
		return search.Surface{}, err
	}
	wording := map[string]string{}
	sdesc := search.ApplyTexts(texts, wording, TextSearchToolDescription, defSearchToolDescription, "toolfind")
	pdesc := search.ApplyTexts(texts, wording, TextPatternDescription, defPatternDescription, "toolfind")
	ldesc := search.ApplyTexts(texts, wording, TextLimitDescription, defLimitDescription, "toolfind")
	intro := search.ApplyTexts(texts, wording, TextReminderIntro, defReminderIntro, "toolfind")
	sf := search.Surface{
		Client:  ID.String(),
		Total:   len(s.entries),
		Wording: wording,
		Sources: []string{"specs/copilot.md §1.1 (tool_search_tool, deferral, the deferred-tools reminder)", "specs/copilot.md §1.2 (names)"},
	}
	deferred := 0
	for _, e := range s.entries {
		if e.Deferred {
			deferred++
		}
	}
	sf.Visible = len(s.entries) - deferred
	switch s.mode {
	case Full:
		sf.Visible = len(s.entries)
		sf.Notes = append(sf.Notes, s.decisionNote())
	case Hosted:
		sf.Tools = []search.SurfaceTool{{Name: "tool_search", Description: "OpenAI's hosted tool search (runs at OpenAI)", InputSchema: json.RawMessage(`{}`)}}
		sf.Context = []search.SurfaceText{{Role: "user", Text: s.Reminder(intro)}}
		sf.Notes = append(sf.Notes, s.decisionNote())
	default:
		sf.Tools = []search.SurfaceTool{{Name: SearchTool, Description: sdesc, InputSchema: SearchToolSchema(pdesc, ldesc)}}
		sf.Context = []search.SurfaceText{{Role: "user", Text: s.Reminder(intro)}}
		if s.mode == ReminderOnly {
			sf.Visible = len(s.entries)
			sf.Notes = append(sf.Notes, "chat completions: every MCP tool definition is also sent in full")
		}
	}
	return sf, nil
}

// Reminder is the deferred-tools reminder the CLI adds to the first user
// turn (copilot.md §1.1, observed): "<system_reminder>\n", the
// instruction paragraph (intro), then per server a paragraph
//
//	<raw server> MCP server[ - <instructions>]. Tools prefixed with `<raw server>-`:
//	- <raw tool>
//
// when every tool's final name is the raw server name, "-" and the raw
// tool name, else
//
//	<raw server> MCP server[ - <instructions>]. Tools:
//	- <final name>
//
// Tools whose raw name holds "/" are listed in a paragraph of their own
// (no instructions) after their server's. Paragraphs are ordered by server
// name and tools by final name, both as JavaScript's localeCompare orders
// them ("b-y" < "b.x" < "é" < "plain"; "…xn--ok_…" < "…xn--Tst…" <
// "…ZZ_upper"). Only deferred tools are listed. "" when none is.
func (s *Simulator) Reminder(intro string) string {
	type group struct {
		server, instructions string
		slash                bool
		entries              []Entry
	}
	var groups []*group
	find := func(server string, slash bool) *group {
		for _, g := range groups {
			if g.server == server && g.slash == slash {
				return g
			}
		}
		g := &group{server: server, slash: slash}
		if srv := s.servers[server]; srv != nil && !slash {
			g.instructions = srv.Instructions
		}
		groups = append(groups, g)
		return g
	}
	for _, e := range s.entries {
		if !e.Deferred {
			continue
		}
		g := find(e.Tool.Server, strings.Contains(e.Tool.Name, "/"))
		g.entries = append(g.entries, e)
	}
	if len(groups) == 0 {
		return ""
	}
	sort.SliceStable(groups, func(i, j int) bool {
		if c := search.LocaleCompare(groups[i].server, groups[j].server); c != 0 {
			return c < 0
		}
		return !groups[i].slash && groups[j].slash
	})
	var b strings.Builder
	b.WriteString("<system_reminder>\n")
	b.WriteString(intro)
	for _, g := range groups {
		sort.SliceStable(g.entries, func(i, j int) bool { return search.LocaleCompare(g.entries[i].Name, g.entries[j].Name) < 0 })
		prefixed := true
		for _, e := range g.entries {
			prefixed = prefixed && e.Name == g.server+"-"+e.Tool.Name
		}
		b.WriteString("\n\n" + g.server + " MCP server")
		if g.instructions != "" {
			b.WriteString(" - " + g.instructions)
		}
		if prefixed {
			b.WriteString(". Tools prefixed with `" + g.server + "-`:")
		} else {
			b.WriteString(". Tools:")
		}
		for _, e := range g.entries {
			if prefixed {
				b.WriteString("\n- " + e.Tool.Name)
			} else {
				b.WriteString("\n- " + e.Name)
			}
		}
	}
	b.WriteString("\n</system_reminder>")
	return b.String()
}

// Replay runs one tool_search_tool call: {"pattern": string, "limit":
// integer (optional)}.
func (s *Simulator) Replay(ctx context.Context, call json.RawMessage) (search.Result, error) {
	m, err := search.CallObject(call)
	if err != nil {
		return search.Result{}, err
	}
	p, err := search.CallString(m, "pattern", true)
	if err != nil {
		return search.Result{}, err
	}
	limit, err := search.CallInt(m, "limit")
	if err != nil {
		return search.Result{}, err
	}
	return s.Search(ctx, search.Query{Text: p, Limit: limit})
}

// VerbatimCall is {"pattern": the prompt with its regular-expression
// characters escaped}: the prompt as a literal, a baseline only.
func (s *Simulator) VerbatimCall(prompt string) json.RawMessage {
	return search.MarshalCall("pattern", regexp.QuoteMeta(prompt))
}

// HeuristicMaxNames is how many tool names the pattern names when the
// fitted model does not say.
const HeuristicMaxNames = 3

// HeuristicCalls is the deterministic writer for Copilot CLI: the call
// WriterModel writes (fitted.go). With names (mode 0) it names the tools
// that fit the request, as Claude Code's writer does with select:
//
//	"show my storage accounts" → {"pattern": "azure-storage_account_list|azure-storage_blob_list|…"}
//
// with words (mode 1) it writes the words a model would match on. When
// neither gives anything, the prompt's two most telling words, as
// "a.*b|b.*a".
func (s *Simulator) HeuristicCalls(prompt string) []json.RawMessage {
	return s.HeuristicCallsWith(prompt, WriterModel())
}

func (s *Simulator) intentIndex() *intent.Index {
	s.intentOnce.Do(func() {
		docs := make([]intent.Doc, 0, len(s.entries))
		for _, e := range s.entries {
			docs = append(docs, intent.Doc{Server: e.Tool.Server, Tool: e.Tool.Name, Description: e.Tool.Description, Identifiers: intent.SchemaIdentifiers(e.Tool.InputSchema)})
		}
		s.intent = intent.NewIndex(docs)
	})
	return s.intent
}
