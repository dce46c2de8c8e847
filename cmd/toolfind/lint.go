package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/lint"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, newLintCmd) }

// lintOptions are the flags of `toolfind lint`.
type lintOptions struct {
	io     *IOStreams
	global *globalOptions
	format string
	failOn string
}

func newLintCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &lintOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Report what each client drops, hides, cuts or renames in the catalog",
		Long: `Lint reports the catalog's own problems (schemas, names, duplicates, injection-like
text), what each simulated client does to the tools (drops a server, hides, renames, cuts),
and the limits of clients not simulated yet (Cursor, Gemini CLI, VS Code Copilot, Goose).`,
		Example: `  toolfind lint --catalog my-server.json
  toolfind lint --catalog my-server.json --format sarif > lint.sarif
  toolfind lint --catalog my-server.json --fail-on error`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.format, "format", "text", "output format: text, json or sarif")
	f.StringVar(&opts.failOn, "fail-on", "none", "exit 1 when a problem of this severity or worse is found: none, error, warning")
	return cmd
}

func runLint(cmd *cobra.Command, opts *lintOptions) error {
	switch opts.format {
	case "text", "json", "sarif":
	default:
		return usageError("--format %q: want text, json or sarif", opts.format)
	}
	threshold, ok := map[string]corpus.Severity{"error": corpus.Error, "warning": corpus.Warning, "none": corpus.Error + 1}[opts.failOn]
	if !ok {
		return usageError("--fail-on %q: want none, error or warning", opts.failOn)
	}
	cat, err := opts.global.loadCatalog(cmd.Context())
	if err != nil {
		return err
	}
	sims, err := opts.global.simulators(cat)
	if err != nil {
		return err
	}
	diags := Lint(cat, sims)
	switch opts.format {
	case "json":
		err = writeJSON(opts.io.Out, map[string]any{"diagnostics": nonNilDiags(diags)})
	case "sarif":
		err = writeJSON(opts.io.Out, sarifReport(diags))
	default:
		writeLintText(opts.io.Out, diags)
	}
	if err != nil {
		return err
	}
	worst := 0
	for _, d := range diags {
		if d.Severity >= threshold {
			worst++
		}
	}
	if worst > 0 {
		return checkFailed(fmt.Errorf("lint: %d %s at or above %s", worst, plural(worst, "problem", "problems"), opts.failOn))
	}
	return nil
}

// Lint gathers the catalog's diagnostics, each simulator's problems
// (labelled with its client) and the unsimulated clients' rules.
func Lint(cat *corpus.Catalog, sims []search.Simulator) []corpus.Diagnostic {
	diags := append([]corpus.Diagnostic(nil), cat.Diagnostics...)
	for _, sim := range sims {
		rep, ok := sim.(search.Reporter)
		if !ok {
			continue
		}
		for _, d := range rep.Problems() {
			if d.Client == "" {
				d.Client = sim.Client().String()
			}
			diags = append(diags, d)
		}
	}
	diags = append(diags, lint.Check(cat)...)
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Severity > diags[j].Severity })
	return diags
}

func nonNilDiags(d []corpus.Diagnostic) []corpus.Diagnostic {
	if d == nil {
		return []corpus.Diagnostic{}
	}
	return d
}

func writeLintText(w io.Writer, diags []corpus.Diagnostic) {
	counts := map[corpus.Severity]int{}
	for _, d := range diags {
		fmt.Fprintln(w, d)
		counts[d.Severity]++
	}
	fmt.Fprintf(w, "%d errors, %d warnings, %d notes\n", counts[corpus.Error], counts[corpus.Warning], counts[corpus.Info])
}

// sarifReport renders diagnostics as SARIF 2.1.0, one rule per code.
func sarifReport(diags []corpus.Diagnostic) map[string]any {
	level := map[corpus.Severity]string{corpus.Error: "error", corpus.Warning: "warning", corpus.Info: "note"}
	var rules []map[string]any
	seen := map[string]bool{}
	results := []map[string]any{}
	for _, d := range diags {
		if !seen[d.Code] {
			seen[d.Code] = true
			rules = append(rules, map[string]any{"id": d.Code, "shortDescription": map[string]string{"text": d.Code}})
		}
		r := map[string]any{
			"ruleId":  d.Code,
			"level":   level[d.Severity],
			"message": map[string]string{"text": d.Message},
		}
		var loc map[string]any
		if d.File != "" {
			loc = map[string]any{"physicalLocation": map[string]any{"artifactLocation": map[string]string{"uri": d.File}}}
		}
		if d.Server != "" || d.Tool != "" {
			if loc == nil {
				loc = map[string]any{}
			}
			name := d.Server + "/" + d.Tool
			if d.Field != "" {
				name += "#" + d.Field
			}
			loc["logicalLocations"] = []map[string]string{{"fullyQualifiedName": name, "kind": "member"}}
		}
		if loc != nil {
			r["locations"] = []map[string]any{loc}
		}
		if d.Client != "" {
			r["properties"] = map[string]string{"client": d.Client}
		}
		results = append(results, r)
	}
	if rules == nil {
		rules = []map[string]any{}
	}
	return map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []map[string]any{{
			"tool":    map[string]any{"driver": map[string]any{"name": "toolfind", "version": toolfind.Version, "rules": rules}},
			"results": results,
		}},
	}
}
