package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// Options tune a Run.
type Options struct {
	// Limit is passed to every search (0: each client's default).
	Limit int
	// Workers is the number of searches run at once (0: GOMAXPROCS).
	Workers int
	// By lists tag keys to break the metrics down by (e.g. "category").
	By []string
	// PerTool adds the per-tool view: for every expected tool, how many of
	// its queries find it, per client.
	PerTool bool
	// Progress, when set, is called after every search with the number of
	// searches done and the total; calls are serialised and done grows by
	// one each time.
	Progress func(done, total int)
	// Catalog names the catalog in reports (e.g. "github.json") and
	// CatalogTools counts its tools; both optional, for the reports' titles.
	Catalog      string
	CatalogTools int
	// Writers, when set, write each client's calls for every query (the
	// model's side, package writer); each client is run once per writer,
	// the first writer's rows named after the client alone and the
	// others' "client (writer)". Without writers the query text is the
	// search (as the verbatim writer would write it). Clients whose model
	// never searches (search.NoSearch) are searched with the query text.
	Writers []writer.Writer
}

// Report is the result of a Run: per-client metrics and every outcome, in
// a deterministic order (see the package doc, "Order").
type Report struct {
	// Queries names the query set (its file); QueryCount counts its
	// queries; Catalog and CatalogTools describe the catalog.
	Queries      string `json:"queries,omitempty"`
	QueryCount   int    `json:"query_count"`
	Catalog      string `json:"catalog,omitempty"`
	CatalogTools int    `json:"catalog_tools"`
	// Clients holds one row per client and strategy variant.
	Clients []ClientMetrics `json:"clients"`
	// Outcomes are query-major: every row's outcome for query 1, then
	// query 2, …, rows in Clients order.
	Outcomes []Outcome `json:"outcomes"`
	// By holds the breakdowns asked for in Options.By.
	By []Breakdown `json:"by,omitempty"`
	// PerTool is the per-tool view (Options.PerTool).
	PerTool []ToolMetrics `json:"per_tool,omitempty"`
}

// VariantLabel is the row label of a strategy variant: "client [strategy]".
func VariantLabel(client, strategy string) string {
	return client + " [" + strategy + "]"
}

// Run evaluates every simulator over every query of qs, searching in
// parallel, and returns the report. A simulator's error for one query is
// recorded in that outcome (Outcome.Error) and counted; Run itself fails
// only when ctx ends or the input is unusable.
func Run(ctx context.Context, sims []search.Simulator, qs *corpus.QuerySet, opts Options) (*Report, error) {
	if qs == nil {
		return nil, errors.New("bench: no query set")
	}
	if len(sims) == 0 {
		return nil, errors.New("bench: no client selected")
	}
	if opts.Limit < 0 {
		return nil, fmt.Errorf("bench: limit %d: must be 0 (client default) or more", opts.Limit)
	}
	nq := len(qs.Queries)
	cols := columns(sims, opts.Writers)
	ns := len(cols)
	total := nq * ns
	// cells[qi*ns+si] holds the outcomes of query qi for simulator si: the
	// primary result first, then its variants.
	cells := make([][]Outcome, total)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > total {
		workers = total
	}
	var (
		next   atomic.Int64
		progMu sync.Mutex
		done   int
		wg     sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= total || ctx.Err() != nil {
					return
				}
				q := &qs.Queries[i/ns]
				col := cols[i%ns]
				if col.w == nil {
					res, err := safeSearch(ctx, col.sim, search.Query{Text: q.Text, Limit: opts.Limit, Brief: true})
					if err != nil && ctx.Err() != nil {
						return // cancelled: Run reports ctx.Err()
					}
					cells[i] = outcomes(col, res, err, q, i/ns)
				} else {
					cells[i] = writtenOutcomes(ctx, col, q, i/ns)
					if ctx.Err() != nil {
						return
					}
				}
				if opts.Progress != nil {
					progMu.Lock()
					done++
					opts.Progress(done, total)
					progMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return assemble(cells, cols, qs, opts), nil
}

// column is one row group of the report: a simulator, and the writer of
// its calls (nil: the query text is the search).
type column struct {
	sim   search.Simulator
	w     writer.Writer
	label string // the primary row's label
}

// columns pairs every simulator with every writer (see Options.Writers).
func columns(sims []search.Simulator, ws []writer.Writer) []column {
	var cols []column
	if len(ws) == 0 {
		for _, s := range sims {
			cols = append(cols, column{sim: s, label: s.Client().String()})
		}
		return cols
	}
	for _, s := range sims {
		if search.SearchesNothing(s) {
			cols = append(cols, column{sim: s, label: s.Client().String()})
			continue
		}
		for wi, w := range ws {
			l := s.Client().String()
			if wi > 0 {
				l += " (" + w.Name() + ")"
			}
			cols = append(cols, column{sim: s, w: w, label: l})
		}
	}
	return cols
}

// safeSearch runs one search, turning a simulator's panic into an error
// naming the query, so that one bad query does not end the whole run.
func safeSearch(ctx context.Context, sim search.Simulator, q search.Query) (res search.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked on query %q: %v", sim.Client(), q.Text, p)
		}
	}()
	return sim.Search(ctx, q)
}

