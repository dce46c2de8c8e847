package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, command{"check", newCheckCmd}) }

// checkOptions are the flags of `toolfind check`: bench's, plus the
// thresholds and the baseline.
type checkOptions struct {
	bench         benchOptions
	minFound      []string
	minMRR        []string
	maxMeanRank   []string
	maxReadTokens []string
	baseline      string
	saveBaseline  string
	allowErrors   bool
}

func newCheckCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &checkOptions{bench: benchOptions{io: ios, global: g}}
	cmd := &cobra.Command{
		Use:   "check --queries FILE [--min-found-at-limit X] [--min-mrr X] [--baseline FILE]",
		Short: "Fail (exit 1) when findability is below a threshold or worse than a baseline",
		Long: `Check runs the same evaluation as bench, writes its report, and exits 1 when a client's
found@limit or MRR is below the minimum, its mean rank or the tokens its model reads to reach
the tool above the maximum, or when a query got worse than in a saved JSON report
(--baseline, written by 'toolfind bench --format json --out FILE'). It judges exactly the
rows it runs: one per client and writer (--writer heuristic,verbatim adds the verbatim rows).

A threshold is a fraction (0.8) or a percentage (80%), for every client, or for one client
with NAME=X (claude=0.9, codex@0.171.0=0.7, "codex [regex]"=0.5 for a strategy variant);
repeat the flag or separate entries with commas. Strategy variant rows are checked only
against thresholds that name them, and never against the baseline. A query got worse when
its expected tool is shown less often (over tie orders) or further down (lower expected
reciprocal rank). A search that fails (a --codex-script that throws or times out)
also fails the check, unless --allow-errors is given.

A client with no cap on what its model reads (Codex code mode reads all of its script's
output; OpenCode's eager mode and Gemini CLI send every tool) has a found@limit that says only that the
tool is somewhere in it: a --min-found-at-limit for every client fails it only where the tool
is not in what its model reads at all, and otherwise skips it, saying so; one named for it is
refused. Gate such a client on where the tool lands (--min-mrr,
--max-mean-rank) or on what its model reads to reach it (--max-read-tokens).

With --format junit, the report is the verdict: one test case per gate (per client and
threshold, per client whether its searches ran, and per query compared with the
baseline), failing exactly when the check does.`,
		Example: `  toolfind check --catalog github.json --queries q.jsonl --min-found-at-limit 0.8
  toolfind check --catalog github.json --queries q.jsonl --min-mrr 0.5 --min-mrr claude=0.7
  toolfind check --catalog github.json --queries q.jsonl --min-found-at-limit 0.9 --max-mean-rank codex=20
  toolfind check --catalog github.json --queries q.jsonl --baseline main.json --format junit --out junit.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(cmd, opts) },
	}
	opts.bench.addFlags(cmd)
	f := cmd.Flags()
	f.StringArrayVar(&opts.minFound, "min-found-at-limit", nil, "minimum found@limit: `X` or CLIENT=X (repeatable)")
	f.StringArrayVar(&opts.minMRR, "min-mrr", nil, "minimum MRR: `X` or CLIENT=X (repeatable)")
	f.StringArrayVar(&opts.maxMeanRank, "max-mean-rank", nil, "maximum mean rank of the expected tool where shown: `N` or CLIENT=N (repeatable)")
	f.StringArrayVar(&opts.maxReadTokens, "max-read-tokens", nil, "maximum mean tokens the model reads to reach the expected tool: `N` or CLIENT=N (repeatable)")
	f.StringVar(&opts.baseline, "baseline", "", "saved JSON report `FILE`; fail on any query that got worse")
	f.StringVar(&opts.saveBaseline, "save-baseline", "", "also write the JSON report to `FILE` (a baseline for later runs)")
	f.BoolVar(&opts.allowErrors, "allow-errors", false, "do not fail when searches fail (a script that throws or times out); they still count as what the model saw")
	return cmd
}

func runCheck(cmd *cobra.Command, opts *checkOptions) error {
	var th bench.Thresholds
	for _, t := range []struct {
		flag  string
		specs []string
		parse func(...string) (bench.Threshold, error)
		into  *bench.Threshold
	}{
		{"min-found-at-limit", opts.minFound, bench.ParseThreshold, &th.MinFoundAtLimit},
		{"min-mrr", opts.minMRR, bench.ParseThreshold, &th.MinMRR},
		{"max-mean-rank", opts.maxMeanRank, bench.ParseMaximum, &th.MaxMeanRank},
		{"max-read-tokens", opts.maxReadTokens, bench.ParseMaximum, &th.MaxReadTokens},
	} {
		v, err := t.parse(t.specs...)
		if err != nil {
			return usageError("--%s %v", t.flag, err)
		}
		*t.into = v
	}
	if !th.MinFoundAtLimit.IsSet() && !th.MinMRR.IsSet() && !th.MaxMeanRank.IsSet() && !th.MaxReadTokens.IsSet() && opts.baseline == "" {
		return usageError("check needs --min-found-at-limit, --min-mrr, --max-mean-rank, --max-read-tokens or --baseline")
	}
	var base *bench.Report
	if opts.baseline != "" {
		f, err := userfile.Open(opts.baseline)
		if err != nil {
			return badInput(fmt.Errorf("--baseline: %w", err))
		}
		base, err = bench.ReadReport(f)
		f.Close()
		if err != nil {
			return badInput(fmt.Errorf("--baseline %s: %w", opts.baseline, err))
		}
	}
	save, err := openOut(cmd.Context(), "save-baseline", opts.saveBaseline)
	if err != nil {
		return err
	}
	defer abortOut(save)
	// evaluate opens --out: abort what it holds at return, not now (nil).
	defer func() { abortOut(opts.bench.outFile) }()
	rep, err := opts.bench.evaluate(cmd)
	if err != nil {
		return err
	}
	errOut := opts.bench.io.ErrOut
	if base != nil {
		// A baseline of another query set or client list would compare
		// nothing and pass: refuse it, and say what a partial one skips.
		ov := bench.CompareOverlap(base, rep)
		if ov.Matched == 0 {
			return badInput(fmt.Errorf("--baseline %s shares no (query, client) pair with this run (%s here, %s there): was it made from another query set or client list?",
				opts.baseline, countText(ov.New, "outcome"), countText(ov.Gone, "outcome")))
		}
		if ov.New > 0 || ov.Gone > 0 {
			fmt.Fprintf(errOut, "warning: --baseline %s: compared %s (query, client) %s; %s only in this run, %s only in the baseline\n",
				opts.baseline, bench.Thousands(ov.Matched), plural(ov.Matched, "pair", "pairs"), bench.Thousands(ov.New), bench.Thousands(ov.Gone))
		}
	}
	gates, err := rep.Gates(bench.Checks{Thresholds: th, Baseline: base, AllowErrors: opts.allowErrors})
	if err != nil {
		if errors.Is(err, bench.ErrUncappedFoundAtLimit) {
			return usageError("--min-found-at-limit %v (--min-mrr, --max-mean-rank, --max-read-tokens)", err)
		}
		return usageError("%v", err)
	}
	opts.bench.gates = &gates
	if err := opts.bench.write(rep); err != nil {
		return err
	}
	if save != nil {
		if err := rep.WriteJSON(save); err != nil {
			return badInput(fmt.Errorf("--save-baseline %v", err))
		}
		if err := commitOut("save-baseline", save); err != nil {
			return err
		}
	}
	// On standard error: each failing gate, each that does not judge its
	// row, then the verdict.
	var worseLines, errLines []string
	failedRows := map[string][]string{}
	var rowOrder []string
	uncapped := ""
	for _, g := range gates {
		switch {
		case g.Skipped != "" && g.Name == bench.GateErrors:
			// Allowed failed searches: the report's warning says so.
		case g.Skipped != "":
			fmt.Fprintf(errOut, "note: %s\n", esc(g.Skipped))
			if uncapped == "" {
				uncapped = search.ParseClientID(g.Client).Name
			}
		case !g.Failed():
		case g.Query != "":
			worseLines = append(worseLines, "WORSE "+esc(bench.Failure{Client: g.Client, Query: g.Query, Reason: g.Failure}.String()))
		case g.Name == bench.GateErrors:
			errLines = append(errLines, "ERROR "+esc(g.Failure))
		default:
			if failedRows[g.Client] == nil {
				rowOrder = append(rowOrder, g.Client)
			}
			if !slices.Contains(failedRows[g.Client], g.Failure) {
				failedRows[g.Client] = append(failedRows[g.Client], g.Failure)
			}
		}
	}
	if uncapped != "" {
		fmt.Fprintf(errOut, "hint: gate a client without a cap with --min-mrr, --max-mean-rank or --max-read-tokens (e.g. --max-mean-rank %s=20)\n", uncapped)
	}
	// One FAIL line per row, naming every threshold it misses.
	for _, c := range rowOrder {
		fmt.Fprintf(errOut, "FAIL %s\n", esc(c+": "+strings.Join(failedRows[c], "; ")))
	}
	for _, l := range append(worseLines, errLines...) {
		fmt.Fprintln(errOut, l)
	}
	below, worse, errs := len(rowOrder), len(worseLines), len(errLines)
	var parts []string
	if errs > 0 {
		n := 0
		for _, c := range rep.Clients {
			n += c.Errors
		}
		parts = append(parts, fmt.Sprintf("%s failed %s (--allow-errors to accept)", bench.Thousands(n), plural(n, "search", "searches")))
	}
	if below > 0 {
		parts = append(parts, fmt.Sprintf("%d %s below threshold", below, plural(below, "client", "clients")))
	}
	if worse > 0 {
		parts = append(parts, fmt.Sprintf("%d %s worse than the baseline", worse, plural(worse, "query", "queries")))
	}
	if len(parts) > 0 {
		return checkFailed(fmt.Errorf("check failed: %s", strings.Join(parts, ", ")))
	}
	rows := 0
	for _, c := range rep.Clients {
		if !c.Variant {
			rows++
		}
	}
	fmt.Fprintf(errOut, "check passed: %s\n", countText(rows, "client"))
	return nil
}

// countText is "1 outcome", "2,487 outcomes".
func countText(n int, one string) string {
	return bench.Thousands(n) + " " + plural(n, one, one+"s")
}
