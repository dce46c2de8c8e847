package copilot

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// copilot.md §1.5 (run PERM): each row is a case the spec states.
func TestApprove(t *testing.T) {
	cat := catalog(t, `{"servers":[{"name":"fake","tools":[
	 {"name":"tool_000","description":"d"},
	 {"name":"readonly_tool","description":"d","annotations":{"readOnlyHint":true}},
	 {"name":"destructive_tool","description":"d","annotations":{"destructiveHint":true,"readOnlyHint":false}},
	 {"name":"a.b"},{"name":"a-b"}]},{"name":"other","tools":[{"name":"x"}]}]}`)
	s := New(cat, Options{Model: "gpt-4.1", Offline: true})
	tool := func(server, name string) *corpus.Tool {
		for _, t := range cat.Server(server).Tools {
			if t.Name == name {
				return t
			}
		}
		t.Fatalf("no tool %s/%s", server, name)
		return nil
	}
	rule := func(kind search.RuleKind, text string) search.Rule {
		p, err := s.ParseApprovalRule(kind, text)
		require.NoError(t, err, text)
		return search.Rule{Kind: kind, Text: text, Parsed: p}
	}
	allowServer := rule(search.Allow, "fake")
	allowOne := rule(search.Allow, "fake(tool_000)")
	denyOne := rule(search.DenyRule, "fake(tool_000)")
	for _, tt := range []struct {
		why   string
		tool  *corpus.Tool
		mode  string
		rules []search.Rule
		want  search.Decision
	}{
		{"readOnlyHint runs without a prompt, even in -p with no allow", tool("fake", "readonly_tool"), ModePrompt, nil, search.Run},
		{"other tools need approval: -p refuses", tool("fake", "tool_000"), ModePrompt, nil, search.Deny},
		{"… and an interactive session asks", tool("fake", "tool_000"), ModeDefault, nil, search.Ask},
		{"--allow-tool=fake allows the whole server", tool("fake", "destructive_tool"), ModePrompt, []search.Rule{allowServer}, search.Run},
		{"--allow-tool='fake(tool_000)' allows one raw tool name", tool("fake", "tool_000"), ModePrompt, []search.Rule{allowOne}, search.Run},
		{"… and not another", tool("fake", "destructive_tool"), ModePrompt, []search.Rule{allowOne}, search.Deny},
		{"the server rule is the server's", tool("other", "x"), ModePrompt, []search.Rule{allowServer}, search.Deny},
		{"deny wins over --allow-all-tools", tool("fake", "tool_000"), ModeAllowAll, []search.Rule{denyOne}, search.Deny},
		{"deny wins over an allow", tool("fake", "tool_000"), ModeDefault, []search.Rule{allowServer, denyOne}, search.Deny},
		{"--allow-all-tools runs the rest", tool("fake", "destructive_tool"), ModeAllowAll, []search.Rule{denyOne}, search.Run},
		{"destructiveHint makes no difference", tool("fake", "destructive_tool"), ModeDefault, nil, search.Ask},
		{"a tool the CLI does not send cannot run", tool("fake", "a-b"), ModeAllowAll, nil, search.Deny}, // a.b survives ("." > "-")
	} {
		v := s.Approve(tt.tool, tt.mode, tt.rules)
		assert.Equal(t, tt.want, v.Decision, "%s: %s", tt.why, v.Because)
	}
	for _, bad := range []string{"mcp__fake__x", "trust=fake", "fake*", ""} {
		_, err := s.ParseApprovalRule(search.Allow, bad)
		assert.ErrorIs(t, err, search.ErrNotRuleSyntax, bad)
	}
	_, err := s.ParseApprovalRule(search.Allow, "fake()")
	assert.ErrorContains(t, err, "empty")
}
