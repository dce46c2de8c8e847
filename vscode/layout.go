package vscode

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Place is where an MCP tool ends up in a request.
type Place int

const (
	// Flat: the tool's own definition is in the request.
	Flat Place = iota
	// Grouped: the tool is behind its group's activate_* stub.
	Grouped
	// Dropped: the tool is in no entry at all (§3.3 step 4, §4.2).
	Dropped
	// Deferred: sent with defer_loading, found by tool search (§3.1).
	Deferred
)

func (p Place) String() string {
	return [...]string{"flat", "grouped", "dropped", "deferred"}[p]
}

// Tool is one MCP tool as VS Code presents it.
type Tool struct {
	T *corpus.Tool
	// Name is VS Code's name for it: the server's prefix + the tool name
	// (§3.5).
	Name string
	// Index is the registration order over all MCP tools.
	Index int
	// JSON is the definition as the request carries it; Tokens its size
	// (4 characters a token).
	JSON   string
	Tokens int
	Place  Place
	Group  *Group // for Grouped
	words  []string
}

// Group is one virtual tool.
type Group struct {
	// Name is the stub's name, "activate_" + the group name (deduplicated
	// with "_2", "_3", … §3.3 step 6).
	Name string
	// Summary is what the LLM (here: the stand-in) wrote; Description
	// the stub's description, SummaryPrefix + Summary + SummarySuffix.
	Summary     string
	Description string
	Server      string
	Tools       []*Tool
	// JSON is the stub's definition: no parameters (§3.4).
	JSON   string
	Tokens int
	// Kind says how the group came about: "toolset" (the toolset had one
	// slot), "cluster" (embedding clustering), "fallback" (PR #328469's
	// rest-of-the-toolset group) or "embeddings" (activate_embeddings).
	Kind string
}

// Entry is one top-level MCP entry of the request: a tool or a stub.
type Entry struct {
	Tool  *Tool
	Group *Group
}

// Name is the entry's function name.
func (e Entry) Name() string {
	if e.Group != nil {
		return e.Group.Name
	}
	return e.Tool.Name
}

// Toolset is one MCP server's bucket ("mcp_" + label, §3.3 step 1).
type Toolset struct {
	Server string
	Tools  []*Tool
	// Slots is the allocation (§3.3 step 3); Outcome says what
	// _processToolset made of it.
	Slots   int
	Outcome string
}

