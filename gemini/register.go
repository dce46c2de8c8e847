package gemini

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Option names (flags --gemini-<name>).
const (
	OptTrusted   = "trusted"
	OptYOLO      = "yolo"
	OptResources = "resources"
)

func init() {
	search.Register(search.Profile{
		ID: ID, Default: true, Verify: true,
		Summary:  "Gemini CLI 0.61.0: every MCP tool declared up front as mcp_{server}_{tool}, no tool search (verified)",
		Verified: "real Gemini CLI 0.61.0 run headless: declarations and results tool by tool",
		Options: []search.Option{
			{Name: OptTrusted, Kind: search.StringOption, Default: "all",
				Usage: `servers with an allow rule ("trust": true, mcp.allowed, --allowed-mcp-server-names): "all", "none" or a comma-separated list; a headless run declares no tool of the others`},
			{Name: OptYOLO, Kind: search.BoolOption, Default: "false",
				Usage: "--yolo: every server's tools and the write, shell and fetch built-ins are declared"},
			{Name: OptResources, Kind: search.BoolOption, Default: "false",
				Usage: "a connected server has resources: read_mcp_resource and list_mcp_resources are declared too"},
		},
		New: func(cat *corpus.Catalog, o search.Options) (search.Simulator, error) {
			cfg, err := ParseConfig(o)
			if err != nil {
				return nil, err
			}
			return New(cat, cfg), nil
		},
	})
}

// ParseConfig reads the profile's options.
func ParseConfig(o search.Options) (Config, error) {
	var cfg Config
	var err error
	if cfg.YOLO, err = o.Bool(OptYOLO, false); err != nil {
		return cfg, err
	}
	if cfg.Resources, err = o.Bool(OptResources, false); err != nil {
		return cfg, err
	}
	switch v := strings.TrimSpace(o.String(OptTrusted, "all")); v {
	case "all", "*":
		cfg.AllTrusted = true
	case "none", "":
	default:
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s == "" {
				return cfg, &search.OptionError{Option: OptTrusted, Err: fmt.Errorf("%q has an empty server name", v)}
			}
			cfg.Trusted = append(cfg.Trusted, s)
		}
	}
	return cfg, nil
}
