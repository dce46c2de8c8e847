package codexjs

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Approvals (search.Approver): Codex's approval check for MCP tool calls
// and its parallel-call rule (spec §6; the seed article "Notes on MCP
// Design", section "Annotations", says the same for 0.157.1). Both
// profiles (code mode and tool_search) share it and answer as
// codex@0.171.0.
//
// Modes are the values of AppToolApproval (§6.1), which a user sets for
// every tool of a server (mcp_servers.S.default_tools_approval_mode) or
// for one tool (mcp_servers.S.tools.T.approval_mode); the matrix column is
// the mode of every tool that has no setting of its own, and a setting
// overrides the column for its server or tool (the tool's own first).
//
//	auto (default)  destructiveHint == true → approval required; otherwise
//	                readOnlyHint == true → none; otherwise required unless
//	                destructiveHint == false and openWorldHint == false.
//	                A missing destructive or open-world hint counts as
//	                true, a missing read-only hint as false (§6.1), so an
//	                unannotated tool needs approval.
//	prompt          always required.
//	writes          required unless readOnlyHint == true.
//	approve         never required, whatever the session (§6.1).
//
// A call that needs approval asks, except when approval_policy is never
// (§6.1 "Skipping the prompt"): with sandbox_mode danger-full-access (full
// disk write) Codex runs it without asking, and under a restricted sandbox
// (read-only, workspace-write) it refuses it (seed: "Under a more
// restrictive sandbox, it denies any call that would have needed
// approval"). Unset, approval_policy is on-request and sandbox_mode
// read-only (Codex's defaults). Strict auto-review, which overrides both
// shortcuts (§6.1), is not simulated.
//
// Parallel (§6.2): a call may run alongside others when the tool's
// readOnlyHint is true or its server sets supports_parallel_tool_calls =
// true (default false); every other call takes an exclusive lock and runs
// alone.
//
// Rules are Codex config settings KEY=VALUE, as `codex -c` takes them
// (dotted TOML keys, quoted segments for names with dots, values bare or
// quoted), given with --allow; later settings override earlier ones.
// Codex has no deny rule for MCP tools, so --deny with a Codex setting is
// an error. Text that is not KEY=VALUE with one of the keys above is not
// read (search.ErrNotRuleSyntax).
//
// A tool Codex does not register (its server's name or tools/list is
// rejected, or it is hidden from the model; see Problems) cannot be
// called: deny.

var (
	_ search.Approver      = (*CodeMode)(nil)
	_ search.Approver      = (*ToolSearch)(nil)
	_ search.ServerAllower = (*CodeMode)(nil)
	_ search.ServerAllower = (*ToolSearch)(nil)
)

// allowServer is the setting that approves every tool of a server: its
// default_tools_approval_mode set to approve (§6.1), the name quoted
// when it is not a bare TOML key.
func allowServer(server string) string {
	return tomlKey([]string{keyServers, server, keyServerMode}) + "=approve"
}

// AllowServerRule implements search.ServerAllower.
func (m *CodeMode) AllowServerRule(server string) string { return allowServer(server) }

// AllowServerRule implements search.ServerAllower.
func (s *ToolSearch) AllowServerRule(server string) string { return allowServer(server) }

// AppToolApproval values (§6.1), the default first.
const (
	ApprovalAuto    = "auto"
	ApprovalPrompt  = "prompt"
	ApprovalWrites  = "writes"
	ApprovalApprove = "approve"
)

// Settings keys read from rules.
const (
	keyApprovalPolicy = "approval_policy"
	keySandboxMode    = "sandbox_mode"
	keyServers        = "mcp_servers"
	keyServerMode     = "default_tools_approval_mode"
	keyToolMode       = "approval_mode"
	keyParallel       = "supports_parallel_tool_calls"
)

var (
	approvalPolicies = []string{"untrusted", "on-failure", "on-request", "never"}
	sandboxModes     = []string{"read-only", "workspace-write", "danger-full-access"}
	toolModes        = []string{ApprovalAuto, ApprovalPrompt, ApprovalWrites, ApprovalApprove}
)

var codexApprovalModes = []search.ApprovalMode{
	{Name: ApprovalAuto, Summary: "asks unless annotations say read-only, or neither destructive nor open-world"},
	{Name: ApprovalPrompt, Summary: "asks for every call"},
	{Name: ApprovalWrites, Summary: "asks unless readOnlyHint is true"},
	{Name: ApprovalApprove, Summary: "never asks"},
}

