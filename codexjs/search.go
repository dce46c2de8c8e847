package codexjs

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/bm25"
	"github.com/toolfind/toolfind/search/intent"
)

// Codex tool_search (spec §0, §5.1): BM25 over one text per deferred MCP
// tool, float32 like the bm25 crate 2.3.2, default limit 8, ties as bands.

// DefaultSearchLimit is TOOL_SEARCH_DEFAULT_LIMIT (§5.1).
const DefaultSearchLimit = 8

// agentTools are the deferred multi_agent_v1 tools that share the pool when
// the multi_agent feature is on (§0). Their exact search text is not
// established; with the option on, each is indexed as §5.1 describes for
// non-MCP tools (namespace name, tool name, the name with _ as spaces).
var agentTools = []string{"resume_agent", "send_input", "close_agent", "wait_agent", "spawn_agent"}

const agentNamespace = "multi_agent_v1"

func init() {
	search.Register(search.Profile{
		ID:       search.ClientID{Name: "codex-search", Version: Version},
		Default:  true,
		Summary:  "Codex tool_search: BM25 (bm25 crate 2.3.2, float32) over each deferred MCP tool's text; default limit 8",
		Verified: "real Codex 0.171.0: tool_search on 55 queries over 5 catalogs and 60 over livemcpbench (ties as sets)",
		Options: []search.Option{
			{Name: "agent-tools", Kind: search.BoolOption, Default: "false", Usage: "add Codex's deferred multi_agent_v1 tools to the pool (their search text is approximated)"},
			{Name: "plugin", Kind: search.BoolOption, Default: "false", Usage: "treat every server as an Agent Plugin (1,000-byte descriptions, 8,000/64,000-byte budgets)"},
		},
		New: func(cat *corpus.Catalog, opts search.Options) (search.Simulator, error) {
			return NewToolSearch(cat, opts)
		},
	})
}

// ToolSearch simulates Codex's tool_search over one catalog.
type ToolSearch struct {
	all   *AllTools
	docs  []searchDoc
	index *bm25.Index

	// The heuristic writer's index, built on first use (writable.go).
	intentOnce    sync.Once
	intent        *intent.Index
	intentServers []string
}

type searchDoc struct {
	entry *Entry // nil for an agent tool
	ns    string
	name  string
}

// appendText appends the document's search text (SearchText for an MCP
// tool).
func (d searchDoc) appendText(dst []byte) []byte {
	if d.entry != nil {
		return appendSearchText(dst, d.entry)
	}
	dst = append(dst, d.ns...)
	dst = append(dst, ' ')
	dst = append(dst, d.name...)
	dst = append(dst, ' ')
	for i := 0; i < len(d.name); i++ {
		c := d.name[i]
		if c == '_' {
			c = ' '
		}
		dst = append(dst, c)
	}
	return dst
}

// NewToolSearch builds the BM25 index.
func NewToolSearch(cat *corpus.Catalog, opts search.Options) (*ToolSearch, error) {
	agents, err := opts.Bool("agent-tools", false)
	if err != nil {
		return nil, err
	}
	plugin, err := opts.Bool("plugin", false)
	if err != nil {
		return nil, err
	}
	ts := &ToolSearch{all: buildAllTools(cat, buildOptions{plugin: plugin, search: true})}
	// Documents in registration order (raw identity: server, then tool).
	var mcp []*Entry
	for i := range ts.all.Entries {
		if e := &ts.all.Entries[i]; e.Tool != nil {
			mcp = append(mcp, e)
		}
	}
	sort.SliceStable(mcp, func(a, b int) bool {
		if mcp[a].Tool.Server != mcp[b].Tool.Server {
			return mcp[a].Tool.Server < mcp[b].Tool.Server
		}
		return mcp[a].Tool.Name < mcp[b].Tool.Name
	})
	for _, e := range mcp {
		ts.docs = append(ts.docs, searchDoc{entry: e, ns: e.Namespace, name: e.ToolName})
	}
	if agents {
		for _, n := range agentTools {
			ts.docs = append(ts.docs, searchDoc{ns: agentNamespace, name: n})
		}
	}
	// Each text is built as it is tokenized, and not kept.
	ts.index = bm25.NewAppend(len(ts.docs), func(i int, dst []byte) []byte { return ts.docs[i].appendText(dst) })
	return ts, nil
}

// SearchText is build_mcp_search_text (§5.1 with §0's specifics): the flat
// name (namespace + tool name, no separator), the model-visible tool name,
// the raw tool name, the raw server name, the top-level title, the
// description, the namespace description and the sorted top-level property
// names, joined by single spaces (empty parts left out).
func SearchText(e *Entry) string { return string(appendSearchText(nil, e)) }

func appendSearchText(dst []byte, e *Entry) []byte {
	t := e.Tool
	part := func(s string) { // an optional part: left out when empty
		if s != "" {
			dst = append(dst, ' ')
			dst = append(dst, s...)
		}
	}
	dst = append(dst, e.Namespace...)
	dst = append(dst, e.ToolName...)
	dst = append(dst, ' ')
	dst = append(dst, e.ToolName...)
	dst = append(dst, ' ')
	dst = append(dst, t.Name...)
	dst = append(dst, ' ')
	dst = append(dst, t.Server...)
	part(t.Title)
	part(e.ToolDescription)
	part(strings.TrimSpace(e.NamespaceDescription))
	// The input schema is an object (Codex dropped the tool otherwise);
	// its "properties" keys in first-appearance order are the keys of
	// the serde_json map (preserve_order: a repeated key keeps its first
	// position), which are then sorted.
	if props, ok := t.Value.Lookup("inputSchema").Get("properties"); ok && props.Kind == ojson.Object {
		names := props.Keys()
		sort.Strings(names)
		for _, n := range names {
			dst = append(dst, ' ')
			dst = append(dst, n...)
		}
	}
	return dst
}

