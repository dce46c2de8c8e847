package claude

import (
	"errors"
	"fmt"

	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// approvalDemo is the seed's five-tool demo server ("Notes on MCP Design",
// section "Annotations"): one tool per annotation row of its table. The
// same catalog is cmd/toolfind/testdata/approvals/demo.json.
const approvalDemo = `{"server": "demo", "tools": [
 {"name": "read_only", "description": "Reads one record.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
 {"name": "unannotated", "description": "Changes one record.", "inputSchema": {"type": "object"}},
 {"name": "destructive", "description": "Removes one record.", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
 {"name": "closed_world", "description": "Changes one local record.", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false, "openWorldHint": false}},
 {"name": "needs_user", "description": "Asks the user to confirm a record.", "inputSchema": {"type": "object"}, "_meta": {"anthropic/requiresUserInteraction": true}}
]}`

// decisions returns the simulator's decisions for every tool of the
// catalog in the five measured modes, one line per tool.
func decisions(t *testing.T, s *Simulator, cat *corpus.Catalog, rules []search.Rule) []string {
	t.Helper()
	var out []string
	for _, tool := range cat.Servers[0].Tools {
		var cells []string
		for _, m := range []string{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk} {
			cells = append(cells, string(s.Approve(tool, m, rules).Decision))
		}
		out = append(out, tool.Name+": "+strings.Join(cells, " "))
	}
	return out
}

func parsed(t *testing.T, s *Simulator, kind search.RuleKind, texts ...string) []search.Rule {
	t.Helper()
	var rules []search.Rule
	for _, text := range texts {
		p, err := s.ParseApprovalRule(kind, text)
		if err != nil {
			t.Fatalf("rule %q: %v", text, err)
		}
		rules = append(rules, search.Rule{Kind: kind, Text: text, Parsed: p})
	}
	return rules
}

// TestApprovalSeedTable reproduces all 50 cells of the seed's measured
// table (Claude Code 2.1.283; modes default, acceptEdits, plan,
// bypassPermissions, dontAsk), with and without the allow rule
// mcp__demo__*.
func TestApprovalSeedTable(t *testing.T) {
	cat := catalogOf(t, approvalDemo)
	for _, prof := range []Profile{V2_1_283, V2_1_332} {
		s := New(cat, prof, DefaultOptions())
		// "With an allow rule for mcp__demo__*"
		with := decisions(t, s, cat, parsed(t, s, search.Allow, "mcp__demo__*"))
		wantWith := []string{
			"read_only: run run run run run",
			"unannotated: run run ask run run",
			"destructive: run run ask run run",
			"closed_world: run run ask run run",
			"needs_user: ask ask ask ask deny",
		}
		// "Without an allow rule"
		without := decisions(t, s, cat, nil)
		wantWithout := []string{
			"read_only: ask ask ask run deny",
			"unannotated: ask ask ask run deny",
			"destructive: ask ask ask run deny",
			"closed_world: ask ask ask run deny",
			"needs_user: ask ask ask ask deny",
		}
		for i := range wantWith {
			if with[i] != wantWith[i] {
				t.Errorf("%s with mcp__demo__*: %s, want %s", prof.Version, with[i], wantWith[i])
			}
			if without[i] != wantWithout[i] {
				t.Errorf("%s without a rule: %s, want %s", prof.Version, without[i], wantWithout[i])
			}
		}
	}
}

// TestApprovalRuleShapes: every rule shape Claude Code documents for MCP
// tools covers the tools it names, and the equivalent shapes decide alike.
func TestApprovalRuleShapes(t *testing.T) {
	cat := catalogOf(t, approvalDemo)
	s := New(cat, V2_1_332, DefaultOptions())
	unannotated := cat.Servers[0].Tools[1]
	for _, tc := range []struct {
		kind search.RuleKind
		rule string
		want search.Decision // default mode, the unannotated tool
		why  string
	}{
		{search.Allow, "mcp__demo", search.Run, `allow rule "mcp__demo" matches`},
		{search.Allow, "mcp__demo__*", search.Run, `allow rule "mcp__demo__*" matches`},
		{search.Allow, "mcp__demo__unannotated", search.Run, `allow rule "mcp__demo__unannotated" matches`},
		{search.Allow, "mcp__demo__read_only", search.Ask, "no allow rule matches (no annotation lets a call run without asking)"},
		{search.Allow, "mcp__other", search.Ask, "no allow rule matches (no annotation lets a call run without asking)"},
		{search.Allow, "mcp__dem", search.Ask, "no allow rule matches (no annotation lets a call run without asking)"},
		{search.DenyRule, "mcp__demo", search.Deny, `deny rule "mcp__demo" matches`},
		{search.DenyRule, "mcp__demo__unannotated", search.Deny, `deny rule "mcp__demo__unannotated" matches`},
	} {
		v := s.Approve(unannotated, ModeDefault, parsed(t, s, tc.kind, tc.rule))
		if v.Decision != tc.want || v.Because != tc.why {
			t.Errorf("%s %s: %s (%s), want %s (%s)", tc.kind, tc.rule, v.Decision, v.Because, tc.want, tc.why)
		}
	}
}

// TestApprovalDenyWins: a deny rule wins over an allow rule and over
// every mode, bypassPermissions included, and over requiresUserInteraction
// (Claude Code's documented precedence; not in the seed's table).
func TestApprovalDenyWins(t *testing.T) {
	cat := catalogOf(t, approvalDemo)
	s := New(cat, V2_1_332, DefaultOptions())
	rules := append(parsed(t, s, search.Allow, "mcp__demo__*"), parsed(t, s, search.DenyRule, "mcp__demo")...)
	got := decisions(t, s, cat, rules)
	for _, line := range got {
		if !strings.HasSuffix(line, ": deny deny deny deny deny") {
			t.Errorf("%s, want deny in every mode", line)
		}
	}
}

// TestApprovalParallel: read-only tools run at the same time, every other
// tool alone (seed: the three-call timelines), in every mode.
func TestApprovalParallel(t *testing.T) {
	cat := catalogOf(t, approvalDemo)
	s := New(cat, V2_1_332, DefaultOptions())
	want := map[string]bool{"read_only": true, "unannotated": false, "destructive": false, "closed_world": false, "needs_user": false}
	for _, tool := range cat.Servers[0].Tools {
		for _, m := range approvalModes[:5] {
			if v := s.Approve(tool, m.Name, nil); v.Parallel != want[tool.Name] || v.ParallelBecause == "" {
				t.Errorf("%s in %s: parallel %v (%q), want %v", tool.Name, m.Name, v.Parallel, v.ParallelBecause, want[tool.Name])
			}
		}
	}
}

func TestApprovalBecause(t *testing.T) {
	cat := catalogOf(t, approvalDemo)
	s := New(cat, V2_1_332, DefaultOptions())
	allow := parsed(t, s, search.Allow, "mcp__demo__*")
	tools := cat.Servers[0].Tools
	for _, tc := range []struct {
		tool  int
		mode  string
		rules []search.Rule
		want  string
	}{
		{0, ModePlan, allow, `plan mode: readOnlyHint is true and allow rule "mcp__demo__*" matches`},
		{0, ModePlan, nil, "plan mode: readOnlyHint is true, but no allow rule matches"},
		{1, ModePlan, allow, `plan mode asks for every tool without readOnlyHint: true, even though allow rule "mcp__demo__*" matches`},
		{1, ModePlan, nil, "plan mode asks for every tool without readOnlyHint: true"},
		{1, ModeBypass, nil, "bypassPermissions runs every call without asking"},
		{1, ModeDontAsk, nil, "no allow rule matches, and dontAsk refuses instead of asking (annotations do not change this)"},
		{4, ModeBypass, allow, "_meta anthropic/requiresUserInteraction is true: every call asks, whatever the rules and the mode"},
		{4, ModeDontAsk, allow, "_meta anthropic/requiresUserInteraction is true: every call needs the user, and dontAsk refuses instead of asking"},
	} {
		if got := s.Approve(tools[tc.tool], tc.mode, tc.rules).Because; got != tc.want {
			t.Errorf("%s in %s: because %q, want %q", tools[tc.tool].Name, tc.mode, got, tc.want)
		}
	}
}

// TestApprovalSanitisedNames: rules match the names the model sees, after
// Claude Code replaces characters outside [A-Za-z0-9_-] with _.
func TestApprovalSanitisedNames(t *testing.T) {
	cat := catalogOf(t, `{"server": "my.server", "tools": [{"name": "get.item", "inputSchema": {"type": "object"}}]}`)
	s := New(cat, V2_1_332, DefaultOptions())
	tool := cat.Servers[0].Tools[0]
	for rule, want := range map[string]search.Decision{
		"mcp__my_server":              search.Run,
		"mcp__my_server__*":           search.Run,
		"mcp__my_server__get_item":    search.Run,
		"mcp__my_server__get_other":   search.Ask,
		"mcp__my__server__get_item":   search.Ask,
		"mcp__my_server_x__get_item_": search.Ask,
	} {
		if v := s.Approve(tool, ModeDefault, parsed(t, s, search.Allow, rule)); v.Decision != want {
			t.Errorf("%s: %s (%s), want %s", rule, v.Decision, v.Because, want)
		}
	}
}

// TestApprovalNotOffered: a tool Claude Code drops cannot be called.
func TestApprovalNotOffered(t *testing.T) {
	cat := catalogOf(t, `{"server": "demo", "tools": [{"name": "hidden", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}}]}`)
	s := New(cat, V2_1_332, DefaultOptions())
	v := s.Approve(cat.Servers[0].Tools[0], ModeBypass, nil)
	if v.Decision != search.Deny || !strings.Contains(v.Because, "does not offer") {
		t.Errorf("hidden tool: %s (%s), want deny: not offered", v.Decision, v.Because)
	}
}

func TestParseApprovalRuleErrors(t *testing.T) {
	s := New(catalogOf(t, approvalDemo), V2_1_332, DefaultOptions())
	for _, tc := range []struct {
		rule      string
		notSyntax bool
		want      string
	}{
		{"Bash(ls)", true, `"Bash(ls)" does not start with mcp__: not a rule in this client's syntax`},
		{"fake(tool_000)", true, `"fake(tool_000)" does not start with mcp__: not a rule in this client's syntax`},
		{"approval_policy=never", true, `"approval_policy=never" does not start with mcp__: not a rule in this client's syntax`},
		{"mcp__*", false, `"mcp__*": Claude Code matches an MCP rule by a whole server (mcp__SERVER or mcp__SERVER__*) or by one exact tool name, not by other wildcards`},
		{"mcp__demo__read_*", false, `"mcp__demo__read_*": Claude Code matches an MCP rule by a whole server (mcp__SERVER or mcp__SERVER__*) or by one exact tool name, not by other wildcards`},
		{"mcp__demo__x(arg)", false, `"mcp__demo__x(arg)": Claude Code does not read MCP rules with parentheses; write mcp__SERVER or mcp__SERVER__TOOL`},
		{"mcp__", false, `"mcp__": not an MCP tool or server name (Claude Code names use A-Z, a-z, 0-9, _ and -, as mcp__SERVER__TOOL)`},
		{"mcp__my.server", false, `"mcp__my.server": not an MCP tool or server name (Claude Code names use A-Z, a-z, 0-9, _ and -, as mcp__SERVER__TOOL)`},
		{"mcp__a b__*", false, `"mcp__a b__*": server "a b" has characters no MCP tool name has (Claude Code names use A-Z, a-z, 0-9, _ and -)`},
	} {
		_, err := s.ParseApprovalRule(search.Allow, tc.rule)
		if err == nil || err.Error() != tc.want || errors.Is(err, search.ErrNotRuleSyntax) != tc.notSyntax {
			t.Errorf("%q: err %v, want %s (not syntax: %v)", tc.rule, err, tc.want, tc.notSyntax)
		}
	}
}

func TestApprovalInfoProfiles(t *testing.T) {
	cat := catalogOf(t, approvalDemo)
	for _, tc := range []struct {
		prof         Profile
		notSimulated bool
		notes        int
	}{
		{V2_1_283, false, 0}, // measured
		{V2_1_332, false, 1}, // assumed unchanged, noted
		{V2_1_88, true, 0},   // older than the measurement
	} {
		info := New(cat, tc.prof, DefaultOptions()).ApprovalInfo()
		if (info.NotSimulated != "") != tc.notSimulated || len(info.Notes) != tc.notes {
			t.Errorf("%s: not simulated %q, notes %q", tc.prof.Version, info.NotSimulated, info.Notes)
		}
		if !tc.notSimulated && info.DefaultMode() != ModeDefault {
			t.Errorf("%s: default mode %q", tc.prof.Version, info.DefaultMode())
		}
	}
	// auto is listed, never decided.
	last := approvalModes[len(approvalModes)-1]
	if last.Name != ModeAuto || last.NotSimulated == "" {
		t.Errorf("last mode %+v, want auto, not simulated", last)
	}
}

func FuzzParseApprovalRule(f *testing.F) {
	for _, s := range []string{"mcp__demo__*", "mcp__demo", "mcp__demo__x", "mcp__*", "Bash(ls)", "mcp__a__b__c", "mcp__ä", ""} {
		f.Add(s)
	}
	sim := New(&corpus.Catalog{}, V2_1_332, DefaultOptions())
	f.Fuzz(func(t *testing.T, text string) {
		p, err := sim.ParseApprovalRule(search.Allow, text)
		if err != nil {
			if p != nil && p != (permRule{}) {
				t.Fatalf("%q: error %v with a rule %v", text, err, p)
			}
			return
		}
		r := p.(permRule)
		if r.server == "" || strings.Contains(r.server, "*") || !validWire(r.server) {
			t.Fatalf("%q parsed to %+v", text, r)
		}
	})
}

func ExampleSimulator_Approve() {
	servers, _, _ := corpus.ParseCatalog("demo.json", []byte(approvalDemo))
	cat := &corpus.Catalog{}
	_ = cat.Add(servers...)
	s := New(cat, V2_1_332, DefaultOptions())
	p, _ := s.ParseApprovalRule(search.Allow, "mcp__demo__*")
	rules := []search.Rule{{Kind: search.Allow, Text: "mcp__demo__*", Parsed: p}}
	for _, m := range []string{ModeDefault, ModePlan} {
		v := s.Approve(cat.Servers[0].Tools[1], m, rules)
		fmt.Printf("%s: %s, parallel %v: %s\n", m, v.Decision, v.Parallel, v.Because)
	}
	// Output:
	// default: run, parallel false: allow rule "mcp__demo__*" matches
	// plan: ask, parallel false: plan mode asks for every tool without readOnlyHint: true, even though allow rule "mcp__demo__*" matches
}

func TestApprovalRulesFromConfig(t *testing.T) {
	s := New(catalogOf(t, approvalDemo), V2_1_332, DefaultOptions())
	for _, tc := range []struct {
		name, data string
		ok         bool
		rules      []string // "kind source text"
		notes      []string
		err        string
	}{
		{name: "config.toml", data: "approval_policy = \"never\"\n", ok: false},
		{name: "settings.json", data: `{"env": {}}`, ok: false}, // no permissions: not read
		{name: "settings.json", data: `{"permissions": {"allow": ["Bash(ls)", "mcp__demo__*"], "deny": ["mcp__demo__destructive"], "ask": ["mcp__demo__x"]}}`, ok: true,
			rules: []string{
				"allow settings.json: permissions.allow[1] mcp__demo__*",
				"deny settings.json: permissions.deny[0] mcp__demo__destructive",
			},
			notes: []string{
				`settings.json: permissions.ask[0] "mcp__demo__x": ask rules are not simulated; not applied`,
				"settings.json: 1 rule for Claude Code's own tools (not MCP tools) not read",
			}},
		{name: "settings.json", data: `{"permissions": []}`, ok: true, err: "settings.json: permissions: not an object"},
		{name: "settings.json", data: `{"permissions": {"allow": "mcp__demo"}}`, ok: true, err: "settings.json: permissions.allow: not an array of strings"},
	} {
		rules, notes, ok, err := s.ApprovalRulesFromConfig(tc.name, []byte(tc.data))
		if ok != tc.ok || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%s %s: ok %v, err %v; want ok %v, err %q", tc.name, tc.data, ok, err, tc.ok, tc.err)
			continue
		}
		var got []string
		for _, r := range rules {
			got = append(got, r.Kind.String()+" "+r.Source+" "+r.Text)
		}
		if strings.Join(got, "\n") != strings.Join(tc.rules, "\n") || strings.Join(notes, "\n") != strings.Join(tc.notes, "\n") {
			t.Errorf("%s: rules %q notes %q\nwant %q %q", tc.data, got, notes, tc.rules, tc.notes)
		}
	}
}

func FuzzApprovalRulesFromConfig(f *testing.F) {
	f.Add([]byte(`{"permissions": {"allow": ["mcp__demo__*"], "deny": ["mcp__x"]}}`))
	f.Add([]byte(`{"permissions": null}`))
	f.Add([]byte(`[]`))
	sim := New(&corpus.Catalog{}, V2_1_332, DefaultOptions())
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, _, ok, err := sim.ApprovalRulesFromConfig("settings.json", data)
		if !ok && (err != nil || len(rules) > 0) {
			t.Fatalf("not a settings file, yet rules %v or error %v", rules, err)
		}
		for _, r := range rules {
			if !strings.HasPrefix(strings.TrimSpace(r.Text), "mcp__") || r.Source == "" {
				t.Fatalf("rule %+v", r)
			}
		}
	})
}