// AllocateSlots is _allocateSlots (copilot.md §3.3 step 3), given each
// toolset's tool count in toolset order: with at least as many toolsets as
// slots, each of the first `available` gets 1 and the rest 0; otherwise
// each gets 1, then, in descending order of its share of the tools (a
// stable sort), round(share × remaining) more, capped by what is still
// left, and what is left after that goes one by one round-robin in the
// same order. The shares are of the running remainder: worked example
// (copilot.md §4.2, 51 built-ins, toolsets of 24, 10 and 13 tools): 88 −
// 51 = 37 slots, 3 toolsets → 1 each, 34 left; by share 24/47, 13/47,
// 10/47: round(0.511×34) = 17 (17 left), round(0.277×17) = 5 (12 left),
// round(0.213×12) = 3 (9 left); the 9 go round-robin, 3 each: 21, 7, 9.
func AllocateSlots(sizes []int, available int) []int {
	out := make([]int, len(sizes))
	if len(sizes) >= available {
		for i := range out {
			if i < available {
				out[i] = 1
			}
		}
		return out
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	remaining := available - len(sizes)
	for i := range out {
		out[i] = 1
	}
	if remaining <= 0 || total == 0 {
		return out
	}
	order := make([]int, len(sizes))
	share := make([]float64, len(sizes))
	for i := range order {
		order[i] = i
		share[i] = float64(sizes[i]) / float64(total)
	}
	sort.SliceStable(order, func(a, b int) bool { return share[order[a]] > share[order[b]] })
	// Math.round(proportion * remainingSlots) reads the running count:
	// each toolset's share is of what the ones before it left.
	for _, i := range order {
		add := int(math.Floor(share[i]*float64(remaining) + 0.5))
		add = min(add, remaining)
		out[i] += add
		remaining -= add
	}
	for remaining > 0 {
		for _, i := range order {
			if remaining <= 0 {
				break
			}
			out[i]++
			remaining--
		}
	}
	return out
}

// Layout is what one request holds for the catalog's MCP tools.
type Layout struct {
	Mechanism Mechanism
	Builtins  int
	// MCP is the number of MCP tools; Grouping whether the virtual-tool
	// grouper ran (Builtins + MCP ≥ 64, §3.2).
	MCP      int
	Grouping bool
	// Available is 88 − Builtins, the slots for MCP entries (§3.3 step 3).
	Available int
	Tools     []*Tool
	Toolsets  []*Toolset
	// Entries are the top-level MCP entries in request order, after the
	// built-ins (virtual tools), or every MCP tool (tool search).
	Entries []Entry
	Groups  []*Group
}

// Count is the number of functions in the request before any stub is
// expanded: the built-ins plus the MCP entries (plus the tool search
// entry with server-mode search).
func (l *Layout) Count() int { return l.Builtins + len(l.Entries) }

func (l *Layout) count(p Place) int {
	n := 0
	for _, t := range l.Tools {
		if t.Place == p {
			n++
		}
	}
	return n
}

// arrange builds the layout (copilot.md §3.1, §3.3).
func arrange(cat *corpus.Catalog, o Options) *Layout {
	l := &Layout{Mechanism: Decide(o), Builtins: o.builtins()}
	var gen PrefixGenerator
	seen := map[corpus.ToolID]bool{}
	byLabel := map[string]*Toolset{}
	for _, srv := range cat.Servers {
		prefix := gen.Generate(srv.Name)
		ts := byLabel[srv.Name]
		if ts == nil {
			ts = &Toolset{Server: srv.Name}
			byLabel[srv.Name] = ts
			l.Toolsets = append(l.Toolsets, ts)
		}
		for _, t := range srv.Tools {
			if seen[t.ID()] {
				continue // first definition of a name (toolfind's assumption)
			}
			seen[t.ID()] = true
			vt := &Tool{T: t, Name: prefix + t.Name, Index: len(l.Tools), words: toolWords(prefix+t.Name, t.Description)}
			l.Tools = append(l.Tools, vt)
			ts.Tools = append(ts.Tools, vt)
		}
	}
	l.MCP = len(l.Tools)
	for _, t := range l.Tools {
		t.JSON = toolJSON(t, l.Mechanism)
		t.Tokens = search.CeilDiv(len(t.JSON), 4)
	}
	if l.Mechanism != VirtualTools {
		// §3.1.1: grouping is skipped; every MCP tool is deferred (only
		// core built-ins are non-deferred).
		for _, t := range l.Tools {
			t.Place = Deferred
			l.Entries = append(l.Entries, Entry{Tool: t})
		}
		return l
	}
	if l.Builtins+l.MCP < StartGroupingAfterToolCount {
		for _, t := range l.Tools {
			l.Entries = append(l.Entries, Entry{Tool: t})
		}
		return l
	}
	l.Grouping = true
	l.Available = ToolsAndGroupsLimit - l.Builtins
	sizes := make([]int, len(l.Toolsets))
	for i, ts := range l.Toolsets {
		sizes[i] = len(ts.Tools)
	}
	slots := AllocateSlots(sizes, l.Available)
	var entries []Entry
	for i, ts := range l.Toolsets {
		ts.Slots = slots[i]
		entries = append(entries, processToolset(ts, o)...)
	}
	// §3.3 step 6: deduplicateGroups renames groups only.
	names := map[string]bool{}
	for _, e := range entries {
		if e.Group != nil {
			base, name := e.Group.Name, e.Group.Name
			for c := 2; names[name]; c++ {
				name = base + "_" + strconv.Itoa(c)
			}
			e.Group.Name = name
			e.Group.JSON = stubJSON(e.Group.Name, e.Group.Description)
			e.Group.Tokens = search.CeilDiv(len(e.Group.JSON), 4)
			l.Groups = append(l.Groups, e.Group)
		}
		names[e.Name()] = true
	}
	l.Entries = entries
	for _, t := range l.Tools {
		if t.Place == Flat && !inEntries(entries, t) {
			t.Place = Dropped
		}
	}
	return l
}

func inEntries(es []Entry, t *Tool) bool {
	for _, e := range es {
		if e.Tool == t {
			return true
		}
		if e.Group != nil {
			for _, x := range e.Group.Tools {
				if x == t {
					return true
				}
			}
		}
	}
	return false
}

// processToolset is _processToolset (copilot.md §3.3 step 4): slots ≥
// tools → all flat; 1 slot → one group of all; else clustering
// (computeToolGroupings, by the Embeddings stand-in): groups first, then
// the single tools that fit.
func processToolset(ts *Toolset, o Options) []Entry {
	n := len(ts.Tools)
	switch {
	case ts.Slots == 0:
		ts.Outcome = "no slot left: every tool dropped"
		return nil
	case ts.Slots >= n:
		ts.Outcome = "fits: every tool flat"
		return flat(ts.Tools)
	case ts.Slots == 1:
		ts.Outcome = "one slot: one group of every tool"
		gs := describe(ts, [][]*Tool{ts.Tools}, "toolset", o)
		return []Entry{{Group: gs[0]}}
	}
	switch o.embeddings() {
	case NoEmbeddings:
		// §3.6, §4.2 (microsoft/vscode#327424): no embeddings → the
		// clustering yields no group, so the toolset contributes nothing.
		ts.Outcome = "clustering without embeddings: every tool dropped (2026-03 behaviour)"
		return nil
	case RegistrationFallback:
		// §3.6 (PR #328469): slots−1 tools flat in registration order,
		// the rest in one activation group.
		ts.Outcome = "no embeddings, PR #328469 fallback: first " + strconv.Itoa(ts.Slots-1) + " flat, the rest in one group"
		gs := describe(ts, [][]*Tool{ts.Tools[ts.Slots-1:]}, "fallback", o)
		return append(flat(ts.Tools[:ts.Slots-1]), Entry{Group: gs[0]})
	}
	target := min(ts.Slots, search.CeilDiv(n, ToolsPerCluster))
	if target >= n {
		return flat(ts.Tools)
	}
	docs := make([][]string, n)
	for i, t := range ts.Tools {
		docs[i] = t.words
	}
	sp := newSpace(docs)
	vs := make([]vector, n)
	for i := range docs {
		vs[i] = sp.vector(docs[i])
	}
	sim := make([][]float64, n)
	for i := range sim {
		sim[i] = make([]float64, n)
		for j := range sim[i] {
			if i != j {
				sim[i][j] = vs[i].dot(vs[j])
			}
		}
	}
	var groups [][]*Tool
	var singles []*Tool
	for _, c := range cluster(sim, target) {
		ms := make([]*Tool, len(c))
		for i, k := range c {
			ms[i] = ts.Tools[k]
		}
		if len(ms) >= MinToolsetSizeToGroup {
			groups = append(groups, ms)
		} else {
			singles = append(singles, ms...)
		}
	}
	if room := ts.Slots - len(groups); len(groups)+len(singles) > ts.Slots && room < len(singles) {
		singles = singles[:max(room, 0)] // the rest are dropped (§3.3 step 4)
	}
	ts.Outcome = "clustered into " + strconv.Itoa(target) + " (min(slots, ceil(tools/4))): " + strconv.Itoa(len(groups)) + " groups, " + strconv.Itoa(len(singles)) + " single tools"
	var out []Entry
	for _, g := range describe(ts, groups, "cluster", o) {
		out = append(out, Entry{Group: g})
	}
	return append(out, flat(singles)...)
}

func flat(ts []*Tool) []Entry {
	out := make([]Entry, len(ts))
	for i, t := range ts {
		t.Place = Flat
		out[i] = Entry{Tool: t}
	}
	return out
}

// describe names and summarises groups the way GroupNames says
// (§3.3 step 5), and files their tools under them.
func describe(ts *Toolset, groups [][]*Tool, kind string, o Options) []*Group {
	out := make([]*Group, len(groups))
	for i, tools := range groups {
		names := make([]string, len(tools))
		raw := make([]string, len(tools))
		for j, t := range tools {
			names[j], raw[j] = t.Name, t.T.Name
		}
		name := "group_" + strconv.Itoa(i)
		if o.groupNames() == WordNames {
			if kind == "cluster" {
				if w := topWord(raw); w != "" {
					name = normalizeGroupName(w + "_tools")
				}
			} else if s := normalizeGroupName(ts.Server); strings.Trim(s, "_") != "" {
				name = s + "_tools"
			}
		}
		g := &Group{Name: StubPrefix + name, Summary: FallbackSummaryPrefix + strings.Join(names, ", "), Server: ts.Server, Tools: tools, Kind: kind}
		g.Description = SummaryPrefix + g.Summary + SummarySuffix
		for _, t := range tools {
			t.Place, t.Group = Grouped, g
		}
		out[i] = g
	}
	return out
}

// toolJSON is a tool's definition on the request's wire: chat
// completions {"type":"function","function":{name, description,
// parameters}} with virtual tools; the Messages API {name, description,
// input_schema, defer_loading} with Anthropic tool search; a Responses
// function with defer_loading otherwise. The schema is the server's
// (VS Code's schema normaliser is not simulated).
func toolJSON(t *Tool, m Mechanism) string {
	schema := compactSchema(t.T.InputSchemaRaw)
	name, desc := ojson.JSString(t.Name), ojson.JSString(t.T.Description)
	switch m {
	case AnthropicSearch:
		return `{"name":` + name + `,"description":` + desc + `,"input_schema":` + schema + `,"defer_loading":true}`
	case ResponsesSearch:
		return `{"type":"function","name":` + name + `,"description":` + desc + `,"parameters":` + schema + `,"defer_loading":true}`
	}
	return `{"type":"function","function":{"name":` + name + `,"description":` + desc + `,"parameters":` + schema + `}}`
}

// stubJSON is a stub's definition: no parameters at all (§3.4).
func stubJSON(name, desc string) string {
	return `{"type":"function","function":{"name":` + ojson.JSString(name) + `,"description":` + ojson.JSString(desc) + `}}`
}

// compactSchema is the input schema as compact JSON; a tool without one
// gets an empty object schema (toolfind's assumption).
func compactSchema(raw json.RawMessage) string {
	if len(raw) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err == nil {
			return buf.String()
		}
	}
	return `{"type":"object","properties":{}}`
}
