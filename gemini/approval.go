package gemini

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Approvals (search.Approver): Gemini CLI 0.61.0's policy engine for MCP
// tool calls (gemini.md §5; policy/config.js createPolicyEngineConfig).
// The first matching rule by priority decides allow, deny or ask_user;
// the settings' rules sit in the user tier (4):
//
//	4.9  mcp.excluded: the server                 deny (it is never connected, §1)
//	4.4  tools.exclude / --exclude-tools: a name  deny
//	4.3  tools.allowed / --allowed-tools: a name  allow, in every mode
//	4.2  mcpServers.S.trust: mcp_S_*              allow, not in Plan mode
//	4.1  mcp.allowed / --allowed-mcp-server-names: mcp_S_* ("*": mcp_*)  allow, not in Plan mode
//	1.998 YOLO: *                                 allow
//	1.05 Plan mode: readOnlyHint true             ask_user (interactive)
//	1.04 Plan mode: everything else               deny
//	—    no rule                                  ask_user interactive, deny headless
//
// so, in order (Approve):
//
//  1. A tool the CLI does not declare for reasons of its own (its server's
//     tools/list refused, its name taken by a later tool, past the first
//     tools/list page; Declare) cannot be called: deny. mcp.excluded, or an mcp.allowed list without the
//     server, keeps the server from connecting: deny (isBlockedBySettings).
//  2. tools.exclude matching the name: deny; tools.allowed: run.
//  3. plan: ask when readOnlyHint is true (the only effect of that hint,
//     §5 "Annotations"), else deny.
//  4. headless: a tool whose name without the server prefix is a built-in
//     the run denies is dropped (Shadowed): deny.
//  5. trust or an mcp.allowed entry whose wildcard mcp_S_* matches the
//     name: run. The wildcard does not match a name whose server part the
//     CLI rewrote or cut (§2 "Effects of naming on policies"). In an
//     interactive session a trusted server's call still runs without a
//     prompt (getConfirmationDetails skips it in a trusted folder).
//  6. yolo: run (ask_user, shadowed even there, is denied).
//  7. No rule: interactive ask; headless deny (and the tool is not
//     declared, §1).
//
// Annotations other than readOnlyHint change nothing by default:
// destructiveHint and the others matter only through user policies (TOML,
// not read here).
//
// Parallel: the CLI runs the calls of one model turn at the same time
// unless the model sets wait_for_previous: true on a call, a parameter
// every declaration offers (§3); nothing in the tool decides it.
//
// Rules (--allow / --deny): trust=SERVER and allowed=SERVER (or
// allowed=*) allow; excluded=SERVER denies; a name pattern mcp_… (exact,
// or ending in *) is tools.allowed with --allow and tools.exclude with
// --deny. Claude Code's mcp__… rules and anything else are not read
// (search.ErrNotRuleSyntax). A Gemini CLI settings.json is read too
// (ApprovalRulesFromConfig).

var (
	_ search.Approver      = (*Simulator)(nil)
	_ search.ServerAllower = (*Simulator)(nil)
	_ search.ConfigReader  = (*Simulator)(nil)
)

// Approval modes, the interactive default first.
const (
	ModeDefault  = "default"
	ModeHeadless = "headless"
	ModeYOLO     = "yolo"
	ModePlan     = "plan"
)

// Rule kinds (the Parsed value of a search.Rule).
type ruleKind int

const (
	ruleTrust ruleKind = iota
	ruleAllowed
	ruleExcluded
	ruleToolAllowed
	ruleToolExcluded
)

// policyRule is one parsed rule.
type policyRule struct {
	kind ruleKind
	text string // a server name or a tool name pattern
}

// ApprovalInfo implements search.Approver.
func (s *Simulator) ApprovalInfo() search.ApprovalInfo {
	return search.ApprovalInfo{
		Client: ID,
		Modes: []search.ApprovalMode{
			{Name: ModeDefault, Summary: "interactive session: asks unless an allow rule covers the tool"},
			{Name: ModeHeadless, Summary: "gemini -p: denies, and does not declare, every tool no allow rule covers"},
			{Name: ModeYOLO, Summary: "--yolo: runs every tool a deny rule does not exclude"},
			{Name: ModePlan, Summary: "Plan mode: asks for readOnlyHint tools, denies the others"},
		},
		RuleSyntax: "Gemini CLI settings as rules: trust=SERVER, allowed=SERVER (or *), excluded=SERVER, and tool names mcp_SERVER_TOOL (a trailing * matches a prefix) for tools.allowed (--allow) and tools.exclude (--deny)",
		Notes: []string{
			"the model may run any calls of one turn at the same time; it sets wait_for_previous on a call to wait for the earlier ones",
		},
	}
}

