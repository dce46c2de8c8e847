package vscode

import (
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Option names (flags --vscode-<name>).
const (
	OptModel             = "model"
	OptBuiltins          = "builtins"
	OptAnthropicSearch   = "anthropic-tool-search"
	OptResponsesSearch   = "responses-tool-search"
	OptSearchMode        = "search-mode"
	OptSubagent          = "subagent"
	OptEmbeddings        = "embeddings"
	OptGroupNames        = "group-names"
	builtinsDefaultValue = "51"
)

func init() {
	search.Register(search.Profile{
		ID: ID, Default: true,
		Summary: "VS Code Copilot Chat (source of 2026-03-28): from 64 tools, MCP tools grouped behind activate_* stubs in an 88-slot budget; Claude Sonnet/Opus 4.5+ and GPT-5.4+ defer them to tool search instead (from source; group names and clusters approximate)",
		Options: []search.Option{
			{Name: OptModel, Kind: search.StringOption, Default: DefaultModel,
				Usage: "the chat model: Claude Sonnet/Opus 4.5 and 4.6 get Anthropic tool search, GPT-5.4 and newer Responses tool search, every other model virtual tools"},
			{Name: OptBuiltins, Kind: search.IntOption, Default: builtinsDefaultValue,
				Usage: "VS Code built-in tools in the request (they count toward 64 and take slots of the 88)"},
			{Name: OptAnthropicSearch, Kind: search.BoolOption, Default: "true",
				Usage: "github.copilot.chat.anthropic.toolSearchTool.enabled: false sends Claude models virtual tools"},
			{Name: OptResponsesSearch, Kind: search.BoolOption, Default: "true",
				Usage: "Responses tool search for GPT-5.4 and newer (later 2026 versions): false sends them virtual tools"},
			{Name: OptSearchMode, Kind: search.StringOption, Default: string(ServerSearch),
				Usage: "where tool search runs: server (at the provider, not ranked by toolfind) or client (VS Code's tool_search; toolfind ranks it with a word-similarity stand-in)"},
			{Name: OptSubagent, Kind: search.BoolOption, Default: "false",
				Usage: "a subagent's request (or not in Agent mode): never tool search, always virtual tools"},
			{Name: OptEmbeddings, Kind: search.StringOption, Default: string(WordEmbeddings),
				Usage: "stand-in for Copilot embeddings (clusters, activate_embeddings, client tool_search): words (toolfind's word similarity), none (signed out: clustered servers are dropped, as in 2026-03) or registration (a later VS Code's fallback: first tools flat, the rest in one group)"},
			{Name: OptGroupNames, Kind: search.StringOption, Default: string(WordNames),
				Usage: "stand-in for the LLM that names groups: words (after the server or the commonest word) or fallback (VS Code's own group_<i> when the LLM call fails)"},
		},
		New: func(cat *corpus.Catalog, o search.Options) (search.Simulator, error) {
			opts, err := ParseOptions(o)
			if err != nil {
				return nil, err
			}
			return New(cat, opts)
		},
	})
}

// ParseOptions reads the profile's options.
func ParseOptions(o search.Options) (Options, error) {
	var opts Options
	var err error
	opts.Model = strings.TrimSpace(o.String(OptModel, DefaultModel))
	if opts.Model == "" {
		return opts, &search.OptionError{Option: OptModel, Err: errText("empty model name")}
	}
	if opts.Builtins, err = o.Int(OptBuiltins, DefaultBuiltins); err != nil {
		return opts, err
	}
	opts.BuiltinsSet = true
	if opts.Builtins < 0 {
		return opts, &search.OptionError{Option: OptBuiltins, Err: errText("must be 0 or more")}
	}
	a, err := o.Bool(OptAnthropicSearch, true)
	if err != nil {
		return opts, err
	}
	r, err := o.Bool(OptResponsesSearch, true)
	if err != nil {
		return opts, err
	}
	opts.NoAnthropicSearch, opts.NoResponsesSearch = !a, !r
	if opts.Subagent, err = o.Bool(OptSubagent, false); err != nil {
		return opts, err
	}
	opts.SearchMode = SearchMode(strings.TrimSpace(o.String(OptSearchMode, string(ServerSearch))))
	opts.Embeddings = Embeddings(strings.TrimSpace(o.String(OptEmbeddings, string(WordEmbeddings))))
	opts.GroupNames = GroupNames(strings.TrimSpace(o.String(OptGroupNames, string(WordNames))))
	if err := opts.Validate(); err != nil {
		name, msg, _ := strings.Cut(err.Error(), ": ")
		return opts, &search.OptionError{Option: name, Err: errText(msg)}
	}
	return opts, nil
}

type errText string

func (e errText) Error() string { return string(e) }
