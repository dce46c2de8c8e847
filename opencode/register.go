package opencode

import (
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// OptBudget is the code mode option that overrides the catalog budget
// (`discovery.catalogBudget` of the codemode runtime; OpenCode 1.18.33 does
// not expose it, so the default is the only observed value).
const OptBudget = "budget"

func init() {
	search.Register(search.Profile{
		ID: search.ClientID{Name: "opencode", Version: "1.18.33"}, Default: true,
		Summary: "OpenCode 1.18.33 eager loading: every MCP tool is a top-level {server}_{tool} tool (verified)",
		// opencode.md §0, with opencode-oracle.
		Verified: "the real OpenCode 1.18.33: the tools it sends with each request, recorded",
		New: func(cat *corpus.Catalog, _ search.Options) (search.Simulator, error) {
			return NewEager(cat), nil
		},
	})
	opts := []search.Option{{Name: OptBudget, Kind: search.IntOption, Default: "2000",
		Usage: "catalog token budget (what-if; OpenCode uses 2000)"}}
	build := func(p Profile) func(*corpus.Catalog, search.Options) (search.Simulator, error) {
		return func(cat *corpus.Catalog, o search.Options) (search.Simulator, error) {
			b, err := o.Int(OptBudget, CatalogBudget)
			if err != nil {
				return nil, err
			}
			if b < 0 {
				return nil, fmt.Errorf("option %s: %d must be 0 or more", OptBudget, b)
			}
			p.Budget = b
			return newCodeMode(cat, p), nil
		}
	}
	search.Register(search.Profile{
		ID: profile118().ID, Default: true, Options: opts,
		Summary:  "OpenCode 1.18.33 code mode: partial catalog in execute + tools.$codemode.search() (verified)",
		Verified: "real OpenCode 1.18.33: the catalog section on every shared catalog byte for byte, 80 search() results",
		New:      build(profile118()),
	})
	search.Register(search.Profile{
		ID: profileV2().ID, Options: opts,
		Summary:  "OpenCode v2 code mode per its sources: global search(), catalog in the system prompt (unverified)",
		Verified: "not run: read from the v2 sources",
		New:      build(profileV2()),
	})
}
