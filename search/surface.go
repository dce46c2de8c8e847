package search

import (
	"slices"
	"sort"
	"strconv"

	"context"
	"encoding/json"
	"fmt"
	"github.com/toolfind/toolfind/ojson"
	"strings"
)

// Surface is what a client's model sees before it makes its first search:
// the tools it can call to search (Claude Code's ToolSearch, Grok Build's
// search_tool and use_tool, Codex's exec or tool_search, OpenCode's
// execute) and the texts the client places around them (the deferred-tools
// reminder, the connected-servers reminder, a partial catalog). A writer
// turns (surface, prompt) into the client's call; the simulator replays
// the call (Writable.Replay).
//
// Texts derived from the catalog (tool names, server lists, OpenCode's
// catalog section) are exact. The clients' own instruction texts are exact
// only where their licences allow it (Codex: Apache-2.0; OpenCode: MIT);
// for Claude Code and Grok Build they are toolfind's own wording of the
// same instructions, and a user can supply the exact texts of the release
// they run (see Texts and ApplyTexts).
type Surface struct {
	// Client is the profile, "name@version".
	Client string `json:"client"`
	// Tools are the definitions the model can call, in the order the
	// client offers them; Tools[0] is the one a writer calls to search.
	Tools []SurfaceTool `json:"tools"`
	// Context holds the texts placed around the tools, in order.
	Context []SurfaceText `json:"context"`
	// Visible counts the MCP tools whose names (or more) the model can
	// read before searching, and Total the MCP tools the client offers.
	Visible int `json:"visible"`
	Total   int `json:"total"`
	// Wording says, per text key, whether the text is the client's own
	// ("client") or toolfind's paraphrase ("toolfind"), or was supplied by
	// the user ("user").
	Wording map[string]string `json:"wording,omitempty"`
	// Sources cites the spec sections the surface follows, for the
	// code's readers (tests check them); never shown to users, who do not
	// have the specs.
	Sources []string `json:"-"`
	// Notes are remarks for the user.
	Notes []string `json:"notes,omitempty"`
}

// MarshalSchema encodes a surface tool's input schema as JSON without
// HTML escaping (so "<name>" stays readable); keys sorted.
func MarshalSchema(v any) json.RawMessage {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return json.RawMessage(strings.TrimSuffix(b.String(), "\n"))
}

// SurfaceTool is one tool definition as the client sends it to the model.
type SurfaceTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// SurfaceText is one text the client places in front of the model. Role
// says where: "system" (the system prompt), "system-reminder" (a reminder
// in the conversation) or "user".
type SurfaceText struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// Texts are user-supplied replacements for a client's instruction texts,
// by the keys the client's surface documents (e.g. claude's
// "tool_search_description"). See ApplyTexts.
type Texts map[string]string

// Writable is implemented by simulators whose model writes its own search
// call. The call is the search tool's input exactly as the model sends it
// (a JSON object): Claude {"query","max_results"}, Grok and codex-search
// {"query","limit"}, Codex code mode and OpenCode code mode {"code"}.
type Writable interface {
	Simulator
	// Surface renders what the model sees before it searches; texts, when
	// not nil, replace the client's instruction texts by key (an unknown
	// key is an error).
	Surface(texts Texts) (Surface, error)
	// Replay runs one call as the client would and returns what the model
	// is shown. A malformed call is an error naming the field.
	Replay(ctx context.Context, call json.RawMessage) (Result, error)
	// VerbatimCall is the call that uses the prompt itself as the query
	// (the "verbatim" writer: a baseline, not what a model writes).
	VerbatimCall(prompt string) json.RawMessage
	// HeuristicCalls are the calls the deterministic "heuristic" writer
	// makes for the prompt, in order (usually one).
	HeuristicCalls(prompt string) []json.RawMessage
}

// NoSearch is implemented by simulators whose model never searches
// (OpenCode's eager mode shows every tool): a written call is neither
// needed nor used, and every tool counts as seen.
type NoSearch interface {
	Simulator
	SearchesNothing() bool
}

// SearchesNothing reports whether the simulator's model never searches
// (it implements NoSearch and says so).
func SearchesNothing(sim Simulator) bool {
	ns, ok := sim.(NoSearch)
	return ok && ns.SearchesNothing()
}

