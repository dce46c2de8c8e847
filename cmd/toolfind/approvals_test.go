package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// approvalsDemo is the seed's five-tool demo server ("Notes on MCP
// Design", section "Annotations"), one tool per row of its table.
const approvalsDemo = "testdata/approvals/demo.json"

type approvalRow struct {
	Client, Mode, Tool, Decision, Because string
	Parallel                              bool
}

type approvalJSON struct {
	Approvals    []approvalRow `json:"approvals"`
	NotSimulated []struct {
		Client, Mode, Because string
	} `json:"not_simulated"`
	Notes []string `json:"notes"`
}

func runApprovalsJSON(t *testing.T, args ...string) approvalJSON {
	t.Helper()
	out, errOut, code := run(t, append([]string{"approvals", "--catalog", approvalsDemo, "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep approvalJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep
}

// cellsOf returns "tool: decision…" in the given modes for one client.
func cellsOf(rep approvalJSON, client string, modes []string) map[string]string {
	by := map[string]map[string]string{}
	for _, r := range rep.Approvals {
		if r.Client != client {
			continue
		}
		if by[r.Tool] == nil {
			by[r.Tool] = map[string]string{}
		}
		by[r.Tool][r.Mode] = r.Decision
	}
	out := map[string]string{}
	for tool, m := range by {
		var cells []string
		for _, mode := range modes {
			cells = append(cells, m[mode])
		}
		out[tool] = strings.Join(cells, " ")
	}
	return out
}

// TestApprovalsSeedTable: `toolfind approvals --format json` with and
// without --allow 'mcp__demo__*' reproduces all 50 cells of the seed's
// Claude Code table (measured on 2.1.283; the default profile decides the
// same), Codex's auto rule per tool (codex.md §6.1) and both clients'
// parallel verdicts (seed: read-only tools concurrently; codex.md §6.2).
func TestApprovalsSeedTable(t *testing.T) {
	claudeModes := []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"}
	with := map[string]string{ // "With an allow rule for mcp__demo__*"
		"demo/read_only":    "run run run run run",
		"demo/unannotated":  "run run ask run run",
		"demo/destructive":  "run run ask run run",
		"demo/closed_world": "run run ask run run",
		"demo/needs_user":   "ask ask ask ask deny",
	}
	without := map[string]string{ // "Without an allow rule"
		"demo/read_only":    "ask ask ask run deny",
		"demo/unannotated":  "ask ask ask run deny",
		"demo/destructive":  "ask ask ask run deny",
		"demo/closed_world": "ask ask ask run deny",
		"demo/needs_user":   "ask ask ask ask deny",
	}
	// Codex auto: destructive → ask; else read-only → run; else ask unless
	// destructive and open-world are both false; missing hints count as
	// true. Codex does not read _meta, so needs_user is unannotated.
	codexAuto := map[string]string{
		"demo/read_only": "run", "demo/unannotated": "ask", "demo/destructive": "ask",
		"demo/closed_world": "run", "demo/needs_user": "ask",
	}
	parallel := map[string]bool{"demo/read_only": true}

	for _, tc := range []struct {
		args []string
		want map[string]string
	}{
		{nil, without},
		{[]string{"--allow", "mcp__demo__*"}, with},
	} {
		for _, clients := range []string{"all", "claude@2.1.283,codex"} {
			rep := runApprovalsJSON(t, append(tc.args, "--client", clients)...)
			claude := "claude@2.1.332"
			if clients != "all" {
				claude = "claude@2.1.283"
			}
			got := cellsOf(rep, claude, claudeModes)
			n := 0
			for tool, want := range tc.want {
				if got[tool] != want {
					t.Errorf("%v %s %s: %s, want %s", tc.args, claude, tool, got[tool], want)
				}
				n += len(strings.Fields(want))
			}
			if n != 25 || len(got) != 5 {
				t.Fatalf("checked %d cells of %d tools, want 25 of 5", n, len(got))
			}
			codex := cellsOf(rep, "codex@0.171.0", []string{"auto"})
			for tool, want := range codexAuto {
				if codex[tool] != want {
					t.Errorf("%v codex auto %s: %s, want %s", tc.args, tool, codex[tool], want)
				}
			}
			for _, r := range rep.Approvals {
				if r.Client != claude && r.Client != "codex@0.171.0" {
					continue // the seed measured these two (Gemini CLI: gemini's own tests)
				}
				if r.Parallel != parallel[r.Tool] {
					t.Errorf("%s %s %s: parallel %v, want %v", r.Client, r.Mode, r.Tool, r.Parallel, parallel[r.Tool])
				}
			}
			// Claude's auto mode is listed, not decided.
			found := false
			for _, ns := range rep.NotSimulated {
				found = found || ns.Client == claude && ns.Mode == "auto"
			}
			if !found {
				t.Errorf("%s mode auto is not listed as not simulated: %+v", claude, rep.NotSimulated)
			}
		}
	}
}

func TestApprovalsGolden(t *testing.T) {
	t.Setenv("COLUMNS", "")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"approvals/demo.json.golden", []string{"--format", "json"}},
		{"approvals/demo-allow.json.golden", []string{"--format", "json", "--allow", "mcp__demo__*"}},
		{"approvals/demo.txt", nil},
		{"approvals/demo-allow-never.txt", []string{"--allow", "mcp__demo__*", "--allow", "codex:approval_policy=never", "--deny", "mcp__demo__destructive"}},
		{"approvals/demo.md", []string{"--format", "markdown", "--allow", "mcp__demo__*"}},
	} {
		out, errOut, code := run(t, append([]string{"approvals", "--catalog", approvalsDemo}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errOut)
		}
		golden(t, tc.name, out)
	}
}

// TestApprovalsFitsWidth: every text line fits $COLUMNS, down to 60.
func TestApprovalsFitsWidth(t *testing.T) {
	for _, cols := range []string{"60", "72", "100", "160"} {
		t.Setenv("COLUMNS", cols)
		out, errOut, code := run(t, "approvals", "--catalog", approvalsDemo, "--allow", "mcp__demo__*")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > atoi(cols) {
				t.Errorf("COLUMNS=%s: %d characters: %q", cols, n, line)
			}
		}
		if !strings.Contains(out, "bypass") {
			t.Errorf("COLUMNS=%s: no matrix header:\n%s", cols, out)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestApprovalsRuleErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--allow", "mcp__demo__read_*"}, `toolfind: --allow "mcp__demo__read_*": claude@2.1.332: "mcp__demo__read_*": Claude Code matches an MCP rule by a whole server (mcp__SERVER or mcp__SERVER__*) or by one exact tool name, not by other wildcards`},
		{[]string{"--client", "claude", "--allow", "approval_policy=never"}, `toolfind: --allow "approval_policy=never": no selected client reads this rule: claude@2.1.332 reads Claude Code permission rules for MCP tools: mcp__SERVER, mcp__SERVER__*, mcp__SERVER__TOOL`},
		{[]string{"--deny", "approval_policy=never"}, `toolfind: --deny "approval_policy=never": codex@0.171.0: Codex has no deny rule for MCP tools; give Codex settings with --allow (with approval_policy=never and a sandbox that is not danger-full-access, Codex refuses the calls that need approval)`},
		{[]string{"--allow", "codex:mcp__demo__*"}, `toolfind: --allow "codex:mcp__demo__*": codex@0.171.0: "mcp__demo__*" is not KEY=VALUE: not a rule in this client's syntax; it reads Codex settings KEY=VALUE as codex -c takes them: approval_policy, sandbox_mode, mcp_servers.SERVER.default_tools_approval_mode, mcp_servers.SERVER.tools.TOOL.approval_mode, mcp_servers.SERVER.supports_parallel_tool_calls`},
		{[]string{"--format", "html"}, `toolfind: --format "html": want text, json or markdown (see 'toolfind approvals --help')`},
	} {
		_, errOut, code := run(t, append([]string{"approvals", "--catalog", approvalsDemo}, tc.args...)...)
		if code != 2 || strings.TrimSpace(errOut) != tc.want {
			t.Errorf("%v: exit %d\n%s\nwant exit 2\n%s", tc.args, code, errOut, tc.want)
		}
	}
}

// TestApprovalsRuleRouting: a bare rule goes to the clients that read it,
// and the others say they did not apply it.
func TestApprovalsRuleRouting(t *testing.T) {
	rep := runApprovalsJSON(t, "--client", "claude,codex", "--allow", "mcp__demo__*", "--allow", "approval_policy=never")
	want := []string{
		`--allow "mcp__demo__*" is not a rule of codex@0.171.0; not applied there`,
		`--allow "approval_policy=never" is not a rule of claude@2.1.332; not applied there`,
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(rep.Notes, "\n"), w) {
			t.Errorf("notes %q lack %q", rep.Notes, w)
		}
	}
	// approval_policy=never under the default read-only sandbox: what
	// would ask is refused.
	codex := cellsOf(rep, "codex@0.171.0", []string{"auto"})
	if codex["demo/unannotated"] != "deny" || codex["demo/read_only"] != "run" {
		t.Errorf("codex with approval_policy=never: %v", codex)
	}
}

