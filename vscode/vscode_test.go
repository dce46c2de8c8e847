package vscode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// catalog builds servers of the given sizes: server s<i> with tools
// t00, t01, … (descriptions "tool <n> of s<i>").
func catalog(t *testing.T, sizes ...int) *corpus.Catalog {
	t.Helper()
	type tool struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	type server struct {
		Name  string `json:"name"`
		Tools []tool `json:"tools"`
	}
	var srv []server
	for i, n := range sizes {
		s := server{Name: fmt.Sprintf("s%d", i)}
		for k := 0; k < n; k++ {
			s.Tools = append(s.Tools, tool{Name: fmt.Sprintf("t%02d", k), Description: fmt.Sprintf("tool %d of s%d", k, i), InputSchema: map[string]any{"type": "object"}})
		}
		srv = append(srv, s)
	}
	b, err := json.Marshal(map[string]any{"servers": srv})
	require.NoError(t, err)
	servers, _, err := corpus.ParseCatalog("c.json", b)
	require.NoError(t, err)
	return &corpus.Catalog{Servers: servers}
}

func build(t *testing.T, cat *corpus.Catalog, o Options) *Simulator {
	t.Helper()
	s, err := New(cat, o)
	require.NoError(t, err)
	return s
}

// §3.2: the constants and their arithmetic.
func TestConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"HARD_TOOL_LIMIT", HardToolLimit, 128},
		{"START_GROUPING_AFTER_TOOL_COUNT = 128/2", StartGroupingAfterToolCount, 64},
		{"START_BUILTIN_GROUPING_AFTER_TOOL_COUNT", StartBuiltinGroupingAfterToolCount, 20},
		{"EXPAND_UNTIL_COUNT", ExpandUntilCount, 64},
		{"TRIM_THRESHOLD = 128×3/4", TrimThreshold, 96},
		{"GROUP_WITHIN_TOOLSET = 128/8", GroupWithinToolset, 16},
		{"MIN_TOOLSET_SIZE_TO_GROUP", MinToolsetSizeToGroup, 2},
		{"NUM_EMBED_MATCHED_TOOLS", NumEmbedMatchedTools, 10},
		{"TOOLS_AND_GROUPS_LIMIT = 128−10−30", ToolsAndGroupsLimit, 88},
		{"MAX_CATEGORIZATION_RETRIES", MaxCategorizationRetries, 3},
		{"MAX_GROUPS_PER_CHUNK", MaxGroupsPerChunk, 16},
		{"McpToolName.MaxPrefixLen", MaxPrefixLen, 18},
		{"tool_search default limit", ClientSearchLimit, 5},
		{"core (nonDeferred) fixture tools", len(CoreTools), 18},
	} {
		require.Equal(t, c.want, c.got, c.name)
	}
	require.Equal(t, strings.TrimSpace(builtinsDefaultValue), fmt.Sprint(DefaultBuiltins))
}

// §3.1: which mechanism a request gets.
func TestDecide(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want Mechanism
	}{
		{Options{}, VirtualTools}, // default gpt-4.1
		{Options{Model: "claude-sonnet-4.5"}, AnthropicSearch},
		{Options{Model: "claude-sonnet-4.6"}, AnthropicSearch},
		{Options{Model: "claude-opus-4.5"}, AnthropicSearch},
		{Options{Model: "claude-opus-4.6-fast"}, AnthropicSearch}, // a prefix match
		{Options{Model: "claude-haiku-4-5"}, VirtualTools},        // Haiku excluded (a test rejects it)
		{Options{Model: "claude-sonnet-4"}, VirtualTools},         // older Claude
		{Options{Model: "claude-3.7-sonnet"}, VirtualTools},       // older Claude
		{Options{Model: "gpt-5.4"}, ResponsesSearch},              // GPT-5.4+
		{Options{Model: "gpt-5.5"}, ResponsesSearch},              // the fixture's other model
		{Options{Model: "gpt-6"}, ResponsesSearch},                // 6.0 ≥ 5.4
		{Options{Model: "gpt-5.3"}, VirtualTools},                 // 5.3 < 5.4
		{Options{Model: "gpt-5"}, VirtualTools},                   // 5.0 < 5.4
		{Options{Model: "gemini-2.5-pro"}, VirtualTools},          // "a separate tool grouping system"
		{Options{Model: "claude-sonnet-4.5", Subagent: true}, VirtualTools},
		{Options{Model: "gpt-5.4", Subagent: true}, VirtualTools},
		{Options{Model: "claude-sonnet-4.5", NoAnthropicSearch: true}, VirtualTools},
		{Options{Model: "gpt-5.4", NoResponsesSearch: true}, VirtualTools},
	} {
		require.Equal(t, c.want, Decide(c.o), "%+v", c.o)
	}
}

