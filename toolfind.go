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
//
// evaluates query sets (package bench):
//
//	qs, _ := toolfind.LoadQueries("queries.jsonl", cat)
//	report, _ := toolfind.Evaluate(ctx, sims, qs, bench.Options{})
//	report.Write(os.Stdout, bench.Table)
//
// and lets a server author's Go test assert findability in one line:
//
//	func TestInvoiceIsFound(t *testing.T) {
//		cat, _ := toolfind.LoadCatalog("testdata/tools.json")
//		toolfind.AssertFound(t, cat, "create an invoice", "billing/invoice_lookup", "claude", "grok")
//	}
package toolfind

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

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

// DemoQueries returns the embedded demo query set, resolved against cat
// (normally the demo catalog, LoadCatalog()).
func DemoQueries(cat *corpus.Catalog) (*corpus.QuerySet, error) {
	return corpus.DemoQueries(cat)
}

// ClientOptions are option values per client name, e.g.
// {"claude": {"builtins": "false"}}.
type ClientOptions map[string]search.Options

// Clients builds a simulator for every client in spec ("all", "claude",
// "claude@2.1.283,grok", …), in the order given.
func Clients(cat *corpus.Catalog, spec string, opts ClientOptions) ([]search.Simulator, error) {
	return ClientsWith(cat, spec, opts, nil)
}

// ClientsWith is Clients that builds the simulators in parallel (one per
// CPU at a time; each reads the catalog only) and calls progress, when
// set, after each is built with the number built so far and the total.
// The order of the result is the order of spec, whatever finishes first.
func ClientsWith(cat *corpus.Catalog, spec string, opts ClientOptions, progress func(done, total int)) ([]search.Simulator, error) {
	return ClientsView(cat, spec, opts, nil, progress)
}

// CatalogView narrows the catalog one client is built over: what a
// client's own configuration removes (package clientconfig's View: tool
// filters, servers it does not connect). It returns cat itself when it
// removes nothing.
type CatalogView func(client search.ClientID, cat *corpus.Catalog) *corpus.Catalog

// ClientsView is ClientsWith with each client built over view(client,
// cat); a nil view builds every client over cat.
func ClientsView(cat *corpus.Catalog, spec string, opts ClientOptions, view CatalogView, progress func(done, total int)) ([]search.Simulator, error) {
	profiles, err := search.Resolve(spec)
	if err != nil {
		return nil, err
	}
	sims := make([]search.Simulator, len(profiles))
	errs := make([]error, len(profiles))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range profiles {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c := cat
			if view != nil {
				c = view(p.ID, cat)
			}
			sims[i], errs[i] = search.Build(p, c, opts[p.ID.Name])
			if progress != nil {
				mu.Lock()
				done++
				progress(done, len(profiles))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
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

// Evaluate runs every simulator over every query of qs, in parallel, and
// returns the report: per-client metrics and every query's outcome (see
// package bench for the metrics and the formats).
func Evaluate(ctx context.Context, sims []search.Simulator, qs *corpus.QuerySet, opts bench.Options) (*bench.Report, error) {
	return bench.Run(ctx, sims, qs, opts)
}

// Finding is whether one client shows a tool for a query.
type Finding struct {
	// Client is the profile, "claude@2.1.328".
	Client string
	// Outcome is the query's outcome for the tool (Rank, RankWorst,
	// PWithinLimit, OutrankedBy, …).
	Outcome bench.Outcome
}

// Found reports whether the client shows the tool in every tie order.
func (f Finding) Found() bool { return f.Outcome.Found }

// String describes the finding in one line:
// "claude@2.1.328: rank 2 of limit 5" or
// "grok@1.0.0: rank 4-9, shown in 33.3% of tie orders (limit 5); outranked by …".
func (f Finding) String() string {
	o := f.Outcome
	if o.Error != "" {
		return f.Client + ": error: " + o.Error
	}
	var b strings.Builder
	b.WriteString(f.Client + ": ")
	switch {
	case o.Found:
		fmt.Fprintf(&b, "rank %s", bench.RankText(o.Rank, o.RankWorst))
		if o.Limit > 0 {
			fmt.Fprintf(&b, " of limit %d", o.Limit)
		}
	case o.Rank == 0:
		b.WriteString("not among the hits")
	case o.PWithinLimit > 0:
		fmt.Fprintf(&b, "rank %s, shown in %s of tie orders (limit %d)", bench.RankText(o.Rank, o.RankWorst), bench.Percent(o.PWithinLimit), o.Limit)
	default:
		fmt.Fprintf(&b, "rank %s, beyond the limit %d", bench.RankText(o.Rank, o.RankWorst), o.Limit)
	}
	if len(o.OutrankedBy) > 0 {
		if o.Rank == 0 {
			b.WriteString("; shown instead: ")
		} else {
			b.WriteString("; outranked by ")
		}
		for i, id := range o.OutrankedBy {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(string(id))
		}
	}
	return b.String()
}

// Findable searches query with each client named in clients ("claude",
// "grok@1.0.0", …; none or "all": every client's newest profile) and
// reports, per client in order, where tool lands. tool is written as in a
// query file: "server/tool", "server__tool", "mcp__server__tool" or a bare
// tool name unique in cat.
func Findable(ctx context.Context, cat *corpus.Catalog, query, tool string, clients ...string) ([]Finding, error) {
	id, err := corpus.NewResolver(cat).Resolve(tool)
	if err != nil {
		return nil, err
	}
	spec := strings.Join(clients, ",")
	sims, err := Clients(cat, spec, nil)
	if err != nil {
		return nil, err
	}
	qs := &corpus.QuerySet{Source: "Findable", Queries: []corpus.Query{{Text: query, Expect: []corpus.ToolID{id}, ExpectRaw: []string{tool}}}}
	rep, err := bench.Run(ctx, sims, qs, bench.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	// One finding per client: its primary row (strategy variants are
	// diagnostics of how the client searches, not the client).
	primary := map[string]bool{}
	for _, s := range sims {
		primary[s.Client().String()] = true
	}
	var out []Finding
	for _, o := range rep.Outcomes {
		if primary[o.Client] {
			out = append(out, Finding{Client: o.Client, Outcome: o})
		}
	}
	return out, nil
}

// T is what AssertFound needs of a test: Errorf. Every testing.TB has it,
// and so does testify's require.TestingT (and assert.TestingT), so
// AssertFound works with either; a T that also has Helper (testing.TB
// does) gets failures reported at the caller's line.
type T interface {
	Errorf(format string, args ...any)
}

// AssertFound fails the test (t.Errorf, one line per client) unless every
// client named in clients (none: all) shows tool for query within its
// result limit in every tie order. It returns whether all did.
//
//	toolfind.AssertFound(t, cat, "create an invoice", "billing/invoice_lookup", "claude", "grok")
func AssertFound(t T, cat *corpus.Catalog, query, tool string, clients ...string) bool {
	// Helper marks the function that calls it: it must be called here,
	// not from a function of its own, or that function is the one skipped.
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	fs, err := Findable(context.Background(), cat, query, tool, clients...)
	if err != nil {
		t.Errorf("toolfind: %q → %s: %v", query, tool, err)
		return false
	}
	ok := true
	for _, f := range fs {
		if !f.Found() {
			t.Errorf("toolfind: %q → %s: %s", query, tool, f)
			ok = false
		}
	}
	return ok
}
