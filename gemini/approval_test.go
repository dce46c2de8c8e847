package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// demo is issue 28's five tools in server "demo", plus a server whose
// name the CLI rewrites and a tool named like a built-in.
const approvalDemo = `{"servers":[
 {"name":"demo","tools":[
  {"name":"read_only","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"}},
  {"name":"unannotated","inputSchema":{"type":"object"}},
  {"name":"destructive","annotations":{"destructiveHint":true},"inputSchema":{"type":"object"}},
  {"name":"closed_world","annotations":{"destructiveHint":false,"openWorldHint":false},"inputSchema":{"type":"object"}},
  {"name":"write_file","inputSchema":{"type":"object"}}]},
 {"name":"my srv","tools":[{"name":"t","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"}}]}]}`

func approvalSim(t *testing.T) (*Simulator, *corpus.Catalog) {
	t.Helper()
	srv, _, err := corpus.ParseCatalog("demo.json", []byte(approvalDemo))
	require.NoError(t, err)
	cat := &corpus.Catalog{Servers: srv}
	return New(cat, Config{AllTrusted: true}), cat
}

func rules(t *testing.T, s *Simulator, allow []string, deny ...string) []search.Rule {
	t.Helper()
	var out []search.Rule
	for _, r := range allow {
		p, err := s.ParseApprovalRule(search.Allow, r)
		require.NoError(t, err, r)
		out = append(out, search.Rule{Kind: search.Allow, Text: r, Parsed: p})
	}
	for _, r := range deny {
		p, err := s.ParseApprovalRule(search.DenyRule, r)
		require.NoError(t, err, r)
		out = append(out, search.Rule{Kind: search.DenyRule, Text: r, Parsed: p})
	}
	return out
}

