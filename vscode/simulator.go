package vscode

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Version names the simulated source: the microsoft/vscode-copilot-chat
// snapshot of 2026-03-28 (HEAD 31acd00a, copilot.md header).
const Version = "2026.3.28"

// ID is the profile.
var ID = search.ClientID{Name: "vscode", Version: Version}

// Simulator is VS Code Copilot Chat over one catalog, for one model and
// set of options. It is immutable after New and safe for concurrent use.
type Simulator struct {
	opts   Options
	layout *Layout
	byID   map[corpus.ToolID]*Tool
	cat    *corpus.Catalog

	spaceOnce sync.Once // the stand-in's tf-idf over every MCP tool
	space     *space
	vectors   []vector
}

var (
	_ search.Simulator = (*Simulator)(nil)
	_ search.Viewer    = (*Simulator)(nil)
	_ search.Reporter  = (*Simulator)(nil)
	_ search.NoSearch  = (*Simulator)(nil)
	_ search.Outliner  = (*Simulator)(nil)
)

// New builds the simulator; options are checked by Options.Validate.
func New(cat *corpus.Catalog, opts Options) (*Simulator, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	s := &Simulator{opts: opts, cat: cat, byID: map[corpus.ToolID]*Tool{}}
	s.layout = arrange(cat, opts)
	for _, t := range s.layout.Tools {
		if _, ok := s.byID[t.T.ID()]; !ok {
			s.byID[t.T.ID()] = t
		}
	}
	return s, nil
}

// Client implements search.Simulator.
func (s *Simulator) Client() search.ClientID { return ID }

// Layout is the request's arrangement of the MCP tools (before any query).
func (s *Simulator) Layout() *Layout { return s.layout }

// Model is the model simulated.
func (s *Simulator) Model() string { return s.opts.model() }

// SearchesNothing implements search.NoSearch: with virtual tools the model
// never searches; it reads the flat tools and the stubs and may call a
// stub (toolfind simulates no search there). With tool search it does.
func (s *Simulator) SearchesNothing() bool { return s.layout.Mechanism == VirtualTools }

// Approximation is one part of the simulation that is toolfind's
// stand-in for VS Code's LLM and embedding calls (§3.6) or an assumption:
// Part names it in a few words, Detail says what stands in for what.
type Approximation struct {
	Part, Detail string
}

// Approximations lists the approximate parts that this simulation used,
// given whether a query was involved. Every output of the client names
// them.
func (s *Simulator) Approximations(query bool) []Approximation {
	var out []Approximation
	l := s.layout
	clustered, llm := false, false
	for _, ts := range l.Toolsets {
		if ts.Slots > 1 && ts.Slots < len(ts.Tools) {
			clustered = true
		}
		if ts.Slots >= 1 && ts.Slots < len(ts.Tools) {
			llm = true
		}
	}
	if l.Mechanism == VirtualTools && l.Grouping {
		if clustered {
			switch s.opts.embeddings() {
			case WordEmbeddings:
				out = append(out, Approximation{"clusters", "toolfind's word clustering stands in for VS Code's embedding clusters (--vscode-embeddings)"})
			case RegistrationFallback:
				out = append(out, Approximation{"clusters", "PR #328469's fallback without embeddings (a later VS Code), not the 2026-03 code (--vscode-embeddings)"})
			}
		}
		if llm {
			if s.opts.groupNames() == WordNames {
				out = append(out, Approximation{"group names", "toolfind's names (after the server or the cluster's commonest word) and VS Code's own fallback summary \"Contains the tools: …\"; VS Code asks an LLM (--vscode-group-names)"})
			} else {
				out = append(out, Approximation{"group names", "VS Code's own fallback for a failed LLM call; with a working call an LLM writes them (--vscode-group-names)"})
			}
		}
		if query && s.opts.embeddings() == WordEmbeddings {
			out = append(out, Approximation{"activate_embeddings", "toolfind's word similarity picks its 10 tools; VS Code uses embeddings (--vscode-embeddings)"})
		}
	}
	if l.Mechanism != VirtualTools && s.opts.searchMode() == ClientSearch && query {
		out = append(out, Approximation{"tool_search ranking", "toolfind's word similarity stands in for VS Code's embeddings search (--vscode-embeddings)"})
	}
	out = append(out, Approximation{"built-ins", fmt.Sprintf("%d VS Code built-in tools are counted, not shown (--vscode-builtins); schemas are the servers' (VS Code's schema normaliser is not simulated)", l.Builtins)})
	return out
}

