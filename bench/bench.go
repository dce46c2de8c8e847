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
	// search, and so it is for a writer whose call is the prompt itself
	// (writer.QueryText: the verbatim writer), its rows naming it as
	// their writer; the client's own search options (Codex's strategies
	// and script) apply to such rows only. Clients whose model
	// never searches (search.NoSearch), and simulators that replay no
	// calls (not search.Writable), are searched with the query text.
	Writers []writer.Writer
	// Summary keeps aggregates instead of every outcome: the per-row
	// metrics, breakdowns and per-tool view are summed up as the outcomes
	// come (in query order, so the numbers are the same), and
	// Report.Outcomes holds only each row's first misses, the ones the
	// table and Markdown formats list (with each row's number of misses).
	// Memory then stays bounded however many queries run; the JSON, JUnit
	// and HTML formats, which need every outcome, refuse such a report.
	Summary bool
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

	// summary marks a report of Options.Summary: Outcomes are only the
	// first misses of each row, missCount the number of misses per row.
	summary   bool
	missCount map[string]int
}

// Summarized reports whether the report keeps aggregates only
// (Options.Summary): Outcomes then holds just each row's first misses.
func (r *Report) Summarized() bool { return r.summary }

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
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > total {
		workers = total
	}
	// Full mode: cells[qi*ns+si] holds the outcomes of query qi for
	// simulator si: the primary result first, then its variants. A cell of
	// one outcome (the usual: no variant) is flat[qi*ns+si], so that when
	// every cell is, flat is the report's outcomes as they are (assemble).
	// Summary mode: each cell goes to the aggregator in index order and is
	// dropped (orderer).
	var (
		cells [][]Outcome
		flat  []Outcome
		ord   *orderer
		agg   *aggregator
		// variants[si] are column si's variant labels in the order they
		// first came (summary mode).
		variants [][]string
	)
	if opts.Summary {
		agg = newAggregator(opts, true)
		variants = make([][]string, ns)
		seen := make([]map[string]bool, ns)
		ord = newOrderer(64*workers, func(i int, cell []Outcome) {
			si := i % ns
			for k := range cell {
				if k > 0 && !seen[si][cell[k].Client] {
					if seen[si] == nil {
						seen[si] = map[string]bool{}
					}
					seen[si][cell[k].Client] = true
					variants[si] = append(variants[si], cell[k].Client)
				}
				agg.add(&cell[k])
			}
		})
	} else {
		cells = make([][]Outcome, total)
		flat = make([]Outcome, total)
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
			var sc scorer // this worker's scratch, reused search after search
			for {
				i := int(next.Add(1)) - 1
				if i >= total || ctx.Err() != nil {
					return
				}
				if ord != nil && !ord.wait(i) {
					return
				}
				q := &qs.Queries[i/ns]
				col := cols[i%ns]
				var cell []Outcome
				if col.w == nil {
					res, err := safeSearch(ctx, col.sim, search.Query{Text: q.Text, Limit: opts.Limit, Brief: true, Hits: sc.hits})
					if err != nil && ctx.Err() != nil {
						ord.stopIf()
						return // cancelled: Run reports ctx.Err()
					}
					var dst []Outcome // summary mode: a cell of its own, held until its turn
					if ord == nil {
						dst = flat[i : i+1 : i+1]
					}
					cell = outcomes(col, res, err, q, i/ns, &sc, dst)
					sc.keepHits(res.Hits)
				} else if cv, ok := col.w.(writer.Covering); ok && !cv.Covers(col.sim, writer.PromptOf(q)) {
					// Not asked of this client (a written file's prompt
					// for another one): no outcome, not a miss.
					cell = nil
				} else {
					cell = writtenOutcomes(ctx, col, q, i/ns, &sc)
					if ctx.Err() != nil {
						ord.stopIf()
						return
					}
					if len(cell) == 1 && ord == nil {
						flat[i] = cell[0]
						cell = flat[i : i+1 : i+1]
					}
				}
				if ord != nil {
					ord.put(i, cell)
				} else {
					cells[i] = cell
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
	if ord != nil {
		return summarize(agg, variants, cols, qs, opts), nil
	}
	return assemble(cells, flat, cols, qs, opts), nil
}

// summarize is the report of a summary run (Options.Summary).
func summarize(agg *aggregator, variants [][]string, cols []column, qs *corpus.QuerySet, opts Options) *Report {
	labels := summaryLabels(cols, variants)
	variant := map[string]bool{}
	for _, vs := range variants {
		for _, v := range vs {
			variant[v] = true
		}
	}
	writers, writerLabels := rowWriters(cols, opts)
	rep := &Report{Queries: qs.Source, QueryCount: len(qs.Queries), Catalog: opts.Catalog, CatalogTools: opts.CatalogTools}
	agg.finish(rep, labels, variant, writers, writerLabels)
	return rep
}

// rowWriters are, per primary row label, the name of the writer of its
// calls and what the reports say about it.
func rowWriters(cols []column, opts Options) (writers, writerLabels map[string]string) {
	writers, writerLabels = map[string]string{}, map[string]string{}
	for si := range cols {
		switch {
		case cols[si].w != nil || cols[si].queryWriter != "":
			writers[cols[si].label] = writerName(cols[si])
			writerLabels[cols[si].label] = writer.Label(writers[cols[si].label], cols[si].sim.Client())
		case len(opts.Writers) > 0 && search.SearchesNothing(cols[si].sim):
			writerLabels[cols[si].label] = noSearchLabel
		}
	}
	return writers, writerLabels
}

// column is one row group of the report: a simulator, and the writer of
// its calls (nil: the query text is the search).
type column struct {
	sim   search.Simulator
	w     writer.Writer
	label string // the primary row's label
	// queryWriter names the writer of a query-text column (w nil) whose
	// writer asked for it (writer.QueryText); "" for none.
	queryWriter string
}

// noSearchLabel is the WriterLabel of a row whose model never searches
// in a run with writers (its Writer is "").
const noSearchLabel = "none: its model sees every tool and makes no search call"

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
		if _, ok := s.(search.Writable); !ok || search.SearchesNothing(s) {
			// No call to write: the model never searches, or the
			// simulator replays no calls (the query text is its search).
			cols = append(cols, column{sim: s, label: s.Client().String()})
			continue
		}
		for wi, w := range ws {
			l := s.Client().String()
			if wi > 0 {
				l += " (" + w.Name() + ")"
			}
			if qt, ok := w.(writer.QueryText); ok && qt.QueryText() {
				cols = append(cols, column{sim: s, label: l, queryWriter: w.Name()})
				continue
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

// outcomes turns one simulator answer into the outcomes of its rows. A
// single outcome is written to one[0] and returned as one (no allocation)
// when one, of length 1, is given.
func outcomes(col column, res search.Result, err error, q *corpus.Query, qi int, sc *scorer, one []Outcome) []Outcome {
	if err != nil {
		return single(withQuery(errorOutcome(col.label, q, err), q, qi), one)
	}
	// Rows are named after the simulator's profile, whatever the result
	// says, so that a row's identity never varies between queries.
	client := col.label
	o := sc.evaluate(res, q.Expect)
	o.Client = client
	if len(res.Variants) == 0 {
		return single(withQuery(o, q, qi), one)
	}
	out := make([]Outcome, 0, 1+len(res.Variants))
	out = append(out, withQuery(o, q, qi))
	for _, v := range res.Variants {
		o := sc.evaluate(v, q.Expect)
		o.Client = VariantLabel(client, v.Strategy)
		out = append(out, withQuery(o, q, qi))
	}
	return out
}

// single returns the one-outcome slice of o: one, when given.
func single(o Outcome, one []Outcome) []Outcome {
	if one == nil {
		return []Outcome{o}
	}
	one[0] = o
	return one
}

func withQuery(o Outcome, q *corpus.Query, qi int) Outcome {
	o.Query, o.Line, o.Tags, o.index = q.Text, q.Line, q.Tags, qi
	if o.Expect == nil {
		o.Expect = []corpus.ToolID{}
	}
	return o
}

// assemble orders the rows and outcomes and computes the metrics. flat
// holds the cells of a single outcome (Run).
func assemble(cells [][]Outcome, flat []Outcome, cols []column, qs *corpus.QuerySet, opts Options) *Report {
	nq, ns := len(qs.Queries), len(cols)
	// Rows: per simulator, its primary row, then its variant rows in the
	// order they first appear, scanning queries in file order.
	var labels []string
	variant := map[string]bool{}
	writers, writerLabels := rowWriters(cols, opts)
	for si := range cols {
		labels = append(labels, cols[si].label)
		seen := map[string]bool{}
		for qi := 0; qi < nq; qi++ {
			cell := cells[qi*ns+si]
			if len(cell) == 0 {
				continue
			}
			for _, o := range cell[1:] {
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
	if nout == len(flat) && len(labels) == ns {
		// One outcome per cell, each in flat, and one row per column, in
		// column order: flat is already query-major in label order.
		rep.Outcomes = flat
	} else {
		rep.Outcomes = make([]Outcome, 0, nout)
		for qi := 0; qi < nq; qi++ {
			start := len(rep.Outcomes)
			for si := 0; si < ns; si++ {
				rep.Outcomes = append(rep.Outcomes, cells[qi*ns+si]...)
			}
			// Within a query, rows in label order.
			part := rep.Outcomes[start:]
			sort.SliceStable(part, func(a, b int) bool { return rowOf[part[a].Client] < rowOf[part[b].Client] })
		}
	}
	if rep.Outcomes == nil {
		rep.Outcomes = []Outcome{}
	}
	agg := newAggregator(opts, false)
	for i := range rep.Outcomes {
		agg.add(&rep.Outcomes[i])
	}
	agg.finish(rep, labels, variant, writers, writerLabels)
	if opts.PerTool && rep.PerTool == nil {
		rep.PerTool = []ToolMetrics{}
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
