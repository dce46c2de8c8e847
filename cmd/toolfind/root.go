package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/search"
)

// IOStreams are the command's standard streams; tests pass buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// IsTerminal reports whether w is an interactive terminal.
func IsTerminal(w io.Writer) bool {
	if o, ok := w.(*outWriter); ok {
		w = o.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// commands are the constructors of further subcommands; each command's
// file appends to it in init, so commands do not collide in one list.
var commands []command

// command is a subcommand's name (the first word of its Use) and its
// constructor.
type command struct {
	name string
	new  func(*IOStreams, *globalOptions) *cobra.Command
}

// subcommands are all the subcommands of the root, rank, version and
// clients first.
func subcommands() []command {
	return append([]command{
		{"rank", newRankCmd},
		{"version", func(ios *IOStreams, _ *globalOptions) *cobra.Command { return newVersionCmd(ios) }},
		{"clients", func(ios *IOStreams, _ *globalOptions) *cobra.Command { return newClientsCmd(ios) }},
	}, commands...)
}

// globalOptions are the flags every command shares.
type globalOptions struct {
	catalogs []string
	clients  string
	limit    int
	// flags holds the persistent flags, among them one
	// --<client>-<option> flag per client option (see clientFlag).
	flags  *pflag.FlagSet
	source sourceOptions
	// errOut receives notes on which profile answers a requested release.
	errOut io.Writer
	// quiet silences progress bars and the summary line; timing prints
	// where time and memory went (-v).
	quiet, timing bool
	status        *runStatus
	// noViews builds every client over the whole catalog, whatever the
	// --config files filter.
	noViews bool
}

// addVerbose gives a command -v/--verbose as another name for --timing
// (not a global shorthand: lint's -v is its own --verbose).
func addVerbose(cmd *cobra.Command, g *globalOptions) {
	cmd.Flags().BoolVarP(&g.timing, "verbose", "v", false, "same as --timing")
}

// clientFlag is the flag name of a client option.
func clientFlag(client string, o search.Option) string { return client + "-" + o.Name }

// clientProfiles returns one profile per client name (options are shared
// by all profiles of a client).
func clientProfiles() []search.Profile {
	var out []search.Profile
	seen := map[string]bool{}
	for _, p := range search.Profiles() {
		if !seen[p.ID.Name] {
			seen[p.ID.Name] = true
			out = append(out, p)
		}
	}
	return out
}

// Main runs the CLI and returns the exit code.
//
// A command whose standard output cannot be written exits 2, whatever it
// would have exited with, saying so on standard error.
func Main(args []string, in io.Reader, out, errOut io.Writer) int {
	ow := &outWriter{w: out}
	ios := &IOStreams{In: in, Out: ow, ErrOut: errOut}
	root := newRootCmd(ios, args)
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(ow)
	root.SetErr(errOut)
	// Ctrl-C and SIGTERM cancel the command's context: every command then
	// ends what it started (live servers, clients under verify, writer
	// commands) and removes its temporary folders before toolfind exits. A
	// second signal ends toolfind at once.
	// The cause names the signal, so the error says "interrupted" rather
	// than "context canceled".
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		select {
		case sig := <-sigs:
			signal.Stop(sigs) // the second signal ends toolfind at once
			cancel(&interrupted{sig: sig})
		case <-ctx.Done():
		}
	}()
	// JavaScript runs in toolfind's own child, started when first needed.
	js := &jsEngine{errOut: errOut}
	var restore func()
	if inProcessJS != nil {
		restore = jsbox.SetEngine(inProcessJS)
	} else {
		restore = jsbox.SetEngine(js)
	}
	err := root.ExecuteContext(ctx)
	restore()
	js.close()
	if werr := ow.failed(); werr != nil {
		if err != nil && exitCode(err) != exitBadInput {
			fmt.Fprintln(errOut, "toolfind:", safetext.Block(err.Error()))
		}
		if err == nil || exitCode(err) != exitBadInput {
			err = badInput(fmt.Errorf("writing standard output: %w", werr))
		}
	}
	if err != nil {
		// An error may echo input (a file's bytes, a server's stderr): its
		// line breaks are layout, every other control is escaped.
		fmt.Fprintln(errOut, "toolfind:", safetext.Block(interruptedText(ctx, err)))
	}
	return exitCode(err)
}

// interrupted is the cause of the run's context after Ctrl-C or SIGTERM.
type interrupted struct{ sig os.Signal }

func (i *interrupted) Error() string {
	if i.sig == os.Interrupt {
		return "interrupted"
	}
	return "interrupted (" + i.sig.String() + ")"
}

// interruptedText is err's message with "context canceled" said as the
// signal that cancelled the run: "interrupted" for Ctrl-C, "interrupted
// (terminated)" for SIGTERM. The exit code stays err's.
func interruptedText(ctx context.Context, err error) string {
	var i *interrupted
	msg := err.Error()
	if !errors.As(context.Cause(ctx), &i) || !errors.Is(err, context.Canceled) && !strings.Contains(msg, context.Canceled.Error()) {
		return msg
	}
	if msg == context.Canceled.Error() {
		return i.Error()
	}
	return strings.ReplaceAll(msg, context.Canceled.Error(), i.Error())
}

// newRootCmd builds the command tree that runs args. When args start
// with a subcommand's name, cobra runs that subcommand whatever its
// siblings are, so only it is built under the root (building every
// subcommand's flags is most of the tree's cost, paid by every process);
// any other args (none, a flag first, help, completion, a typo to suggest
// for) get the whole tree.
func newRootCmd(ios *IOStreams, args []string) *cobra.Command {
	g := &globalOptions{errOut: ios.ErrOut}
	g.source.errOut = ios.ErrOut
	root := &cobra.Command{
		Use:   "toolfind",
		Short: "Will each AI agent client find your MCP tools, and what will its model see?",
		Long: `toolfind simulates how AI agent clients (Claude Code, Grok Build, Codex, OpenCode)
discover MCP tools, exactly as each release does, without a model or an API key.

With no --catalog it uses an embedded demo catalog.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       toolfind.Build().String(),
	}
	root.SetVersionTemplate("toolfind {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError("%s (see '%s --help')", flagErrorText(err), c.CommandPath())
	})
	pf := root.PersistentFlags()
	g.flags = pf
	pf.StringArrayVar(&g.catalogs, "catalog", nil, "catalog `PATH` (file or folder); repeatable; default: the embedded demo")
	profiles := clientProfiles()
	pf.StringVar(&g.clients, "client", "all", "clients to simulate, comma-separated: "+clientNamesHelp(profiles))
	pf.IntVar(&g.limit, "limit", 0, "result limit per search (0: each client's default)")
	pf.BoolVar(&g.quiet, "quiet", false, "no progress bars or summary line on standard error")
	pf.BoolVar(&g.timing, "timing", false, "print where time and memory went (load, build, search) on standard error; -v on rank, bench and check")
	pf.String("cpuprofile", "", "write a CPU profile to `FILE`")
	_ = pf.MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		g.status = newRun(ios.ErrOut, IsTerminal(ios.ErrOut), g.quiet, g.timing)
		// Before anything is read or written (the CPU profile included):
		// no output on an input or on another output.
		if err := checkPaths(cmd, args); err != nil {
			return err
		}
		if p, _ := pf.GetString("cpuprofile"); p != "" {
			stop, err := startCPUProfile(p)
			if err != nil {
				return usageError("--cpuprofile: %v", err)
			}
			g.status.onFinish = stop
		}
		return nil
	}
	root.PersistentPostRun = func(cmd *cobra.Command, args []string) { g.status.finish() }
	setHelp(root, ios)
	addSourceFlags(root, &g.source)
	for _, p := range profiles {
		for _, o := range p.Options {
			flag, usage := clientFlag(p.ID.Name, o), o.Usage
			if o.Kind == search.BoolOption {
				v := o.Default
				pf.Var(boolText{&v}, flag, usage)
				pf.Lookup(flag).NoOptDefVal = "true"
			} else {
				pf.String(flag, o.Default, usage)
			}
			markClientFlag(pf, flag, p.ID.Name)
		}
	}
	subs := subcommands()
	if len(args) > 0 {
		for _, c := range subs {
			if c.name == args[0] {
				subs = []command{c}
				break
			}
		}
	}
	for _, c := range subs {
		root.AddCommand(noArgsSaysSo(c.new(ios, g)))
	}
	registerCompletions(root)
	return root
}

// noArgsSaysSo makes a command that takes no arguments say that of an
// argument given (cobra.NoArgs calls it an unknown command, which
// misleads when it is, say, a query without --query).
func noArgsSaysSo(cmd *cobra.Command) *cobra.Command {
	check := cmd.Args
	if check == nil || cmd.HasSubCommands() {
		return cmd
	}
	cmd.Args = func(c *cobra.Command, args []string) error {
		err := check(c, args)
		if err != nil && len(args) > 0 && strings.HasPrefix(err.Error(), "unknown command") {
			return usageError("%s takes no arguments, only flags: %q is not one (see '%s --help')", c.CommandPath(), args[0], c.CommandPath())
		}
		return err
	}
	return cmd
}

func clientNamesHelp(profiles []search.Profile) string {
	var names []string
	for _, p := range profiles {
		names = append(names, p.ID.Name)
	}
	names = append(names, "all")
	return strings.Join(names, ", ") + " (name@version for an older profile)"
}

// loadCatalog reads the catalogs the flags name: files and folders, live
// servers, or the embedded demo when none is given.
func (g *globalOptions) loadCatalog(ctx context.Context) (*corpus.Catalog, error) {
	ph := g.run().begin("load", 0, true)
	// A live server can take long to start (npx downloads it): on a
	// terminal, say which after a moment instead of nothing until the
	// timeout.
	stop := func() {}
	if label := liveWaitLabel(g.source.servers, g.source.urls); label != "" {
		stop = ph.wait(label)
	}
	cat, err := g.source.load(ctx, g.catalogs, ph.set)
	stop()
	if err != nil {
		return nil, err
	}
	ph.end(fmt.Sprintf("loaded %s in %d %s", count(cat.Len(), "tool", "tools"), len(cat.Servers), plural(len(cat.Servers), "server", "servers")))
	return cat, nil
}

// liveWaitLabel names the live servers a load waits for: "starting server
// everything", "starting 3 live servers"; "" for none. A server is named
// by its NAME= prefix, else by its command's program (npx: the package),
// else by its URL's host.
func liveWaitLabel(servers, urls []string) string {
	n := len(servers) + len(urls)
	if n != 1 {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("starting %d live servers", n)
	}
	if len(urls) == 1 {
		src, err := snap.ParseURL(urls[0])
		if err != nil {
			return "connecting to the server"
		}
		if src.Name != "" {
			return "connecting to server " + src.Name
		}
		if u, err := url.Parse(src.URL); err == nil {
			return "connecting to " + u.Host
		}
		return "connecting to the server"
	}
	src, err := snap.ParseServer(servers[0])
	if err != nil || len(src.Command) == 0 {
		return "starting the server"
	}
	if src.Name != "" {
		return "starting server " + src.Name
	}
	name := src.Command[0]
	// npx -y PKG, uvx PKG, …: the package names the server.
	for _, w := range src.Command[1:] {
		if !strings.HasPrefix(w, "-") && (name == "npx" || name == "uvx" || name == "bunx" || name == "pnpx") {
			name = w
			break
		}
	}
	return "starting " + filepath.Base(name)
}

// run is the command's status reporter (a silent one when a command runs
// without the root's pre-run, as in tests of single functions).
func (g *globalOptions) run() *runStatus {
	if g.status == nil {
		g.status = newRun(io.Discard, false, true, false)
	}
	return g.status
}

// options collects the client option flags the user set, reading file
// options' files.
func (g *globalOptions) options() (toolfind.ClientOptions, error) {
	out := toolfind.ClientOptions{}
	// What the --config files set, unless a flag says otherwise.
	for client, o := range g.source.cfg.options() {
		out[client] = search.Options{}
		for k, v := range o {
			out[client][k] = v
		}
	}
	for _, p := range clientProfiles() {
		for _, o := range p.Options {
			flag := clientFlag(p.ID.Name, o)
			if !g.flags.Changed(flag) {
				continue
			}
			val := g.flags.Lookup(flag).Value.String()
			if o.Kind == search.FileOption {
				data, err := userfile.ReadFile(val)
				if err != nil {
					return nil, badInput(fmt.Errorf("--%s: %w", flag, err))
				}
				val = string(data)
			}
			if out[p.ID.Name] == nil {
				out[p.ID.Name] = search.Options{}
			}
			out[p.ID.Name][o.Name] = val
		}
	}
	return out, nil
}

// simulators builds the selected clients over cat.
func (g *globalOptions) simulators(cat *corpus.Catalog) ([]search.Simulator, error) {
	opts, err := g.options()
	if err != nil {
		return nil, err
	}
	ph := g.run().begin("build", 0, false)
	sims, err := toolfind.ClientsView(cat, g.clients, opts, g.view(), func(done, total int) {
		ph.total = int64(total)
		ph.set(int64(done))
	})
	if err != nil {
		return nil, g.buildError(err)
	}
	ids := make([]search.ClientID, len(sims))
	for i, s := range sims {
		ids[i] = s.Client()
	}
	if err := g.checkSelected(ids); err != nil {
		return nil, err
	}
	g.sayResolutions()
	ph.end(fmt.Sprintf("built %s", count(len(sims), "client", "clients")))
	return sims, nil
}

// view narrows each client's catalog as its --config file says (nil
// without one; lint sets noViews: it reports on the servers' tools as
// published).
func (g *globalOptions) view() toolfind.CatalogView {
	if g.source.cfg == nil || g.noViews {
		return nil
	}
	return g.source.cfg.view
}

// buildError is the usage error for a client that cannot be built: a bad
// option value names the option, anything else the --client flag.
func (g *globalOptions) buildError(err error) error {
	if oe := (*search.OptionError)(nil); errors.As(err, &oe) {
		return g.optionError(oe)
	}
	return usageError("--client: %v", err)
}

// checkSelected refuses a client option given for a client that is not
// selected: it would be ignored silently.
func (g *globalOptions) checkSelected(ids []search.ClientID) error {
	selected := map[string]bool{}
	var names []string
	for _, id := range ids {
		if n := id.Name; !selected[n] {
			selected[n] = true
			names = append(names, n)
		}
	}
	for _, p := range clientProfiles() {
		for _, o := range p.Options {
			if flag := clientFlag(p.ID.Name, o); g.flags.Changed(flag) && !selected[p.ID.Name] {
				return usageError("--%s applies to client %s, which is not selected (--client %s)", flag, p.ID.Name, strings.Join(names, ","))
			}
		}
	}
	return nil
}

// sayResolutions tells, on stderr, which profile answers each release named
// with --client that has no profile of its own (specs/claude.md §0).
func (g *globalOptions) sayResolutions() {
	rs, err := search.Resolutions(g.clients)
	if err != nil {
		return // already reported by the caller's resolution
	}
	for _, r := range rs {
		if r.Note != "" {
			fmt.Fprintf(g.errOut, "toolfind: note: %s\n", r.Note)
		}
		if r.Warning != "" {
			fmt.Fprintf(g.errOut, "toolfind: warning: %s\n", r.Warning)
		}
	}
}

// optionError words a client option the simulator cannot use, naming the
// flag and, for a file option, FILE:LINE:COLUMN.
func (g *globalOptions) optionError(oe *search.OptionError) error {
	flag := oe.Client + "-" + oe.Option
	f := g.flags.Lookup(flag)
	if f == nil {
		return usageError("%v", oe)
	}
	where := "--" + flag
	if isFileOption(oe.Client, oe.Option) {
		where += " " + f.Value.String()
		if oe.Line > 0 {
			where += ":" + strconv.Itoa(oe.Line)
			if oe.Column > 0 {
				where += ":" + strconv.Itoa(oe.Column)
			}
		}
	} else if oe.Line > 0 {
		where += fmt.Sprintf(" (line %d)", oe.Line)
	}
	return usageError("%s: %v", where, oe.Err)
}

// isFileOption reports whether a client's option holds a file path.
func isFileOption(client, option string) bool {
	for _, p := range clientProfiles() {
		for _, o := range p.Options {
			if p.ID.Name == client && o.Name == option {
				return o.Kind == search.FileOption
			}
		}
	}
	return false
}

// boolText is a boolean flag kept as text ("true"/"false"), so client
// options of every kind travel as search.Options strings; it prints and
// parses like a plain bool flag (--claude-builtins, --claude-builtins=false).
type boolText struct{ p *string }

func (b boolText) String() string {
	if b.p == nil || *b.p == "" {
		return "false"
	}
	return *b.p
}

func (b boolText) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q is not a boolean", s)
	}
	*b.p = strconv.FormatBool(v)
	return nil
}

func (b boolText) Type() string { return "bool" }
