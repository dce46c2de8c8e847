package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/approval"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, command{"show", newShowCmd}) }

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
	addFormatFlag(f, &opts.format, "text", "json")
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
	// Approval is the client's decision on a call of the tool in its
	// default permission mode with no rules (see `toolfind approvals`).
	Approval *search.Verdict `json:"approval,omitempty"`
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
	tools := toolsByID(cat)
	for _, sim := range sims {
		viewer, ok := sim.(search.Viewer)
		if !ok {
			continue
		}
		for _, id := range ids {
			v, shown := viewer.View(id)
			views = append(views, showView{Client: sim.Client().String(), Tool: id, Shown: shown,
				Name: v.Name, Text: v.Text, Tokens: v.Tokens, Notes: v.Notes,
				Approval: defaultApproval(sim, tools[id], shown)})
		}
	}
	// The clients that arrange the tools beyond tool by tool (VS Code's
	// virtual-tool groups) say how, after the table.
	var outlines []showOutline
	for _, sim := range sims {
		if o, ok := sim.(search.Outliner); ok {
			outlines = append(outlines, showOutline{Client: sim.Client().String(), Lines: o.Outline()})
		}
	}
	if opts.format == "json" {
		out := map[string]any{"views": views}
		if len(outlines) > 0 {
			out["outlines"] = outlines
		}
		return writeJSON(opts.io.Out, out)
	}
	if len(opts.tools) == 0 {
		// Why a client never shows a tool: its first error or warning
		// about the tool (search.Reporter), when it reports one.
		why := map[string]string{}
		for _, sim := range sims {
			if rep, ok := sim.(search.Reporter); ok {
				for _, d := range rep.Problems() {
					key := sim.Client().String() + "\x00" + string(corpus.NewToolID(d.Server, d.Tool))
					if _, seen := why[key]; !seen && d.Severity != corpus.Info {
						why[key] = d.Message
					}
				}
			}
		}
		if err := writeShowSummary(opts.io.Out, cat, views, why, outputWidth(opts.io.Out)); err != nil {
			return err
		}
		return writeOutlines(opts.io.Out, outlines, outputWidth(opts.io.Out))
	}
	return writeShowText(opts.io.Out, views)
}

// showOutline is one client's arrangement of the tools (search.Outliner).
type showOutline struct {
	Client string   `json:"client"`
	Lines  []string `json:"lines"`
}

// writeOutlines prints each outline after a blank line, each paragraph
// wrapped to the width with its continuation lines indented.
func writeOutlines(w io.Writer, outlines []showOutline, width int) error {
	for _, o := range outlines {
		fmt.Fprintln(w)
		for _, p := range o.Lines {
			for i, l := range wrap(esc(p), width-2) {
				if i > 0 {
					l = "  " + l
				}
				// A word longer than the line (a hostile tool name) is
				// shortened in the middle so that every line fits.
				fmt.Fprintln(w, textfit.ShortenMiddle(l, max(width, 20)))
			}
		}
	}
	return nil
}

