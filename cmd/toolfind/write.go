package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/internal/outfile"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

func init() { commands = append(commands, command{"write", newWriteCmd}) }

// writeOptions are the flags of `toolfind write`.
type writeOptions struct {
	io      *IOStreams
	global  *globalOptions
	queries string
	writer  string
	out     string
	// wf are the model and command writers' flags (writerflags.go).
	wf *writerFlags
}

func newWriteCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &writeOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "write --queries FILE --writer W --out FILE",
		Short: "Write the search calls each client's model makes for a prompt corpus",
		Long: `Write turns every prompt of a query set into the calls each selected client's model
makes (Claude's ToolSearch input, Grok's search_tool input, Codex's exec code, OpenCode's
execute code) and writes them as a written-queries file (JSON Lines: id, prompt, client,
call, expect, writer, tags), to replay with 'toolfind bench --written FILE'.

Writers: verbatim (the prompt as the query: a baseline), heuristic (deterministic,
offline, modelled on how each client's model writes its call), model (a real model through
the OpenAI Chat Completions or Anthropic Messages API, shown each client's surface; answers
cached, so a rerun is offline) and command (any program: the surface and prompt as JSON on
its standard input, the call as JSON on its standard output).`,
		Example: `  toolfind write --catalog mongodb.json --queries prompts.jsonl --writer heuristic --out written.jsonl
  OPENAI_API_KEY=... toolfind write --catalog mongodb.json --queries prompts.jsonl --writer model --model gpt-5.5 --out written.jsonl
  toolfind write --queries q.jsonl --writer model --model-api openai --model-url http://127.0.0.1:11434/v1 --model qwen3 --client claude --out w.jsonl
  toolfind write --queries q.jsonl --writer command --writer-command 'python3 my_model.py' --out w.jsonl
  toolfind bench --catalog mongodb.json --written written.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runWrite(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.queries, "queries", "", "query set `FILE` (JSON Lines); default: the demo set on the demo catalog")
	f.StringVar(&opts.writer, "writer", "heuristic", "who writes the calls: verbatim, heuristic, model or command")
	f.StringVarP(&opts.out, "out", "o", "", "write to `FILE` instead of standard output")
	opts.wf = addWriterFlags(f)
	return cmd
}

func runWrite(cmd *cobra.Command, opts *writeOptions) error {
	if err := opts.wf.check(opts.writer); err != nil {
		return err
	}
	w, done, err := opts.wf.writerFromFlags(opts.writer, opts.global, opts.io.ErrOut)
	if err != nil {
		return err
	}
	defer done()
	outFile, err := openOut(cmd.Context(), "out", opts.out)
	if err != nil {
		return err
	}
	defer abortOut(outFile)
	ctx := cmd.Context()
	cat, err := opts.global.loadCatalog(ctx)
	if err != nil {
		return err
	}
	b := &benchOptions{io: opts.io, global: opts.global, queries: opts.queries}
	qs, err := b.loadQueries(cat)
	if err != nil {
		return err
	}
	if qs, err = opts.wf.expand(qs); err != nil {
		return err
	}
	sims, err := opts.global.simulators(cat)
	if err != nil {
		return err
	}
	var writable []search.Simulator
	for _, s := range sims {
		if search.SearchesNothing(s) {
			continue
		}
		if _, ok := s.(search.Writable); ok {
			writable = append(writable, s)
		}
	}
	if len(writable) == 0 {
		return usageError("--client %s: none of these clients' models writes a search call (eager clients load every tool)", opts.global.clients)
	}
	opts.wf.setTotal(len(qs.Queries) * len(writable))
	lines, err := writer.Write(ctx, w, writable, qs)
	if err != nil {
		return err
	}
	if err := writeLinesOut(opts.io, outFile, lines); err != nil {
		return err
	}
	if opts.out != "" {
		names := make([]string, len(writable))
		for i, s := range writable {
			names[i] = s.Client().String()
		}
		fmt.Fprintf(opts.io.ErrOut, "wrote %d %s for %d %s (%s) to %s\n", len(lines), plural(len(lines), "call", "calls"),
			len(qs.Queries), plural(len(qs.Queries), "prompt", "prompts"), strings.Join(names, ", "), opts.out)
	}
	return nil
}

// writeLinesOut writes written-query lines to the --out file (committing
// it) or, without one, to standard output.
func writeLinesOut(ios *IOStreams, outFile *outfile.File, lines []writer.Line) error {
	if outFile == nil {
		if err := writer.WriteLines(ios.Out, lines); err != nil {
			return badInput(fmt.Errorf("writing standard output: %w", err))
		}
		return nil
	}
	if err := writer.WriteLines(outFile, lines); err != nil {
		return badInput(fmt.Errorf("--out %v", err))
	}
	return commitOut("out", outFile)
}
