package copilot

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Approvals (search.Approver): Copilot CLI 1.0.102's permission check for
// MCP tool calls (copilot.md §1.5, observed in run PERM; the rule grammar
// from `copilot help permissions`). In order (Approve):
//
//  1. A tool the CLI does not send (its name lost a sanitising collision,
//     its server's tools/list unreadable) cannot be called: deny.
//  2. A deny rule (--deny-tool) matching the tool: deny, whatever else
//     (it wins over --allow-all-tools).
//  3. readOnlyHint true: run, in every mode, even in -p with no allow
//     rule.
//  4. An allow rule (--allow-tool) matching the tool, or
//     --allow-all-tools (mode allow-all): run.
//  5. Otherwise: interactive, ask; -p (mode prompt), deny ("Permission
//     denied because no interactive user response was available").
//
// A rule is SERVER (every tool of that server, by its configured name)
// or SERVER(TOOL) (one tool by its raw MCP name). destructiveHint changes
// nothing. Denying never removes a tool from the list the model sees.
//
// Parallel: the CLI asks the model for parallel tool calls (the Responses
// wire sends parallel_tool_calls: true); whether it then runs MCP calls
// side by side was not measured, so Parallel is reported true with that
// caveat [unverified].

var _ search.Approver = (*Simulator)(nil)

// Approval modes, the interactive default first.
const (
	ModeDefault  = "default"
	ModePrompt   = "prompt"
	ModeAllowAll = "allow-all"
)

// toolRule is one parsed --allow-tool or --deny-tool pattern.
type toolRule struct {
	server, tool string // tool "" is every tool of the server
}

func (r toolRule) String() string {
	if r.tool == "" {
		return r.server
	}
	return r.server + "(" + r.tool + ")"
}

func (r toolRule) matches(t *corpus.Tool) bool {
	return r.server == t.Server && (r.tool == "" || r.tool == t.Name)
}

// ApprovalInfo implements search.Approver.
func (s *Simulator) ApprovalInfo() search.ApprovalInfo {
	return search.ApprovalInfo{
		Client: ID,
		Modes: []search.ApprovalMode{
			{Name: ModeDefault, Summary: "interactive session: asks unless an allow rule covers the tool"},
			{Name: ModePrompt, Summary: "copilot -p: denies every tool no allow rule covers"},
			{Name: ModeAllowAll, Summary: "--allow-all-tools: runs every tool no deny rule covers"},
		},
		RuleSyntax: "Copilot CLI --allow-tool/--deny-tool patterns: SERVER (every tool of the server) or SERVER(TOOL) (one tool by its MCP name)",
		Notes: []string{
			"readOnlyHint true runs without asking in every mode; destructiveHint changes nothing",
			"the model may ask for several calls at once; whether the CLI runs MCP calls side by side is not measured",
		},
	}
}

// ParseApprovalRule implements search.Approver.
func (s *Simulator) ParseApprovalRule(kind search.RuleKind, text string) (any, error) {
	text = strings.TrimSpace(text)
	if text == "" || strings.ContainsAny(text, "=*") || strings.HasPrefix(text, "mcp_") {
		return nil, search.ErrNotRuleSyntax
	}
	if open := strings.IndexByte(text, '('); open >= 0 {
		if !strings.HasSuffix(text, ")") || open == 0 {
			return nil, fmt.Errorf("%q: want SERVER or SERVER(TOOL)", text)
		}
		tool := text[open+1 : len(text)-1]
		if tool == "" {
			return nil, fmt.Errorf("%q: the tool name in SERVER(TOOL) is empty", text)
		}
		return toolRule{server: text[:open], tool: tool}, nil
	}
	if strings.ContainsRune(text, ')') {
		return nil, fmt.Errorf("%q: want SERVER or SERVER(TOOL)", text)
	}
	return toolRule{server: text}, nil
}

// Approve implements search.Approver.
func (s *Simulator) Approve(t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	v := search.Verdict{Parallel: true, ParallelBecause: "the model may ask for several calls at once (not measured whether the CLI runs them side by side)"}
	if _, ok := s.byID[t.ID()]; !ok {
		v.Decision, v.Parallel, v.NotOffered = search.Deny, false, true
		v.Because = "Copilot CLI does not send this tool to the model (its name is taken by another tool, or its server's tool list cannot be read)"
		v.ParallelBecause = ""
		return v
	}
	for _, r := range rules {
		if tr, ok := r.Parsed.(toolRule); ok && r.Kind == search.DenyRule && tr.matches(t) {
			v.Decision, v.Because = search.Deny, fmt.Sprintf("deny rule %q matches (a deny rule wins over every allow)", tr)
			return v
		}
	}
	if h := t.Annotations.ReadOnlyHint; h != nil && *h {
		v.Decision, v.Because = search.Run, "readOnlyHint is true: Copilot CLI runs read-only tools without asking"
		return v
	}
	for _, r := range rules {
		if tr, ok := r.Parsed.(toolRule); ok && r.Kind == search.Allow && tr.matches(t) {
			v.Decision, v.Because = search.Run, fmt.Sprintf("allow rule %q matches", tr)
			return v
		}
	}
	switch mode {
	case ModeAllowAll:
		v.Decision, v.Because = search.Run, "--allow-all-tools runs every tool no deny rule covers"
	case ModePrompt:
		v.Decision, v.Because = search.Deny, "copilot -p cannot ask, so a tool no allow rule covers is refused; add --allow-tool="+t.Server+" or mark the tool readOnlyHint if it only reads"
	default:
		v.Decision, v.Because = search.Ask, "no allow rule covers the tool and it is not marked readOnlyHint: the user is asked"
	}
	return v
}
