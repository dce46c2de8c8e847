package copilot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/internal/lazyre"
)

// API is the wire the CLI talks to the model over (copilot.md §2,
// COPILOT_PROVIDER_TYPE and COPILOT_PROVIDER_WIRE_API).
type API string

// The wires.
const (
	// OpenAI is chat-completions (COPILOT_PROVIDER_TYPE=openai, the
	// default wire).
	OpenAI API = "openai"
	// Anthropic is the Messages API (COPILOT_PROVIDER_TYPE=anthropic).
	Anthropic API = "anthropic"
	// Responses is OpenAI's Responses API
	// (COPILOT_PROVIDER_WIRE_API=responses).
	Responses API = "responses"
)

// ParseAPI reads an --copilot-api value.
func ParseAPI(s string) (API, error) {
	switch a := API(strings.ToLower(strings.TrimSpace(s))); a {
	case OpenAI, Anthropic, Responses:
		return a, nil
	case "completions", "chat":
		return OpenAI, nil
	}
	return "", fmt.Errorf("%q: want openai (chat completions), anthropic (Messages) or responses", s)
}

// DefaultModel is the model the simulator assumes: Copilot CLI's long-time
// default, Claude Sonnet 4.5. A signed-in user's model may be chosen by
// GitHub ("Auto"), which toolfind cannot know.
const DefaultModel = "claude-sonnet-4.5"

// DefaultAPI is the wire a model's requests take when --copilot-api is not
// given: Claude models the Messages API, GPT-5.4 and newer the Responses
// API, others chat completions [inferred: the BYOK defaults are
// chat-completions for every model; these stand for what GitHub's own
// endpoint serves].
func DefaultAPI(model string) API {
	switch {
	case isClaude(model):
		return Anthropic
	case gptAtLeast(model, 5, 4) && !strings.Contains(model, "codex"):
		return Responses
	}
	return OpenAI
}

// Mode is how the MCP tools reach the model (copilot.md §1.1).
type Mode int

// The modes.
const (
	// Full: every tool definition is sent; no tool search.
	Full Mode = iota
	// Deferred: MCP tools carry defer_loading (Anthropic wire), the
	// client-side tool_search_tool is appended, the reminder lists them.
	Deferred
	// ReminderOnly: chat completions with a Claude model: the
	// tool_search_tool and the reminder are added, but every definition is
	// still sent in full (the wire has no defer flag).
	ReminderOnly
	// Hosted: the Responses wire with GPT-5.4 or newer: MCP tools sit in
	// one namespace per server with defer_loading, and OpenAI's hosted
	// tool_search (run at OpenAI, not by the CLI) is appended.
	Hosted
)

func (m Mode) String() string {
	switch m {
	case Deferred:
		return "deferred"
	case ReminderOnly:
		return "reminder-only"
	case Hosted:
		return "hosted"
	}
	return "full"
}

// DeferThreshold is the tool count above which tools are deferred: more
// than 30 tools in total, builtins counted (copilot.md §1.1, runs
// TH12–TH14: 17 + 13 = 30 defers nothing, 17 + 14 = 31 defers all 14).
const DeferThreshold = 30

var (
	claudeNew = lazyre.New(`^claude-(sonnet|opus|haiku)-(\d+)(?:[.-](\d+))?`)
	claudeOld = lazyre.New(`^claude-(\d+)(?:[.-](\d+))?-(sonnet|opus|haiku)`)
	gptRe     = lazyre.New(`^gpt-(\d+)(?:\.(\d+))?`)
)

func isClaude(model string) bool { return strings.HasPrefix(strings.ToLower(model), "claude") }

