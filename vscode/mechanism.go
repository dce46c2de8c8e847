package vscode

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Mechanism is how one request presents the tools (copilot.md §3.1).
type Mechanism int

const (
	// VirtualTools: tools are grouped behind activate_* stubs once the
	// request has 64 or more (§3.1.3, §3.3).
	VirtualTools Mechanism = iota
	// AnthropicSearch: every tool is sent, the non-core ones with
	// defer_loading, and the model searches (§3.1.1).
	AnthropicSearch
	// ResponsesSearch: OpenAI Responses tool search for GPT-5.4 and newer
	// (§3.1.2).
	ResponsesSearch
)

func (m Mechanism) String() string {
	switch m {
	case AnthropicSearch:
		return "anthropic-tool-search"
	case ResponsesSearch:
		return "responses-tool-search"
	}
	return "virtual-tools"
}

// SearchMode is where a tool search runs (§3.1.1 "server | client").
type SearchMode string

const (
	// ServerSearch: at the provider (Anthropic's tool_search_tool_regex,
	// OpenAI's hosted tool_search).
	ServerSearch SearchMode = "server"
	// ClientSearch: VS Code's own embeddings tool_search.
	ClientSearch SearchMode = "client"
)

// Embeddings says what stands in for the Copilot embeddings that VS Code
// uses for cluster membership, the activate_embeddings top 10 and its
// client-side tool_search (§3.6). None is exact; each is named in every
// output that depends on it.
type Embeddings string

const (
	// WordEmbeddings is toolfind's deterministic stand-in: tf-idf cosine
	// over the words of "name\n\ndescription" (§3.3 step 8 names the
	// embedded text), average-linkage clustering to the target count.
	WordEmbeddings Embeddings = "words"
	// NoEmbeddings is a user without Copilot embeddings (BYOK while signed
	// out): in the 2026-03 snapshot a toolset on the clustering path then
	// yields nothing, so its tools are dropped (microsoft/vscode#327424,
	// §3.6, §4.2); no activate_embeddings group.
	NoEmbeddings Embeddings = "none"
	// RegistrationFallback is the later deterministic fallback of PR
	// #328469 (§3.6): without embeddings a toolset passes its first
	// allocation−1 tools through in registration order and puts the rest
	// into one activation group.
	RegistrationFallback Embeddings = "registration"
)

// GroupNames says what stands in for the LLM that names and summarises
// groups (§3.3 step 5).
type GroupNames string

const (
	// WordNames is toolfind's stand-in: a toolset's single group is named
	// after the server ("github_tools"), a cluster after its most frequent
	// name word ("issue_tools"); the summary is VS Code's own fallback
	// text "Contains the tools: a, b, …".
	WordNames GroupNames = "words"
	// FallbackNames is exactly what VS Code does when the description call
	// fails: group_<i> (i the group's index in the toolset's description
	// request) and "Contains the tools: a, b, …".
	FallbackNames GroupNames = "fallback"
)

// Options are the simulator's settings (flags --vscode-<name>, register.go).
type Options struct {
	// Model is the chat model id ("" is DefaultModel).
	Model string
	// Builtins is how many VS Code built-in tools the request carries
	// (DefaultBuiltins when 0 and BuiltinsSet is false).
	Builtins    int
	BuiltinsSet bool
	// NoAnthropicSearch is github.copilot.chat.anthropic.toolSearchTool.enabled: false.
	NoAnthropicSearch bool
	// NoResponsesSearch turns the Responses tool search off.
	NoResponsesSearch bool
	// SearchMode is github.copilot.chat.anthropic.toolSearchTool.mode
	// (and the Responses mode); "" is ServerSearch.
	SearchMode SearchMode
	// Subagent: the request is a subagent's (or not in the Agent
	// location), which never gets tool search (§3.1.1, §3.1.2).
	Subagent bool
	// Embeddings and GroupNames choose the stand-ins ("" is the default).
	Embeddings Embeddings
	GroupNames GroupNames
}

// DefaultModel is the model a VS Code user gets without choosing one.
// The spec does not name VS Code's default; gpt-4.1 is Copilot's included
// base model (a 0× model that Auto also picks), and it goes through
// virtual tools (§3.1.3). [toolfind's choice, unverified]
const DefaultModel = "gpt-4.1"

// DefaultBuiltins is the built-in tool count of copilot.md §4.2's worked
// example (microsoft/vscode#327424: 51 built-ins). The real count depends
// on the VS Code release, enabled tool sets and extensions.
const DefaultBuiltins = 51

func (o Options) model() string {
	if o.Model == "" {
		return DefaultModel
	}
	return o.Model
}

func (o Options) builtins() int {
	if o.Builtins == 0 && !o.BuiltinsSet {
		return DefaultBuiltins
	}
	return o.Builtins
}

func (o Options) searchMode() SearchMode {
	if o.SearchMode == "" {
		return ServerSearch
	}
	return o.SearchMode
}

func (o Options) embeddings() Embeddings {
	if o.Embeddings == "" {
		return WordEmbeddings
	}
	return o.Embeddings
}

func (o Options) groupNames() GroupNames {
	if o.GroupNames == "" {
		return WordNames
	}
	return o.GroupNames
}

// AnthropicSearchModel reports whether the 2026-03 snapshot gives the
// model Anthropic tool search: its id starts with one of
// AnthropicToolSearchModels (copilot.md §3.1.1).
func AnthropicSearchModel(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	for _, p := range AnthropicToolSearchModels {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

var gptVersion = regexp.MustCompile(`^gpt-(\d+)(?:\.(\d+))?`)

// ResponsesSearchModel reports whether the model is GPT-5.4 or newer,
// which gets OpenAI Responses tool search (copilot.md §3.1.2; a later
// version keys on the endpoint's supportsToolSearch, set for gpt-5.4/5.5).
func ResponsesSearchModel(model string) bool {
	m := gptVersion.FindStringSubmatch(strings.ToLower(strings.TrimSpace(model)))
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[1])
	minor := 0
	if m[2] != "" {
		minor, _ = strconv.Atoi(m[2])
	}
	return major > 5 || major == 5 && minor >= 4
}

// Decide is the mechanism of a request (copilot.md §3.1): Anthropic tool
// search for the supported Claude models, Responses tool search for
// GPT-5.4+, each only when enabled and not for a subagent; virtual tools
// for everything else (Gemini, BYOK endpoints, older GPT and Claude).
func Decide(o Options) Mechanism {
	m := o.model()
	switch {
	case o.Subagent:
		return VirtualTools
	case AnthropicSearchModel(m) && !o.NoAnthropicSearch:
		return AnthropicSearch
	case ResponsesSearchModel(m) && !o.NoResponsesSearch:
		return ResponsesSearch
	}
	return VirtualTools
}

// Validate checks option values.
func (o Options) Validate() error {
	if o.Builtins < 0 {
		return fmt.Errorf("builtins: %d is negative", o.Builtins)
	}
	switch o.searchMode() {
	case ServerSearch, ClientSearch:
	default:
		return fmt.Errorf("search-mode: %q: want server or client", o.SearchMode)
	}
	switch o.embeddings() {
	case WordEmbeddings, NoEmbeddings, RegistrationFallback:
	default:
		return fmt.Errorf("embeddings: %q: want words, none or registration", o.Embeddings)
	}
	switch o.groupNames() {
	case WordNames, FallbackNames:
	default:
		return fmt.Errorf("group-names: %q: want words or fallback", o.GroupNames)
	}
	return nil
}
