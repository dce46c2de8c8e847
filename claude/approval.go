package claude

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Approvals (search.Approver): Claude Code's permission check for MCP tool
// calls, as measured on 2.1.283 by the seed article "Notes on MCP Design"
// (section "Annotations"; an emulated model called five tools in five
// permission modes, with and without the allow rule mcp__demo__*).
//
// The measured table (run = called without asking, ask = the user is
// asked, deny = refused without asking), modes default, acceptEdits,
// plan, bypassPermissions, dontAsk:
//
//	tool                                   with mcp__demo__*     without
//	readOnlyHint: true                     run run run run run   ask ask ask run deny
//	no annotations                         run run ask run run   ask ask ask run deny
//	destructiveHint: true                  run run ask run run   ask ask ask run deny
//	destructiveHint: false, openWorld: false run run ask run run ask ask ask run deny
//	_meta anthropic/requiresUserInteraction ask ask ask ask deny ask ask ask ask deny
//
// Every cell follows from these steps, taken in order (approveIn):
//
//  1. A tool Claude Code does not offer its model (dropped, skipped,
//     hidden; see Problems) cannot be called: deny.
//  2. A deny rule that matches: deny. Not measured by the seed; Claude
//     Code's documented rule precedence (deny rules are checked first and
//     win over allow rules and every mode).
//  3. _meta["anthropic/requiresUserInteraction"] === true: ask on every
//     call, whatever the rules and the mode, bypassPermissions included;
//     dontAsk refuses it instead (seed: "forces a prompt on every call,
//     regardless of allow rules and bypass mode. The 'don't ask' mode will
//     automatically deny").
//  4. plan: a tool without readOnlyHint: true asks even when an allow rule
//     matches (seed); a read-only tool runs only when an allow rule matches
//     (table: readOnlyHint without a rule asks in plan).
//  5. bypassPermissions: run (table).
//  6. An allow rule that matches: run (table; no annotation makes a
//     difference in default, acceptEdits or dontAsk).
//  7. Otherwise the call would ask; dontAsk refuses it instead (table).
//     "None of the modes we tested skips approval just because a tool has
//     readOnlyHint=true" (seed).
//
// acceptEdits auto-approves file edits only; for MCP tools it decides as
// default does (table). The sixth mode, auto, sends each call to a
// classifier model the seed could not emulate: listed, not simulated.
//
// Parallel calls (seed, the three-call timelines): Claude Code runs calls
// of tools with readOnlyHint: true at the same time, and every other call
// alone, one after another.
//
// Rules are Claude Code permission rules for MCP tools, matched against
// the names the model sees (characters outside [A-Za-z0-9_-] become _):
// mcp__SERVER and mcp__SERVER__* match every tool of the server,
// mcp__SERVER__TOOL one tool. Those are the MCP rule shapes Claude Code
// documents; any other wildcard and any parenthesised MCP rule is an
// error here rather than a guess. A rule that does not start with mcp__
// is not read (search.ErrNotRuleSyntax), so other clients' rules pass.
//
// The measurements are 2.1.283's; the newer profiles (2.1.328 and later)
// are assumed to decide the same (ApprovalInfo notes it). Releases before
// 2.1.283 (the 2.1.88 profile) were not measured: not simulated.

var (
	_ search.Approver      = (*Simulator)(nil)
	_ search.ServerAllower = (*Simulator)(nil)
)

// Permission modes (seed: "five of Claude Code's six permission modes"),
// in the order Claude Code cycles through them; default first.
const (
	ModeDefault     = "default"
	ModeAcceptEdits = "acceptEdits"
	ModePlan        = "plan"
	ModeBypass      = "bypassPermissions"
	ModeDontAsk     = "dontAsk"
	ModeAuto        = "auto"
)

// metaRequiresUserInteraction is the _meta key that forces a prompt (seed).
const metaRequiresUserInteraction = "anthropic/requiresUserInteraction"

// measuredRelease is the release the seed measured.
const measuredRelease = "2.1.283"

var approvalModes = []search.ApprovalMode{
	{Name: ModeDefault, Summary: "asks before every MCP call no allow rule matches"},
	{Name: ModeAcceptEdits, Summary: "auto-approves file edits; MCP calls as default"},
	{Name: ModePlan, Summary: "read-only planning: asks for every tool without readOnlyHint"},
	{Name: ModeBypass, Summary: "runs every call without asking, except those that require the user"},
	{Name: ModeDontAsk, Summary: "never asks: refuses what would ask"},
	{Name: ModeAuto, Summary: "a classifier model decides each call",
		NotSimulated: "Claude Code sends each call to a classifier model that toolfind cannot reproduce"},
}

