package opencode

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// builtinDefinitionChars are the sizes (UTF-16 units of the compact JSON
// {"type":"function","function":{name, description, parameters}}) of the
// 10 built-in tools OpenCode 1.18.33 sends next to the MCP tools in eager
// mode (§0 "Eager mode offers 10 built-in tools"), measured in the request
// body opencode-oracle captured for a non-gpt model. Their texts are
// OpenCode's own and are not stored here. bash and task describe the
// environment and the agents, so their size varies a little by machine.
var builtinDefinitionChars = map[string]int{
	"bash": 5275, "edit": 1958, "glob": 1114, "grep": 1183, "read": 1734,
	"skill": 676, "task": 3856, "todowrite": 2686, "webfetch": 1293, "write": 1026,
}

// builtinChars is the sum of builtinDefinitionChars.
func builtinChars() int {
	n := 0
	for _, c := range builtinDefinitionChars {
		n += c
	}
	return n
}

// EagerParameters is the parameters schema OpenCode sends for an MCP tool
// in eager mode (§C.1; the MCP module's tool conversion in 1.18.33): the tool's input schema with
// "type" set to "object", "properties" defaulted to {} when absent or
// null, and "additionalProperties" set to false — existing keys keep their
// place, new ones are appended in that order.
//
// Only the top level is collapsed here (a repeated key: first position,
// last value); Value.JS collapses the levels below as it prints them.
func EagerParameters(input ojson.Value) ojson.Value {
	var ms []ojson.Member
	if input.Kind == ojson.Object {
		ms = make([]ojson.Member, 0, len(input.Members())+3)
		for _, m := range input.Members() {
			if i := slices.IndexFunc(ms, func(x ojson.Member) bool { return x.Key == m.Key }); i >= 0 {
				ms[i].Value = m.Value
				continue
			}
			ms = append(ms, m)
		}
	}
	set := func(key string, v ojson.Value, keepNonNull bool) {
		for i := range ms {
			if ms[i].Key == key {
				if !(keepNonNull && !nullish(ms[i].Value)) {
					ms[i].Value = v
				}
				return
			}
		}
		ms = append(ms, ojson.Member{Key: key, Value: v})
	}
	set("type", ojson.StringOf("object"), false)
	set("properties", ojson.ObjectOf(), true)
	set("additionalProperties", ojson.Value{Kind: ojson.Bool}, false)
	return ojson.ObjectOf(ms...)
}

// EagerDefinition is one MCP tool as the eager request carries it:
// {"type":"function","function":{"name","description","parameters"}} in
// compact JSON, the name ToolKey(server, tool), the description as given
// ("" when absent).
func EagerDefinition(t *corpus.Tool) string {
	var b strings.Builder
	appendEagerDefinition(&b, t)
	return b.String()
}

func appendEagerDefinition(b *strings.Builder, t *corpus.Tool) {
	b.WriteString(`{"type":"function","function":{"name":`)
	ojson.AppendJSString(b, ToolKey(t.Server, t.Name))
	b.WriteString(`,"description":`)
	ojson.AppendJSString(b, toolDescription(t))
	b.WriteString(`,"parameters":`)
	EagerParameters(t.InputSchema).AppendJS(b, "")
	b.WriteString(`}}`)
}

// Eager simulates OpenCode's default (1.x) tool loading: every MCP tool is
// a top-level tool, sent with every request.
type Eager struct {
	id       search.ClientID
	entries  []*entry // in request order (by name)
	defEnd   []int    // definition i is shown[start:defEnd[i]], start the previous end + 1
	defTok   []int    // Tokens of each definition
	byID     map[corpus.ToolID]int
	mcpChars int
	shown    string // the definitions, one a line
	// problems are built on the first Problems call.
	problemsOnce sync.Once
	problems     []corpus.Diagnostic
	problemsOf   func() []corpus.Diagnostic
}