func codexApprovalInfo() search.ApprovalInfo {
	return search.ApprovalInfo{
		Client: search.ClientID{Name: "codex", Version: Version},
		Modes:  codexApprovalModes,
		RuleSyntax: "Codex settings KEY=VALUE as codex -c takes them: approval_policy, sandbox_mode, " +
			"mcp_servers.SERVER.default_tools_approval_mode, mcp_servers.SERVER.tools.TOOL.approval_mode, " +
			"mcp_servers.SERVER.supports_parallel_tool_calls",
		Notes: []string{
			"modes are Codex's approval_mode values, set for every server (a server's or tool's own setting overrides the column)",
			"while a server is still starting, Codex treats the tools it serves from its cache as not read-only",
		},
	}
}

// ApprovalInfo implements search.Approver.
func (m *CodeMode) ApprovalInfo() search.ApprovalInfo { return codexApprovalInfo() }

// ParseApprovalRule implements search.Approver.
func (m *CodeMode) ParseApprovalRule(kind search.RuleKind, text string) (any, error) {
	return parseSetting(kind, text)
}

// Approve implements search.Approver.
func (m *CodeMode) Approve(t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	return approve(m.c.all, t, mode, rules)
}

// ApprovalInfo implements search.Approver.
func (s *ToolSearch) ApprovalInfo() search.ApprovalInfo { return codexApprovalInfo() }

// ParseApprovalRule implements search.Approver.
func (s *ToolSearch) ParseApprovalRule(kind search.RuleKind, text string) (any, error) {
	return parseSetting(kind, text)
}

// Approve implements search.Approver.
func (s *ToolSearch) Approve(t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	return approve(s.all, t, mode, rules)
}

// setting is one parsed Codex setting: Key is the dotted key's segments.
type setting struct {
	key   []string
	value string
}

// parseSetting reads KEY=VALUE.
func parseSetting(kind search.RuleKind, text string) (setting, error) {
	t := strings.TrimSpace(text)
	k, v, ok := strings.Cut(t, "=")
	if !ok {
		return setting{}, fmt.Errorf("%q is not KEY=VALUE: %w", t, search.ErrNotRuleSyntax)
	}
	key, err := search.SplitKey(strings.TrimSpace(k))
	if err != nil || !codexKey(key) {
		return setting{}, fmt.Errorf("%q is not a Codex approval setting: %w", t, search.ErrNotRuleSyntax)
	}
	if kind == search.DenyRule {
		return setting{}, fmt.Errorf("Codex has no deny rule for MCP tools; give Codex settings with --allow (with approval_policy=never and a sandbox that is not danger-full-access, Codex refuses the calls that need approval)")
	}
	val, err := search.SettingValue(strings.TrimSpace(v))
	if err != nil {
		return setting{}, fmt.Errorf("%s: %v", strings.Join(key, "."), err)
	}
	s := setting{key: key, value: val}
	var allowed []string
	switch last := key[len(key)-1]; {
	case len(key) == 1 && last == keyApprovalPolicy:
		allowed = approvalPolicies
	case len(key) == 1 && last == keySandboxMode:
		allowed = sandboxModes
	case len(key) == 3 && last == keyServerMode, len(key) == 5 && key[2] == "tools" && last == keyToolMode:
		allowed = toolModes
	case len(key) == 3 && last == keyParallel:
		allowed = []string{"true", "false"}
	default:
		return setting{}, fmt.Errorf("%s does not change approvals or parallel calls; Codex reads mcp_servers.SERVER.%s, mcp_servers.SERVER.tools.TOOL.%s and mcp_servers.SERVER.%s",
			strings.Join(key, "."), keyServerMode, keyToolMode, keyParallel)
	}
	for _, a := range allowed {
		if val == a {
			return s, nil
		}
	}
	return setting{}, fmt.Errorf("%s: %q is not one of %s", strings.Join(key, "."), val, strings.Join(allowed, ", "))
}

// codexKey reports whether a dotted key is one this package reads the
// syntax of: approval_policy, sandbox_mode or anything under mcp_servers.
func codexKey(key []string) bool {
	switch key[0] {
	case keyApprovalPolicy, keySandboxMode:
		return len(key) == 1
	case keyServers:
		return len(key) >= 2
	}
	return false
}