// §3.3 step 3, _allocateSlots.
func TestAllocateSlots(t *testing.T) {
	for _, c := range []struct {
		name      string
		sizes     []int
		available int
		want      []int
	}{
		// §4.2: 88 − 51 = 37 slots for 24, 10, 13 tools (47): 1 each, 34
		// left; by share 24 (0.511): round(17.36) = 17, 17 left; 13
		// (0.277): round(4.70) = 5, 12 left; 10 (0.213): round(2.55) = 3,
		// 9 left; round-robin 24, 13, 10 ×3 → 1+17+3, 1+3+3, 1+5+3.
		{"worked example", []int{24, 10, 13}, 37, []int{21, 7, 9}},
		// toolsets ≥ slots: the first `available` get 1, the rest 0.
		{"more toolsets than slots", []int{5, 5, 5}, 2, []int{1, 1, 0}},
		{"as many toolsets as slots", []int{5, 5}, 2, []int{1, 1}},
		{"no slot at all", []int{5}, 0, []int{0}},
		{"negative budget", []int{5}, -3, []int{0}},
		// one toolset: 1 + round(1×36) = 37.
		{"github.json alone", []int{117}, 37, []int{37}},
		// equal shares keep toolset order (stable sort): 10 slots, 3 each:
		// 1 each, 7 left: round(7/3 = 2.33) = 2 (5 left), round(5/3 =
		// 1.67) = 2 (3 left), round(1) = 1 (2 left); round-robin +1, +1.
		{"equal shares", []int{3, 3, 3}, 10, []int{4, 4, 2}},
	} {
		require.Equal(t, c.want, AllocateSlots(c.sizes, c.available), c.name)
	}
}

// §3.3 step 1 and §3.2: grouping from 64 tools in all (tools.length < 64
// → none).
func TestGroupingTrigger(t *testing.T) {
	// 51 built-ins + 12 = 63 < 64: flat.
	s := build(t, catalog(t, 12), Options{})
	require.False(t, s.Layout().Grouping)
	require.Equal(t, 12, len(s.Layout().Entries))
	// 51 + 13 = 64: grouped; 88 − 51 = 37 slots ≥ 13 tools, so all flat
	// anyway ("fits → flat").
	s = build(t, catalog(t, 13), Options{})
	require.True(t, s.Layout().Grouping)
	require.Equal(t, 37, s.Layout().Available)
	require.Equal(t, "fits: every tool flat", s.Layout().Toolsets[0].Outcome)
	require.Equal(t, 0, len(s.Layout().Groups))
	// 0 built-ins: 64 MCP tools group, 63 do not.
	require.False(t, build(t, catalog(t, 63), Options{BuiltinsSet: true}).Layout().Grouping)
	require.True(t, build(t, catalog(t, 64), Options{BuiltinsSet: true}).Layout().Grouping)
}