// Each row: the tool's decisions in default, headless, yolo and plan mode
// (gemini.md §5 tiers; the tool named write_file from the real CLI).
func TestApprove(t *testing.T) {
	s, cat := approvalSim(t)
	for _, c := range []struct {
		name  string
		rules []search.Rule
		want  map[string]string // tool → decisions per mode
	}{
		// No rule: interactive asks, headless denies (§5 "MCP tools with no
		// matching rule"), YOLO runs (1.998), Plan mode asks for readOnlyHint
		// (plan.toml priority 50) and denies the rest (40). readOnlyHint
		// does not auto-approve anywhere else (§5 "Annotations").
		{"no rules", nil, map[string]string{
			"demo/read_only":    "ask deny run ask",
			"demo/unannotated":  "ask deny run deny",
			"demo/destructive":  "ask deny run deny",
			"demo/closed_world": "ask deny run deny",
			"demo/write_file":   "ask deny run deny", // headless: shadowed by the denied built-in
			"my srv/t":          "ask deny run ask",
		}},
		// trust (4.2, not in Plan mode): runs where its wildcard mcp_demo_*
		// matches; "my srv"'s rule mcp_my srv_* cannot match mcp_my_srv_t,
		// so headless denies it while interactive skips the prompt anyway.
		{"trust", rules(t, s, []string{"trust=demo", "trust=my srv"}), map[string]string{
			"demo/read_only":   "run run run ask",
			"demo/unannotated": "run run run deny",
			"demo/write_file":  "run deny run deny",
			"my srv/t":         "run deny run ask",
		}},
		// mcp.allowed (4.1): an allow-list, so other servers are not
		// connected at all.
		{"allowed", rules(t, s, []string{"allowed=demo"}), map[string]string{
			"demo/unannotated": "run run run deny",
			"my srv/t":         "deny deny deny deny",
		}},
		{"allowed *", rules(t, s, []string{"allowed=*"}), map[string]string{
			"demo/unannotated": "run run run deny",
			"my srv/t":         "run run run ask", // mcp_* matches every name
		}},
		// tools.exclude (4.4) beats trust (4.2); tools.allowed (4.3) holds
		// in Plan mode too; mcp.excluded (4.9) disconnects the server.
		{"tool rules", rules(t, s, []string{"trust=demo", "mcp_demo_destructive", "mcp_my_srv_*"}, "mcp_demo_unannotated", "excluded=nobody"), map[string]string{
			"demo/unannotated": "deny deny deny deny",
			"demo/destructive": "run run run run",
			"my srv/t":         "run run run run",
		}},
		{"excluded", rules(t, s, []string{"trust=demo"}, "excluded=demo"), map[string]string{
			"demo/read_only": "deny deny deny deny",
		}},
	} {
		for tool, want := range c.want {
			tl := cat.Tool(corpus.ToolID(tool))
			require.NotNil(t, tl, tool)
			var got []string
			for _, m := range []string{ModeDefault, ModeHeadless, ModeYOLO, ModePlan} {
				v := s.Approve(tl, m, c.rules)
				got = append(got, string(v.Decision))
				assert.True(t, v.Parallel)
				assert.NotEmpty(t, v.Because)
			}
			assert.Equal(t, want, joinWords(got), "%s: %s", c.name, tool)
		}
	}
	v := s.Approve(cat.Tool("my srv/t"), ModeHeadless, rules(t, s, []string{"trust=my srv"}))
	assert.Equal(t, "the rule mcp_my srv_* does not match mcp_my_srv_t: a headless run denies it and does not declare it", v.Because)
	v = s.Approve(cat.Tool("demo/write_file"), ModeHeadless, nil)
	assert.Equal(t, "named like the built-in write_file, which this mode denies: Gemini CLI drops the tool", v.Because)
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

func TestParseApprovalRule(t *testing.T) {
	s, _ := approvalSim(t)
	for _, c := range []struct {
		kind search.RuleKind
		text string
		err  string // "" ok; "syntax": not this client's
	}{
		{search.Allow, "trust=demo", ""},
		{search.Allow, "allowed=*", ""},
		{search.DenyRule, "excluded=demo", ""},
		{search.Allow, "mcp_demo_*", ""},
		{search.DenyRule, "mcp_demo_x", ""},
		{search.Allow, "mcp__demo__*", "syntax"}, // Claude Code's
		{search.Allow, "approval_policy=never", "syntax"},
		{search.Allow, "Bash", "syntax"},
		{search.Allow, "excluded=demo", "excluded=SERVER denies: give it with --deny"},
		{search.DenyRule, "trust=demo", "trust=SERVER allows: give it with --allow (excluded=SERVER denies)"},
		{search.Allow, "trust=", "trust= needs a server name"},
		{search.Allow, "trust=*", `trust is set per server ("trust": true); allowed=* allows every server`},
		{search.Allow, "mcp_*_x", "a tool name pattern may end in * (a prefix), nothing else"},
	} {
		_, err := s.ParseApprovalRule(c.kind, c.text)
		switch c.err {
		case "":
			assert.NoError(t, err, c.text)
		case "syntax":
			assert.ErrorIs(t, err, search.ErrNotRuleSyntax, c.text)
		default:
			assert.EqualError(t, err, c.err, c.text)
		}
	}
	assert.Equal(t, "trust=demo", s.AllowServerRule("demo"))
}

func TestApprovalRulesFromConfig(t *testing.T) {
	s, _ := approvalSim(t)
	rs, notes, ok, err := s.ApprovalRulesFromConfig("settings.json", []byte(`{"mcpServers":{"demo":{"command":"x","trust":true},"other":{"command":"y"}},
	 "mcp":{"allowed":["demo","other"],"excluded":["bad"]},"tools":{"allowed":["mcp_demo_x","run_shell_command"],"exclude":["mcp_demo_y"]}}`))
	require.NoError(t, err)
	require.True(t, ok)
	var got []string
	for _, r := range rs {
		got = append(got, r.Kind.String()+" "+r.Text+" ("+r.Source+")")
	}
	assert.Equal(t, []string{
		"allow trust=demo (settings.json: mcpServers.demo.trust)",
		"allow allowed=demo (settings.json: mcp.allowed[0])",
		"allow allowed=other (settings.json: mcp.allowed[1])",
		"deny excluded=bad (settings.json: mcp.excluded[0])",
		"allow mcp_demo_x (settings.json: tools.allowed[0])",
		"deny mcp_demo_y (settings.json: tools.exclude[0])",
	}, got)
	assert.Equal(t, []string{`settings.json: tools.allowed[1] "run_shell_command": built-in tool rules are not simulated; not applied`}, notes)
	// Claude Code's settings.json and other files are not Gemini CLI's
	for _, data := range []string{`{"permissions":{"allow":["mcp__a"]}}`, `{"model":"x"}`, `not json`} {
		_, _, ok, err = s.ApprovalRulesFromConfig("settings.json", []byte(data))
		assert.False(t, ok, data)
		assert.NoError(t, err)
	}
	_, _, ok, err = s.ApprovalRulesFromConfig("settings.json", []byte(`{"mcp":{"allowed":"demo"}}`))
	assert.True(t, ok)
	assert.EqualError(t, err, "settings.json: mcp.allowed: not an array")
}