// session is the settings in force, from the rules in order (later ones
// override earlier ones). Each value keeps the rule text that set it.
type session struct {
	policy               string
	sandbox, sandboxRule string
	serverMode           map[string][2]string // server → {mode, rule}
	toolMode             map[corpus.ToolID][2]string
	parallel             map[string][2]string // server → {"true"/"false", rule}
}

func sessionOf(rules []search.Rule) session {
	s := session{policy: "on-request", sandbox: "read-only"}
	for _, r := range rules {
		st, ok := r.Parsed.(setting)
		if !ok || r.Kind != search.Allow {
			continue
		}
		k := st.key
		switch {
		case k[0] == keyApprovalPolicy:
			s.policy = st.value
		case k[0] == keySandboxMode:
			s.sandbox, s.sandboxRule = st.value, r.Text
		case len(k) == 3 && k[2] == keyServerMode:
			if s.serverMode == nil {
				s.serverMode = map[string][2]string{}
			}
			s.serverMode[k[1]] = [2]string{st.value, r.Text}
		case len(k) == 5 && k[4] == keyToolMode:
			if s.toolMode == nil {
				s.toolMode = map[corpus.ToolID][2]string{}
			}
			s.toolMode[corpus.NewToolID(k[1], k[3])] = [2]string{st.value, r.Text}
		case len(k) == 3 && k[2] == keyParallel:
			if s.parallel == nil {
				s.parallel = map[string][2]string{}
			}
			s.parallel[k[1]] = [2]string{st.value, r.Text}
		}
	}
	return s
}

// approve decides one tool as given (for a repeated name, the caller
// passes the first definition: the one Codex keeps), by the steps of the
// notes above.
func approve(all *AllTools, t *corpus.Tool, column string, rules []search.Rule) search.Verdict {
	e, ok := all.Entry(t.ID())
	if !ok || e.Tool == nil {
		return search.Verdict{Decision: search.Deny, NotOffered: true, Because: "Codex does not offer this tool to its model (see lint)",
			ParallelBecause: "never called"}
	}
	s := sessionOf(rules)
	ann := t.Annotations
	readOnly := ann.ReadOnlyHint != nil && *ann.ReadOnlyHint

	var v search.Verdict
	switch par := s.parallel[t.Server]; {
	case readOnly:
		v.Parallel, v.ParallelBecause = true, "readOnlyHint is true: Codex may run it alongside other calls"
	case par[0] == "true":
		v.Parallel, v.ParallelBecause = true, fmt.Sprintf("%s: Codex may run the server's tools alongside other calls", par[1])
	default:
		v.ParallelBecause = "not read-only and the server does not set supports_parallel_tool_calls: Codex runs it alone"
	}

	mode, from := column, ""
	if m, ok := s.serverMode[t.Server]; ok {
		mode, from = m[0], m[1]
	}
	if m, ok := s.toolMode[t.ID()]; ok {
		mode, from = m[0], m[1]
	}
	prefix := ""
	if from != "" {
		prefix = fmt.Sprintf("%s sets approval_mode %s: ", from, mode)
	}
	needs, why := needsApproval(mode, ann)
	switch {
	case !needs:
		v.Decision, v.Because = search.Run, prefix+why+", so Codex runs it without asking"
	case s.policy != "never":
		v.Decision, v.Because = search.Ask, prefix+why+", so Codex asks"
	case s.sandbox == "danger-full-access":
		v.Decision, v.Because = search.Run, prefix+why+", but under approval_policy never with sandbox_mode danger-full-access Codex skips the prompt and runs it"
	default:
		sb := "sandbox_mode " + s.sandbox
		if s.sandboxRule == "" {
			sb += " (the default)"
		}
		v.Decision, v.Because = search.Deny, prefix+why+", and under approval_policy never with "+sb+" Codex refuses it instead of asking"
	}
	return v
}

// needsApproval applies one AppToolApproval mode (§6.1) and says why.
func needsApproval(mode string, ann corpus.Annotations) (bool, string) {
	is := func(h *bool) bool { return h != nil && *h }
	isNot := func(h *bool) bool { return h != nil && !*h }
	switch mode {
	case ApprovalPrompt:
		return true, "approval_mode prompt needs approval for every call"
	case ApprovalApprove:
		return false, "approval_mode approve needs no approval"
	case ApprovalWrites:
		if is(ann.ReadOnlyHint) {
			return false, "readOnlyHint is true"
		}
		return true, "readOnlyHint is not true"
	}
	// auto
	switch {
	case is(ann.DestructiveHint):
		return true, "destructiveHint is true"
	case is(ann.ReadOnlyHint):
		return false, "readOnlyHint is true"
	case isNot(ann.DestructiveHint) && isNot(ann.OpenWorldHint):
		return false, "destructiveHint and openWorldHint are both false"
	}
	var why []string
	if ann.DestructiveHint == nil {
		why = append(why, "destructiveHint is missing (counts as true)")
	}
	switch {
	case ann.OpenWorldHint == nil:
		why = append(why, "openWorldHint is missing (counts as true)")
	case *ann.OpenWorldHint:
		why = append(why, "openWorldHint is true")
	}
	return true, strings.Join(why, " and ")
}