// CallObject decodes a call into its members, rejecting anything that is
// not a JSON object. It is the first step of every Replay.
func CallObject(call json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	t := strings.TrimSpace(string(call))
	if t == "" || t[0] != '{' {
		return nil, fmt.Errorf("call: not a JSON object: %s", clipText(t, 60))
	}
	if err := json.Unmarshal(call, &m); err != nil {
		return nil, fmt.Errorf("call: %v", err)
	}
	return m, nil
}

// CallString reads a string member of a call; required says whether a
// missing member is an error.
func CallString(m map[string]json.RawMessage, field string, required bool) (string, error) {
	raw, ok := m[field]
	if !ok || string(raw) == "null" {
		if required {
			return "", fmt.Errorf("call: field %q is missing", field)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("call: field %q: not a string: %s", field, clipText(string(raw), 40))
	}
	return s, nil
}

// CallInt reads an optional non-negative whole-number member of a call
// (0 when absent). Models send numbers such as 5 or 5.0; both are read.
func CallInt(m map[string]json.RawMessage, field string) (int, error) {
	raw, ok := m[field]
	if !ok || string(raw) == "null" {
		return 0, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, fmt.Errorf("call: field %q: not a number: %s", field, clipText(string(raw), 40))
	}
	if f < 0 || f != float64(int(f)) || f > 1<<31 {
		return 0, fmt.Errorf("call: field %q: %s is not a whole number ≥ 0", field, string(raw))
	}
	return int(f), nil
}

// QueryCall reads the usual keyword-search call, {"query": string,
// <limitField>: number (optional)}, as a Query; the first step of the
// Replay of Claude's ToolSearch, Grok's search_tool and Codex's
// tool_search.
func QueryCall(call json.RawMessage, limitField string) (Query, error) {
	m, err := CallObject(call)
	if err != nil {
		return Query{}, err
	}
	q, err := CallString(m, "query", true)
	if err != nil {
		return Query{}, err
	}
	limit, err := CallInt(m, limitField)
	if err != nil {
		return Query{}, err
	}
	return Query{Text: q, Limit: limit}, nil
}

// ApplyTexts returns the value of key: texts[key] when supplied, else def.
// It records in wording whether the text is the client's ("client"),
// toolfind's ("toolfind") or the user's ("user").
func ApplyTexts(texts Texts, wording map[string]string, key, def, defWording string) string {
	if v, ok := texts[key]; ok {
		wording[key] = "user"
		return v
	}
	wording[key] = defWording
	return def
}

// CheckTexts reports supplied text keys that the client does not know.
func CheckTexts(client string, texts Texts, known ...string) error {
	var bad []string
	for k := range texts {
		if !slices.Contains(known, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	for i, k := range bad {
		bad[i] = strconv.Quote(k)
	}
	return fmt.Errorf("%s: unknown surface text %s (known: %s)", client, strings.Join(bad, ", "), strings.Join(known, ", "))
}

// MarshalCall encodes a call object with its members in the given order
// (Go maps have none), without HTML escaping.
func MarshalCall(kv ...any) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(ojson.JSString(kv[i].(string)))
		b.WriteByte(':')
		switch v := kv[i+1].(type) {
		case string:
			b.WriteString(ojson.JSString(v))
		case int:
			fmt.Fprintf(&b, "%d", v)
		default:
			panic(fmt.Sprintf("MarshalCall: unsupported %T", v))
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// clipText cuts s to n characters for an error message, marking the cut.
func clipText(s string, n int) string {
	if c, cut := TruncateRunes(s, n); cut {
		return c + "…"
	}
	return s
}

// SurfaceText renders a surface as the text a person reads: each tool's
// definition, then the context texts, each under a heading.
func (s Surface) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: what the model sees before it searches (%d of %d MCP tools visible)\n", s.Client, s.Visible, s.Total)
	for _, t := range s.Tools {
		fmt.Fprintf(&b, "\n## tool %s\n%s\ninput schema: %s\n", t.Name, t.Description, string(t.InputSchema))
	}
	for _, c := range s.Context {
		fmt.Fprintf(&b, "\n## %s\n%s\n", c.Role, c.Text)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}
