package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/outfile"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/suggest"
	"github.com/toolfind/toolfind/writer"
)

func init() { commands = append(commands, command{"suggest", newSuggestCmd}) }

// suggestOptions are the flags of `toolfind suggest`.
type suggestOptions struct {
	io           *IOStreams
	global       *globalOptions
	queries      string
	written      string
	writer       string
	format       string
	out          string
	writeCatalog string
	patch        string
	holdout      string
	share        float64
	seed         uint64
	descBudget   int
	hintWords    int
	rename       bool
	workers      int
	wf           *writerFlags
}

func newSuggestCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &suggestOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "suggest --queries FILE",
		Short: "Find edits that make missed tools findable, each proven by re-simulation",
		Long: `Suggest finds, for every expected tool that some client misses on a query set, edits
that make it findable, least intrusive first: words in Claude's search hint
(_meta["anthropic/searchHint"]), words at the front of the description (where every
client's cut keeps them), a clearer title, and (with --rename) a rename, which breaks
callers. The words come from the missed prompts and the calls written for them.

Every candidate is applied to a copy of the catalog and every selected client is
re-simulated, the writer included: an edit is kept only if it fixes misses and no other
(prompt, client) pair loses its tool. The kept edits are then checked on the whole
corpus again. The "after" figures are what 'toolfind bench' reports on the catalog
--write-catalog writes. --holdout learns on part of the queries and reports the rest:
a share of them (a seeded shuffle), or "alternate": learn on lines 1, 3, 5, … of the
query file and check on lines 2, 4, 6, ….

It takes the catalog and the query set exactly as bench does (--queries with --writer,
or --written).`,
		Example: `  toolfind suggest
  toolfind suggest --catalog azure.json --queries azure-e2e.jsonl --writer heuristic --write-catalog azure-edited.json
  toolfind suggest --catalog mongodb.json --queries q.jsonl --writer heuristic --holdout 0.5 --format markdown
  toolfind suggest --server 'npx -y @modelcontextprotocol/server-everything' --queries q.jsonl --patch fix.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runSuggest(cmd, opts) },
	}
	addVerbose(cmd, g)
	f := cmd.Flags()
	f.StringVar(&opts.queries, "queries", "", "query set `FILE` (JSON Lines); default: the demo set on the demo catalog")
	f.StringVar(&opts.written, "written", "", "replay the model calls of a written-queries `FILE` instead of --queries")
	f.StringVar(&opts.writer, "writer", writer.Default, "who writes each client's search call from the prompt: heuristic (a prediction of the model's call), verbatim (the prompt itself: a baseline), model or command")
	addFormatFlag(f, &opts.format, "text", "json", "markdown")
	f.StringVarP(&opts.out, "out", "o", "", "write the report to `FILE` instead of standard output")
	f.StringVar(&opts.writeCatalog, "write-catalog", "", "write the edited catalog to `FILE`")
	f.StringVar(&opts.patch, "patch", "", "write a JSON Merge Patch (RFC 7386) from the input catalog to the edited one to `FILE`")
	f.StringVar(&opts.holdout, "holdout", "", "hold out this `SHARE` of the queries (e.g. 0.5), or \"alternate\" (lines 2, 4, 6, …): learn edits on the rest, report both")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the --holdout split")
	f.IntVar(&opts.descBudget, "description-budget", suggest.DefaultDescriptionBudget, "characters a description may grow by")
	f.IntVar(&opts.hintWords, "hint-words", suggest.DefaultHintWords, "words a search hint may gain")
	f.BoolVar(&opts.rename, "rename", false, "also try renames (breaking: callers use the name)")
	f.IntVar(&opts.workers, "workers", 0, "searches run at once (0: one per CPU)")
	opts.wf = addWriterFlags(f)
	return cmd
}

func runSuggest(cmd *cobra.Command, o *suggestOptions) error {
	format, err := suggest.ParseFormat(o.format)
	if err != nil {
		return usageError("--format: %v", err)
	}
	switch {
	case o.written != "" && o.queries != "":
		return usageError("--written and --queries: give one (a written file holds its prompts)")
	case o.written != "" && cmd.Flags().Changed("writer"):
		return usageError("--written and --writer: the calls of a written file are already written")
	}
	if o.holdout != "" && o.holdout != "alternate" {
		v, err := strconv.ParseFloat(o.holdout, 64)
		if err != nil || v < 0 || v >= 1 {
			return usageError("--holdout %s: want a share of the queries, at least 0 and below 1, or \"alternate\"", o.holdout)
		}
		o.share = v
	}
	switch {
	case o.descBudget < 1:
		return usageError("--description-budget %d: must be 1 or more", o.descBudget)
	case o.hintWords < 1:
		return usageError("--hint-words %d: must be 1 or more", o.hintWords)
	case o.workers < 0:
		return usageError("--workers %d: must be 0 (one per CPU) or more", o.workers)
	case o.global.limit < 0:
		return usageError("--limit %d: must be 0 (client default) or more", o.global.limit)
	}
	var names []string
	if o.written == "" {
		names = []string{o.writer}
	}
	if err := o.wf.check(names...); err != nil {
		return err
	}
	g := o.global
	singleFile := len(g.catalogs) == 1 && !g.source.live() && isFile(g.catalogs[0])
	liveOnly := len(g.catalogs) == 0 && g.source.live()
	// (A missing file is the loader's to report.)
	if o.patch != "" && !singleFile && !liveOnly && !(len(g.catalogs) == 1 && missing(g.catalogs[0])) {
		return usageError("--patch needs one catalog file or live servers only (a patch is made against one document); use --write-catalog")
	}
	outs := map[string]string{"out": o.out, "write-catalog": o.writeCatalog, "patch": o.patch}
	files := map[string]*outfile.File{}
	for _, flag := range []string{"out", "write-catalog", "patch"} {
		f, err := openOut(cmd.Context(), flag, outs[flag])
		if err != nil {
			return err
		}
		files[flag] = f
		defer abortOut(f)
	}
	ctx := cmd.Context()
	// The catalog, and the document the edits are written into.
	var cat *corpus.Catalog
	var doc []byte
	docName := "catalog"
	if liveOnly {
		if _, err := g.source.sources(); err != nil {
			return err
		}
		snaps, err := g.source.snapshots(ctx)
		if err != nil {
			return err
		}
		if cat, err = snap.Merge(nil, snaps); err != nil {
			return badInput(fmt.Errorf("merging live servers: %w", err))
		}
		var b bytes.Buffer
		if err := snap.WriteCatalog(&b, snaps); err != nil {
			return err
		}
		doc, docName = b.Bytes(), "snapshot"
	} else {
		if cat, err = g.loadCatalog(ctx); err != nil {
			return err
		}
		if singleFile {
			if doc, err = userfile.ReadFile(g.catalogs[0]); err != nil {
				return badInput(err)
			}
			docName = g.catalogs[0]
		} else {
			// The files themselves, for the entries the parser left out
			// (not the embedded demo's; a live server's source is no file).
			docs := map[string][]byte{}
			for _, s := range cat.Servers {
				if _, ok := docs[s.Source]; ok || len(g.catalogs) == 0 || !isFile(s.Source) {
					continue
				}
				if docs[s.Source], err = userfile.ReadFile(s.Source); err != nil {
					return badInput(err)
				}
			}
			doc = suggest.CatalogDocument(cat, docs)
		}
	}
	// The queries and the writer, exactly as bench takes them.
	var qs *corpus.QuerySet
	var w writer.Writer
	if o.written != "" {
		lines, err := writer.ReadFile(o.written)
		if err != nil {
			return badInput(err)
		}
		if qs, err = writer.QuerySet(o.written, lines, cat); err != nil {
			return badInput(err)
		}
		if len(qs.Queries) == 0 {
			return badInput(fmt.Errorf("%s: no calls", o.written))
		}
		rp := writer.NewReplay(lines)
		w = rp
		if !cmd.Flags().Changed("client") {
			g.clients = strings.Join(rp.Clients(), ",")
		}
	} else {
		b := &benchOptions{io: o.io, global: g, queries: o.queries}
		if qs, err = b.loadQueries(cat); err != nil {
			return err
		}
		ww, done, err := o.wf.writerFromFlags(o.writer, g, o.io.ErrOut)
		if err != nil {
			return err
		}
		defer done()
		if qs, err = o.wf.expand(qs); err != nil {
			return err
		}
		o.workers = writerWorkers(ww, o.workers)
		w = ww
	}
	// The first build checks the flags (and reports option mistakes).
	if _, err := g.simulators(cat); err != nil {
		return err
	}
	clientOpts, err := g.options()
	if err != nil {
		return err
	}
	build := func(c *corpus.Catalog) ([]search.Simulator, error) {
		return toolfind.ClientsView(c, g.clients, clientOpts, g.view(), nil)
	}
	ph := g.run().begin("suggest", 0, false)
	sopts := suggest.Options{
		Limit: g.limit, Workers: o.workers, Writer: w,
		DescriptionBudget: o.descBudget, HintWords: o.hintWords, Rename: o.rename,
		Holdout: o.share, Seed: o.seed,
		Progress: func(phase string, done, total int) {
			if total > 0 {
				ph.total = int64(total)
				ph.set(int64(done))
			}
		},
	}
	if o.holdout == "alternate" {
		sopts.HeldOut, sopts.Split = suggest.AlternateLines, "lines 2, 4, 6, … held out"
	}
	rep, err := suggest.Suggest(ctx, cat, build, qs, sopts)
	if err != nil {
		return err
	}
	ph.end(fmt.Sprintf("%d %s kept of %d tried, %d searches", len(rep.Edits), plural(len(rep.Edits), "edit", "edits"), rep.Tried, rep.Searches))

	if f := files["out"]; f != nil {
		if err := rep.Write(f, format); err != nil {
			return badInput(fmt.Errorf("--out %v", err))
		}
		if err := commitOut("out", f); err != nil {
			return err
		}
	} else if err := rep.Write(o.io.Out, format); err != nil {
		return badInput(fmt.Errorf("writing the report: %w", err))
	}
	if o.writeCatalog == "" && o.patch == "" {
		return nil
	}
	edited, patch, err := suggest.EditDocument(docName, doc, rep.Edits)
	if err != nil {
		return err
	}
	if f := files["write-catalog"]; f != nil {
		if _, err := f.Write(edited); err != nil {
			return badInput(fmt.Errorf("--write-catalog %v", err))
		}
		if err := commitOut("write-catalog", f); err != nil {
			return err
		}
		fmt.Fprintf(o.io.ErrOut, "%s: the %s with %d %s\n", esc(o.writeCatalog), esc(docName), len(rep.Edits), plural(len(rep.Edits), "tool edited", "tools edited"))
		if len(rep.Renames) > 0 {
			// The report's figures expect the new names: so must a query
			// set bench runs on the written catalog.
			var rs []string
			for _, e := range rep.Edits {
				if e.NewID != "" {
					rs = append(rs, esc(string(e.Tool))+" → "+esc(string(e.NewID)))
				}
			}
			fmt.Fprintf(o.io.ErrOut, "%s: renamed (breaking) %s; a query set run on it must expect the new names\n", esc(o.writeCatalog), strings.Join(rs, ", "))
		}
	}
	if f := files["patch"]; f != nil {
		if _, err := f.Write(patch); err != nil {
			return badInput(fmt.Errorf("--patch %v", err))
		}
		if err := commitOut("patch", f); err != nil {
			return err
		}
		fmt.Fprintf(o.io.ErrOut, "%s: JSON Merge Patch (RFC 7386) against %s\n", esc(o.patch), esc(docName))
	}
	return nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func missing(p string) bool {
	_, err := os.Stat(p)
	return errors.Is(err, fs.ErrNotExist)
}