var (
	_ search.ConfigReader = (*CodeMode)(nil)
	_ search.ConfigReader = (*ToolSearch)(nil)
)

// ApprovalRulesFromConfig implements search.ConfigReader.
func (m *CodeMode) ApprovalRulesFromConfig(file string, data []byte) ([]search.RuleText, []string, bool, error) {
	return settingsFromConfig(file, data)
}

// ApprovalRulesFromConfig implements search.ConfigReader.
func (s *ToolSearch) ApprovalRulesFromConfig(file string, data []byte) ([]search.RuleText, []string, bool, error) {
	return settingsFromConfig(file, data)
}

// settingsFromConfig reads the approval settings of a Codex config.toml
// as the KEY=VALUE rules parseSetting reads: approval_policy,
// sandbox_mode, and per server default_tools_approval_mode,
// supports_parallel_tool_calls and tools.T.approval_mode, servers and
// tools in sorted order. A file that does not parse as TOML, or has none
// of these keys and is not named *.toml, is not a Codex config (ok
// false); a *.toml file that does not parse is an error with its line.
func settingsFromConfig(file string, data []byte) ([]search.RuleText, []string, bool, error) {
	var doc map[string]any
	toTOML := strings.HasSuffix(strings.ToLower(file), ".toml")
	if err := toml.Unmarshal(data, &doc); err != nil {
		if !toTOML {
			return nil, nil, false, nil
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, nil, true, fmt.Errorf("%s:%d:%d: %v", file, line, col, de)
		}
		return nil, nil, true, fmt.Errorf("%s: %v", file, err)
	}
	var rules []search.RuleText
	add := func(path []string, v any) error {
		key := tomlKey(path)
		var val string
		switch x := v.(type) {
		case string:
			val = tomlKey([]string{x}) // bare when it can be
		case bool:
			val = fmt.Sprint(x)
		default:
			return fmt.Errorf("%s: %s: %T is not a string or a boolean", file, key, v)
		}
		rules = append(rules, search.RuleText{Kind: search.Allow, Text: key + "=" + val, Source: file})
		return nil
	}
	for _, k := range []string{keyApprovalPolicy, keySandboxMode} {
		if v, ok := doc[k]; ok {
			if err := add([]string{k}, v); err != nil {
				return nil, nil, true, err
			}
		}
	}
	servers, _ := doc[keyServers].(map[string]any)
	for _, name := range sortedKeys(servers) {
		srv, ok := servers[name].(map[string]any)
		if !ok {
			continue
		}
		for _, k := range []string{keyServerMode, keyParallel} {
			if v, ok := srv[k]; ok {
				if err := add([]string{keyServers, name, k}, v); err != nil {
					return nil, nil, true, err
				}
			}
		}
		tools, _ := srv["tools"].(map[string]any)
		for _, tname := range sortedKeys(tools) {
			if t, ok := tools[tname].(map[string]any); ok {
				if v, ok := t[keyToolMode]; ok {
					if err := add([]string{keyServers, name, "tools", tname, keyToolMode}, v); err != nil {
						return nil, nil, true, err
					}
				}
			}
		}
	}
	if len(rules) == 0 && !toTOML {
		return nil, nil, false, nil
	}
	var notes []string
	if len(rules) == 0 {
		notes = append(notes, file+": no approval setting (approval_policy, sandbox_mode, approval modes, supports_parallel_tool_calls); Codex's defaults apply")
	}
	return rules, notes, true, nil
}

// tomlKey joins key segments, quoting those that are not bare keys.
func tomlKey(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
			parts[i] = p
		} else {
			parts[i] = strconvQuote(p)
		}
	}
	return strings.Join(parts, ".")
}

// strconvQuote writes s as a TOML basic string with the two escapes
// splitKey and settingValue read back (\" and \\); other characters stay.
func strconvQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