// §4.2 / §3.6 (PR #328469): 51 built-ins + 24/10/13 → 51 + 34 flat + 3
// activation groups inside the 88 slots.
func TestWorkedExampleFallback(t *testing.T) {
	s := build(t, catalog(t, 24, 10, 13), Options{Embeddings: RegistrationFallback})
	l := s.Layout()
	require.Equal(t, []int{21, 7, 9}, []int{l.Toolsets[0].Slots, l.Toolsets[1].Slots, l.Toolsets[2].Slots})
	// slots − 1 flat each: 20 + 6 + 8 = 34; one group each: 3.
	require.Equal(t, 34, l.count(Flat))
	require.Equal(t, 3, len(l.Groups))
	require.Equal(t, 47-34, l.count(Grouped)) // 4 + 4 + 5
	require.Equal(t, 88, l.Count())           // 51 + 34 + 3
	require.Equal(t, []string{"activate_s0_tools", "activate_s1_tools", "activate_s2_tools"}, groupNames(l))
	// registration order: s0's first 20 flat, t20…t23 behind the stub.
	require.Equal(t, "mcp_s0_t19", l.Entries[19].Name())
	require.Equal(t, "activate_s0_tools", l.Entries[20].Name())
	require.Equal(t, "Contains the tools: mcp_s0_t20, mcp_s0_t21, mcp_s0_t22, mcp_s0_t23", l.Groups[0].Summary)
}

func groupNames(l *Layout) []string {
	var out []string
	for _, g := range l.Groups {
		out = append(out, g.Name)
	}
	return out
}

// §3.6, §4.2 (microsoft/vscode#327424): without embeddings, the 2026-03
// code drops every tool of a toolset on the clustering path.
func TestNoEmbeddingsDrops(t *testing.T) {
	s := build(t, catalog(t, 24, 10, 13), Options{Embeddings: NoEmbeddings})
	l := s.Layout()
	// every toolset got 2 ≤ slots < tools, so all 47 are dropped.
	require.Equal(t, 47, l.count(Dropped))
	require.Equal(t, 51, l.Count())
	p := s.Problems()
	require.Len(t, p, 1)
	require.Equal(t, corpus.Error, p[0].Severity)
	require.Contains(t, p[0].Message, "47 are in no entry")
}

// §3.3 step 4: one slot → one group of every tool; slots ≥ tools → flat.
func TestOneSlotOneGroup(t *testing.T) {
	// 87 built-ins: 88 − 87 = 1 slot for a 5-tool server (87 + 5 ≥ 64).
	s := build(t, catalog(t, 5), Options{Builtins: 87})
	l := s.Layout()
	require.Equal(t, 1, l.Toolsets[0].Slots)
	require.Equal(t, []string{"activate_s0_tools"}, groupNames(l))
	require.Equal(t, 88, l.Count()) // 87 + 1 stub
	// FallbackNames: VS Code's name for a failed description, group_0.
	s = build(t, catalog(t, 5), Options{Builtins: 87, GroupNames: FallbackNames})
	require.Equal(t, []string{"activate_group_0"}, groupNames(s.Layout()))
	// 88 built-ins: 0 slots, the server's 5 tools are dropped.
	s = build(t, catalog(t, 5), Options{Builtins: 88})
	require.Equal(t, 5, s.Layout().count(Dropped))
}

// §3.3 step 6: duplicate group names get _2, _3.
func TestDeduplicate(t *testing.T) {
	s := build(t, catalog(t, 4, 4, 4), Options{Builtins: 85, GroupNames: FallbackNames})
	// 88 − 85 = 3 slots for 3 toolsets → 1 each → three group_0.
	require.Equal(t, []string{"activate_group_0", "activate_group_0_2", "activate_group_0_3"}, groupNames(s.Layout()))
}

// §3.3 step 4: targetClusters = min(slots, ceil(n/4)); groups first, then
// single tools; 117 tools with 37 slots → min(37, 30) = 30 entries.
func TestClusterTarget(t *testing.T) {
	s := build(t, catalog(t, 117), Options{})
	l := s.Layout()
	require.Equal(t, 37, l.Toolsets[0].Slots)
	require.Equal(t, 30, len(l.Entries))
	seenSingle := false
	for _, e := range l.Entries {
		if e.Tool != nil {
			seenSingle = true
		} else {
			require.False(t, seenSingle, "groups come before single tools")
			require.GreaterOrEqual(t, len(e.Group.Tools), MinToolsetSizeToGroup)
		}
	}
	require.Equal(t, 117, l.count(Flat)+l.count(Grouped))
}

