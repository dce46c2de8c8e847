package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/mcpserver"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, command{"mcp", newMCPCmd}) }

func newMCPCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve toolfind's commands as MCP tools over stdio, for the agent writing your MCP server",
		Long: `Mcp runs toolfind as an MCP server on standard input and output. An agent client
(Claude Code, Codex, VS Code, …) that starts it gets four read-only tools:
rank_tools_for_query, show_tool_as_model_sees_it, lint_tool_definitions and
suggest_findability_fixes, the same as rank, show, lint and suggest.

A call may name catalog files; one that does not reads what toolfind mcp was started
with, again at every call: --catalog files and the live servers of --server and --url
(so a server rebuilt since the last call is seen as it is now), or the demo catalog.
The agent cannot start a command or reach a URL of its own. --client sets the clients
of a call that names none. Every result fits every client's result cap.`,
		Example: `  toolfind mcp --server 'node build/index.js'
  claude mcp add toolfind -- toolfind mcp --server 'node build/index.js'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			srcs, err := g.source.sources()
			if err != nil {
				return err
			}
			clientOpts, err := g.options()
			if err != nil {
				return err
			}
			// The flags' mistakes before serving: a client shows nothing of
			// a server that exits at its first request.
			if _, err := search.Resolve(g.clients); err != nil {
				return usageError("--client: %v", err)
			}
			opts := mcpserver.Options{Catalogs: g.catalogs, Live: srcs, Clients: g.clients, ClientOptions: clientOpts}
			if len(srcs) > 0 {
				opts.Snapshot = func(ctx context.Context, srcs []snap.Source) ([]*snap.Snapshot, error) {
					return g.source.snapshots(ctx)
				}
			}
			return mcpserver.Run(cmd.Context(), opts)
		},
	}
}
