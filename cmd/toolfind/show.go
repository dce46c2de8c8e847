package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, newShowCmd) }

// showOptions are the flags of `toolfind show`.
type showOptions struct {
	io     *IOStreams
	global *globalOptions
	tools  []string
	format string
	// surface prints what each model sees before it searches instead of
	// the tools; surfaceFile supplies exact client texts.
	surface     bool
	surfaceFile string
}

func newShowCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &showOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "show [--tool NAME]...",
		Short: "Show what each client's model reads of each tool",
		Long: `Show prints, per client, each tool exactly as the client renders it to its model:
the name it is called by, the description after the client's cut, the schema after its
normalisation, and the client's size estimate. A tool the client never shows is listed as hidden.`,
		Example: `  toolfind show --tool billing/export
  toolfind show --catalog github.json --client codex --tool create_pull_request --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runShow(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.tools, "tool", nil, "tool to show (server/tool, server__tool, mcp__server__tool or a unique name); repeatable; default: all")
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	f.BoolVar(&opts.surface, "surface", false, "show what each client's model sees before it searches (search tool definitions, reminders, partial catalog)")
	f.StringVar(&opts.surfaceFile, "surface-file", "", "with --surface: a JSON `FILE` {\"claude\": {\"tool_search_description\": \"...\"}, ...} of exact client texts to use instead of toolfind's wording")
	return cmd
}

// showView is one client's view of one tool in `show --format json`.
type showView struct {
	Client string        `json:"client"`
	Tool   corpus.ToolID `json:"tool"`
	Shown  bool          `json:"shown"`
	Name   string        `json:"name,omitempty"`
	Text   string        `json:"text,omitempty"`
	Tokens int           `json:"tokens"`
	Notes  []string      `json:"notes,omitempty"`
}

func runShow(cmd *cobra.Command, opts *showOptions) error {
	if opts.format != "text" && opts.format != "json" {
		return usageError("--format %q: want text or json", opts.format)
	}
	if opts.surface {
		return runSurface(cmd, opts)
	}
	if opts.surfaceFile != "" {
		return usageError("--surface-file goes with --surface")
	}
	cat, err := opts.global.loadCatalog(cmd.Context())
	if err != nil {
		return err
	}
	ids, err := selectTools(cat, opts.tools)
	if err != nil {
		return err
	}
	sims, err := opts.global.simulators(cat)
	if err != nil {
		return err
	}
	views := []showView{}
	for _, sim := range sims {
		viewer, ok := sim.(search.Viewer)
		if !ok {
			continue
		}
		for _, id := range ids {
			v, shown := viewer.View(id)
			views = append(views, showView{Client: sim.Client().String(), Tool: id, Shown: shown,
				Name: v.Name, Text: v.Text, Tokens: v.Tokens, Notes: v.Notes})
		}
	}
	if opts.format == "json" {
		return writeJSON(opts.io.Out, map[string]any{"views": views})
	}
	return writeShowText(opts.io.Out, views)
}

// selectTools resolves --tool entries, or lists every tool (first
// definition of each name) when there are none.
func selectTools(cat *corpus.Catalog, entries []string) ([]corpus.ToolID, error) {
	if len(entries) == 0 {
		var ids []corpus.ToolID
		for _, t := range cat.UniqueTools() {
			ids = append(ids, t.ID())
		}
		return ids, nil
	}
	r := corpus.NewResolver(cat)
	ids := make([]corpus.ToolID, 0, len(entries))
	for _, e := range entries {
		id, err := r.Resolve(e)
		if err != nil {
			return nil, usageError("--tool: %v", err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func writeShowText(w io.Writer, views []showView) error {
	client := ""
	for _, v := range views {
		if v.Client != client {
			if client != "" {
				fmt.Fprintln(w)
			}
			client = v.Client
			fmt.Fprintf(w, "== %s ==\n", esc(client))
		}
		if !v.Shown {
			fmt.Fprintf(w, "-- %s: not shown to the model", esc(string(v.Tool)))
			if len(v.Notes) > 0 {
				fmt.Fprintf(w, " (%s)", esc(strings.Join(v.Notes, "; ")))
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "-- %s as %s (%d tokens)\n", esc(string(v.Tool)), esc(v.Name), v.Tokens)
		for _, n := range v.Notes {
			fmt.Fprintf(w, "   note: %s\n", esc(n))
		}
		// The text the model reads is a multi-line block: its line breaks
		// and tabs are layout, every other control is escaped.
		fmt.Fprintln(w, safetext.Block(v.Text))
	}
	return nil
}