// approxNote names every approximate part and says what stands in.
func (s *Simulator) approxNote(query bool) string {
	var parts []string
	for _, a := range s.Approximations(query) {
		parts = append(parts, a.Part+": "+a.Detail)
	}
	return "approximate: " + strings.Join(parts, "; ")
}

// approxShort names the approximate parts only.
func (s *Simulator) approxShort(query bool) string {
	var parts []string
	for _, a := range s.Approximations(query) {
		parts = append(parts, a.Part)
	}
	return "approximate: " + strings.Join(parts, ", ")
}

// Summary is the arrangement in one sentence.
func (s *Simulator) Summary() string {
	l := s.layout
	total := l.Builtins + l.MCP
	switch {
	case l.Mechanism != VirtualTools:
		return fmt.Sprintf("%s (%s, %d tools): every MCP tool deferred, found with %s", l.Mechanism, s.opts.model(), total, s.searchToolName())
	case !l.Grouping:
		return fmt.Sprintf("virtual tools (%s, %d tools < %d): all %d MCP tools flat, no search", s.opts.model(), total, StartGroupingAfterToolCount, l.MCP)
	}
	out := fmt.Sprintf("virtual tools (%s, %d tools ≥ %d): %d of %d MCP tools flat", s.opts.model(), total, StartGroupingAfterToolCount, l.count(Flat), l.MCP)
	if n := l.count(Grouped); n > 0 {
		out += fmt.Sprintf(", %d behind %d %s", n, len(l.Groups), plural(len(l.Groups), "stub", "stubs"))
	}
	if n := l.count(Dropped); n > 0 {
		out += fmt.Sprintf(", %d dropped", n)
	}
	return out + ", no search"
}

// DecisionNote says which mechanism applies and why (§3.1, §3.2).
func (s *Simulator) DecisionNote() string {
	l := s.layout
	head := fmt.Sprintf("%s: %d tools in a request (%d built-in + %d MCP)", s.opts.model(), l.Builtins+l.MCP, l.Builtins, l.MCP)
	switch l.Mechanism {
	case AnthropicSearch:
		return head + "; Anthropic tool search: every MCP tool is sent with defer_loading and listed by name in <availableDeferredTools>, found with " + s.searchToolName()
	case ResponsesSearch:
		return head + "; OpenAI Responses tool search: every MCP tool is sent with defer_loading, found with " + s.searchToolName()
	}
	why := "this model gets no tool search"
	if s.opts.Subagent {
		why = "a subagent's request gets no tool search"
	} else if AnthropicSearchModel(s.opts.model()) || ResponsesSearchModel(s.opts.model()) {
		why = "tool search is off in the settings"
	}
	if !l.Grouping {
		return head + fmt.Sprintf("; %s, and below %d tools VS Code sends every tool flat", why, StartGroupingAfterToolCount)
	}
	return head + fmt.Sprintf("; %s, so from %d tools VS Code groups them into virtual tools: %d slots − %d built-in = %d for MCP entries", why, StartGroupingAfterToolCount, ToolsAndGroupsLimit, l.Builtins, l.Available)
}

func (s *Simulator) searchToolName() string {
	if s.opts.searchMode() == ClientSearch {
		return "VS Code's own tool_search (embeddings, limit 5)"
	}
	if s.layout.Mechanism == AnthropicSearch {
		return "tool_search_tool_regex, which runs at Anthropic"
	}
	return "OpenAI's hosted tool_search, which runs at OpenAI"
}

// limitError is VS Code's error for a request over 128 tools, or "".
// With Anthropic tool search there is no limit (§3.2).
func limitError(mech Mechanism, n int) string {
	if n <= HardToolLimit || mech == AnthropicSearch {
		return ""
	}
	return fmt.Sprintf("Tool limit exceeded (%d/%d)", n, HardToolLimit)
}

