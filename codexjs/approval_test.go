package codexjs

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// approvalDemo is the seed's five-tool demo server ("Notes on MCP Design",
// section "Annotations"), as cmd/toolfind/testdata/approvals/demo.json.
const approvalDemo = `{"server": "demo", "tools": [
 {"name": "read_only", "description": "Reads one record.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
 {"name": "unannotated", "description": "Changes one record.", "inputSchema": {"type": "object"}},
 {"name": "destructive", "description": "Removes one record.", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
 {"name": "closed_world", "description": "Changes one local record.", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false, "openWorldHint": false}},
 {"name": "needs_user", "description": "Asks the user to confirm a record.", "inputSchema": {"type": "object"}, "_meta": {"anthropic/requiresUserInteraction": true}}
]}`

func approvalCatalog(t testing.TB, js string) *corpus.Catalog {
	t.Helper()
	servers, diags, err := corpus.ParseCatalog("demo.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	cat := &corpus.Catalog{Diagnostics: diags}
	if err := cat.Add(servers...); err != nil {
		t.Fatal(err)
	}
	return cat
}

// approvers returns both Codex simulators over cat: they must decide alike.
func approvers(t testing.TB, cat *corpus.Catalog) []search.Approver {
	t.Helper()
	m, err := NewCodeMode(cat, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewToolSearch(cat, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return []search.Approver{m, s}
}

func settings(t testing.TB, a search.Approver, texts ...string) []search.Rule {
	t.Helper()
	var rules []search.Rule
	for _, text := range texts {
		p, err := a.ParseApprovalRule(search.Allow, text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		rules = append(rules, search.Rule{Kind: search.Allow, Text: text, Parsed: p})
	}
	return rules
}

// row is one tool's decisions in the modes auto, prompt, writes, approve.
func row(a search.Approver, tool *corpus.Tool, rules []search.Rule) string {
	var cells []string
	for _, m := range codexApprovalModes {
		cells = append(cells, string(a.Approve(tool, m.Name, rules).Decision))
	}
	return tool.Name + ": " + strings.Join(cells, " ")
}

// TestApprovalModes: §6.1 per mode, on the seed's five tools. auto:
//
//	read_only     readOnlyHint true, destructive missing       → run
//	unannotated   destructive and open-world missing (= true)  → ask
//	destructive   destructiveHint true                         → ask
//	closed_world  destructive false and open-world false       → run
//	needs_user    no annotations (Codex ignores _meta)         → ask
//
// prompt asks for all, writes runs only read_only, approve runs all.
func TestApprovalModes(t *testing.T) {
	cat := approvalCatalog(t, approvalDemo)
	want := []string{
		"read_only: run ask run run",
		"unannotated: ask ask ask run",
		"destructive: ask ask ask run",
		"closed_world: run ask ask run",
		"needs_user: ask ask ask run",
	}
	for _, a := range approvers(t, cat) {
		for i, tool := range cat.Servers[0].Tools {
			if got := row(a, tool, nil); got != want[i] {
				t.Errorf("%T: %s, want %s", a, got, want[i])
			}
		}
	}
}

// TestApprovalAutoRule walks every combination of the three hints in
// auto mode (§6.1): destructive true → ask; else read-only true → run;
// else run only when destructive and open-world are both false; a
// missing destructive or open-world hint counts as true.
func TestApprovalAutoRule(t *testing.T) {
	vals := []*bool{nil, new(false), new(true)}
	name := func(b *bool) string {
		if b == nil {
			return "-"
		}
		return fmt.Sprint(*b)
	}
	for _, ro := range vals {
		for _, de := range vals {
			for _, ow := range vals {
				ann := corpus.Annotations{ReadOnlyHint: ro, DestructiveHint: de, OpenWorldHint: ow}
				needs, why := needsApproval(ApprovalAuto, ann)
				want := true
				switch {
				case de != nil && *de:
				case ro != nil && *ro:
					want = false
				case de != nil && !*de && ow != nil && !*ow:
					want = false
				}
				if needs != want || why == "" {
					t.Errorf("readOnly %s destructive %s openWorld %s: needs %v (%s), want %v", name(ro), name(de), name(ow), needs, why, want)
				}
			}
		}
	}
}

func TestApprovalBecause(t *testing.T) {
	cat := approvalCatalog(t, approvalDemo)
	a := approvers(t, cat)[0]
	tools := cat.Servers[0].Tools
	for _, tc := range []struct {
		tool     int
		mode     string
		settings []string
		want     search.Verdict
	}{
		{0, ApprovalAuto, nil, search.Verdict{Decision: search.Run, Parallel: true,
			Because:         "readOnlyHint is true, so Codex runs it without asking",
			ParallelBecause: "readOnlyHint is true: Codex may run it alongside other calls"}},
		{1, ApprovalAuto, nil, search.Verdict{Decision: search.Ask,
			Because:         "destructiveHint is missing (counts as true) and openWorldHint is missing (counts as true), so Codex asks",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		{2, ApprovalAuto, []string{"mcp_servers.demo.supports_parallel_tool_calls=true"}, search.Verdict{Decision: search.Ask, Parallel: true,
			Because:         "destructiveHint is true, so Codex asks",
			ParallelBecause: "mcp_servers.demo.supports_parallel_tool_calls=true: Codex may run the server's tools alongside other calls"}},
		{3, ApprovalAuto, nil, search.Verdict{Decision: search.Run,
			Because:         "destructiveHint and openWorldHint are both false, so Codex runs it without asking",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		// approval_policy never (§6.1 "Skipping the prompt"; seed).
		{2, ApprovalAuto, []string{"approval_policy=never"}, search.Verdict{Decision: search.Deny,
			Because:         "destructiveHint is true, and under approval_policy never with sandbox_mode read-only (the default) Codex refuses it instead of asking",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		{2, ApprovalAuto, []string{"approval_policy=never", `sandbox_mode="workspace-write"`}, search.Verdict{Decision: search.Deny,
			Because:         "destructiveHint is true, and under approval_policy never with sandbox_mode workspace-write Codex refuses it instead of asking",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		{2, ApprovalAuto, []string{"approval_policy=never", "sandbox_mode=danger-full-access"}, search.Verdict{Decision: search.Run,
			Because:         "destructiveHint is true, but under approval_policy never with sandbox_mode danger-full-access Codex skips the prompt and runs it",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		{2, ApprovalAuto, []string{"sandbox_mode=danger-full-access"}, search.Verdict{Decision: search.Ask,
			Because:         "destructiveHint is true, so Codex asks",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		// A tool's own mode overrides its server's, which overrides the column.
		{1, ApprovalPrompt, []string{"mcp_servers.demo.default_tools_approval_mode=writes", "mcp_servers.demo.tools.unannotated.approval_mode=approve"},
			search.Verdict{Decision: search.Run,
				Because:         "mcp_servers.demo.tools.unannotated.approval_mode=approve sets approval_mode approve: approval_mode approve needs no approval, so Codex runs it without asking",
				ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		{0, ApprovalPrompt, []string{"mcp_servers.demo.default_tools_approval_mode=writes"}, search.Verdict{Decision: search.Run, Parallel: true,
			Because:         "mcp_servers.demo.default_tools_approval_mode=writes sets approval_mode writes: readOnlyHint is true, so Codex runs it without asking",
			ParallelBecause: "readOnlyHint is true: Codex may run it alongside other calls"}},
		// approve never asks, even under approval_policy never.
		{2, ApprovalApprove, []string{"approval_policy=never"}, search.Verdict{Decision: search.Run,
			Because:         "approval_mode approve needs no approval, so Codex runs it without asking",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
		// Later settings override earlier ones.
		{2, ApprovalAuto, []string{"approval_policy=never", "approval_policy=on-request"}, search.Verdict{Decision: search.Ask,
			Because:         "destructiveHint is true, so Codex asks",
			ParallelBecause: "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"}},
	} {
		got := a.Approve(tools[tc.tool], tc.mode, settings(t, a, tc.settings...))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s in %s with %q:\n got %+v\nwant %+v", tools[tc.tool].Name, tc.mode, tc.settings, got, tc.want)
		}
	}
}

// TestApprovalParallel (§6.2): read-only tools, or every tool of a server
// that sets supports_parallel_tool_calls.
func TestApprovalParallel(t *testing.T) {
	cat := approvalCatalog(t, approvalDemo)
	for _, a := range approvers(t, cat) {
		on := settings(t, a, "mcp_servers.demo.supports_parallel_tool_calls=true")
		off := settings(t, a, "mcp_servers.demo.supports_parallel_tool_calls=false")
		other := settings(t, a, "mcp_servers.other.supports_parallel_tool_calls=true")
		for _, tool := range cat.Servers[0].Tools {
			ro := tool.Name == "read_only"
			for _, tc := range []struct {
				rules []search.Rule
				want  bool
			}{{nil, ro}, {on, true}, {off, ro}, {other, ro}} {
				if got := a.Approve(tool, ApprovalAuto, tc.rules).Parallel; got != tc.want {
					t.Errorf("%T %s: parallel %v, want %v", a, tool.Name, got, tc.want)
				}
			}
		}
	}
}

func TestApprovalQuotedKeys(t *testing.T) {
	cat := approvalCatalog(t, `{"server": "my.server", "tools": [{"name": "get.item", "inputSchema": {"type": "object"}}]}`)
	a := approvers(t, cat)[0]
	tool := cat.Servers[0].Tools[0]
	for _, s := range []string{
		`mcp_servers."my.server".tools."get.item".approval_mode = "approve"`,
		`mcp_servers.'my.server'.default_tools_approval_mode='approve'`,
	} {
		if v := a.Approve(tool, ApprovalAuto, settings(t, a, s)); v.Decision != search.Run {
			t.Errorf("%s: %s (%s), want run", s, v.Decision, v.Because)
		}
	}
	// Unquoted, the dots split the name: server "my" matches nothing.
	if v := a.Approve(tool, ApprovalAuto, settings(t, a, "mcp_servers.my.default_tools_approval_mode=approve")); v.Decision != search.Ask {
		t.Errorf("unquoted dotted name: %s, want ask", v.Decision)
	}
}

func TestApprovalNotOffered(t *testing.T) {
	cat := approvalCatalog(t, `{"server": "demo", "tools": [{"name": "hidden", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}}]}`)
	for _, a := range approvers(t, cat) {
		v := a.Approve(cat.Servers[0].Tools[0], ApprovalApprove, nil)
		if v.Decision != search.Deny || !strings.Contains(v.Because, "does not offer") {
			t.Errorf("%T: %s (%s), want deny: not offered", a, v.Decision, v.Because)
		}
	}
}

func TestParseSettingErrors(t *testing.T) {
	for _, tc := range []struct {
		kind      search.RuleKind
		text      string
		notSyntax bool
		want      string
	}{
		{search.Allow, "mcp__demo__*", true, `"mcp__demo__*" is not KEY=VALUE: not a rule in this client's syntax`},
		{search.Allow, "fake(tool_000)", true, `"fake(tool_000)" is not KEY=VALUE: not a rule in this client's syntax`},
		{search.Allow, "mcpServers.demo.trust=true", true, `"mcpServers.demo.trust=true" is not a Codex approval setting: not a rule in this client's syntax`},
		{search.Allow, "model=gpt-5", true, `"model=gpt-5" is not a Codex approval setting: not a rule in this client's syntax`},
		{search.DenyRule, "approval_policy=never", false, "Codex has no deny rule for MCP tools; give Codex settings with --allow (with approval_policy=never and a sandbox that is not danger-full-access, Codex refuses the calls that need approval)"},
		{search.Allow, "approval_policy=sometimes", false, `approval_policy: "sometimes" is not one of untrusted, on-failure, on-request, never`},
		{search.Allow, "sandbox_mode=", false, "sandbox_mode: the value is missing"},
		{search.Allow, `sandbox_mode="read-only`, false, `sandbox_mode: value "read-only: want one quoted string`},
		{search.Allow, "mcp_servers.demo.tools.x.approval_mode=always", false, `mcp_servers.demo.tools.x.approval_mode: "always" is not one of auto, prompt, writes, approve`},
		{search.Allow, "mcp_servers.demo.supports_parallel_tool_calls=yes", false, `mcp_servers.demo.supports_parallel_tool_calls: "yes" is not one of true, false`},
		{search.Allow, "mcp_servers.demo.command=node", false, "mcp_servers.demo.command does not change approvals or parallel calls; Codex reads mcp_servers.SERVER.default_tools_approval_mode, mcp_servers.SERVER.tools.TOOL.approval_mode and mcp_servers.SERVER.supports_parallel_tool_calls"},
		{search.Allow, `mcp_servers."demo.tools.x.approval_mode=approve`, true, `"mcp_servers.\"demo.tools.x.approval_mode=approve" is not a Codex approval setting: not a rule in this client's syntax`},
	} {
		_, err := parseSetting(tc.kind, tc.text)
		if err == nil || err.Error() != tc.want || errors.Is(err, search.ErrNotRuleSyntax) != tc.notSyntax {
			t.Errorf("%q: err %v\nwant %s (not syntax: %v)", tc.text, err, tc.want, tc.notSyntax)
		}
	}
}

func FuzzParseSetting(f *testing.F) {
	for _, s := range []string{"approval_policy=never", `mcp_servers."a.b".tools.t.approval_mode="approve"`, "mcp_servers.x.supports_parallel_tool_calls=true", "x", "=", `mcp_servers."=`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parseSetting(search.Allow, text)
		if err != nil {
			return
		}
		if len(s.key) == 0 || !codexKey(s.key) || s.value == "" {
			t.Fatalf("%q parsed to %+v", text, s)
		}
		// What parses decides without panicking.
		sessionOf([]search.Rule{{Kind: search.Allow, Text: text, Parsed: s}})
	})
}

func ExampleCodeMode_Approve() {
	servers, _, _ := corpus.ParseCatalog("demo.json", []byte(approvalDemo))
	cat := &corpus.Catalog{}
	_ = cat.Add(servers...)
	m, _ := NewCodeMode(cat, search.Options{})
	for _, tool := range cat.Servers[0].Tools[:2] {
		v := m.Approve(tool, ApprovalAuto, nil)
		fmt.Printf("%s: %s, parallel %v: %s\n", tool.Name, v.Decision, v.Parallel, v.Because)
	}
	// Output:
	// read_only: run, parallel true: readOnlyHint is true, so Codex runs it without asking
	// unannotated: ask, parallel false: destructiveHint is missing (counts as true) and openWorldHint is missing (counts as true), so Codex asks
}

func TestSettingsFromConfig(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		ok         bool
		rules      []string
		notes      int
		err        string
	}{
		{name: "config.toml", ok: true, data: `
approval_policy = "never"
sandbox_mode = "danger-full-access"
model = "gpt-5"

[mcp_servers.zeta]
command = "node"
default_tools_approval_mode = "writes"

[mcp_servers."my.server"]
supports_parallel_tool_calls = true

[mcp_servers."my.server".tools."get.item"]
approval_mode = "approve"

[mcp_servers.alpha.tools.b]
approval_mode = "prompt"
[mcp_servers.alpha.tools.a]
approval_mode = "auto"
`, rules: []string{ // servers and tools sorted
			"approval_policy=never",
			"sandbox_mode=danger-full-access",
			"mcp_servers.alpha.tools.a.approval_mode=auto",
			"mcp_servers.alpha.tools.b.approval_mode=prompt",
			`mcp_servers."my.server".supports_parallel_tool_calls=true`,
			`mcp_servers."my.server".tools."get.item".approval_mode=approve`,
			"mcp_servers.zeta.default_tools_approval_mode=writes",
		}},
		{name: "config.toml", data: "model = \"gpt-5\"\n", ok: true, notes: 1},
		{name: "settings.json", data: `{"permissions": {}}`, ok: false},
		{name: "other.conf", data: "model = \"gpt-5\"\n", ok: false},
		{name: "config.toml", data: "approval_policy = \n", ok: true, err: "config.toml:1:19: toml: unexpected character U+000A at start of value"},
		{name: "config.toml", data: "approval_policy = 3\n", ok: true, err: "config.toml: approval_policy: int64 is not a string or a boolean"},
	} {
		rules, notes, ok, err := settingsFromConfig(tc.name, []byte(tc.data))
		if ok != tc.ok || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%s %q: ok %v, err %v; want ok %v, err %q", tc.name, tc.data, ok, err, tc.ok, tc.err)
			continue
		}
		var got []string
		for _, r := range rules {
			got = append(got, r.Text)
			if r.Kind != search.Allow || r.Source != tc.name {
				t.Errorf("rule %+v", r)
			}
			// What the file yields reads back as a setting.
			if _, err := parseSetting(search.Allow, r.Text); err != nil {
				t.Errorf("%s: %v", r.Text, err)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.rules, "\n") || len(notes) != tc.notes {
			t.Errorf("%s:\n got %q (notes %q)\nwant %q", tc.name, got, notes, tc.rules)
		}
	}
}

func FuzzSettingsFromConfig(f *testing.F) {
	f.Add([]byte("approval_policy = \"never\"\n[mcp_servers.\"a.b\".tools.t]\napproval_mode = \"approve\"\n"))
	f.Add([]byte("[mcp_servers.x]\nsupports_parallel_tool_calls = true\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, _, ok, err := settingsFromConfig("config.toml", data)
		if !ok || err != nil {
			return
		}
		for _, r := range rules {
			// Every rule is KEY=VALUE with one of the keys parseSetting
			// reads: any error is about the value, never the syntax.
			if _, err := parseSetting(search.Allow, r.Text); errors.Is(err, search.ErrNotRuleSyntax) {
				t.Fatalf("%q: %v", r.Text, err)
			}
		}
	})
}