// §3.4: the stub: name, wrapper description, no parameters.
func TestStub(t *testing.T) {
	s := build(t, catalog(t, 5), Options{Builtins: 87})
	g := s.Layout().Groups[0]
	want := `{"type":"function","function":{"name":"activate_s0_tools","description":"Call this tool when you need access to a new category of tools. The category of tools is described as follows:\n\nContains the tools: mcp_s0_t00, mcp_s0_t01, mcp_s0_t02, mcp_s0_t03, mcp_s0_t04\n\nBe sure to call this tool if you need a capability related to the above."}}`
	require.Equal(t, want, g.JSON)
	require.NotContains(t, g.JSON, "parameters")
}

// §3.4: expanding a stub and collapsing the least recently used group.
func TestSession(t *testing.T) {
	// 80 built-ins: 88 − 80 = 8 slots for two 40-tool servers: 1 each, 6
	// left; s0 round(0.5×6) = 3 (3 left), s1 round(0.5×3) = 2 (1 left),
	// round-robin s0 +1 → s0 5, s1 3. With the registration fallback: s0 4
	// flat + a group of 36, s1 2 flat + a group of 38.
	s := build(t, catalog(t, 40, 40), Options{Builtins: 80, Embeddings: RegistrationFallback})
	l := s.Layout()
	require.Equal(t, []int{5, 3}, []int{l.Toolsets[0].Slots, l.Toolsets[1].Slots})
	require.Equal(t, 2, len(l.Groups))
	ss := s.NewSession("")
	r := ss.Next(false)
	require.Equal(t, 88, r.Count) // 80 + 4 + 1 + 2 + 1
	out, err := ss.Call("activate_s0_tools")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(out, "Tools activated: mcp_s0_t04, mcp_s0_t05, "), out)
	require.Equal(t, 36, strings.Count(out, ",")+1)
	r = ss.Next(false)
	require.Equal(t, 123, r.Count) // 80 + 4 + 36 + 2 + 1 ≤ 128: nothing collapses
	require.Empty(t, r.Collapsed)
	_, err = ss.Call("activate_nothing")
	require.Error(t, err)
	// turn 2: expand s1 too: 80 + 4 + 36 + 2 + 38 = 160 > 128 → the group
	// used longest ago (s0, turn 1) collapses: 80 + 4 + 1 + 2 + 38 = 125.
	_, err = ss.Call("activate_s1_tools")
	require.NoError(t, err)
	r = ss.Next(false)
	require.Equal(t, []string{"activate_s0_tools"}, r.Collapsed)
	require.Equal(t, 125, r.Count)
	require.Empty(t, r.Error)
	// right after a cache invalidation the target is 96: 125 > 96 → s1
	// collapses too: 80 + 4 + 1 + 2 + 1 = 88.
	r = ss.Next(true)
	require.Equal(t, []string{"activate_s1_tools"}, r.Collapsed)
	require.Equal(t, 88, r.Count)
	// a referenced tool's group is pre-expanded (ensureExpanded).
	require.NoError(t, ss.Expand("activate_s1_tools"))
	require.Equal(t, 125, ss.Next(false).Count)
}

// §3.2: a request over 128 fails (here 130 built-ins alone), unless
// Anthropic tool search is on.
func TestHardLimit(t *testing.T) {
	s := build(t, catalog(t, 3), Options{Builtins: 130})
	res, err := s.Search(context.Background(), search.Query{Text: "x"})
	require.NoError(t, err)
	require.Equal(t, "Tool limit exceeded (130/128)", res.Error)
	// Responses tool search skips grouping: 51 + 100 = 151 > 128.
	s = build(t, catalog(t, 100), Options{Model: "gpt-5.4"})
	p := s.Problems()
	require.Len(t, p, 1)
	require.Contains(t, p[0].Message, "Tool limit exceeded (151/128)")
	// Anthropic: no limit.
	s = build(t, catalog(t, 100), Options{Model: "claude-sonnet-4.5"})
	require.Empty(t, s.Problems())
}

