package lint_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/lint"
)

// approvalRules are the rules of approvals.go.
var approvalRules = []string{lint.RuleDestructiveUnmarked, lint.RuleReadOnlyWrites, lint.RuleInteractionDontAsk, lint.RuleServerUnannotated}

func approvalLint(t *testing.T, clients string, paths ...string) []*lint.Finding {
	t.Helper()
	cat, err := toolfind.LoadCatalog(paths...)
	if err != nil {
		t.Fatal(err)
	}
	sims, err := toolfind.Clients(cat, clients, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := lint.Config{}
	if err := cfg.Set([]string{"all"}, false); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Set(approvalRules, true); err != nil {
		t.Fatal(err)
	}
	rep, err := lint.Run(context.Background(), cat, sims, lint.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Findings
}

// TestApprovalRulesFire: each rule on testdata/approvals.json, with what
// each client's permission check does (Claude Code as measured by the seed
// "Notes on MCP Design"; Codex codex.md §6).
func TestApprovalRulesFire(t *testing.T) {
	got := map[string][]string{}
	for _, f := range approvalLint(t, "claude@2.1.283,codex", "testdata/approvals.json") {
		got[f.Rule] = append(got[f.Rule], f.Location.String()+": "+f.Message)
	}
	want := map[string][]string{
		// Claude Code does not read destructiveHint; Codex already counts
		// the missing hint as true: neither decides differently today.
		lint.RuleDestructiveUnmarked: {
			`testdata/approvals.json:3:99: shop/delete_order says "delete" but has no destructiveHint; claude@2.1.283: decides the same with destructiveHint: true (asks in default mode: no allow rule matches (no annotation lets a call run without asking)); codex@0.171.0: decides the same with destructiveHint: true (asks in auto mode: destructiveHint is missing (counts as true), so Codex asks); fix: add "destructiveHint": true to its annotations`,
		},
		// send_invoice is read-only by its annotations: Codex runs it
		// without asking in auto and writes (§6.1), both run it in
		// parallel (§6.2; seed), Claude's plan mode runs it when allowed.
		lint.RuleReadOnlyWrites: {
			`testdata/approvals.json:4:133: shop/send_invoice has readOnlyHint: true but says "send"; claude@2.1.283: runs it in parallel with other calls (with readOnlyHint: false it would run it alone); with allow rule mcp__shop__*: runs without asking in plan and runs it in parallel with other calls (with readOnlyHint: false it would ask in plan and run it alone); codex@0.171.0: runs without asking in auto, writes and runs it in parallel with other calls (with readOnlyHint: false it would ask in auto, writes and run it alone); with allow rule mcp_servers.shop.default_tools_approval_mode=approve: runs it in parallel with other calls (with readOnlyHint: false it would run it alone); fix: set "readOnlyHint": false (and destructiveHint to say whether it deletes)`,
		},
		// Claude: a prompt on every call even in bypassPermissions and
		// under an allow rule; dontAsk refuses (seed). Codex ignores _meta.
		lint.RuleInteractionDontAsk: {
			`testdata/approvals.json:5:161: shop/confirm_payment sets _meta anthropic/requiresUserInteraction: every call needs the user; claude@2.1.283: asks in bypassPermissions (without the key it would run without asking in bypassPermissions); with allow rule mcp__shop__*: asks in default, acceptEdits, bypassPermissions, refuses in dontAsk (without the key it would run without asking in default, acceptEdits, bypassPermissions, dontAsk); codex@0.171.0: decides the same without the key (asks in auto mode: destructiveHint is missing (counts as true) and openWorldHint is missing (counts as true), so Codex asks); fix: keep it only if every call must be confirmed; users of a mode that never asks cannot call the tool`,
		},
		// bare: no annotations, so Codex asks for every call (§6.1);
		// purge_cache is named in the fix, not a finding of its own.
		lint.RuleServerUnannotated: {
			`testdata/approvals.json:8:3: no tool of server bare has an annotation hint (readOnlyHint, destructiveHint, openWorldHint, idempotentHint); claude@2.1.283: in default mode asks for 2 of 2 tools it offers, none runs in parallel; for lookup: runs it alone (with readOnlyHint: true it would run it in parallel with other calls); with allow rule mcp__bare__*: asks in plan and runs it alone (with readOnlyHint: true it would run without asking in plan and run it in parallel with other calls); codex@0.171.0: in auto mode asks for 2 of 2 tools it offers, none runs in parallel; for lookup: asks in auto, writes and runs it alone (with readOnlyHint: true it would run without asking in auto, writes and run it in parallel with other calls); with allow rule mcp_servers.bare.default_tools_approval_mode=approve: runs it alone (with readOnlyHint: true it would run it in parallel with other calls); fix: add "annotations" to every tool: "readOnlyHint": true for those that only read, "destructiveHint" for the others ("destructiveHint": true at least for purge_cache, which says it deletes, drops, sends or pays)`,
		},
	}
	for _, rule := range approvalRules {
		if strings.Join(got[rule], "\n") != strings.Join(want[rule], "\n") {
			t.Errorf("%s:\n got %s\nwant %s", rule, strings.Join(got[rule], "\n     "), strings.Join(want[rule], "\n     "))
		}
	}
	// list_orders says "never deletes them" after its first word: quiet.
	for _, f := range approvalLint(t, "claude,codex", "testdata/approvals.json") {
		if strings.Contains(f.Cause, "list_orders") {
			t.Errorf("list_orders flagged: %s", f.Message)
		}
	}
}

// TestApprovalRulesOnRealCatalogs: over the 15 shared catalogs the rules
// fire only where the annotations are wrong or missing: Azure marks its
// e-mail and SMS senders read-only, and Okta and Zscaler annotate no tool.
func TestApprovalRulesOnRealCatalogs(t *testing.T) {
	dir := "../../shared/catalogs"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared catalogs not found at %s: %v", dir, err)
	}
	var got []string
	for _, f := range approvalLint(t, "claude,codex", dir) {
		got = append(got, f.Rule+" "+f.Location.Server+"/"+f.Location.Tool)
	}
	want := []string{
		"readonly-writes azure/communication_email_send",
		"readonly-writes azure/communication_sms_send",
		"server-unannotated okta/",
		"server-unannotated zscaler/",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