// outcomes turns one simulator answer into the outcomes of its rows.
func outcomes(col column, res search.Result, err error, q *corpus.Query, qi int) []Outcome {
	if err != nil {
		return []Outcome{withQuery(errorOutcome(col.label, q, err), q, qi)}
	}
	// Rows are named after the simulator's profile, whatever the result
	// says, so that a row's identity never varies between queries.
	client := col.label
	out := make([]Outcome, 0, 1+len(res.Variants))
	o := evaluate(res, q.Expect)
	o.Client = client
	out = append(out, withQuery(o, q, qi))
	for _, v := range res.Variants {
		o := evaluate(v, q.Expect)
		o.Client = VariantLabel(client, v.Strategy)
		out = append(out, withQuery(o, q, qi))
	}
	return out
}

func withQuery(o Outcome, q *corpus.Query, qi int) Outcome {
	o.Query, o.Line, o.Tags, o.index = q.Text, q.Line, q.Tags, qi
	if o.Expect == nil {
		o.Expect = []corpus.ToolID{}
	}
	return o
}

// assemble orders the rows and outcomes and computes the metrics.
func assemble(cells [][]Outcome, cols []column, qs *corpus.QuerySet, opts Options) *Report {
	nq, ns := len(qs.Queries), len(cols)
	// Rows: per simulator, its primary row, then its variant rows in the
	// order they first appear, scanning queries in file order.
	var labels []string
	variant := map[string]bool{}
	writers := map[string]string{}
	for si := range cols {
		labels = append(labels, cols[si].label)
		if cols[si].w != nil {
			writers[cols[si].label] = writerName(cols[si])
		}
		seen := map[string]bool{}
		for qi := 0; qi < nq; qi++ {
			for _, o := range cells[qi*ns+si][1:] {
				if !seen[o.Client] {
					seen[o.Client] = true
					variant[o.Client] = true
					labels = append(labels, o.Client)
				}
			}
		}
	}
	labels = dedup(labels)
	rowOf := map[string]int{}
	for i, l := range labels {
		rowOf[l] = i
	}
	rep := &Report{Queries: qs.Source, QueryCount: nq, Catalog: opts.Catalog, CatalogTools: opts.CatalogTools}
	nout := 0
	for _, c := range cells {
		nout += len(c)
	}
	rep.Outcomes = make([]Outcome, 0, nout)
	byRow := make([][]*Outcome, len(labels))
	for qi := 0; qi < nq; qi++ {
		start := len(rep.Outcomes)
		for si := 0; si < ns; si++ {
			rep.Outcomes = append(rep.Outcomes, cells[qi*ns+si]...)
		}
		// Within a query, rows in label order.
		part := rep.Outcomes[start:]
		sort.SliceStable(part, func(a, b int) bool { return rowOf[part[a].Client] < rowOf[part[b].Client] })
	}
	if rep.Outcomes == nil {
		rep.Outcomes = []Outcome{}
	}
	for i := range rep.Outcomes {
		o := &rep.Outcomes[i]
		byRow[rowOf[o.Client]] = append(byRow[rowOf[o.Client]], o)
	}
	rep.Clients = make([]ClientMetrics, len(labels))
	for i, l := range labels {
		rep.Clients[i] = metrics(l, byRow[i])
		rep.Clients[i].Variant = variant[l]
		rep.Clients[i].Writer = writers[l]
	}
	for _, key := range opts.By {
		rep.By = append(rep.By, breakdown(key, labels, rep.Outcomes, rowOf))
	}
	if opts.PerTool {
		rep.PerTool = perTool(labels, rep.Outcomes, rowOf)
		if rep.PerTool == nil {
			rep.PerTool = []ToolMetrics{}
		}
	}
	return rep
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
