// Package toolfind tells MCP server authors and agent builders whether each
// AI agent client will find their tools, and what its model will see of
// them, by simulating each client's tool discovery exactly — no model and
// no API key needed.
//
// The facade loads catalogs and query sets (package corpus), builds client
// simulators by name (package search's registry, filled by the simulator
// packages this package imports), and ranks queries:
//
//	cat, _ := toolfind.LoadCatalog("my-server.json")
//	sims, _ := toolfind.Clients(cat, "claude,grok", nil)
//	results, _ := toolfind.Rank(ctx, sims, search.Query{Text: "invoice"})
package toolfind

import (
	"context"
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Version is toolfind's own version.
const Version = "0.1.0"

// LoadCatalog reads catalog files and folders; with no path it returns the
// embedded demo catalog.
func LoadCatalog(paths ...string) (*corpus.Catalog, error) {
	if len(paths) == 0 {
		return corpus.Demo(), nil
	}
	return corpus.Load(paths...)
}

// LoadQueries reads a JSON Lines query set and resolves it against cat.
func LoadQueries(path string, cat *corpus.Catalog) (*corpus.QuerySet, error) {
	return corpus.LoadQueries(path, cat)
}

// ClientOptions are option values per client name, e.g.
// {"claude": {"builtins": "false"}}.
type ClientOptions map[string]search.Options

// Clients builds a simulator for every client in spec ("all", "claude",
// "claude@2.1.283,grok", …), in the order given.
func Clients(cat *corpus.Catalog, spec string, opts ClientOptions) ([]search.Simulator, error) {
	profiles, err := search.Resolve(spec)
	if err != nil {
		return nil, err
	}
	sims := make([]search.Simulator, 0, len(profiles))
	for _, p := range profiles {
		sim, err := search.Build(p, cat, opts[p.ID.Name])
		if err != nil {
			return nil, err
		}
		sims = append(sims, sim)
	}
	return sims, nil
}

// Rank runs one query through every simulator and returns their results in
// the same order.
func Rank(ctx context.Context, sims []search.Simulator, q search.Query) ([]search.Result, error) {
	out := make([]search.Result, 0, len(sims))
	for _, s := range sims {
		r, err := s.Search(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Client(), err)
		}
		out = append(out, r)
	}
	return out, nil
}
