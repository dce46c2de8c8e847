package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/claudecode"
	"github.com/toolfind/toolfind/verify/copilotcli"
	"github.com/toolfind/toolfind/verify/geminicli"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// verifyOptions are the flags of `toolfind verify`.
type verifyOptions struct {
	io       *IOStreams
	global   *globalOptions
	binary   string
	queries  string
	query    []string
	parallel int
	timeout  time.Duration
	bundle   string
	format   string
	keep     bool
	result   string // gemini: one CallToolResult for every tool
	// resultJSON is --result's CallToolResult, read by checkVerifyGemini.
	resultJSON json.RawMessage
}

func init() {
	commands = append(commands, command{"verify", newVerifyCmd}, command{"mcp-stub", newMCPStubCmd})
}

func newVerifyCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &verifyOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "verify --client claude --queries F | --client gemini | --client copilot [--queries F] [--binary PATH]",
		Short: "Run your installed client against the catalog and compare it with the simulation",
		Long: `Verify runs the client you have installed against the catalog and compares what it does
with toolfind's simulation: Claude Code one search call per query; Gemini CLI, which has no
tool search, once, calling every declared tool, comparing tool by tool what it declares to
its model and what it passes back of each result (--result gives the result every tool
returns; by default the tools return a set of results that exercise every rule); Copilot CLI
once to compare every tool entry it sends and whether it defers them, then one
tool_search_tool call per query (each query is the regular expression the model would write),
run offline with the model and wire of --copilot-model and --copilot-api.

toolfind serves the catalog as stub MCP servers over stdio (byte for byte), points the client
at a local emulated model API on 127.0.0.1 that makes the search call, and reads the real
result from the client's next request. Each run gets a throwaway HOME and config folder;
nothing of your own configuration is read or changed, and nothing is downloaded.

The client's release (from --binary, or claude on PATH) picks the profile: the newest profile
not newer than it. --client claude@VERSION compares against that profile instead.

Exit status: 0 every query matches, 1 any mismatch, 3 a query could not be run.`,
		Example: `  toolfind verify --client claude --catalog my-server.json --queries queries.jsonl
  toolfind verify --client claude --binary ~/bin/claude --catalog c.json --queries q.jsonl --parallel 4 --bundle repro/
  toolfind verify --client gemini --catalog my-server.json
  toolfind verify --client copilot --catalog my-server.json -q 'issue' -q 'create.*issue'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runVerify(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.binary, "binary", "", "the client executable (default: claude, gemini or copilot on PATH)")
	f.StringVar(&opts.queries, "queries", "", `query file, JSON Lines {"query": "...", "max_results": N}`)
	f.StringArrayVarP(&opts.query, "query", "q", nil, "a query (repeatable; after --queries)")
	f.IntVar(&opts.parallel, "parallel", 2, "client processes at once")
	f.DurationVar(&opts.timeout, "query-timeout", verify.DefaultTimeout, "time limit for each query's real run")
	f.StringVar(&opts.bundle, "bundle", "", "write a self-contained reproduction (catalog, queries, both results) into this new `DIR`")
	addFormatFlag(f, &opts.format, "text", "json")
	f.BoolVar(&opts.keep, "keep", false, "keep each run's throwaway folder (debugging)")
	f.StringVar(&opts.result, "result", "", "--client gemini: a CallToolResult JSON `FILE` every tool returns (default: a set of results that exercise every delivery rule)")
	return cmd
}

// newMCPStubCmd is the hidden stub MCP server that verify starts for each
// catalog server: `toolfind mcp-stub SERVER.json`.
func newMCPStubCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:    "mcp-stub SERVER.json [MARKER]",
		Short:  "Serve one catalog server over stdio (used by verify)",
		Hidden: true,
		Args:   cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := mcpstub.Main(args, ios.In, ios.Out, ios.ErrOut); code != 0 {
				return &exitError{code: code, err: errors.New("mcp-stub failed")}
			}
			return nil
		},
	}
}

// verifyClient is one client's part of `toolfind verify`; runVerify
// does the rest, the same for every client.
type verifyClient struct {
	// name is the client's name in --client; product names it in messages.
	name, product string
	// check refuses the flags the client does not take and returns the
	// queries it runs.
	check func(opts *verifyOptions) ([]verify.Query, error)
	// resolve and version find the executable and its release.
	resolve func(path string) (string, error)
	version func(ctx context.Context, binary string) (string, error)
	// run verifies the client once everything is ready.
	run func(cmd *cobra.Command, opts *verifyOptions, t *verifyTarget, queries []verify.Query) error
}

var verifyClients = []verifyClient{
	{name: "claude", product: "Claude Code", check: checkVerifyClaude, resolve: claudecode.ResolveBinary, version: claudecode.Version, run: runVerifyClaude},
	{name: "gemini", product: "Gemini CLI", check: checkVerifyGemini, resolve: geminicli.ResolveBinary, version: geminicli.Version, run: runVerifyGemini},
	{name: "copilot", product: "Copilot CLI", check: checkVerifyCopilot, resolve: copilotcli.ResolveBinary, version: copilotcli.Version, run: runVerifyCopilot},
}

// verifyTarget is what every client's verify starts from: the catalog,
// the client's executable and release, the profile that release picks
// (or --client NAME@VERSION names), the client's options, the catalog as
// stub servers and the command that serves one, and standard error.
type verifyTarget struct {
	cat             *corpus.Catalog
	binary, release string
	prof            search.Profile
	options         search.Options
	servers         []mcpstub.Server
	stub            []string
	errOut          *safetext.Writer
}

// build is the simulation of the target's profile over the catalog with
// the client's options (o, when not nil, instead).
func (t *verifyTarget) build(o search.Options) (search.Simulator, error) {
	if o == nil {
		o = t.options
	}
	sim, err := search.Build(t.prof, t.cat, o)
	if err != nil {
		return nil, usageError("--client: %v", err)
	}
	return sim, nil
}

func runVerify(cmd *cobra.Command, opts *verifyOptions) error {
	if opts.format != "text" && opts.format != "json" {
		return usageError("--format %q: want text or json", opts.format)
	}
	if opts.parallel < 1 {
		return usageError("--parallel %d: must be 1 or more", opts.parallel)
	}
	if opts.timeout <= 0 {
		return usageError("--query-timeout %s: must be more than 0", opts.timeout)
	}
	if opts.global.limit < 0 {
		return usageError("--limit %d: must be 0 (client default) or more", opts.global.limit)
	}
	spec := strings.TrimSpace(opts.global.clients)
	id := search.ParseClientID(spec)
	var vc *verifyClient
	for i := range verifyClients {
		if opts.global.flags.Changed("client") && !strings.Contains(spec, ",") && id.Name == verifyClients[i].name {
			vc = &verifyClients[i]
		}
	}
	if vc == nil {
		return usageError("verify checks one client: --client claude, gemini or copilot (or NAME@VERSION); got %q", spec)
	}
	queries, err := vc.check(opts)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	t := &verifyTarget{}
	if t.cat, err = opts.global.loadCatalog(ctx); err != nil {
		return err
	}
	if t.binary, err = vc.resolve(opts.binary); err != nil {
		if opts.binary != "" {
			return usageError("--binary: %v", err)
		}
		return usageError("%v", err)
	}
	if t.release, err = vc.version(ctx, t.binary); err != nil {
		return liveError(err)
	}
	want := id.String()
	if id.Version == "" {
		want = vc.name + "@" + t.release
	}
	prof, res, err := search.LookupRelease(want)
	if err != nil {
		return usageError("--client: %v", err)
	}
	t.prof = prof
	t.errOut = safetext.NewWriter(opts.io.ErrOut)
	defer t.errOut.Flush()
	if res.Note != "" {
		fmt.Fprintf(t.errOut, "toolfind: note: %s\n", res.Note)
	}
	if res.Warning != "" {
		fmt.Fprintf(t.errOut, "toolfind: warning: %s\n", res.Warning)
	}
	copts, err := opts.global.options()
	if err != nil {
		return err
	}
	t.options = search.Options{}
	for k, v := range copts[prof.ID.Name] {
		t.options[k] = v
	}
	if t.servers, err = mcpstub.FromCatalog(t.cat); err != nil {
		return badInput(err)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding toolfind's own executable for the stub servers: %w", err)
	}
	t.stub = []string{self, "mcp-stub"}
	return vc.run(cmd, opts, t, queries)
}

// verifyQueries reads --queries and --query, each query's limit --limit
// unless it has its own.
func verifyQueries(opts *verifyOptions) ([]verify.Query, error) {
	var queries []verify.Query
	if opts.queries != "" {
		qs, err := verify.ReadQueries(opts.queries)
		if err != nil {
			return nil, badInput(err)
		}
		queries = qs
	}
	for _, q := range opts.query {
		queries = append(queries, verify.Query{Text: q})
	}
	for i := range queries {
		if queries[i].Limit == 0 {
			queries[i].Limit = opts.global.limit
		}
	}
	return queries, nil
}

// runVerifyQueries asks the real client and the simulation every query,
// with a progress bar on a terminal.
func runVerifyQueries(cmd *cobra.Command, opts *verifyOptions, real verify.Client, sim search.Simulator, queries []verify.Query) (*verify.Report, error) {
	bar := newProgress(opts.io.ErrOut, IsTerminal(opts.io.ErrOut))
	rep, err := verify.Run(cmd.Context(), real, sim, queries, verify.Options{
		Parallel: opts.parallel, Timeout: opts.timeout,
		Progress: func(done, total int, o verify.Outcome) { bar.update(done, total, o) },
	})
	bar.finish()
	return rep, err
}

func checkVerifyClaude(opts *verifyOptions) ([]verify.Query, error) {
	if opts.result != "" {
		return nil, usageError("--result goes with --client gemini")
	}
	queries, err := verifyQueries(opts)
	if err != nil {
		return nil, err
	}
	if len(queries) == 0 {
		return nil, usageError("verify needs --queries FILE or --query Q")
	}
	if opts.bundle != "" {
		if entries, err := os.ReadDir(opts.bundle); err == nil && len(entries) > 0 {
			return nil, usageError("--bundle %s: folder is not empty", opts.bundle)
		}
	}
	return queries, nil
}

// runVerifyClaude runs Claude Code once per query (verify/claudecode).
func runVerifyClaude(cmd *cobra.Command, opts *verifyOptions, t *verifyTarget, queries []verify.Query) error {
	sim, err := t.build(nil)
	if err != nil {
		return err
	}
	prof, errOut := t.prof, t.errOut
	runner := &claudecode.Runner{Binary: t.binary, Servers: t.servers, StubCommand: t.stub, Keep: opts.keep}
	if b, _ := t.options.Bool(claude.OptBuiltins, true); !b {
		if cp, ok := claudeProfile(prof.ID.Version); ok {
			runner.Args = []string{"--disallowedTools", strings.Join(claude.DeferredBuiltins(cp), ",")}
		}
	}
	fmt.Fprintf(errOut, "toolfind: verifying Claude Code %s (%s) against %s: %d %s, %d %s, %d at a time\n",
		t.release, t.binary, prof.ID, len(t.servers), plural(len(t.servers), "server", "servers"), len(queries), plural(len(queries), "query", "queries"), opts.parallel)
	rep, runErr := runVerifyQueries(cmd, opts, runner, sim, queries)
	rep.Client = "claude " + t.release
	if opts.format == "json" {
		if err := writeJSON(opts.io.Out, rep); err != nil {
			return err
		}
	} else if err := writeVerifyText(opts.io.Out, rep); err != nil {
		return err
	}
	if opts.bundle != "" {
		cb, err := json.Marshal(map[string]any{"servers": t.servers})
		if err != nil {
			return err
		}
		command := fmt.Sprintf("toolfind verify --client %s --catalog %s --queries %s", prof.ID, verify.BundleCatalog, verify.BundleQueries)
		if err := verify.WriteBundle(opts.bundle, verify.Bundle{Catalog: cb, Report: rep, Command: command}); err != nil {
			return fmt.Errorf("--bundle: %w", err)
		}
		fmt.Fprintf(errOut, "toolfind: reproduction written to %s\n", opts.bundle)
	}
	if runErr != nil {
		return runErr
	}
	switch {
	case rep.Mismatch > 0 || rep.Schema != nil && !rep.Schema.Match:
		return checkFailed(errors.New(rep.Summary()))
	case rep.Failed > 0:
		return liveError(errors.New(rep.Summary()))
	}
	return nil
}

// claudeProfile finds the claude package's profile by version.
func claudeProfile(version string) (claude.Profile, bool) {
	for _, p := range []claude.Profile{claude.V2_1_332, claude.V2_1_329, claude.V2_1_328, claude.V2_1_283, claude.V2_1_88} {
		if p.Version == version {
			return p, true
		}
	}
	return claude.Profile{}, false
}

// writeVerifyText prints each query's real and simulated tools, the
// verdict with the first difference, and the summary line. Every text from
// the catalog, the queries or the client is escaped (safetext).
func writeVerifyText(w io.Writer, rep *verify.Report) error {
	sw := safetext.NewWriter(w)
	n := len(rep.Outcomes)
	for i, o := range rep.Outcomes {
		verdict := "match"
		switch {
		case o.Error != "":
			verdict = "FAILED"
		case !o.Match:
			verdict = "MISMATCH"
		}
		limit := "default max_results"
		if o.Query.Limit > 0 {
			limit = fmt.Sprintf("max_results %d", o.Query.Limit)
		}
		fmt.Fprintf(sw, "[%d/%d] %s  %s (%s, %.1fs)\n", i+1, n, verdict, esc(strconv.Quote(o.Query.Text)), limit, o.Elapsed.Seconds())
		if o.Real != nil {
			fmt.Fprintf(sw, "  real:      %s\n", esc(answerText(*o.Real)))
		}
		if o.Simulated != nil {
			fmt.Fprintf(sw, "  simulated: %s\n", esc(answerText(*o.Simulated)))
		}
		switch {
		case o.Error != "":
			fmt.Fprintf(sw, "  error: %s\n", esc(o.Error))
		case !o.Match:
			fmt.Fprintf(sw, "  first difference: %s\n", esc(o.Diff))
		}
	}
	if c := rep.Schema; c != nil {
		verdict := "match"
		if !c.Match {
			verdict = "MISMATCH"
		}
		fmt.Fprintf(sw, "%s input schema requires: real [%s], simulated [%s]: %s\n", claudecode.SearchTool,
			strings.Join(c.Real, ", "), strings.Join(c.Simulated, ", "), verdict)
	}
	fmt.Fprintln(sw, rep.Summary())
	return sw.Flush()
}

func answerText(a verify.Answer) string {
	if len(a.Tools) > 0 {
		return verify.FormatTools(a.Tools)
	}
	return fmt.Sprintf("(none) %q", a.Text)
}

// progress draws "verify [=====>    ] 12/48  11 match, 1 mismatch" on a
// terminal; elsewhere it prints nothing (the report follows).
type progress struct {
	w        io.Writer
	on       bool
	mismatch int
	failed   int
}

func newProgress(w io.Writer, terminal bool) *progress { return &progress{w: w, on: terminal} }

func (p *progress) update(done, total int, o verify.Outcome) {
	switch {
	case o.Error != "":
		p.failed++
	case !o.Match:
		p.mismatch++
	}
	if !p.on {
		return
	}
	const width = 30
	fill := width * done / max(total, 1)
	bar := strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
	fmt.Fprintf(p.w, "\rverify [%s] %d/%d  %d match, %d mismatch, %d failed", bar, done, total, done-p.mismatch-p.failed, p.mismatch, p.failed)
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprintln(p.w)
	}
}
