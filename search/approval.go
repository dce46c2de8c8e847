package search

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

// Approvals: will the client run a tool without asking, and alongside
// other calls?
//
// A client that simulates its permission check implements Approver on its
// simulator (like Viewer and Reporter). The contract has three parts:
//
//  1. ApprovalInfo: the client's permission modes in its own order (the
//     first is the one a new session starts in), which of them toolfind
//     cannot decide (Claude Code's auto classifier), and a one-line
//     description of the rule syntax it reads.
//  2. ParseApprovalRule: one --allow or --deny rule in the client's own
//     syntax (a Claude Code permission rule "mcp__demo__*", a Codex
//     config setting "approval_policy=never", Gemini CLI's trust or
//     allowed servers, Copilot CLI's --allow-tool pattern). Text that is
//     not the client's syntax at all is an error wrapping
//     ErrNotRuleSyntax, so a rule written for one client is skipped by
//     the others; text in the client's syntax that it cannot use is any
//     other error, and the command stops on it.
//  3. Approve: the decision for one tool in one mode under the parsed
//     rules: run, ask or deny, whether the call may run at the same time
//     as other calls, and why (the annotation, _meta key, mode or rule
//     that decided), in words a server author reads.
//
// The shared command (`toolfind approvals`) iterates over the selected
// simulators: Approvers picks one Approver per approval client (several
// simulators of one client, like Codex code mode and Codex tool_search,
// share one permission check and name the same client), ParseRules routes
// the user's rules, and Decide fills the rows. A simulator that does not
// implement Approver is listed as not simulated; no decision is guessed
// for it.

// Decision is what the client does when its model calls the tool.
type Decision string

// The three decisions.
const (
	Run  Decision = "run"  // called without asking
	Ask  Decision = "ask"  // the user is asked to approve the call
	Deny Decision = "deny" // refused without asking
)

// RuleKind says whether a user's rule allows or denies.
type RuleKind int

// Rule kinds: --allow and --deny (a settings file's allow and deny lists).
const (
	Allow RuleKind = iota
	DenyRule
)

func (k RuleKind) String() string {
	if k == DenyRule {
		return "deny"
	}
	return "allow"
}

// Flag is the command-line flag the kind comes from, "--allow" or "--deny".
func (k RuleKind) Flag() string { return "--" + k.String() }

// ErrNotRuleSyntax is wrapped by ParseApprovalRule for text that is not a
// rule in the client's syntax at all.
var ErrNotRuleSyntax = errors.New("not a rule in this client's syntax")

// Rule is one parsed user rule.
type Rule struct {
	Kind RuleKind
	// Text is the rule as the user wrote it, without a "client:" prefix.
	Text string
	// Source is where it was read (RuleText.Source); empty for a flag.
	Source string
	// Parsed is the client's own form, as ParseApprovalRule returned it.
	Parsed any
}

// ApprovalMode is one permission mode of a client.
type ApprovalMode struct {
	// Name is the mode as the client's users name it ("default",
	// "bypassPermissions", "auto").
	Name string `json:"mode"`
	// Summary says in a few words what the mode is, for help and legends.
	Summary string `json:"summary,omitempty"`
	// NotSimulated, when not empty, says why toolfind does not decide calls
	// in this mode (it is listed, never guessed).
	NotSimulated string `json:"not_simulated,omitempty"`
}

// ApprovalInfo describes a client's permission check.
type ApprovalInfo struct {
	// Client names the client whose check this is. Simulators that share a
	// check return the same ID; the command asks the first of them.
	Client ClientID
	// Modes are the client's permission modes in the client's order; the
	// first is the default a new session starts in.
	Modes []ApprovalMode
	// RuleSyntax says in one line which rules the client reads, e.g.
	// "Claude Code permission rules: mcp__SERVER, mcp__SERVER__*,
	// mcp__SERVER__TOOL". Error messages quote it.
	RuleSyntax string
	// NotSimulated, when not empty, says why no mode of this profile is
	// decided (e.g. a release nobody measured); Modes may then be empty.
	NotSimulated string
	// Notes are remarks for the user about the whole check (what was
	// measured on which release), in a fixed order.
	Notes []string
}

// Verdict is a client's decision for one tool in one mode.
type Verdict struct {
	// Client, Mode and Tool say whose decision for what; Approve may leave
	// them empty, Decide fills them in.
	Client   string        `json:"client"`
	Mode     string        `json:"mode"`
	Tool     corpus.ToolID `json:"tool"`
	Decision Decision      `json:"decision"`
	// Parallel says whether the call may run at the same time as other
	// calls in flight (false: the client runs it alone, one after
	// another).
	Parallel bool `json:"parallel"`
	// Because says what decided, e.g. `readOnlyHint is true` or `allow
	// rule "mcp__demo__*" matches`; ParallelBecause the same for Parallel.
	Because         string `json:"because"`
	ParallelBecause string `json:"parallel_because"`
	// NotOffered marks a tool the client never offers its model (dropped,
	// skipped, hidden): the decision is Deny, Parallel false.
	NotOffered bool `json:"not_offered,omitempty"`
}