// TestShowNotesApproval: `show` gives, per tool and client, the decision
// and the parallel verdict in the client's default mode, with no rules.
func TestShowNotesApproval(t *testing.T) {
	out, errOut, code := run(t, "show", "--catalog", approvalsDemo, "--client", "claude,codex,grok", "--tool", "demo/read_only", "--tool", "demo/destructive", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Views []struct {
			Client, Tool string
			Approval     *approvalRow
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range rep.Views {
		line := v.Client + " " + v.Tool + ": "
		if v.Approval == nil {
			line += "-"
		} else {
			line += fmt.Sprintf("%s %s parallel=%v", v.Approval.Mode, v.Approval.Decision, v.Approval.Parallel)
		}
		got = append(got, line)
	}
	want := []string{
		"claude@2.1.332 demo/read_only: default ask parallel=true",
		"claude@2.1.332 demo/destructive: default ask parallel=false",
		"codex@0.171.0 demo/read_only: auto run parallel=true",
		"codex@0.171.0 demo/destructive: auto ask parallel=false",
		"grok@1.0.0 demo/read_only: -", // not simulated
		"grok@1.0.0 demo/destructive: -",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	text, _, _ := run(t, "show", "--catalog", approvalsDemo, "--client", "codex", "--tool", "demo/destructive")
	if !strings.Contains(text, "   approval: ask in auto mode, runs alone: destructiveHint is true, so Codex asks;") {
		t.Errorf("show text lacks the approval note:\n%s", text)
	}
}

// TestApprovalsLiveServer: a live server's tools are decided like a
// catalog's (its tools have no annotations: Claude asks, and Codex, whose
// approval_policy=never cannot ask, refuses under the default sandbox).
func TestApprovalsLiveServer(t *testing.T) {
	fx := buildFixture(t)
	out, errOut, code := run(t, "approvals", "--server", fx+" ok", "--client", "claude,codex", "--allow", "codex:approval_policy=never", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep approvalJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Approvals {
		if r.Mode == "default" || r.Mode == "auto" {
			got = append(got, r.Client+" "+r.Tool+" "+r.Decision)
		}
	}
	want := []string{
		"claude@2.1.332 misbehaving/echo ask", "claude@2.1.332 misbehaving/add ask",
		"codex@0.171.0 misbehaving/echo deny", "codex@0.171.0 misbehaving/add deny",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestApprovalsSettings: rules read from the user's Claude Code
// settings.json and Codex config.toml decide as the same rules given as
// flags would, and each is named by its file.
func TestApprovalsSettings(t *testing.T) {
	claudeSettings := writeFile(t, "settings.json", `{"permissions": {"allow": ["Bash(ls)", "mcp__demo__*"], "deny": ["mcp__demo__destructive"]}}`)
	codexConfig := writeFile(t, "config.toml", "approval_policy = \"never\"\nsandbox_mode = \"danger-full-access\"\n[mcp_servers.demo]\nsupports_parallel_tool_calls = true\n")
	fromFiles := runApprovalsJSON(t, "--client", "claude,codex", "--settings", claudeSettings, "--settings", codexConfig)
	fromFlags := runApprovalsJSON(t, "--client", "claude,codex", "--allow", "mcp__demo__*", "--deny", "mcp__demo__destructive",
		"--allow", "approval_policy=never", "--allow", "sandbox_mode=danger-full-access", "--allow", "mcp_servers.demo.supports_parallel_tool_calls=true")
	if len(fromFiles.Approvals) != 45 || fmt.Sprint(fromFiles.Approvals) != fmt.Sprint(fromFlags.Approvals) {
		t.Errorf("settings files and flags decide differently:\n%v\n%v", fromFiles.Approvals, fromFlags.Approvals)
	}
	// Claude: the deny rule wins in every mode; Codex: never + full disk
	// write runs what would ask, every tool in parallel.
	claude := cellsOf(fromFiles, "claude@2.1.332", []string{"default", "bypassPermissions"})
	codex := cellsOf(fromFiles, "codex@0.171.0", []string{"auto", "prompt"})
	if claude["demo/destructive"] != "deny deny" || claude["demo/unannotated"] != "run run" || codex["demo/destructive"] != "run run" {
		t.Errorf("claude %v, codex %v", claude, codex)
	}
	if !strings.Contains(strings.Join(fromFiles.Notes, "\n"), "settings.json: 1 rule for Claude Code's own tools (not MCP tools) not read") {
		t.Errorf("notes %q", fromFiles.Notes)
	}
	t.Setenv("COLUMNS", "1000") // the temporary path on one line
	text, _, _ := run(t, "approvals", "--catalog", approvalsDemo, "--client", "claude", "--settings", claudeSettings)
	if !strings.Contains(text, "  rule: "+claudeSettings+": permissions.deny[0]: mcp__demo__destructive\n") {
		t.Errorf("text lacks the rule's source:\n%s", text)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--client", "claude", "--settings", codexConfig}, codexConfig + `: not a settings file of claude@2.1.332 (Claude Code settings.json with "permissions", Codex config.toml)`},
		{[]string{"--client", "codex", "--settings", writeFile(t, "bad.toml", "approval_policy = 3\n")}, "bad.toml: approval_policy: int64 is not a string or a boolean"},
		{[]string{"--client", "claude", "--settings", writeFile(t, "s.json", `{"permissions": {"deny": ["mcp__demo__*x"]}}`)}, `s.json: permissions.deny[0]: "mcp__demo__*x": claude@2.1.332:`},
		{[]string{"--settings", "/nonexistent/settings.json"}, "--settings: open /nonexistent/settings.json: no such file or directory"},
	} {
		_, errOut, code := run(t, append([]string{"approvals", "--catalog", approvalsDemo}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q, want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestApprovalsTool: --tool limits the rows to the tools named, in the
// order given; an unknown one is a usage error.
func TestApprovalsTool(t *testing.T) {
	rep := runApprovalsJSON(t, "--client", "codex", "--tool", "needs_user", "--tool", "demo/read_only")
	var got []string
	for _, r := range rep.Approvals {
		if r.Mode == "auto" {
			got = append(got, r.Tool+" "+r.Decision)
		}
	}
	if want := "demo/needs_user ask,demo/read_only run"; strings.Join(got, ",") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if _, errOut, code := run(t, "approvals", "--catalog", approvalsDemo, "--tool", "nope"); code != 2 || !strings.Contains(errOut, "--tool") {
		t.Errorf("unknown tool: exit %d %q", code, errOut)
	}
}
