package copilot

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Option names (flags --copilot-<name>).
const (
	OptModel      = "model"
	OptAPI        = "api"
	OptOffline    = "offline"
	OptToolSearch = "tool-search"
	OptNeverDefer = "never-defer"
)

func init() {
	search.Register(search.Profile{
		ID: ID, Default: true, Verify: true,
		Summary:  "GitHub Copilot CLI 1.0.102: <server>-<tool> names; past 30 tools, MCP tools deferred and found with tool_search_tool, a regular expression (Claude models), or OpenAI's hosted tool_search (GPT-5.4+ over Responses)",
		Verified: "real Copilot CLI 1.0.102 run offline against an emulated model API: tool entries, deferral and search results",
		Options: []search.Option{
			{Name: OptModel, Kind: search.StringOption, Default: DefaultModel,
				Usage: "the model (COPILOT_MODEL): which builtins the CLI adds and whether tools are deferred depend on it"},
			{Name: OptAPI, Kind: search.StringOption,
				Usage: "the wire the CLI talks to the model over: openai (chat completions), anthropic (Messages) or responses (default: anthropic for Claude models, responses for GPT-5.4 and newer, else openai)"},
			{Name: OptOffline, Kind: search.BoolOption, Default: "false",
				Usage: "COPILOT_OFFLINE=true: the CLI leaves out its web_fetch and semantic_code_search tools (two fewer tools toward the 30 that turn on deferral)"},
			{Name: OptToolSearch, Kind: search.BoolOption, Default: "true",
				Usage: `the "toolSearch" setting: false sends every tool in full`},
			{Name: OptNeverDefer, Kind: search.StringOption,
				Usage: `servers configured with "deferTools": "never", comma-separated: their tools are always sent in full`},
		},
		New: func(cat *corpus.Catalog, o search.Options) (search.Simulator, error) {
			opts, err := ParseOptions(o)
			if err != nil {
				return nil, err
			}
			return New(cat, opts), nil
		},
	})
}

// ParseOptions reads the profile's options.
func ParseOptions(o search.Options) (Options, error) {
	var opts Options
	opts.Model = strings.TrimSpace(o.String(OptModel, DefaultModel))
	if opts.Model == "" {
		return opts, &search.OptionError{Option: OptModel, Err: fmt.Errorf("empty model name")}
	}
	if a := strings.TrimSpace(o.String(OptAPI, "")); a != "" {
		api, err := ParseAPI(a)
		if err != nil {
			return opts, &search.OptionError{Option: OptAPI, Err: err}
		}
		opts.API = api
	}
	var err error
	if opts.Offline, err = o.Bool(OptOffline, false); err != nil {
		return opts, err
	}
	ts, err := o.Bool(OptToolSearch, true)
	if err != nil {
		return opts, err
	}
	opts.NoToolSearch = !ts
	if v := strings.TrimSpace(o.String(OptNeverDefer, "")); v != "" {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				opts.NeverDefer = append(opts.NeverDefer, s)
			}
		}
	}
	return opts, nil
}