// §3.5: MCP names in VS Code core.
func TestPrefix(t *testing.T) {
	for _, c := range []struct{ label, want string }{
		{"GitHub", "mcp_github_"},                       // basic prefix uses mcp_ + safe lower-case name
		{"my server", "mcp_my_server_"},                 // a space → _
		{"a  //b", "mcp_a_b_"},                          // a run → one _
		{"my.server-x", "mcp_my.server-x_"},             // . and - kept
		{"ünï", "mcp__n__"},                             // non-ASCII runs → _
		{"averyveryverylongname", "mcp_averyveryvery_"}, // 13 = 18 − 4 − 1 characters
	} {
		require.Equal(t, c.want, Prefix(c.label), c.label)
		require.LessOrEqual(t, len(c.want), MaxPrefixLen)
	}
	var g PrefixGenerator
	require.Equal(t, "mcp_github_", g.Generate("github"))
	require.Equal(t, "mcp_github2_", g.Generate("GitHub"))
	require.Equal(t, "mcp_github3_", g.Generate("git hub"[:3]+"hub"))
	require.True(t, ValidFunctionName("mcp_github_list_issues"))
	require.False(t, ValidFunctionName("mcp_my.server_x")) // the '.' fails ^[a-zA-Z0-9_-]+$
}

// §3.1.1: the deferred names, sorted; MCP tools deferred.
func TestDeferredNames(t *testing.T) {
	s := build(t, catalog(t, 2, 2), Options{Model: "claude-opus-4.5"})
	require.Equal(t, AnthropicSearch, s.Layout().Mechanism)
	require.Equal(t, []string{"mcp_s0_t00", "mcp_s0_t01", "mcp_s1_t00", "mcp_s1_t01"}, s.DeferredNames())
	v, ok := s.View("s1/t00")
	require.True(t, ok)
	require.Equal(t, `{"name":"mcp_s1_t00","description":"tool 0 of s1","input_schema":{"type":"object"},"defer_loading":true}`, v.Text)
	require.True(t, s.Layout().Tools[0].Place == Deferred)
	require.Nil(t, build(t, catalog(t, 2), Options{}).DeferredNames())
	// UTF-16 order: U+FF21 (one unit) sorts after U+1F600 (surrogates).
	require.True(t, utf16Less("a\U0001F600", "a\uFF21"))
	// server search: not ranked; client search: the stand-in, limit 5.
	res, err := s.Search(context.Background(), search.Query{Text: "tool"})
	require.NoError(t, err)
	require.Empty(t, res.Hits)
	require.False(t, s.SearchesNothing())
	c := build(t, catalog(t, 8), Options{Model: "claude-opus-4.5", SearchMode: ClientSearch})
	res, err = c.Search(context.Background(), search.Query{Text: "tool"})
	require.NoError(t, err)
	require.Len(t, res.Hits, 5)
	require.Contains(t, strings.Join(res.Notes, " "), "approximate: tool_search ranking")
}

