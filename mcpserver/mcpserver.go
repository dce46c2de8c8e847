// Package mcpserver is toolfind as an MCP server (`toolfind mcp`): tools
// an agent that writes an MCP server calls to check its work, each over
// the same library functions the CLI's commands use.
//
//   - rank_tools_for_query: each client's ranking of the catalog's tools
//     for a search query, or for a user prompt whose call each client's
//     model writes first (toolfind.Rank, writer.Rank; `toolfind rank`);
//   - show_tool_as_model_sees_it: each client's rendering of a tool to its
//     model (search.Viewer; `toolfind show`);
//   - lint_tool_definitions: what to fix, once per cause, with each
//     client's consequence (lint.Run; `toolfind lint`);
//   - suggest_findability_fixes: edits that make missed tools findable, proven by
//     re-simulation (suggest.Suggest; `toolfind suggest`).
//
// # Where the tools come from
//
// A call's catalog argument names catalog files or folders. Without it,
// a call reads what `toolfind mcp` was started with (Options.Catalogs and
// Options.Live: the --catalog, --server and --url flags), again at every
// call, so a server rebuilt since the last call is seen as it is now; with
// neither, the embedded demo catalog. An agent cannot name a command to
// start or a URL to reach: only the user who wrote the client's
// configuration can. That is why every tool is read-only and works in a
// closed world (readOnlyHint true, destructiveHint false, idempotentHint
// true, openWorldHint false).
//
// # Result size
//
// Every result is one text block that every simulated client delivers to
// its model whole. The smallest cap among the clients' result delivery
// rules is Grok Build's 20,000 bytes (result.GrokMaxOutputBytes, specs/grok.md
// §B.5; then Copilot CLI's 20,480 bytes, specs/copilot.md §1.4; Codex's
// 40,000 bytes of script output, specs/codex.md §2; Gemini CLI's 40,000
// characters, specs/gemini.md §4; OpenCode's 51,200 bytes or 2,000 lines,
// specs/opencode.md §C.1; Claude Code's 12,500 estimated tokens,
// specs/claude.md §3). A longer text is cut at a line end under MaxResultBytes
// and ends with a note saying how much was left out and how to ask for less;
// the cut text is then delivered through package result for every client
// and cut further until each delivers it whole (Codex's JSON escaping can
// make a text longer than its bytes).
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/search"
)

// Options configure the server.
type Options struct {
	// Catalogs are the catalog files and folders a call without a catalog
	// argument reads; with Live, merged after them.
	Catalogs []string
	// Live are the running servers a call without a catalog argument
	// snapshots, at every call.
	Live []snap.Source
	// Snapshot takes the live servers' snapshots; nil runs them in this
	// process (live.TakeAll with its default options).
	Snapshot func(ctx context.Context, srcs []snap.Source) ([]*snap.Snapshot, error)
	// Clients is the default client spec of a call that names none
	// ("" is "all").
	Clients string
	// ClientOptions are the client options (--claude-builtins, …).
	ClientOptions toolfind.ClientOptions
}

// Name is the server's name in its serverInfo.
const Name = "toolfind"

// Instructions are the server's instructions to the model.
const Instructions = "toolfind simulates how AI agent clients (Claude Code, Codex, Copilot CLI, Gemini CLI, " +
	"Grok Build, OpenCode) find and show MCP tools. Use it while writing an MCP server: rank the server's tools " +
	"for what users ask, read what each client's model sees of a tool, lint the tool definitions, and get " +
	"edits that make missed tools findable. Give catalog paths, or leave them out to use the servers toolfind " +
	"was started with."

// New returns the MCP server with its tools.
func New(opts Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "toolfind", Version: toolfind.Version},
		&mcp.ServerOptions{Instructions: Instructions})
	h := &handlers{opts: opts}
	mcp.AddTool(s, rankTool, h.rank)
	mcp.AddTool(s, showTool, h.show)
	mcp.AddTool(s, lintTool, h.lint)
	mcp.AddTool(s, suggestTool, h.suggest)
	return s
}

// Run serves the MCP protocol over standard input and output until the
// client closes it or ctx ends.
func Run(ctx context.Context, opts Options) error {
	err := New(opts).Run(ctx, &mcp.StdioTransport{})
	if errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// annotations are every tool's: read-only, repeatable, closed world (the
// package doc says why).
func annotations(title string) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}
}

type handlers struct{ opts Options }

// source are the arguments every tool takes: where the tools come from and
// which clients simulate them.
type source struct {
	Catalog []string `json:"catalog,omitempty" jsonschema:"catalog JSON files or folders (a tools/list result, or {server, tools}); default: the servers and files toolfind was started with"`
	Clients string   `json:"clients,omitempty" jsonschema:"clients, comma-separated: claude, grok, codex, codex-search, opencode, opencode-codemode, copilot, gemini, or all (the default); name@version for an older release"`
}

// catalog loads the call's catalog: its files, else the server's
// configured files and live servers, else the demo catalog.
func (h *handlers) catalog(ctx context.Context, src source) (*corpus.Catalog, error) {
	if len(src.Catalog) > 0 {
		return corpus.Load(src.Catalog...)
	}
	if len(h.opts.Live) == 0 {
		if len(h.opts.Catalogs) == 0 {
			return corpus.Demo(), nil
		}
		return corpus.Load(h.opts.Catalogs...)
	}
	var base *corpus.Catalog
	if len(h.opts.Catalogs) > 0 {
		var err error
		if base, err = corpus.Load(h.opts.Catalogs...); err != nil {
			return nil, err
		}
	}
	take := h.opts.Snapshot
	if take == nil {
		take = func(ctx context.Context, srcs []snap.Source) ([]*snap.Snapshot, error) {
			return live.TakeAll(ctx, srcs, live.Options{ClientVersion: toolfind.Version})
		}
	}
	snaps, err := take(ctx, h.opts.Live)
	if err != nil {
		return nil, err
	}
	cat, err := snap.Merge(base, snaps)
	if err != nil {
		return nil, fmt.Errorf("merging live servers: %w", err)
	}
	return cat, nil
}

// simulators builds the call's clients over cat.
func (h *handlers) simulators(cat *corpus.Catalog, clients string) ([]search.Simulator, error) {
	return toolfind.Clients(cat, h.clientSpec(clients), h.opts.ClientOptions)
}

func (h *handlers) clientSpec(clients string) string {
	spec := strings.TrimSpace(clients)
	if spec == "" {
		spec = h.opts.Clients
	}
	if spec == "" {
		spec = "all"
	}
	return spec
}

// textResult is a result of one text block, fitted to every client's
// cap (fit).
func textResult(text, narrower string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fit(text, narrower)}}}
}

// errorResult is a tool error the model reads (isError), not a protocol
// error: bad arguments or input the agent can fix.
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fit("toolfind: "+err.Error(), "")}}}
}

// isFile reports whether p is a regular file.
func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
