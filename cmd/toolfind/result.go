package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/result"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, command{"result", newResultCmd}) }

// resultOptions are the flags of `toolfind result`.
type resultOptions struct {
	io          *IOStreams
	global      *globalOptions
	file        string
	tool        string
	args        string
	confirm     bool
	maxChars    int
	countTokens int
	format      string
	full        bool
}

func newResultCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &resultOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "result --file RESULT.json | --server CMD --tool NAME --args JSON --confirm-call",
		Short: "Show what each client's model receives of a tool result",
		Long: `Result reports, per client, what its model receives of an MCP tool result
(a CallToolResult: content, structuredContent, isError, _meta): the exact text,
its size, a verdict (whole, cut or replaced by a file reference) and, when a
client's output cap bites, advice for the server author.

The result comes from --file (a CallToolResult, or a JSON-RPC response holding
one; "-" reads standard input) or from a live call: --server (or --url) with
--tool and --args. Calling a tool can have effects, so a live call also needs
--confirm-call. The tool's definition matters to Claude Code when its _meta sets
"anthropic/maxResultSizeChars": a live call reads it from the server's
tools/list; for a file, give --catalog and --tool, or --max-result-size-chars.

Claude Code asks the API for an exact token count of a large result; toolfind
cannot, so it uses Claude Code's own estimate and says so. --count-tokens gives
the real count.

Exit codes: 0 ok; 2 bad flags or a file that is not a CallToolResult (the message
names file, line and field); 3 the live server could not be reached or the call
failed (the message names the phase).`,
		Example: `  toolfind result --file big.json
  toolfind result --file big.json --client claude --count-tokens 46253 --format json
  toolfind result --server 'npx -y @modelcontextprotocol/server-everything@2026.8.31' \
      --tool echo --args '{"message":"hi"}' --confirm-call`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runResult(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.file, "file", "", "the tool result: a CallToolResult JSON `FILE` (\"-\": standard input)")
	f.StringVar(&opts.tool, "tool", "", "the tool `NAME`: the one to call live, or the one whose definition --catalog holds")
	f.StringVar(&opts.args, "args", "{}", "live call: the arguments, a JSON object")
	f.BoolVar(&opts.confirm, "confirm-call", false, "live call: confirm that the tool may be called (it can have effects)")
	f.IntVar(&opts.maxChars, "max-result-size-chars", 0, `the tool's _meta["anthropic/maxResultSizeChars"] (Claude Code), overriding its definition`)
	f.IntVar(&opts.countTokens, "count-tokens", 0, "Claude Code: the exact token count of the output, which it asks the API for (default: its estimate)")
	addFormatFlag(f, &opts.format, "text", "json")
	f.BoolVar(&opts.full, "full", false, "text format: print every shown text whole")
	return cmd
}

func runResult(cmd *cobra.Command, opts *resultOptions) error {
	if opts.format != "text" && opts.format != "json" {
		return usageError("--format %q: want text or json", opts.format)
	}
	if opts.maxChars < 0 || opts.countTokens < 0 {
		return usageError("--max-result-size-chars and --count-tokens must not be negative")
	}
	src := &opts.global.source
	liveCall := src.live()
	switch {
	case liveCall && opts.file != "":
		return usageError("give either --file or a live server (--server/--url), not both")
	case !liveCall && opts.file == "":
		return usageError("result needs --file RESULT.json, or --server/--url with --tool, --args and --confirm-call")
	case !liveCall && (opts.confirm || cmd.Flags().Changed("args")):
		return usageError("--args and --confirm-call apply to a live call (--server or --url)")
	}
	var (
		in     result.Input
		source string
		err    error
	)
	if liveCall {
		in, source, err = liveResult(cmd.Context(), opts)
	} else {
		in, source, err = fileResult(opts)
	}
	if err != nil {
		return err
	}
	in.MaxResultSizeChars = opts.maxChars
	clients, labels, err := resultClients(opts.global.clients)
	if err != nil {
		return err
	}
	ds, err := result.Deliver(in, result.Options{Clients: clients, Claude: result.ClaudeOptions{CountTokens: opts.countTokens}})
	if err != nil {
		return usageError("--client: %v", err)
	}
	opts.global.sayResolutions()
	for i := range ds {
		name, _, _ := strings.Cut(ds[i].Client, "@")
		if l, ok := labels[name]; ok {
			ds[i].Client = l
		}
	}
	if opts.format == "json" {
		return result.WriteJSON(opts.io.Out, ds)
	}
	return result.WriteText(opts.io.Out, source, in.Result, ds, result.TextOptions{Full: opts.full})
}