// claudeVersion returns a Claude model's family and version.
func claudeVersion(model string) (family string, major, minor int, ok bool) {
	m := strings.ToLower(model)
	if g := claudeNew.Re().FindStringSubmatch(m); g != nil {
		major, _ = strconv.Atoi(g[2])
		minor, _ = strconv.Atoi(g[3])
		return g[1], major, minor, true
	}
	if g := claudeOld.Re().FindStringSubmatch(m); g != nil {
		major, _ = strconv.Atoi(g[1])
		minor, _ = strconv.Atoi(g[2])
		return g[3], major, minor, true
	}
	return "", 0, 0, false
}

// ClientSearchModel reports whether the model gets the CLI's own
// tool_search_tool (copilot.md §1.1 matrix, observed offline for
// claude-sonnet-4, -4.5, -4.6, claude-opus-4.5, -4.6, claude-haiku-4.5
// (yes) and claude-3.7-sonnet (no); changelog 1.0.72 "Haiku 4.5+"): a
// Claude model of version 4 or later, Haiku from 4.5.
func ClientSearchModel(model string) bool {
	fam, major, minor, ok := claudeVersion(model)
	if !ok || major < 4 {
		return false
	}
	return fam != "haiku" || major > 4 || minor >= 5
}

// HostedSearchModel reports whether the model, on the Responses wire, gets
// namespaces and OpenAI's hosted tool_search (copilot.md §1.1, observed
// offline: gpt-5.4, gpt-5.4-mini and gpt-5.5 yes; gpt-5.2, gpt-5-mini,
// gpt-5.1-codex, gpt-5.3-codex, gpt-4.1 and o3 no): GPT 5.4 or later, not
// a Codex model.
func HostedSearchModel(model string) bool {
	return gptAtLeast(model, 5, 4) && !strings.Contains(strings.ToLower(model), "codex")
}

func gptAtLeast(model string, major, minor int) bool {
	g := gptRe.Re().FindStringSubmatch(strings.ToLower(model))
	if g == nil {
		return false
	}
	a, _ := strconv.Atoi(g[1])
	b, _ := strconv.Atoi(g[2])
	return a > major || a == major && b >= minor
}

// Builtins are the CLI's own tools in a -p run, in request order
// (copilot.md §1.3 "Builtins in -p offline mode", observed per model):
// GPT-5.4 and newer and the Codex models get apply_patch and rg instead
// of create, edit and grep (16 tools, whatever the wire); other models
// 17. Without COPILOT_OFFLINE web_fetch and semantic_code_search are
// added (run NOFF; where they sit among the others is not observed, so
// they are listed last). Only names are known here: the CLI's own
// descriptions and schemas are not toolfind's to copy.
func Builtins(model string, offline bool) []string {
	var b []string
	if gptAtLeast(model, 5, 4) || strings.Contains(strings.ToLower(model), "codex") {
		b = []string{"bash", "read_bash", "stop_bash", "list_bash", "apply_patch", "view", "fetch_copilot_cli_documentation", "skill", "sql", "session_store_sql", "read_agent", "list_agents", "write_agent", "rg", "glob", "task"}
	} else {
		b = []string{"bash", "read_bash", "stop_bash", "list_bash", "view", "create", "edit", "fetch_copilot_cli_documentation", "skill", "sql", "session_store_sql", "read_agent", "list_agents", "write_agent", "grep", "glob", "task"}
	}
	if !offline {
		b = append(b, "web_fetch", "semantic_code_search")
	}
	return b
}

// Decide is the per-turn decision (copilot.md §1.1): which Mode the MCP
// tools get for a model, wire and total tool count (builtins included).
// toolSearch false is the user setting toolSearch: false (opted out).
func Decide(model string, api API, total int, toolSearch bool) Mode {
	if !toolSearch || total <= DeferThreshold {
		return Full
	}
	switch api {
	case Anthropic:
		if ClientSearchModel(model) {
			return Deferred
		}
	case OpenAI:
		if ClientSearchModel(model) {
			return ReminderOnly
		}
	case Responses:
		if HostedSearchModel(model) {
			return Hosted
		}
	}
	return Full
}