// Virtual tools: no search; flat tools are hits at rank 1, activate_embeddings
// adds 10 on a prompt; grouped tools are no hits.
func TestSearchVirtual(t *testing.T) {
	s := build(t, catalog(t, 117), Options{})
	require.True(t, s.SearchesNothing())
	res, err := s.Search(context.Background(), search.Query{})
	require.NoError(t, err)
	flat := s.Layout().count(Flat)
	require.Len(t, res.Hits, flat)
	res, err = s.Search(context.Background(), search.Query{Text: "tool 42"})
	require.NoError(t, err)
	require.Greater(t, len(res.Hits), flat)
	require.LessOrEqual(t, len(res.Hits), flat+NumEmbedMatchedTools)
	notes := strings.Join(res.Notes, "\n")
	require.Contains(t, notes, "approximate: ")
	require.Contains(t, notes, "approximate: clusters, group names, activate_embeddings, built-ins")
	for _, h := range res.Hits {
		require.Equal(t, 1, h.Rank)
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, c := range []struct {
		opts search.Options
		want string
	}{
		{search.Options{OptBuiltins: "-1"}, "option builtins: must be 0 or more"},
		{search.Options{OptBuiltins: "x"}, `option builtins: "x" is not an integer`},
		{search.Options{OptSearchMode: "cloud"}, `option search-mode: "cloud": want server or client`},
		{search.Options{OptEmbeddings: "bert"}, `option embeddings: "bert": want words, none or registration`},
		{search.Options{OptGroupNames: "llm"}, `option group-names: "llm": want words or fallback`},
		{search.Options{OptModel: " "}, "option model: empty model name"},
	} {
		_, err := ParseOptions(c.opts)
		require.Error(t, err)
		require.Equal(t, c.want, err.Error())
	}
	o, err := ParseOptions(search.Options{OptBuiltins: "0"})
	require.NoError(t, err)
	require.Equal(t, 0, o.builtins())
}

func TestWords(t *testing.T) {
	require.Equal(t, []string{"list", "issue", "repository", "branch", "getme"}, Words("list_issues of the repositories, branches; getme"))
	require.Equal(t, []string{"create", "pull", "request"}, Words("createPullRequest"))
	require.Equal(t, "issue", topWord([]string{"create_issue", "list_issues", "get_me"}))
}

// The lint finding vscode-tool-count (§3.2, §3.3): none while every tool
// is flat, a warning when tools sit behind stubs, an error when tools are
// dropped or the request is over 128.
func TestVSCodeToolCount(t *testing.T) {
	for _, c := range []struct {
		name  string
		sizes []int
		o     Options
		want  string // "" none, else the severity
	}{
		{"63 tools: no grouping", []int{12}, Options{}, ""},              // 51 + 12 = 63 < 64
		{"64 tools, all fit: nothing", []int{13}, Options{}, ""},         // 13 ≤ 37 slots
		{"38 tools, 37 slots: grouped", []int{38}, Options{}, "warning"}, // 37 < 38
		{"no embeddings: dropped", []int{38}, Options{Embeddings: NoEmbeddings}, "error"},
		{"over 128: error", []int{2}, Options{Builtins: 130}, "error"},
		{"tool search: nothing", []int{38}, Options{Model: "claude-sonnet-4.5"}, ""},
		{"GPT-5.4 over 128: error", []int{100}, Options{Model: "gpt-5.4"}, "error"}, // 51 + 100 = 151
	} {
		var got []string
		for _, d := range build(t, catalog(t, c.sizes...), c.o).Problems() {
			if d.Code == CodeToolCount {
				got = append(got, d.Severity.String())
			}
		}
		want := []string(nil)
		if c.want != "" {
			want = []string{c.want}
		}
		require.Equal(t, want, got, c.name)
	}
	// The warning's numbers: 38 tools, 37 slots: min(37, ceil(38/4) = 10)
	// = 10 clusters; every tool is flat or behind a stub.
	p := build(t, catalog(t, 38), Options{}).Problems()
	require.Contains(t, p[0].Message, "89 tools in a request (51 VS Code built-ins, --vscode-builtins, + 38 MCP) ≥ 64")
	require.Contains(t, p[0].Message, "approximate: clusters, group names, built-ins")
}

// §3.5: a '.' kept in the prefix fails the extension's name check.
func TestNameInvalid(t *testing.T) {
	srv, _, err := corpus.ParseCatalog("c.json", []byte(`{"servers":[{"name":"my.files","tools":[{"name":"read","inputSchema":{"type":"object"}}]}]}`))
	require.NoError(t, err)
	p := build(t, &corpus.Catalog{Servers: srv}, Options{}).Problems()
	require.Len(t, p, 1)
	require.Equal(t, CodeNameInvalid, p[0].Code)
	require.Contains(t, p[0].Message, "VS Code names it mcp_my.files_read")
}