// ApprovalInfo implements search.Approver.
func (s *Simulator) ApprovalInfo() search.ApprovalInfo {
	info := search.ApprovalInfo{
		Client:     s.Client(),
		Modes:      approvalModes,
		RuleSyntax: "Claude Code permission rules for MCP tools: mcp__SERVER, mcp__SERVER__*, mcp__SERVER__TOOL",
	}
	rel, _ := search.ParseRelease(s.prof.Version)
	measured, _ := search.ParseRelease(measuredRelease)
	switch c := search.CompareReleases(rel, measured); {
	case c < 0:
		info.NotSimulated = "Claude Code's permission check was measured on " + measuredRelease + ", not on this older release"
	case c > 0:
		info.Notes = []string{"decisions as measured on Claude Code " + measuredRelease + "; assumed unchanged in " + s.prof.Version}
	}
	return info
}

// AllowServerRule implements search.ServerAllower: mcp__SERVER__* with
// the server's name as the model sees it.
func (s *Simulator) AllowServerRule(server string) string {
	return "mcp__" + search.SanitizeName(server) + "__*"
}

// permRule is a parsed Claude Code MCP permission rule: Server alone
// (mcp__SERVER, mcp__SERVER__*) or Name, an exact tool name. A rule
// mcp__a__b is both server "a__b" and tool b of server a; it matches
// either.
type permRule struct {
	server string // the sanitised server name the rule covers, or ""
	name   string // an exact mcp__server__tool name, or ""
}

// ParseApprovalRule implements search.Approver.
func (s *Simulator) ParseApprovalRule(kind search.RuleKind, text string) (any, error) {
	return parsePermRule(text)
}

func parsePermRule(text string) (permRule, error) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "mcp__") {
		return permRule{}, fmt.Errorf("%q does not start with mcp__: %w", t, search.ErrNotRuleSyntax)
	}
	if strings.ContainsAny(t, "()") {
		return permRule{}, fmt.Errorf("%q: Claude Code does not read MCP rules with parentheses; write mcp__SERVER or mcp__SERVER__TOOL", t)
	}
	rest := t[len("mcp__"):]
	if srv, ok := strings.CutSuffix(rest, "__*"); ok && srv != "" && !strings.Contains(srv, "*") {
		if !validWire(srv) {
			return permRule{}, fmt.Errorf("%q: server %q has characters no MCP tool name has (Claude Code names use A-Z, a-z, 0-9, _ and -)", t, srv)
		}
		return permRule{server: srv}, nil
	}
	if strings.Contains(rest, "*") {
		return permRule{}, fmt.Errorf("%q: Claude Code matches an MCP rule by a whole server (mcp__SERVER or mcp__SERVER__*) or by one exact tool name, not by other wildcards", t)
	}
	if rest == "" || !validWire(rest) {
		return permRule{}, fmt.Errorf("%q: not an MCP tool or server name (Claude Code names use A-Z, a-z, 0-9, _ and -, as mcp__SERVER__TOOL)", t)
	}
	return permRule{server: rest, name: t}, nil
}

// validWire reports whether s is made of the characters a sanitised name
// keeps.
func validWire(s string) bool {
	return s != "" && search.SanitizeName(s) == s
}

// matches reports whether the rule covers the tool whose model-visible
// name is wire and whose server's sanitised name is srv.
func (r permRule) matches(wire, srv string) bool {
	return r.server == srv || r.name != "" && r.name == wire
}

// Approve implements search.Approver. t is decided as given (for a
// repeated name, pass the first definition: the one Claude Code keeps).
func (s *Simulator) Approve(t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	s.maps()
	e := s.byID[t.ID()]
	if e != nil && !e.mcp {
		e = nil // a Claude Code built-in, not this MCP tool
	}
	v := approveIn(e, t, mode, rules)
	switch {
	case v.NotOffered:
		v.ParallelBecause = "never called"
	case t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint:
		v.Parallel = true
		v.ParallelBecause = "readOnlyHint is true: Claude Code runs it at the same time as other read-only calls"
	default:
		v.ParallelBecause = "no readOnlyHint: true, so Claude Code runs it alone, one call after another"
	}
	return v
}

