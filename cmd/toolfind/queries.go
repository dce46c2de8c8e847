package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/writer/transcript"
)

func init() { commands = append(commands, command{"queries", newQueriesCmd}) }

// importOptions are the flags of `toolfind queries import`.
type importOptions struct {
	io      *IOStreams
	global  *globalOptions
	out     string
	since   string
	project string
}

func newQueriesCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	q := &cobra.Command{
		Use:   "queries",
		Short: "Build query sets from other sources",
		Args:  cobra.NoArgs,
	}
	opts := &importOptions{io: ios, global: g}
	imp := &cobra.Command{
		Use:   "import [PATH...] [--out FILE]",
		Short: "Turn Claude Code transcripts and Codex rollouts into written queries",
		Long: `Import reads the session logs of real clients and writes the search calls their models
made as a written-queries file (JSON Lines; replay it with 'toolfind bench --written FILE'):

  Claude Code   ~/.claude/projects/**/*.jsonl: each ToolSearch call, the user's prompt
                before it and, as expect, the mcp__ tool the model called next
  Codex         ~/.codex/sessions/**/rollout-*.jsonl: each tool_search call and each exec
                script over ALL_TOOLS, the prompt, and the MCP tool called next

PATH is a log file or a folder searched for *.jsonl files; without PATH both default folders
are read. A search after which no MCP tool was called gets no expect and the tag
after:"none". Only the prompt, the call and the tool called next are kept: no tool results,
no file contents. Lines of unknown shape (a newer client) are skipped and counted.`,
		Example: `  toolfind queries import --out mine.jsonl
  toolfind queries import ~/.claude/projects/-home-me-billing --since 2026-11-01 --out billing.jsonl
  toolfind bench --catalog billing.json --written billing.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error { return runImport(cmd.Context(), opts, args) },
	}
	f := imp.Flags()
	f.StringVarP(&opts.out, "out", "o", "", "write to `FILE` instead of standard output")
	f.StringVar(&opts.since, "since", "", "keep prompts from this `DATE` on (2026-11-01, or RFC 3339 with a time)")
	f.StringVar(&opts.project, "project", "", "keep sessions whose working folder is `PATH` or inside it")
	q.AddCommand(imp)
	return q
}

func runImport(ctx context.Context, opts *importOptions, paths []string) error {
	var o transcript.Options
	if opts.since != "" {
		t, err := time.Parse("2006-01-02", opts.since)
		if err != nil {
			if t, err = time.Parse(time.RFC3339, opts.since); err != nil {
				return usageError("--since %q: want a date such as 2026-11-01 or an RFC 3339 time", opts.since)
			}
		}
		o.Since = t
	}
	if opts.project != "" {
		abs, err := filepath.Abs(opts.project)
		if err != nil {
			return usageError("--project: %v", err)
		}
		o.Project = abs
	}
	if len(paths) == 0 {
		home, err := os.UserHomeDir()
		if err != nil {
			return usageError("no PATH given and no home folder: %v", err)
		}
		for _, p := range []string{filepath.Join(home, ".claude", "projects"), filepath.Join(home, ".codex", "sessions")} {
			if _, err := os.Stat(p); err == nil {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			return badInput(fmt.Errorf("no PATH given, and neither ~/.claude/projects nor ~/.codex/sessions exists"))
		}
	}
	outFile, err := openOut(ctx, "out", opts.out)
	if err != nil {
		return err
	}
	defer abortOut(outFile)
	lines, st, err := transcript.Import(paths, o)
	if err != nil {
		return badInput(err)
	}
	if err := writeLinesOut(opts.io, outFile, lines); err != nil {
		return err
	}
	if !opts.global.quiet {
		fmt.Fprintf(opts.io.ErrOut, "imported %s for %s from %s (%d with the MCP tool called next)",
			count(st.Searches, "search call", "search calls"), count(st.Prompts, "prompt", "prompts"), count(st.Files, "file", "files"), st.WithExpect)
		if st.Filtered > 0 {
			fmt.Fprintf(opts.io.ErrOut, "; %d prompts filtered out", st.Filtered)
		}
		if st.Unknown > 0 {
			fmt.Fprintf(opts.io.ErrOut, "; %s of unknown shape skipped (the first: %s)", count(st.Unknown, "line", "lines"), safetext.Escape(st.FirstUnknown))
		}
		fmt.Fprintln(opts.io.ErrOut)
	}
	return nil
}