// Approver is implemented by simulators whose client's permission check
// toolfind reproduces.
type Approver interface {
	ApprovalInfo() ApprovalInfo
	// ParseApprovalRule reads one rule in the client's syntax (see the
	// package notes above); the result goes into Rule.Parsed.
	ParseApprovalRule(kind RuleKind, text string) (any, error)
	// Approve decides one tool of the simulator's catalog in one of the
	// modes ApprovalInfo lists as simulated, under rules (each parsed by
	// this Approver). It must be deterministic and safe for concurrent use.
	Approve(t *corpus.Tool, mode string, rules []Rule) Verdict
}

// ServerAllower is implemented by approvers whose rule syntax can allow
// every tool of one server (Claude Code's mcp__SERVER__*), so that lint
// can say what a tool's annotations change for a user who allowed its
// server. The rule must parse with ParseApprovalRule.
type ServerAllower interface {
	AllowServerRule(server string) string
}

// Approvers returns one Approver per approval client among sims, in the
// order of sims (the first simulator of a client wins), and the
// simulators that implement none (clients whose approvals are not
// simulated), also in order.
func Approvers(sims []Simulator) (apps []Approver, without []Simulator) {
	seen := map[ClientID]bool{}
	for _, sim := range sims {
		a, ok := sim.(Approver)
		if !ok {
			without = append(without, sim)
			continue
		}
		id := a.ApprovalInfo().Client
		if !seen[id] {
			seen[id] = true
			apps = append(apps, a)
		}
	}
	return apps, without
}

// RuleError is a user rule that cannot be used.
type RuleError struct {
	Kind RuleKind
	Rule string // as written, with any client prefix
	// Source is where the rule was read, when not from a flag.
	Source string
	// Client is the client that rejected it; empty when no selected
	// client reads the syntax.
	Client string
	Err    error
}

func (e *RuleError) Error() string {
	w := RuleText{Kind: e.Kind, Text: e.Rule, Source: e.Source}.where()
	if e.Client != "" {
		return fmt.Sprintf("%s: %s: %v", w, e.Client, e.Err)
	}
	return fmt.Sprintf("%s: %v", w, e.Err)
}

func (e *RuleError) Unwrap() error { return e.Err }

// RuleText is one rule as the user gave it.
type RuleText struct {
	Kind RuleKind
	Text string
	// Source, when not empty, says where the rule was read instead of a
	// flag ("settings.json: permissions.allow[2]", "config.toml"); errors
	// and notes name it.
	Source string
}

// where names the rule for errors and notes: its source, or the flag.
func (rt RuleText) where() string {
	if rt.Source != "" {
		return fmt.Sprintf("%s: %q", rt.Source, rt.Text)
	}
	return fmt.Sprintf("%s %q", rt.Kind.Flag(), rt.Text)
}

// ConfigReader is implemented by approvers that read the user's rules
// from their client's own settings file (Claude Code's settings.json
// "permissions", Codex's config.toml). ok is false, with no error, when
// data is not such a file; rules go to this client only (ParseRules with
// a "NAME:" prefix), each with its Source set; notes say what was not
// read.
type ConfigReader interface {
	ApprovalRulesFromConfig(file string, data []byte) (rules []RuleText, notes []string, ok bool, err error)
}

// ParseRules routes the user's rules to the approvers. A rule written
// "NAME:RULE", where NAME is a client name among apps (claude, codex, …),
// goes to that client only and must parse there. Any other rule goes to
// every approver that reads its syntax; approvers for which it is not
// their syntax skip it (a note says so), and a rule no approver reads is
// an error listing each client's syntax. The result holds each approver's
// rules by ApprovalInfo().Client, in the order given.
func ParseRules(apps []Approver, rules []RuleText) (map[ClientID][]Rule, []string, error) {
	out := map[ClientID][]Rule{}
	var notes []string
	byName := map[string]Approver{}
	for _, a := range apps {
		byName[a.ApprovalInfo().Client.Name] = a
	}
	for _, rt := range rules {
		text := strings.TrimSpace(rt.Text)
		if text == "" {
			return nil, nil, &RuleError{Kind: rt.Kind, Rule: rt.Text, Source: rt.Source, Err: errors.New("empty rule")}
		}
		if name, rest, ok := strings.Cut(text, ":"); ok {
			if a, ok := byName[name]; ok {
				info := a.ApprovalInfo()
				p, err := a.ParseApprovalRule(rt.Kind, rest)
				if err != nil {
					shown := text // as typed; a rule read from a file without the prefix added to route it
					if rt.Source != "" {
						shown = rest
					}
					return nil, nil, &RuleError{Kind: rt.Kind, Rule: shown, Source: rt.Source, Client: info.Client.String(),
						Err: withSyntax(err, info)}
				}
				out[info.Client] = append(out[info.Client], Rule{Kind: rt.Kind, Text: rest, Source: rt.Source, Parsed: p})
				continue
			}
		}
		used := false
		var skipped, syntaxes []string
		for _, a := range apps {
			info := a.ApprovalInfo()
			if info.NotSimulated != "" {
				continue
			}
			p, err := a.ParseApprovalRule(rt.Kind, text)
			if errors.Is(err, ErrNotRuleSyntax) {
				skipped = append(skipped, info.Client.String())
				syntaxes = append(syntaxes, info.Client.String()+" reads "+info.RuleSyntax)
				continue
			}
			if err != nil {
				return nil, nil, &RuleError{Kind: rt.Kind, Rule: text, Source: rt.Source, Client: info.Client.String(),
					Err: withSyntax(err, info)}
			}
			used = true
			out[info.Client] = append(out[info.Client], Rule{Kind: rt.Kind, Text: text, Source: rt.Source, Parsed: p})
		}
		if !used {
			msg := "no selected client reads this rule"
			if len(syntaxes) > 0 {
				msg += ": " + strings.Join(syntaxes, "; ")
			}
			return nil, nil, &RuleError{Kind: rt.Kind, Rule: text, Source: rt.Source, Err: errors.New(msg)}
		}
		if len(skipped) > 0 {
			notes = append(notes, fmt.Sprintf("%s is not a rule of %s; not applied there", RuleText{Kind: rt.Kind, Text: text, Source: rt.Source}.where(), strings.Join(skipped, ", ")))
		}
	}
	return out, notes, nil
}