// NewEager builds the eager simulator over a catalog.
func NewEager(cat *corpus.Catalog) *Eager {
	s := &Eager{id: search.ClientID{Name: "opencode", Version: "1.18.33"}, byID: make(map[corpus.ToolID]int, cat.Len())}
	rejected := rejectedServers(cat)
	s.entries = buildEntries(cat, rejected)
	// The request lists the tools sorted by name with localeCompare, the
	// built-ins among them (oracle-verified: bash, Bee_x, edit, …, s_a_b,
	// s_a-b, s_a1, s_alpha, s_Zeta, skill, …).
	sorted := slices.Clone(s.entries)
	slices.SortStableFunc(sorted, func(a, b *entry) int { return cmp.Compare(a.keyRank, b.keyRank) })
	s.entries = sorted
	// The definitions are written one after the other into the shown text
	// (one a line) and each is a slice of it.
	var b strings.Builder
	// Sized once from the tools' JSON (a definition is about as long), so
	// that a large catalog is not copied at every doubling of the text.
	size := 0
	for _, e := range s.entries {
		size += len(e.tool.Raw) + len(e.key) + 64
	}
	b.Grow(size)
	s.defEnd = make([]int, len(s.entries))
	s.defTok = make([]int, len(s.entries))
	for i, e := range s.entries {
		if i > 0 {
			b.WriteByte('\n')
		}
		start := b.Len()
		appendEagerDefinition(&b, e.tool)
		s.defEnd[i] = b.Len()
		s.byID[e.tool.ID()] = i
		def := b.String()[start:] // the builder's bytes so far, not copied
		n := utf16Len(def)
		s.defTok[i] = roundQuarter(n) // Tokens(def)
		s.mcpChars += n
	}
	s.shown = b.String()
	s.problemsOf = func() []corpus.Diagnostic {
		return append(rejectionProblems(cat, s.id.String(), rejected), commonProblems(cat, s.id.String(), s.entries)...)
	}
	return s
}

// Client implements search.Simulator.
func (s *Eager) Client() search.ClientID { return s.id }

// DefinitionTokens are the tokens (round(chars/4)) of the MCP tool
// definitions, of the built-in ones, and of the whole tools array sent
// with every request.
func (s *Eager) DefinitionTokens() (mcp, builtin, total int) {
	n := len(s.entries) + len(builtinDefinitionChars)
	chars := s.mcpChars + builtinChars() + 2 + max(0, n-1) // [ , ]
	return roundQuarter(s.mcpChars), roundQuarter(builtinChars()), roundQuarter(chars)
}

// Search implements search.Simulator. Eager tools need no search: every
// visible MCP tool is in the request, so every one is a hit at rank 1
// (RankWorst 1, PWithinLimit 1) whatever the query; the order of the hits
// is the request's, not a ranking. What matters is the cost: Shown is the
// MCP tool definitions (one compact JSON per line, as in the request;
// the 10 built-ins are counted but not reproduced) and ShownTokens the
// estimate for the whole tools array, built-ins included.
func (s *Eager) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	mcp, builtin, total := s.DefinitionTokens()
	// No cap (opencode.md §C.1): every tool definition is in every
	// request, and the model reads them all.
	r := search.Result{Client: s.id.String(), Limit: len(s.entries), Hits: make([]search.Hit, 0, len(s.entries)),
		Shown: s.shown, ShownTokens: total, Uncapped: true}
	// One reason for every hit, shared (full: an append copies it).
	why := []string{"eager: sent as a top-level tool with every request"}
	for i, e := range s.entries {
		r.Hits = append(r.Hits, search.Hit{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: e.tool.ID(), Name: e.key,
			Why: why[:1:1], ReadTokens: total,
			Extra: map[string]any{"definition_tokens": s.defTok[i]}})
	}
	r.Notes = []string{
		"eager loading: every MCP tool is a top-level tool in every request, so each is found at rank 1 regardless of the query (rank order is not meaningful)",
		fmt.Sprintf("every request carries %d tool definitions: %d MCP (≈%d tokens) + 10 built-in (≈%d tokens), ≈%d tokens in all", len(s.entries)+10, len(s.entries), mcp, builtin, total),
	}
	r.Extra = map[string]any{"mcp_tools": len(s.entries), "builtin_tools": 10, "mcp_definition_tokens": mcp,
		"builtin_definition_tokens": builtin, "definition_tokens": total}
	return r, nil
}

// View implements search.Viewer: the tool's definition as sent.
func (s *Eager) View(id corpus.ToolID) (search.ToolView, bool) {
	i, ok := s.byID[id]
	if !ok {
		return search.ToolView{}, false
	}
	return search.ToolView{Tool: id, Name: s.entries[i].key, Text: s.def(i), Tokens: s.defTok[i],
		Notes: []string{"sent with every request (eager loading)"}}, true
}

// def returns definition i as sent.
func (s *Eager) def(i int) string {
	start := 0
	if i > 0 {
		start = s.defEnd[i-1] + 1
	}
	return s.shown[start:s.defEnd[i]]
}

// Problems implements search.Reporter.
func (s *Eager) Problems() []corpus.Diagnostic {
	s.problemsOnce.Do(func() { s.problems, s.problemsOf = s.problemsOf(), nil })
	return s.problems
}