func (s *Simulator) vectorsOnce() {
	s.spaceOnce.Do(func() {
		docs := make([][]string, len(s.layout.Tools))
		for i, t := range s.layout.Tools {
			docs[i] = t.words
		}
		s.space = newSpace(docs)
		s.vectors = make([]vector, len(docs))
		for i, d := range docs {
			s.vectors[i] = s.space.vector(d)
		}
	})
}

// Rank is the stand-in's ranking of the MCP tools for a text: cosine of
// the words (words.go), highest first, ties in registration order; tools
// sharing no word are left out. VS Code uses embeddings (§3.3 step 7,
// §3.1.1 client mode); this is only an approximation.
func (s *Simulator) Rank(text string, limit int) []*Tool {
	s.vectorsOnce()
	q := s.space.vector(Words(text))
	type scored struct {
		t *Tool
		v float64
	}
	var hits []scored
	for i, t := range s.layout.Tools {
		if v := q.dot(s.vectors[i]); v > 0 {
			hits = append(hits, scored{t, v})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].v > hits[j].v })
	var out []*Tool
	for i := 0; i < len(hits) && i < limit; i++ {
		out = append(out, hits[i].t)
	}
	return out
}

// Predicted is the activate_embeddings group for a user prompt (§3.3 step
// 7): the top 10 MCP tools, by the stand-in; none for an empty prompt or
// without embeddings.
func (s *Simulator) Predicted(prompt string) []*Tool {
	if strings.TrimSpace(prompt) == "" || s.opts.embeddings() != WordEmbeddings || s.layout.Mechanism != VirtualTools || !s.layout.Grouping {
		return nil
	}
	return s.Rank(prompt, NumEmbedMatchedTools)
}

// Search implements search.Simulator. With virtual tools the query is the
// user's prompt: every MCP tool whose definition is in the request (the
// flat ones, then activate_embeddings' tools) is a hit at rank 1, in
// request order; a tool behind a stub is one call away and no hit. With
// server-side tool search nothing is ranked here; with client-side
// tool_search the stand-in ranks the deferred tools (limit 5).
func (s *Simulator) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	l := s.layout
	if l.Mechanism != VirtualTools {
		return s.searchDeferred(q), nil
	}
	var tools []*Tool
	in := map[*Tool]bool{}
	for _, e := range l.Entries {
		if e.Tool != nil {
			tools = append(tools, e.Tool)
			in[e.Tool] = true
		}
	}
	predicted := s.Predicted(q.Text)
	for _, t := range predicted {
		if !in[t] {
			tools = append(tools, t)
			in[t] = true
		}
	}
	shown := 0
	for _, e := range l.Entries {
		if e.Group != nil {
			shown += e.Group.Tokens
		} else {
			shown += e.Tool.Tokens
		}
	}
	for _, t := range predicted {
		if t.Place != Flat {
			shown += t.Tokens
		}
	}
	r := search.Result{Client: ID.String(), Limit: len(tools), Uncapped: true, ShownTokens: shown}
	r.Hits = q.Hits[:0]
	for _, t := range tools {
		h := search.Hit{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: t.T.ID(), Name: t.Name, ReadTokens: shown}
		if !q.Brief {
			if t.Place == Flat {
				h.Why = []string{"flat: its definition is in every request"}
			} else {
				h.Why = []string{"in activate_embeddings: among the 10 tools predicted for the prompt (approximate)"}
			}
		}
		r.Hits = append(r.Hits, h)
	}
	if q.Brief {
		return r, nil
	}
	var b strings.Builder
	for _, e := range l.Entries {
		if e.Group != nil {
			b.WriteString(e.Group.JSON)
		} else {
			b.WriteString(e.Tool.JSON)
		}
		b.WriteByte('\n')
	}
	for _, t := range predicted {
		if t.Place != Flat {
			b.WriteString(t.JSON)
			b.WriteByte('\n')
		}
	}
	r.Shown = b.String()
	r.Notes = []string{s.Summary() + " (" + s.approxShort(len(predicted) > 0) + ")"}
	if e := limitError(l.Mechanism, l.Count()+len(tools)-countFlat(l)); e != "" {
		r.Error = e
	}
	r.Extra = map[string]any{"mechanism": l.Mechanism.String(), "stubs": len(l.Groups), "behind_stub": l.count(Grouped), "dropped": l.count(Dropped)}
	return r, nil
}