// writeShowSummary is `show` without --tool: one row per tool with its
// description's length and, per client, the tokens its model reads of the
// tool ("12*" when the client cuts the description, "–" when the client
// never shows the tool), then the tools some client drops, with why. The
// full texts are one --tool away.
func writeShowSummary(w io.Writer, cat *corpus.Catalog, views []showView, why map[string]string, width int) error {
	var clients []string
	byTool := map[corpus.ToolID]map[string]showView{}
	var order []corpus.ToolID
	for _, v := range views {
		if len(clients) == 0 || clients[len(clients)-1] != v.Client {
			clients = append(clients, v.Client)
		}
		if byTool[v.Tool] == nil {
			byTool[v.Tool] = map[string]showView{}
			order = append(order, v.Tool)
		}
		byTool[v.Tool][v.Client] = v
	}
	heads := make([][]string, len(clients))
	cw := make([]int, len(clients))
	headRows := 2
	for j, c := range clients {
		name, version, _ := strings.Cut(c, "@")
		heads[j] = append(splitAfterDash(name), version)
		headRows = max(headRows, len(heads[j]))
		for _, h := range heads[j] {
			cw[j] = max(cw[j], utf8.RuneCountInString(h))
		}
	}
	cells := make([][]string, len(order))
	// dropped: "tool: reason", once per reason, with the clients
	var dropped []string
	var dropWho [][]string
	dropIdx := map[string]int{}
	for i, id := range order {
		for j, c := range clients {
			v := byTool[id][c]
			cell := "–"
			if v.Shown {
				cell = strconv.Itoa(v.Tokens)
				for _, n := range v.Notes {
					if strings.Contains(n, "cut") || strings.Contains(n, "truncat") {
						cell += "*"
						break
					}
				}
			} else {
				reason := why[c+"\x00"+string(id)]
				if reason == "" && len(v.Notes) > 0 {
					reason = strings.Join(v.Notes, "; ")
				}
				if reason == "" {
					reason = "not shown"
				}
				name, _, _ := strings.Cut(c, "@")
				k := string(id) + ": " + reason
				if dropIdx[k] == 0 {
					dropped = append(dropped, k)
					dropWho = append(dropWho, nil)
					dropIdx[k] = len(dropped)
				}
				dropWho[dropIdx[k]-1] = append(dropWho[dropIdx[k]-1], name)
			}
			cells[i] = append(cells[i], cell)
			cw[j] = max(cw[j], utf8.RuneCountInString(cell))
		}
	}
	used := len("  DESC")
	for _, n := range cw {
		used += 2 + n
	}
	toolW := len("TOOL")
	for _, id := range order {
		toolW = max(toolW, utf8.RuneCountInString(esc(string(id))))
	}
	toolW = min(toolW, max(width-used, 16))
	line := func(first, desc string, each func(j int) string) {
		var b strings.Builder
		b.WriteString(padRight(first, toolW))
		b.WriteString(padLeft(desc, len("  DESC")))
		for j := range clients {
			b.WriteString("  " + padLeft(each(j), cw[j]))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	fmt.Fprintf(w, "%s in %s: tokens each model reads of each tool\n", count(len(order), "tool", "tools"), count(len(cat.Servers), "server", "servers"))
	for k := 0; k < headRows; k++ {
		first, desc := "", ""
		if k == headRows-1 {
			first, desc = "TOOL", "DESC"
		}
		line(first, desc, func(j int) string {
			if i := k - (headRows - len(heads[j])); i >= 0 {
				return heads[j][i]
			}
			return ""
		})
	}
	for i, id := range order {
		desc := "–"
		if t := cat.Tool(id); t != nil && t.HasDescription {
			desc = strconv.Itoa(utf8.RuneCountInString(t.Description))
		}
		line(textfit.ShortenMiddle(esc(string(id)), toolW), desc, func(j int) string { return cells[i][j] })
	}
	fmt.Fprintln(w)
	say := func(s string) {
		for i, l := range wrap(s, width-2) {
			if i > 0 {
				l = "  " + l
			}
			fmt.Fprintln(w, l)
		}
	}
	say("DESC: characters of the description; 12*: the client cuts the description; –: never shown to that model")
	for i, d := range dropped {
		if i == maxDroppedLines && len(dropped) > i+1 {
			say(fmt.Sprintf("... and %d more like these (--format json lists every view)", len(dropped)-i))
			break
		}
		verb := " never shows "
		if len(dropWho[i]) > 1 {
			verb = " never show "
		}
		say(esc(strings.Join(dropWho[i], ", ") + verb + d))
	}
	say("show --tool NAME prints the exact text each model reads of a tool")
	return nil
}

// maxDroppedLines caps show's list of the tools some client never shows,
// so that a catalog of hostile or invalid names still fits a screen.
const maxDroppedLines = 8

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
		if v.Approval != nil {
			text := approval.Summary(*v.Approval) + "; " + v.Approval.ParallelBecause
			prefix := "   approval: "
			for _, l := range wrap(esc(text), outputWidth(w)-len(prefix)) {
				fmt.Fprintln(w, prefix+l)
				prefix = strings.Repeat(" ", len(prefix))
			}
		}
		// The text the model reads is a multi-line block: its line breaks
		// and tabs are layout, every other control is escaped.
		fmt.Fprintln(w, safetext.Block(v.Text))
	}
	return nil
}