// Client implements search.Simulator.
func (s *ToolSearch) Client() search.ClientID {
	return search.ClientID{Name: "codex-search", Version: Version}
}

// Search ranks the pool for the query. Equal float32 scores form a tie
// band: Codex returns them in hash-set order, different on every run
// (§0), so each member gets the band's best and worst rank and the chance
// of being among the first limit results.
func (s *ToolSearch) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	res := search.Result{Client: s.Client().String(), Limit: limit, Hits: []search.Hit{}}
	if strings.TrimSpace(q.Text) == "" {
		// §5.1: an empty query is an error the model gets back.
		res.Shown = "query must not be empty"
		res.ShownTokens = approxTokens(len(res.Shown))
		res.Notes = []string{"Codex rejects an empty tool_search query"}
		return res, nil
	}
	qt := bm25.Tokenize(q.Text)
	matches := s.index.SearchTokens(qt)
	for start := 0; start < len(matches) && start < limit; {
		end := start
		for end+1 < len(matches) && matches[end+1].Score == matches[start].Score {
			end++
		}
		best, worst := start+1, end+1
		p := 1.0
		if worst > limit {
			p = float64(limit-best+1) / float64(worst-best+1)
		}
		for i := start; i <= end; i++ {
			d := s.docs[matches[i].Doc]
			h := search.Hit{Rank: best, RankWorst: worst, PWithinLimit: p,
				Name: d.ns + nameDelimiter + d.name, Score: float64(matches[i].Score)}
			if d.entry != nil {
				h.Tool = d.entry.Tool.ID()
			} else {
				h.Tool = corpus.NewToolID(agentNamespace, d.name)
				h.Extra = map[string]any{"codex_agent_tool": true}
			}
			for _, ts := range s.index.ExplainTokens(qt, matches[i].Doc) {
				if ts.TF > 0 {
					h.Why = append(h.Why, fmt.Sprintf("%s: tf %d, df %d, idf %.6g × value %.6g = %.6g", ts.Token, ts.TF, ts.DF, ts.IDF, ts.Value, ts.Score))
				}
			}
			res.Hits = append(res.Hits, h)
		}
		start = end + 1
	}
	res.Shown = s.output(matches, limit)
	res.ShownTokens = approxTokens(len(res.Shown))
	if len(matches) == 0 {
		res.Notes = append(res.Notes, "no tool shares a token with the query")
	}
	return res, nil
}

// output renders the tool_search_output tools (§5.1): namespace specs
// merged by name in first-seen order, each tool a deferred function with
// its normalised parameters; ties in document order.
func (s *ToolSearch) output(matches []bm25.Match, limit int) string {
	if len(matches) > limit {
		matches = matches[:limit]
	}
	type nsOut struct {
		name, desc string
		tools      []string
	}
	var order []*nsOut
	byName := map[string]*nsOut{}
	for _, m := range matches {
		d := s.docs[m.Doc]
		n := byName[d.ns]
		if n == nil {
			desc := ""
			if d.entry != nil {
				desc = strings.TrimSpace(d.entry.NamespaceDescription)
			}
			if desc == "" {
				desc = "Tools in the " + d.ns + " namespace."
			}
			n = &nsOut{name: d.ns, desc: desc}
			byName[d.ns] = n
			order = append(order, n)
		}
		var b strings.Builder
		b.WriteString(`{"type":"function","name":`)
		serdeString(&b, d.name)
		b.WriteString(`,"description":`)
		params := `{"type":"object","properties":{}}`
		desc := ""
		if d.entry != nil {
			desc = d.entry.ToolDescription
			params = searchParams(d.entry.Tool)
		}
		serdeString(&b, desc)
		b.WriteString(`,"strict":false,"defer_loading":true,"parameters":`)
		b.WriteString(params)
		b.WriteString(`}`)
		n.tools = append(n.tools, b.String())
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"namespace","name":`)
		serdeString(&b, n.name)
		b.WriteString(`,"description":`)
		serdeString(&b, n.desc)
		b.WriteString(`,"tools":[`)
		b.WriteString(strings.Join(n.tools, ","))
		b.WriteString(`]}`)
	}
	b.WriteByte(']')
	return b.String()
}

// View implements search.Viewer: the tool's indexed search text.
func (s *ToolSearch) View(id corpus.ToolID) (search.ToolView, bool) {
	e, ok := s.all.Entry(id)
	if !ok {
		return search.ToolView{}, false
	}
	text := SearchText(&e)
	return search.ToolView{Tool: id, Name: e.Namespace + nameDelimiter + e.ToolName, Text: text,
		Tokens: len(bm25.Tokenize(text)), Notes: []string{"the text tool_search indexes (BM25 tokens counted)"}}, true
}

// Problems implements search.Reporter.
func (s *ToolSearch) Problems() []corpus.Diagnostic {
	ps := s.all.Problems()
	for i := range ps {
		ps[i].Client = s.Client().String()
	}
	return ps
}