// resultClients reads --client as every command does: a name, or
// name@release resolved to a profile (claude@2.1.332, claude@2.1.330 →
// 2.1.329). It returns the client names for result.Deliver (nil: all) and,
// per name, the profile to label its delivery with: how a client delivers
// a tool result is the same in every release toolfind has a profile of
// (the output caps of Claude Code, Codex, Grok Build and OpenCode have not
// changed across them), so the release only names the row.
func resultClients(spec string) (names []string, labels map[string]string, err error) {
	labels = map[string]string{}
	var parts []string
	for _, p := range strings.Split(spec, ",") {
		if p = strings.TrimSpace(p); p == "all" || p == "" {
			parts = nil
			break
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = result.ClientNames()
	} else {
		names = parts
	}
	for i, p := range parts {
		prof, _, err := search.LookupRelease(p)
		if err != nil {
			// A client without profiles: Deliver's error lists the known.
			continue
		}
		if names != nil {
			names[i] = prof.ID.Name
		}
		labels[prof.ID.Name] = prof.ID.String()
	}
	return names, labels, nil
}

// fileResult reads --file and, with --catalog and --tool, the tool's
// definition.
func fileResult(opts *resultOptions) (result.Input, string, error) {
	var (
		data []byte
		err  error
	)
	// At most result.MaxInputBytes (16 MiB) is read: /dev/zero, a FIFO
	// or a 500 MB file is refused, not read whole.
	name := opts.file
	if name == "-" {
		name = "standard input"
		data, err = result.ReadInput(name, opts.io.In)
	} else {
		data, err = result.ReadFile(opts.file)
	}
	if err != nil {
		return result.Input{}, "", badInput(fmt.Errorf("--file: %w", err))
	}
	r, err := result.Parse(name, data)
	if err != nil {
		return result.Input{}, "", badInput(err)
	}
	in := result.Input{Result: r}
	if opts.tool == "" {
		return in, name, nil
	}
	if len(opts.global.catalogs) == 0 {
		in.Tool = opts.tool
		return in, name, nil
	}
	cat, err := toolfind.LoadCatalog(opts.global.catalogs...)
	if err != nil {
		return result.Input{}, "", badInput(err)
	}
	def, err := definition(cat, opts.tool)
	if err != nil {
		return result.Input{}, "", err
	}
	in.Definition, in.Server, in.Tool = def, def.Server, def.Name
	return in, name, nil
}

// liveResult calls the tool on the one live server (after --confirm-call).
func liveResult(ctx context.Context, opts *resultOptions) (result.Input, string, error) {
	if !opts.confirm {
		return result.Input{}, "", usageError("calling a tool can have effects: add --confirm-call to call %q", opts.tool)
	}
	if opts.tool == "" {
		return result.Input{}, "", usageError("a live call needs --tool NAME")
	}
	if len(opts.global.catalogs) > 0 {
		return result.Input{}, "", usageError("a live call reads the tool's definition from the server; --catalog does not apply")
	}
	srcs, err := opts.global.source.sources()
	if err != nil {
		return result.Input{}, "", err
	}
	if len(srcs) != 1 {
		return result.Input{}, "", usageError("a live call needs exactly one --server or --url, got %d", len(srcs))
	}
	var args json.RawMessage
	if t := strings.TrimSpace(opts.args); t != "" {
		args = json.RawMessage(t)
		if !json.Valid(args) || t[0] != '{' {
			return result.Input{}, "", usageError("--args %q: want a JSON object", opts.args)
		}
	}
	c, err := opts.global.source.client()
	if err != nil {
		return result.Input{}, "", err
	}
	defer c.Close()
	tc, err := c.Call(ctx, srcs[0], opts.global.source.options(), opts.tool, args)
	if err != nil {
		return result.Input{}, "", liveError(headerHint(opts.global.source.headers, err))
	}
	label := fmt.Sprintf("%s tools/call %s", srcs[0].Label(), opts.tool)
	r, err := result.Parse(label, tc.Result)
	if err != nil {
		return result.Input{}, "", liveError(err)
	}
	in := result.Input{Result: r, Server: tc.Snapshot.Name, Tool: opts.tool}
	cat, err := snap.Merge(nil, []*snap.Snapshot{tc.Snapshot})
	if err == nil {
		if def, err := definition(cat, tc.Snapshot.Name+"/"+opts.tool); err == nil {
			in.Definition = def
		}
	}
	return in, label, nil
}

// definition finds a tool in a catalog (server/tool, server__tool,
// mcp__server__tool or a unique bare name).
func definition(cat *corpus.Catalog, name string) (*corpus.Tool, error) {
	id, err := corpus.NewResolver(cat).Resolve(name)
	if err != nil {
		return nil, usageError("--tool: %v", err)
	}
	t := cat.Tool(id)
	if t == nil {
		return nil, usageError("--tool %q: not in the catalog", name)
	}
	return t, nil
}
