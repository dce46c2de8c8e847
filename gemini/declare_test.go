package gemini

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func loadEdge(t *testing.T) *corpus.Catalog {
	t.Helper()
	cat, err := corpus.Load("testdata/edge.json")
	require.NoError(t, err)
	return cat
}

func names(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// testdata/edge.json under --yolo: the order the real Gemini CLI 0.61.0
// sent (checked with the oracle, servers configured in catalog order):
// built-ins, then the MCP tools by server name with localeCompare
// ("a" < "alpha" < "dup" < "edge" < "my server.v2" < "Zeta": case is a
// tie-breaker only), each server's tools in its order, then
// activate_skill. Server "a"'s b_c registers after a_b's c and takes
// mcp_a_b_c; the name keeps the place a_b's tool took first, which sorts
// under server a before a's read_file. dup's second x replaces the first
// in its place. bad has a tool the MCP SDK refuses: no tool of it.
func TestDeclareEdgeYOLO(t *testing.T) {
	d := Declare(loadEdge(t), Config{AllTrusted: true, YOLO: true})
	assert.Equal(t, []string{"update_topic", "list_directory", "read_file", "grep_search", "glob", "replace", "write_file", "web_fetch",
		"run_shell_command", "list_background_processes", "read_background_output", "google_web_search", "write_todos",
		"enter_plan_mode", "invoke_agent", "activate_skill"}, d.BuiltinNames())
	assert.Equal(t, []string{"mcp_a_b_c", "mcp_a_read_file", "mcp_alpha_a", "mcp_dup_x", "mcp_dup_y",
		"mcp_edge_lookup", "mcp_edge_no_props", "mcp_edge_no_description", "mcp_edge_own_wait", "mcp_edge_dup_keys",
		"mcp_edge_a_very_long_tool_name...he_sixty_three_character_limit", "mcp_edge__n_code_slash_tool",
		"mcp_edge_big_text", "mcp_edge_multi", "mcp_edge_fails", "mcp_edge_structured", "mcp_edge_voice",
		"mcp_edge_one_image", "mcp_edge_one_resource", "mcp_my_server.v2_b_c", "mcp_Zeta_z"}, names(d.MCP))
	byID := map[string]*Entry{}
	for _, e := range d.All {
		byID[string(e.Tool.ID())+"#"+e.Tool.Description] = e
	}
	abc := byID["a_b/c#from server a_b"]
	assert.Equal(t, Overwritten, abc.Why)
	assert.Equal(t, "a", abc.Winner.Server)
	assert.Contains(t, d.MCP[0].Text, `"description":"from server a"`)
	first := byID["dup/x#first x"]
	assert.Equal(t, Overwritten, first.Why)
	assert.True(t, byID["dup/x#second x"].Declared)
	for _, n := range []string{"bad/fine#A fine tool.", "bad/broken#Schema of type string."} {
		assert.Equal(t, Refused, byID[n].Why, n)
		assert.Equal(t, `tool "broken", inputSchema.type: inputSchema.type is not "object"`, byID[n].Detail)
	}
	// 16 built-ins + 21 MCP
	assert.Equal(t, 37, d.Count())
	assert.True(t, strings.HasPrefix(d.JSON(), `[{"functionDeclarations":[{"name":"update_topic",`))
	assert.Equal(t, search.UTF16Len(d.JSON()), d.chars)
}

// Headless without YOLO (the oracle's second run): 8 built-ins; every
// server trusted, but my server.v2's rule mcp_my server.v2_* cannot match
// mcp_my_server.v2_b_c, so that tool is denied and not declared.
func TestDeclareEdgeHeadless(t *testing.T) {
	cat := loadEdge(t)
	d := Declare(cat, Config{AllTrusted: true})
	assert.Equal(t, []string{"update_topic", "list_directory", "read_file", "grep_search", "glob", "google_web_search", "enter_plan_mode", "invoke_agent"}, d.BuiltinNames())
	assert.Len(t, d.MCP, 20)
	assert.NotContains(t, names(d.MCP), "mcp_my_server.v2_b_c")
	for _, e := range d.All {
		if e.Tool.Server == "my server.v2" {
			assert.Equal(t, RuleMissesName, e.Why)
		}
	}
	// Only edge trusted: the other servers' tools are denied.
	d = Declare(cat, Config{Trusted: []string{"edge"}})
	assert.Len(t, d.MCP, 14)
	for _, e := range d.All {
		if e.Tool.Server != "edge" && e.Why != Refused && e.Why != Overwritten {
			assert.Equal(t, NoAllowRule, e.Why, e.Tool.ID())
		}
	}
	// With resources the two resource tools join, after glob.
	d = Declare(cat, Config{AllTrusted: true, Resources: true})
	assert.Equal(t, []string{"update_topic", "list_directory", "read_file", "grep_search", "glob", "read_mcp_resource", "list_mcp_resources", "google_web_search", "enter_plan_mode", "invoke_agent"}, d.BuiltinNames())
}

// The instructions block, as the real CLI put it at the end of the first
// user message for this catalog: servers with instructions in order —
// bad's too, although none of its tools is declared.
func TestInstructions(t *testing.T) {
	assert.Equal(t, "<loaded_context>\n<project_context>\n"+
		"The following are instructions provided by the tool server 'edge':\n---[start of server instructions]---\nCall lookup before update.\nNever guess ids.\n---[end of server instructions]---\n\n"+
		"The following are instructions provided by the tool server 'alpha':\n---[start of server instructions]---\nAlpha server.\n---[end of server instructions]---\n\n"+
		"The following are instructions provided by the tool server 'bad':\n---[start of server instructions]---\nBad server instructions.\n---[end of server instructions]---\n"+
		"</project_context>\n</loaded_context>", Instructions(loadEdge(t)))
	assert.Equal(t, "", Instructions(&corpus.Catalog{}))
}

func TestSearch(t *testing.T) {
	sim := New(loadEdge(t), Config{AllTrusted: true})
	r, err := sim.Search(context.Background(), search.Query{Text: "anything"})
	require.NoError(t, err)
	assert.Equal(t, "gemini@0.61.0", r.Client)
	require.Len(t, r.Hits, 20)
	for _, h := range r.Hits {
		assert.Equal(t, 1, h.Rank)
		assert.Equal(t, 1, h.RankWorst)
		assert.Equal(t, 1.0, h.PWithinLimit)
	}
	assert.Equal(t, corpus.ToolID("a/b_c"), r.Hits[0].Tool)
	_, found := r.Find("my server.v2/b_c")
	assert.False(t, found)
	mcp, builtin, total := sim.Declarations().Tokens()
	assert.Equal(t, total, r.ShownTokens)
	assert.Greater(t, mcp, 0)
	assert.Greater(t, builtin, 0)
	// the tools array's chars / 4: MCP and built-in texts, 28 declarations
	// joined by 27 commas, and the 28 characters of [{"functionDeclarations":[ ]}]
	assert.Equal(t, search.UTF16Len(sim.Declarations().JSON())/4, total)
	notes := strings.Join(r.Notes, "\n")
	assert.Contains(t, notes, "every request declares 28 functions: 20 MCP")
	assert.Contains(t, notes, "\nnot declared, so never found: bad/broken, bad/fine (the MCP SDK refuses the server's tools/list answer)\n")
	assert.Contains(t, notes, "\nnot declared, so never found: a_b/c (a tool registered later took the name)\n")
	assert.Contains(t, notes, "\nnot declared, so never found: my server.v2/b_c (the server's allow rule does not match the name)")
	assert.Equal(t, map[string]string{"a_b/c": "overwritten", "bad/broken": "refused", "bad/fine": "refused", "my server.v2/b_c": "rule-misses-name"}, r.Extra["not_declared"])
	// dup/x: its second definition is declared, so the tool is.
	_, found = r.Find("dup/x")
	assert.True(t, found)
	// Brief leaves the texts out.
	b, err := sim.Search(context.Background(), search.Query{Brief: true, Hits: make([]search.Hit, 0, 64)})
	require.NoError(t, err)
	assert.Len(t, b.Hits, 20)
	assert.Nil(t, b.Notes)
	assert.Nil(t, b.Hits[0].Why)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = sim.Search(ctx, search.Query{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestView(t *testing.T) {
	sim := New(loadEdge(t), Config{AllTrusted: true})
	v, ok := sim.View("edge/a_very_long_tool_name_that_goes_well_past_the_sixty_three_character_limit")
	require.True(t, ok)
	assert.Equal(t, "mcp_edge_a_very_long_tool_name...he_sixty_three_character_limit", v.Name)
	assert.Equal(t, `{"name":"mcp_edge_a_very_long_tool_name...he_sixty_three_character_limit","description":"Long name.","parametersJsonSchema":{"type":"object","properties":{"q":{"type":"string"},`+wfp+`}}}`, v.Text)
	assert.Equal(t, search.UTF16Len(v.Text)/4, v.Tokens)
	assert.Contains(t, v.Notes[1], "name shortened to 63 characters")
	_, ok = sim.View("bad/fine")
	assert.False(t, ok)
	_, ok = sim.View("no/such")
	assert.False(t, ok)
	// dup/x is shown as its second (declared) definition
	v, ok = sim.View("dup/x")
	require.True(t, ok)
	assert.Contains(t, v.Text, `"description":"second x"`)
}

// More than 512 declarations: the API refuses every request.
func TestToolLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"server":"many","tools":[`)
	for i := range 505 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"t` + itoa(i) + `","inputSchema":{"type":"object"}}`)
	}
	b.WriteString(`]}`)
	srv, _, err := corpus.ParseCatalog("many.json", []byte(b.String()))
	require.NoError(t, err)
	cat := &corpus.Catalog{Servers: srv}
	// 505 MCP + 8 built-ins = 513 > 512
	sim := New(cat, Config{AllTrusted: true})
	assert.Equal(t, 513, sim.Declarations().Count())
	var limit []corpus.Diagnostic
	for _, d := range sim.Problems() {
		if d.Code == CodeToolLimit {
			limit = append(limit, d)
		}
	}
	require.Len(t, limit, 1)
	assert.Equal(t, corpus.Error, limit[0].Severity)
	assert.Equal(t, "513 function declarations (505 MCP + 8 built-in): the Gemini API refuses more than 512 in one request (400 INVALID_ARGUMENT) and Gemini CLI sends them all, so every model request fails; keep the MCP tools at 504 or fewer, or exclude some with excludeTools / includeTools", limit[0].Message)
	r, _ := sim.Search(context.Background(), search.Query{})
	assert.Contains(t, strings.Join(r.Notes, "\n"), "every request declares 513 functions: 505 MCP")
	assert.Contains(t, strings.Join(r.Notes, "\n"), "; the Gemini API refuses more than 512, so every request fails")
	// 504 + 8 = 512: accepted
	cat.Servers[0].Tools = cat.Servers[0].Tools[:504]
	sim = New(cat, Config{AllTrusted: true})
	for _, d := range sim.Problems() {
		assert.NotEqual(t, CodeToolLimit, d.Code)
	}
}

// An MCP tool whose name without the server prefix is a built-in the run
// denies is dropped (checked with the real 0.61.0 for every built-in
// name): ten in a headless run, ask_user alone under YOLO; other
// built-in names (read_file, glob, …) are declared.
func TestShadowed(t *testing.T) {
	var tools []string
	for _, n := range []string{"write_file", "replace", "run_shell_command", "web_fetch", "write_todos", "activate_skill",
		"ask_user", "exit_plan_mode", "list_background_processes", "read_background_output", "read_file", "glob", "search_file_content"} {
		tools = append(tools, `{"name":"`+n+`","inputSchema":{"type":"object"}}`)
	}
	srv, _, err := corpus.ParseCatalog("s.json", []byte(`{"server":"s","tools":[`+strings.Join(tools, ",")+`]}`))
	require.NoError(t, err)
	cat := &corpus.Catalog{Servers: srv}
	d := Declare(cat, Config{AllTrusted: true})
	assert.Equal(t, []string{"mcp_s_read_file", "mcp_s_glob", "mcp_s_search_file_content"}, names(d.MCP))
	assert.Equal(t, Shadowed, d.All[0].Why)
	assert.Equal(t, "write_file", d.All[0].Detail)
	d = Declare(cat, Config{YOLO: true})
	assert.Len(t, d.MCP, 12)
	assert.NotContains(t, names(d.MCP), "mcp_s_ask_user")
	// the short name is the name without validName(server + "_"): a
	// server with a replaced character still shadows
	assert.Equal(t, "write_file", shortName("my srv", "mcp_my_srv_write_file"))
	assert.Equal(t, "mcp_s_x", shortName("other", "mcp_s_x")[len("mcp_other_"):])
	sim := New(cat, Config{AllTrusted: true})
	var got []string
	for _, p := range sim.Problems() {
		if p.Code == CodeShadowed {
			got = append(got, p.Tool)
		}
	}
	assert.Len(t, got, 10)
}

// Only the first tools/list page is read (§1 "Pagination": p0, p1 and a
// nextCursor, then p2: the model saw mcp_paged_p0 and mcp_paged_p1); a
// tool the SDK would refuse on a later page changes nothing.
func TestFirstPageOnly(t *testing.T) {
	srv, _, err := corpus.ParseCatalog("paged.json", []byte(`{"server":"paged","x_first_page":2,"tools":[
	 {"name":"p0","inputSchema":{"type":"object"}},{"name":"p1","inputSchema":{"type":"object"}},
	 {"name":"p2","inputSchema":{"type":"object"}},{"name":"bad","inputSchema":{"type":"string"}}]}`))
	require.NoError(t, err)
	require.Equal(t, 2, srv[0].FirstPage)
	sim := New(&corpus.Catalog{Servers: srv}, Config{AllTrusted: true})
	assert.Equal(t, []string{"mcp_paged_p0", "mcp_paged_p1"}, names(sim.Declarations().MCP))
	assert.Equal(t, LaterPage, sim.Declarations().All[2].Why)
	assert.Equal(t, LaterPage, sim.Declarations().All[3].Why)
	n := 0
	for _, p := range sim.Problems() {
		if p.Code == CodeLaterPage {
			n++
		}
	}
	assert.Equal(t, 2, n)
	_, _, err = corpus.ParseCatalog("paged.json", []byte(`{"server":"paged","x_first_page":"2","tools":[]}`))
	assert.EqualError(t, err, "paged.json: x_first_page: must be a whole number ≥ 0 (the tools on the first tools/list page)")
}
