package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/outfile"
	"github.com/toolfind/toolfind/writer"
)

func init() { commands = append(commands, command{"bench", newBenchCmd}) }

// benchOptions are the flags of `toolfind bench` (and of `check`, which
// runs the same evaluation).
type benchOptions struct {
	io      *IOStreams
	global  *globalOptions
	queries string
	format  string
	out     string
	outFile *outfile.File // --out, opened before the work
	by      []string
	perTool bool
	workers int
	// The model's side (package writer): --writer (one name or a list, one
	// row group per writer) and --written.
	writer     string
	written    string
	noVerbatim bool // --no-verbatim, deprecated: no baseline is added unasked
	// wf are the model and command writers' flags (writerflags.go).
	wf *writerFlags
	// gates, set by check, are its verdict: its JUnit report is them.
	gates *[]bench.Gate
	// summarize, set by bench, keeps aggregates instead of every outcome
	// when the format lists only the first misses (table, Markdown), so
	// that memory stays bounded over any number of queries
	// (bench.Options.Summary); check compares outcomes and keeps them.
	summarize bool
}

func newBenchCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &benchOptions{io: ios, global: g, summarize: true}
	cmd := &cobra.Command{
		Use:   "bench --queries FILE",
		Short: "Evaluate every client over a labelled query set",
		Long: `Bench runs every selected client over a query set (JSON Lines: {"query", "expect", ...tags};
blank lines and lines starting with # or // are comments)
and reports per client: found@1, found@limit (the expected value over tie orders, with the
best/worst band where a client breaks ties at random), MRR, mean and p95 rank, not found and
the tokens the model reads; optionally by tag (--by) and per tool (--per-tool).

Without --queries and --catalog it runs the embedded demo query set on the demo catalog.`,
		Example: `  toolfind bench
  toolfind bench --catalog github.json --queries github-queries.jsonl --by category
  toolfind bench --catalog github.json --queries q.jsonl --format html --out report.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// evaluate opens --out: abort what it holds at return, not
			// now (nil).
			defer func() { abortOut(opts.outFile) }()
			rep, err := opts.evaluate(cmd)
			if err != nil {
				return err
			}
			return opts.write(rep)
		},
	}
	opts.addFlags(cmd)
	return cmd
}

func (o *benchOptions) addFlags(cmd *cobra.Command) {
	addVerbose(cmd, o.global)
	f := cmd.Flags()
	f.StringVar(&o.queries, "queries", "", "query set `FILE` (JSON Lines); required unless using the demo catalog")
	addFormatFlag(f, &o.format, "text", "json", "markdown", "junit", "html")
	f.StringVarP(&o.out, "out", "o", "", "write the report to `FILE` instead of standard output")
	f.StringSliceVar(&o.by, "by", nil, "break the metrics down by these tag `KEYS` (e.g. category)")
	f.BoolVar(&o.perTool, "per-tool", false, "add the per-tool view: how many of each tool's queries find it, per client")
	f.IntVar(&o.workers, "workers", 0, "searches run at once (0: one per CPU)")
	f.StringVar(&o.writer, "writer", writer.Default, writerHelp)
	f.StringVar(&o.written, "written", "", "replay the model calls of a written-queries `FILE` (JSON Lines from `toolfind write`) instead of --queries")
	f.BoolVar(&o.noVerbatim, "no-verbatim", false, "")
	_ = f.MarkHidden("no-verbatim")
	o.wf = addWriterFlags(f)
}

// evaluate checks the flags, loads the catalog and queries and runs the
// evaluation.
func (o *benchOptions) evaluate(cmd *cobra.Command) (*bench.Report, error) {
	format, err := bench.ParseFormat(o.format)
	if err != nil {
		return nil, usageError("--format: %v", err)
	}
	o.format = string(format)
	if o.global.limit < 0 {
		return nil, usageError("--limit %d: must be 0 (client default) or more", o.global.limit)
	}
	if o.workers < 0 {
		return nil, usageError("--workers %d: must be 0 (one per CPU) or more", o.workers)
	}
	for _, k := range o.by {
		if strings.TrimSpace(k) == "" || k == "query" || k == "expect" {
			return nil, usageError("--by %q: want a tag key of the query file, such as category", k)
		}
	}
	if o.written != "" && o.queries != "" {
		return nil, usageError("--written and --queries: give one (a written file holds its prompts)")
	}
	if o.written != "" && cmd.Flags().Changed("writer") {
		return nil, usageError("--written and --writer: the calls of a written file are already written")
	}
	names, err := writerNames(o.writer)
	if err != nil {
		return nil, err
	}
	if o.written != "" {
		names = nil
	}
	if err := o.wf.check(names...); err != nil {
		return nil, err
	}
	if o.noVerbatim && !o.global.quiet {
		fmt.Fprintln(o.io.ErrOut, "warning: --no-verbatim is no longer needed: the verbatim baseline is added only when asked for (--writer heuristic,verbatim)")
	}
	// The output file is checked (and its temporary file created) before
	// the work, so a bad --out fails in a second, not after the run.
	if o.outFile, err = openOut(cmd.Context(), "out", o.out); err != nil {
		return nil, err
	}
	ctx := cmd.Context()
	cat, err := o.global.loadCatalog(ctx)
	if err != nil {
		return nil, err
	}
	var writers []writer.Writer
	var qs *corpus.QuerySet
	if o.written != "" {
		lines, err := writer.ReadFile(o.written)
		if err != nil {
			return nil, badInput(err)
		}
		if qs, err = writer.QuerySet(o.written, lines, cat); err != nil {
			return nil, badInput(err)
		}
		if len(qs.Queries) == 0 {
			return nil, badInput(fmt.Errorf("%s: no calls", o.written))
		}
		rp := writer.NewReplay(lines)
		writers = append(writers, rp)
		if !cmd.Flags().Changed("client") {
			o.global.clients = strings.Join(rp.Clients(), ",")
		}
	} else {
		if qs, err = o.loadQueries(cat); err != nil {
			return nil, err
		}
		for _, name := range names {
			w, done, err := o.wf.writerFromFlags(name, o.global, o.io.ErrOut)
			if err != nil {
				return nil, err
			}
			defer done()
			o.workers = writerWorkers(w, o.workers)
			writers = append(writers, w)
		}
		if qs, err = o.wf.expand(qs); err != nil {
			return nil, err
		}
	}
	if err := checkTags(o.by, qs); err != nil {
		return nil, err
	}
	sims, err := o.global.simulators(cat)
	if err != nil {
		return nil, err
	}
	by := "by the " + strings.Join(names, " and ") + " writer"
	if o.written != "" {
		by = "in " + o.written
	}
	if err := o.global.checkQueryOnly(slices.Contains(names, "verbatim"), by); err != nil {
		return nil, err
	}
	opts := bench.Options{
		Limit:        o.global.limit,
		Workers:      o.workers,
		By:           o.by,
		PerTool:      o.perTool,
		Catalog:      catalogName(o.global.catalogs),
		CatalogTools: len(cat.UniqueTools()),
		Writers:      writers,
		Summary:      o.summarize && (format == bench.Table || format == bench.Markdown),
	}
	ph := o.global.run().begin("search", 0, false)
	opts.Progress = func(done, total int) {
		ph.total = int64(total)
		ph.set(int64(done))
	}
	rep, err := toolfind.Evaluate(ctx, sims, qs, opts)
	if err != nil {
		return nil, err
	}
	ph.end(fmt.Sprintf("searched %s × %s", count(len(qs.Queries), "query", "queries"), count(len(sims), "client", "clients")))
	return rep, nil
}

// checkTags refuses a --by key that no query carries, listing the keys
// that some query does.
func checkTags(by []string, qs *corpus.QuerySet) error {
	present := map[string]bool{}
	for _, q := range qs.Queries {
		for k := range q.Tags {
			present[k] = true
		}
	}
	for _, k := range by {
		if present[k] {
			continue
		}
		if len(present) == 0 {
			return usageError("--by %q: the queries of %s carry no tags (keys besides query and expect)", k, qs.Source)
		}
		keys := make([]string, 0, len(present))
		for t := range present {
			keys = append(keys, t)
		}
		sort.Strings(keys)
		return usageError("--by %q: no query of %s has this tag; tags present: %s", k, qs.Source, strings.Join(keys, ", "))
	}
	return nil
}

// loadQueries reads --queries, or the embedded demo set when neither
// --queries nor --catalog is given.
func (o *benchOptions) loadQueries(cat *corpus.Catalog) (*corpus.QuerySet, error) {
	if o.queries == "" {
		if len(o.global.catalogs) == 0 {
			if qs, err := corpus.DemoQueries(cat); err == nil {
				return qs, nil
			}
		}
		return nil, usageError("--queries is required (a JSON Lines file: {\"query\": \"...\", \"expect\": [\"server/tool\"]})")
	}
	qs, err := corpus.LoadQueries(o.queries, cat)
	if err != nil {
		if len(o.global.catalogs) == 0 && !o.global.source.live() && strings.Contains(err.Error(), "matches no tool") {
			// The usual cause: the query file was written for another
			// catalog, and without --catalog the demo one is used.
			return nil, badInput(fmt.Errorf("%w\nhint: without --catalog the queries are resolved against the embedded demo catalog; pass --catalog with the catalog %s was written for", err, o.queries))
		}
		return nil, badInput(err)
	}
	if len(qs.Queries) == 0 {
		return nil, badInput(fmt.Errorf("%s: no queries", o.queries))
	}
	return qs, nil
}

// catalogName names the catalogs for the report's title.
func catalogName(paths []string) string {
	if len(paths) == 0 {
		return "demo"
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return strings.Join(names, ", ")
}

// write renders the report to --out or standard output. Simulator errors
// are repeated on standard error when the table (which lists them) does not
// go to the terminal.
func (o *benchOptions) write(rep *bench.Report) error {
	w := o.io.Out
	if o.outFile != nil {
		w = o.outFile
	}
	var err error
	switch {
	case o.gates != nil && o.format == string(bench.JUnit):
		// check's JUnit: its verdict, one test case per gate.
		err = rep.WriteJUnitGates(w, *o.gates)
	case o.format == string(bench.Table) && o.outFile == nil:
		err = rep.WriteText(w, outputWidth(o.io.Out)) // fits the terminal
	default:
		err = rep.Write(w, bench.Format(o.format))
	}
	if err != nil {
		if o.outFile != nil {
			return badInput(fmt.Errorf("--out %v", err))
		}
		return badInput(fmt.Errorf("writing the report: %w", err))
	}
	if o.outFile != nil {
		if err := commitOut("out", o.outFile); err != nil {
			return err
		}
	}
	if o.format != string(bench.Table) || o.out != "" {
		for _, c := range rep.Clients {
			if e := c.ErrorSummary(); e != "" {
				fmt.Fprintf(o.io.ErrOut, "warning: %s\n", e)
			}
		}
	}
	return nil
}