func countFlat(l *Layout) int {
	n := 0
	for _, e := range l.Entries {
		if e.Tool != nil {
			n++
		}
	}
	return n
}

func (s *Simulator) searchDeferred(q search.Query) search.Result {
	r := search.Result{Client: ID.String(), Hits: []search.Hit{}}
	if s.opts.searchMode() == ServerSearch {
		r.Notes = []string{s.Summary(), "toolfind does not rank a search at the provider (--vscode-search-mode client ranks VS Code's own tool_search, approximately)"}
		r.Extra = map[string]any{"mechanism": s.layout.Mechanism.String(), "hosted": true}
		return r
	}
	limit := q.Limit
	if limit <= 0 {
		limit = ClientSearchLimit
	}
	r.Limit = limit
	for i, t := range s.Rank(q.Text, limit) {
		h := search.Hit{Rank: i + 1, RankWorst: i + 1, PWithinLimit: 1, Tool: t.T.ID(), Name: t.Name}
		if !q.Brief {
			h.Why = []string{"word similarity (stand-in for embeddings)"}
		}
		r.Hits = append(r.Hits, h)
	}
	if q.Brief {
		return r
	}
	names := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		names[i] = h.Name
	}
	r.Shown = `["` + strings.Join(names, `","`) + `"]`
	if len(names) == 0 {
		r.Shown = "[]"
	}
	r.ShownTokens = search.CeilDiv(len(r.Shown), 4)
	r.Notes = []string{s.Summary(), s.approxShort(true)}
	r.Extra = map[string]any{"mechanism": s.layout.Mechanism.String()}
	return r
}

// DeferredNames are the MCP tools' names as <availableDeferredTools>
// lists them: sorted (§3.1.1, ToolSearchToolPrompt), by UTF-16 code units
// as JavaScript's sort; VS Code's own deferred built-ins are among them in
// the real prompt but not known to toolfind. Empty without tool search.
func (s *Simulator) DeferredNames() []string {
	if s.layout.Mechanism == VirtualTools {
		return nil
	}
	var out []string
	for _, t := range s.layout.Tools {
		out = append(out, t.Name)
	}
	sort.Slice(out, func(i, j int) bool { return utf16Less(out[i], out[j]) })
	return out
}

func utf16Less(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ra[i] != rb[i] {
			return utf16Key(ra[i]) < utf16Key(rb[i])
		}
	}
	return len(ra) < len(rb)
}

// utf16Key orders runes by their first UTF-16 unit (surrogates, 0xD800…,
// sort below 0xE000…0xFFFF).
func utf16Key(r rune) rune {
	if r > 0xFFFF {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// View implements search.Viewer: the tool's definition as the request
// carries it (or will, once its stub is called).
func (s *Simulator) View(id corpus.ToolID) (search.ToolView, bool) {
	t, ok := s.byID[id]
	if !ok {
		return search.ToolView{}, false
	}
	notes := []string{}
	switch t.Place {
	case Dropped:
		return search.ToolView{Tool: id, Name: t.Name, Notes: []string{s.dropReason(t), s.approxNote(false)}}, false
	case Grouped:
		notes = append(notes, fmt.Sprintf("behind the stub %s (%d tools): the model sees only the stub until it calls it; then this definition is sent", t.Group.Name, len(t.Group.Tools)))
	case Deferred:
		notes = append(notes, "deferred: sent with defer_loading; the model loads it through tool search")
	default:
		notes = append(notes, "flat: sent in every request")
	}
	if !ValidFunctionName(t.Name) {
		notes = append(notes, "the name fails VS Code Copilot Chat's check ^[a-zA-Z0-9_-]+$")
	}
	notes = append(notes, s.DecisionNote(), s.approxNote(false))
	return search.ToolView{Tool: id, Name: t.Name, Text: t.JSON, Tokens: t.Tokens, Notes: notes}, true
}

func (s *Simulator) dropReason(t *Tool) string {
	for _, ts := range s.layout.Toolsets {
		if ts.Server == t.T.Server {
			return fmt.Sprintf("dropped: server %s got %d of the slots (%s)", ts.Server, ts.Slots, ts.Outcome)
		}
	}
	return "dropped"
}