// AllowServerRule implements search.ServerAllower: "trust": true.
func (s *Simulator) AllowServerRule(server string) string { return "trust=" + server }

// ParseApprovalRule implements search.Approver.
func (s *Simulator) ParseApprovalRule(kind search.RuleKind, text string) (any, error) {
	text = strings.TrimSpace(text)
	if key, val, ok := strings.Cut(text, "="); ok {
		k := map[string]ruleKind{"trust": ruleTrust, "allowed": ruleAllowed, "excluded": ruleExcluded}
		rk, known := k[strings.TrimSpace(key)]
		if !known {
			return nil, search.ErrNotRuleSyntax
		}
		val = strings.TrimSpace(val)
		if val == "" {
			return nil, fmt.Errorf("%s= needs a server name", key)
		}
		switch {
		case rk == ruleExcluded && kind == search.Allow:
			return nil, errors.New("excluded=SERVER denies: give it with --deny")
		case rk != ruleExcluded && kind == search.DenyRule:
			return nil, fmt.Errorf("%s=SERVER allows: give it with --allow (excluded=SERVER denies)", key)
		case rk == ruleTrust && val == "*":
			return nil, errors.New(`trust is set per server ("trust": true); allowed=* allows every server`)
		}
		return policyRule{kind: rk, text: val}, nil
	}
	if !strings.HasPrefix(text, ToolPrefix) || strings.HasPrefix(text, "mcp__") {
		return nil, search.ErrNotRuleSyntax
	}
	if i := strings.IndexByte(text, '*'); i >= 0 && i != len(text)-1 {
		return nil, errors.New("a tool name pattern may end in * (a prefix), nothing else")
	}
	if kind == search.DenyRule {
		return policyRule{kind: ruleToolExcluded, text: text}, nil
	}
	return policyRule{kind: ruleToolAllowed, text: text}, nil
}

// matchName is the policy engine's toolName match: exact, or a prefix
// for a pattern ending in "*".
func matchName(pattern, name string) bool {
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, p)
	}
	return pattern == name
}

// Approve implements search.Approver.
func (s *Simulator) Approve(t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	v := search.Verdict{Parallel: true, ParallelBecause: "Gemini CLI runs the calls of one model turn at the same time unless the model sets wait_for_previous: true on this one"}
	set := func(d search.Decision, why string) search.Verdict {
		v.Decision, v.Because = d, why
		return v
	}
	name, _ := ToolName(t.Server, t.Name)
	var prs []policyRule
	for _, r := range rules {
		if p, ok := r.Parsed.(policyRule); ok {
			prs = append(prs, p)
		}
	}
	// 1. not declared for reasons of its own, or not connected
	if e := s.entryOf(t); e != nil && (e.Why == Refused || e.Why == Overwritten || e.Why == LaterPage) {
		return set(search.Deny, "Gemini CLI does not declare it ("+ReasonText(e.Why)+"), so the model cannot call it")
	}
	allowList := false
	for _, p := range prs {
		switch {
		case p.kind == ruleExcluded && p.text == t.Server:
			return set(search.Deny, "mcp.excluded lists the server: Gemini CLI does not connect it")
		case p.kind == ruleAllowed:
			allowList = true
		}
	}
	if allowList && !hasAllowed(prs, t.Server) {
		return set(search.Deny, "mcp.allowed lists other servers only: Gemini CLI does not connect this one")
	}
	// 2. tools.exclude, tools.allowed
	for _, p := range prs {
		if p.kind == ruleToolExcluded && matchName(p.text, name) {
			return set(search.Deny, fmt.Sprintf("tools.exclude %q matches the tool's name", p.text))
		}
	}
	for _, p := range prs {
		if p.kind == ruleToolAllowed && matchName(p.text, name) {
			return set(search.Run, fmt.Sprintf("tools.allowed %q matches the tool's name", p.text))
		}
	}
	// 3. Plan mode
	if mode == ModePlan {
		if ro := t.Annotations.ReadOnlyHint; ro != nil && *ro {
			return set(search.Ask, "Plan mode asks for a tool with readOnlyHint: true (trust and allowed servers do not apply there)")
		}
		return set(search.Deny, "Plan mode denies MCP tools without readOnlyHint: true (trust and allowed servers do not apply there)")
	}
	// 4. shadowed in headless and YOLO runs
	short := shortName(t.Server, name)
	if (mode == ModeHeadless && contains(deniedHeadless, short)) || (mode == ModeYOLO && contains(deniedYOLO, short)) {
		return set(search.Deny, fmt.Sprintf("named like the built-in %s, which this mode denies: Gemini CLI drops the tool", short))
	}
	// 5. trust, allowed
	trusted, missed := false, ""
	for _, p := range prs {
		if (p.kind == ruleTrust && p.text == t.Server) || (p.kind == ruleAllowed && (p.text == t.Server || p.text == "*")) {
			rule := "mcp_" + p.text + "_*"
			if p.text == "*" {
				rule = "mcp_*"
			}
			if matchName(rule, name) {
				what := `"trust": true`
				if p.kind == ruleAllowed {
					what = "mcp.allowed"
				}
				return set(search.Run, fmt.Sprintf("%s: the rule %s matches the tool's name", what, rule))
			}
			missed = rule
			trusted = trusted || p.kind == ruleTrust
		}
	}
	// 6. YOLO
	if mode == ModeYOLO {
		return set(search.Run, "--yolo allows every tool no deny rule excludes")
	}
	// 7. no rule
	if mode == ModeDefault {
		if trusted {
			return set(search.Run, fmt.Sprintf(`the rule %s does not match %s, but in a trusted folder "trust": true skips the prompt`, missed, name))
		}
		if missed != "" {
			return set(search.Ask, fmt.Sprintf("the rule %s does not match %s: no rule decides, so the user is asked", missed, name))
		}
		return set(search.Ask, "no allow rule covers the tool: the user is asked (readOnlyHint does not change it)")
	}
	if missed != "" {
		return set(search.Deny, fmt.Sprintf("the rule %s does not match %s: a headless run denies it and does not declare it", missed, name))
	}
	return set(search.Deny, "no allow rule covers the tool: a headless run denies it and does not declare it")
}

