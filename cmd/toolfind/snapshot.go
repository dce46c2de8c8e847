package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

func init() { commands = append(commands, command{"snapshot", newSnapshotCmd}) }

// snapshotOptions are the flags of `toolfind snapshot`.
type snapshotOptions struct {
	io     *IOStreams
	global *globalOptions
	out    string
}

func newSnapshotCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &snapshotOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "snapshot --server CMD | --url URL",
		Short: "Save live MCP servers' tools/list as a catalog file",
		Long: `Snapshot starts each --server (stdio) or connects to each --url (streamable HTTP),
runs the initialize handshake, follows tools/list through every nextCursor and
writes the catalog JSON: {"server", "instructions", "tools"} for one server,
{"servers": [...]} for several. Every tool is kept exactly as the server sent
it (only the indentation is toolfind's), so the file can be committed, diffed
and read back with --catalog.

A server that cannot be started or reached, or that answers wrongly, exits
with code 3 and a message naming the phase: start, handshake, list or parse.`,
		Example: `  toolfind snapshot --server 'npx -y @modelcontextprotocol/server-everything@2026.8.31' > everything.json
  toolfind snapshot --server 'billing=./bin/billing-mcp --stdio' --url https://mcp.example.com/mcp \
      --header "Authorization: Bearer $TOKEN" --out servers.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runSnapshot(cmd, opts) },
	}
	cmd.Flags().StringVarP(&opts.out, "out", "o", "", "write the catalog to `FILE` instead of standard output")
	return cmd
}

func runSnapshot(cmd *cobra.Command, opts *snapshotOptions) error {
	src := &opts.global.source
	if !src.live() {
		return usageError("snapshot needs at least one --server, --url or --config")
	}
	if len(opts.global.catalogs) > 0 {
		return usageError("snapshot reads live servers only; --catalog does not apply")
	}
	out, err := openOut(cmd.Context(), "out", opts.out)
	if err != nil {
		return err
	}
	defer abortOut(out)
	snaps, err := src.snapshots(cmd.Context())
	if err != nil {
		return err
	}
	// A file with two servers of one name could not be loaded again.
	if _, err := snap.Merge(nil, snaps); err != nil {
		return usageError("%v", err)
	}
	// A server that answered a request twice: the snapshot keeps the
	// first answer, as clients do; say so, since the file cannot.
	for _, s := range snaps {
		for _, d := range s.Duplicates {
			fmt.Fprintf(opts.io.ErrOut, "toolfind: %s: server %s: %s\n", d.Diagnostic(s).Severity, esc(s.Name), esc(d.Diagnostic(s).Message))
		}
	}
	var buf bytes.Buffer
	if err := snap.WriteCatalog(&buf, snaps); err != nil {
		return err
	}
	if out == nil {
		_, err := opts.io.Out.Write(buf.Bytes())
		return err
	}
	if _, err := out.Write(buf.Bytes()); err != nil {
		return badInput(fmt.Errorf("--out %v", err))
	}
	if err := commitOut("out", out); err != nil {
		return err
	}
	for _, s := range snaps {
		fmt.Fprintf(opts.io.ErrOut, "%s: server %s, %d %s (%d tools/list %s)\n",
			esc(opts.out), esc(s.Name), len(s.Tools), plural(len(s.Tools), "tool", "tools"), s.Pages, plural(s.Pages, "page", "pages"))
	}
	return nil
}
