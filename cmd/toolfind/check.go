package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/bench"
)

func init() { commands = append(commands, command{"check", newCheckCmd}) }

// checkOptions are the flags of `toolfind check`: bench's, plus the
// thresholds and the baseline.
type checkOptions struct {
	bench        benchOptions
	minFound     []string
	minMRR       []string
	baseline     string
	saveBaseline string
	allowErrors  bool
}

func newCheckCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &checkOptions{bench: benchOptions{io: ios, global: g}}
	cmd := &cobra.Command{
		Use:   "check --queries FILE [--min-found-at-limit X] [--min-mrr X] [--baseline FILE]",
		Short: "Fail (exit 1) when findability is below a threshold or worse than a baseline",
		Long: `Check runs the same evaluation as bench, writes its report, and exits 1 when a client's
found@limit or MRR is below the minimum, or when a query got worse than in a saved JSON
report (--baseline, written by 'toolfind bench --format json --out FILE').

A threshold is a fraction (0.8) or a percentage (80%), for every client, or for one client
with NAME=X (claude=0.9, codex@0.171.0=0.7, "codex [regex]"=0.5 for a strategy variant);
repeat the flag or separate entries with commas. Strategy variant rows are checked only
against thresholds that name them, and never against the baseline. A query got worse when
its expected tool is shown less often (over tie orders) or further down (lower expected
reciprocal rank). A search that fails (a --codex-script that throws or times out)
also fails the check, unless --allow-errors is given.`,
		Example: `  toolfind check --catalog github.json --queries q.jsonl --min-found-at-limit 0.8
  toolfind check --catalog github.json --queries q.jsonl --min-mrr 0.5 --min-mrr claude=0.7
  toolfind check --catalog github.json --queries q.jsonl --baseline main.json --format junit --out junit.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(cmd, opts) },
	}
	opts.bench.addFlags(cmd)
	f := cmd.Flags()
	f.StringArrayVar(&opts.minFound, "min-found-at-limit", nil, "minimum found@limit: `X` or CLIENT=X (repeatable)")
	f.StringArrayVar(&opts.minMRR, "min-mrr", nil, "minimum MRR: `X` or CLIENT=X (repeatable)")
	f.StringVar(&opts.baseline, "baseline", "", "saved JSON report `FILE`; fail on any query that got worse")
	f.StringVar(&opts.saveBaseline, "save-baseline", "", "also write the JSON report to `FILE` (a baseline for later runs)")
	f.BoolVar(&opts.allowErrors, "allow-errors", false, "do not fail when searches fail (a script that throws or times out); they still count as what the model saw")
	return cmd
}

func runCheck(cmd *cobra.Command, opts *checkOptions) error {
	found, err := bench.ParseThreshold(opts.minFound...)
	if err != nil {
		return usageError("--min-found-at-limit %v", err)
	}
	mrr, err := bench.ParseThreshold(opts.minMRR...)
	if err != nil {
		return usageError("--min-mrr %v", err)
	}
	if !found.IsSet() && !mrr.IsSet() && opts.baseline == "" {
		return usageError("check needs --min-found-at-limit, --min-mrr or --baseline")
	}
	var base *bench.Report
	if opts.baseline != "" {
		f, err := os.Open(opts.baseline)
		if err != nil {
			return badInput(fmt.Errorf("--baseline: %w", err))
		}
		base, err = bench.ReadReport(f)
		f.Close()
		if err != nil {
			return badInput(fmt.Errorf("--baseline %s: %w", opts.baseline, err))
		}
	}
	save, err := openOut("save-baseline", opts.saveBaseline)
	if err != nil {
		return err
	}
	defer abortOut(save)
	defer abortOut(opts.bench.outFile)
	rep, err := opts.bench.evaluate(cmd)
	if err != nil {
		return err
	}
	fails, err := rep.Check(bench.Thresholds{MinFoundAtLimit: found, MinMRR: mrr})
	if err != nil {
		return usageError("%v", err)
	}
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
	errOut := opts.bench.io.ErrOut
	var worse []bench.Failure
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
		worse = bench.Compare(base, rep)
	}
	for _, f := range fails {
		fmt.Fprintf(errOut, "FAIL %s\n", esc(f.String()))
	}
	for _, f := range worse {
		fmt.Fprintf(errOut, "WORSE %s\n", esc(f.String()))
	}
	var parts []string
	if !opts.allowErrors {
		errs := 0
		for _, c := range rep.Clients {
			if e := c.ErrorSummary(); e != "" {
				errs += c.Errors
				fmt.Fprintf(errOut, "ERROR %s\n", e)
			}
		}
		if errs > 0 {
			parts = append(parts, fmt.Sprintf("%s failed %s (--allow-errors to accept)", bench.Thousands(errs), plural(errs, "search", "searches")))
		}
	}
	if n := len(fails); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s below threshold", n, plural(n, "client", "clients")))
	}
	if n := len(worse); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s worse than the baseline", n, plural(n, "query", "queries")))
	}
	if len(parts) > 0 {
		return checkFailed(fmt.Errorf("check failed: %s", strings.Join(parts, ", ")))
	}
	fmt.Fprintf(errOut, "check passed: %d %s\n", len(rep.Clients), plural(len(rep.Clients), "client", "clients"))
	return nil
}

// countText is "1 outcome", "2,487 outcomes".
func countText(n int, one string) string {
	return bench.Thousands(n) + " " + plural(n, one, one+"s")
}