func hasAllowed(prs []policyRule, server string) bool {
	for _, p := range prs {
		if p.kind == ruleAllowed && (p.text == server || p.text == "*") {
			return true
		}
	}
	return false
}

// entryOf is the tool's declared definition, else its first.
func (s *Simulator) entryOf(t *corpus.Tool) *Entry {
	return s.byID[t.ID()]
}

// ApprovalRulesFromConfig implements search.ConfigReader for a Gemini CLI
// settings.json: each mcpServers entry's "trust": true, mcp.allowed,
// mcp.excluded, tools.allowed and tools.exclude (the MCP tool names among
// them). A file with none of "mcpServers", "mcp" and "tools" is not one.
func (s *Simulator) ApprovalRulesFromConfig(file string, data []byte) ([]search.RuleText, []string, bool, error) {
	v, err := ojson.Parse(data)
	if err != nil || v.Kind != ojson.Object {
		return nil, nil, false, nil
	}
	v = v.Dedup()
	servers, hasServers := v.Get("mcpServers")
	mcp, hasMCP := v.Get("mcp")
	tools, hasTools := v.Get("tools")
	if _, claude := v.Get("permissions"); claude || !(hasServers || hasMCP || hasTools) {
		return nil, nil, false, nil
	}
	var rules []search.RuleText
	var notes []string
	for _, m := range servers.Members() {
		if tr, ok := m.Value.Get("trust"); ok && tr.Kind == ojson.Bool && tr.Bool {
			rules = append(rules, search.RuleText{Kind: search.Allow, Text: "trust=" + m.Key, Source: fmt.Sprintf("%s: mcpServers.%s.trust", file, m.Key)})
		}
	}
	list := func(obj ojson.Value, key, path string, kind search.RuleKind, prefix string) error {
		x, ok := obj.Get(key)
		if !ok {
			return nil
		}
		if x.Kind != ojson.Array {
			return fmt.Errorf("%s: %s: not an array", file, path)
		}
		for i, e := range x.Array() {
			if e.Kind != ojson.String {
				return fmt.Errorf("%s: %s[%d]: not a string", file, path, i)
			}
			text := prefix + e.Str()
			if prefix == "" && !strings.HasPrefix(e.Str(), ToolPrefix) {
				notes = append(notes, fmt.Sprintf("%s: %s[%d] %q: built-in tool rules are not simulated; not applied", file, path, i, e.Str()))
				continue
			}
			rules = append(rules, search.RuleText{Kind: kind, Text: text, Source: fmt.Sprintf("%s: %s[%d]", file, path, i)})
		}
		return nil
	}
	for _, l := range []struct {
		obj        ojson.Value
		key, path  string
		kind       search.RuleKind
		textPrefix string
	}{
		{mcp, "allowed", "mcp.allowed", search.Allow, "allowed="},
		{mcp, "excluded", "mcp.excluded", search.DenyRule, "excluded="},
		{tools, "allowed", "tools.allowed", search.Allow, ""},
		{tools, "exclude", "tools.exclude", search.DenyRule, ""},
	} {
		if err := list(l.obj, l.key, l.path, l.kind, l.textPrefix); err != nil {
			return nil, nil, true, err
		}
	}
	return rules, notes, true, nil
}