func withSyntax(err error, info ApprovalInfo) error {
	if info.RuleSyntax == "" || !errors.Is(err, ErrNotRuleSyntax) {
		return err
	}
	return fmt.Errorf("%w; it reads %s", err, info.RuleSyntax)
}

// Decide asks the approver about every tool in every simulated mode, in
// mode order, then tool order, and fills each verdict's Client, Mode and
// Tool.
func Decide(a Approver, tools []*corpus.Tool, rules []Rule) []Verdict {
	info := a.ApprovalInfo()
	if info.NotSimulated != "" {
		return nil
	}
	var out []Verdict
	for _, m := range info.Modes {
		if m.NotSimulated != "" {
			continue
		}
		for _, t := range tools {
			v := a.Approve(t, m.Name, rules)
			v.Client, v.Mode, v.Tool = info.Client.String(), m.Name, t.ID()
			out = append(out, v)
		}
	}
	return out
}

// DefaultMode returns the mode a new session starts in (the first of
// Modes), or "" when it is not simulated.
func (info ApprovalInfo) DefaultMode() string {
	if info.NotSimulated != "" || len(info.Modes) == 0 || info.Modes[0].NotSimulated != "" {
		return ""
	}
	return info.Modes[0].Name
}

// SplitKey splits a dotted settings key as TOML writes it (Codex
// config.toml; Gemini CLI settings paths are written the same way): bare segments [A-Za-z0-9_-]+, basic
// "..." (escapes \" and \\) and literal '...' segments, dots between,
// spaces around dots allowed.
func SplitKey(k string) ([]string, error) {
	var out []string
	i := 0
	for {
		for i < len(k) && (k[i] == ' ' || k[i] == '\t') {
			i++
		}
		if i >= len(k) {
			return nil, fmt.Errorf("key %q: a segment is missing", k)
		}
		var seg strings.Builder
		switch c := k[i]; {
		case c == '"' || c == '\'':
			i++
			closed := false
			for i < len(k) {
				ch := k[i]
				if ch == c {
					closed = true
					i++
					break
				}
				if c == '"' && ch == '\\' && i+1 < len(k) && (k[i+1] == '"' || k[i+1] == '\\') {
					ch = k[i+1]
					i++
				}
				seg.WriteByte(ch)
				i++
			}
			if !closed {
				return nil, fmt.Errorf("key %q: unclosed quote", k)
			}
		default:
			for i < len(k) && BareKeyChar(k[i]) {
				seg.WriteByte(k[i])
				i++
			}
			if seg.Len() == 0 {
				return nil, fmt.Errorf("key %q: unexpected %q", k, k[i])
			}
		}
		out = append(out, seg.String())
		for i < len(k) && (k[i] == ' ' || k[i] == '\t') {
			i++
		}
		if i >= len(k) {
			return out, nil
		}
		if k[i] != '.' {
			return nil, fmt.Errorf("key %q: unexpected %q", k, k[i])
		}
		i++
	}
}

// BareKeyChar reports whether c may appear in a bare TOML key.
func BareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// SettingValue reads the value of a KEY=VALUE setting: bare, or one
// quoted string (its quotes removed, nothing unescaped).
func SettingValue(v string) (string, error) {
	if v == "" {
		return "", fmt.Errorf("the value is missing")
	}
	if q := v[0]; q == '"' || q == '\'' {
		if len(v) < 2 || v[len(v)-1] != q || strings.ContainsRune(v[1:len(v)-1], rune(q)) {
			return "", fmt.Errorf("value %s: want one quoted string", v)
		}
		return v[1 : len(v)-1], nil
	}
	return v, nil
}