// approveIn takes the steps of the package notes above.
func approveIn(e *entry, t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	if e == nil {
		return search.Verdict{Decision: search.Deny, NotOffered: true, Because: "Claude Code does not offer this tool to its model (see lint)"}
	}
	wire, srv := e.name, e.name[len("mcp__"):e.bareAt-2]
	var allow string
	for _, r := range rules {
		pr, ok := r.Parsed.(permRule)
		if !ok || !pr.matches(wire, srv) {
			continue
		}
		if r.Kind == search.DenyRule {
			return search.Verdict{Decision: search.Deny, Because: fmt.Sprintf("deny rule %q matches", r.Text)}
		}
		if allow == "" {
			allow = r.Text
		}
	}
	if v, ok := t.MetaBool(metaRequiresUserInteraction); ok && v {
		if mode == ModeDontAsk {
			return search.Verdict{Decision: search.Deny, Because: "_meta anthropic/requiresUserInteraction is true: every call needs the user, and dontAsk refuses instead of asking"}
		}
		return search.Verdict{Decision: search.Ask, Because: "_meta anthropic/requiresUserInteraction is true: every call asks, whatever the rules and the mode"}
	}
	readOnly := t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
	switch mode {
	case ModePlan:
		switch {
		case !readOnly && allow != "":
			return search.Verdict{Decision: search.Ask, Because: fmt.Sprintf("plan mode asks for every tool without readOnlyHint: true, even though allow rule %q matches", allow)}
		case !readOnly:
			return search.Verdict{Decision: search.Ask, Because: "plan mode asks for every tool without readOnlyHint: true"}
		case allow != "":
			return search.Verdict{Decision: search.Run, Because: fmt.Sprintf("plan mode: readOnlyHint is true and allow rule %q matches", allow)}
		default:
			return search.Verdict{Decision: search.Ask, Because: "plan mode: readOnlyHint is true, but no allow rule matches"}
		}
	case ModeBypass:
		return search.Verdict{Decision: search.Run, Because: "bypassPermissions runs every call without asking"}
	}
	if allow != "" {
		return search.Verdict{Decision: search.Run, Because: fmt.Sprintf("allow rule %q matches", allow)}
	}
	if mode == ModeDontAsk {
		return search.Verdict{Decision: search.Deny, Because: "no allow rule matches, and dontAsk refuses instead of asking (annotations do not change this)"}
	}
	return search.Verdict{Decision: search.Ask, Because: "no allow rule matches (no annotation lets a call run without asking)"}
}

var _ search.ConfigReader = (*Simulator)(nil)

// ApprovalRulesFromConfig implements search.ConfigReader: the MCP rules
// of a Claude Code settings file (settings.json, settings.local.json,
// managed-settings.json): "permissions": {"allow": [...], "deny": [...]}.
// Rules for Claude Code's own tools (Bash(...), Read, …) do not concern
// MCP tools and are counted in a note; "ask" rules are not simulated and
// are noted. A file that is not a JSON object with "permissions" is not
// a Claude Code settings file (ok false).
func (s *Simulator) ApprovalRulesFromConfig(file string, data []byte) ([]search.RuleText, []string, bool, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil, nil, false, nil
	}
	raw, ok := top["permissions"]
	if !ok {
		return nil, nil, false, nil
	}
	var perms map[string]json.RawMessage
	if err := json.Unmarshal(raw, &perms); err != nil {
		return nil, nil, true, fmt.Errorf("%s: permissions: not an object", file)
	}
	var rules []search.RuleText
	var notes []string
	other := 0
	for _, list := range []struct {
		key  string
		kind search.RuleKind
	}{{"allow", search.Allow}, {"deny", search.DenyRule}, {"ask", search.Allow}} {
		raw, ok := perms[list.key]
		if !ok {
			continue
		}
		var texts []string
		if err := json.Unmarshal(raw, &texts); err != nil {
			return nil, nil, true, fmt.Errorf("%s: permissions.%s: not an array of strings", file, list.key)
		}
		for i, text := range texts {
			if !strings.HasPrefix(strings.TrimSpace(text), "mcp__") {
				other++
				continue
			}
			if list.key == "ask" {
				notes = append(notes, fmt.Sprintf("%s: permissions.ask[%d] %q: ask rules are not simulated; not applied", file, i, text))
				continue
			}
			rules = append(rules, search.RuleText{Kind: list.kind, Text: text, Source: fmt.Sprintf("%s: permissions.%s[%d]", file, list.key, i)})
		}
	}
	if other > 0 {
		notes = append(notes, fmt.Sprintf("%s: %d %s for Claude Code's own tools (not MCP tools) not read", file, other, plural(other, "rule", "rules")))
	}
	return rules, notes, true, nil
}
