package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/lint"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/suggest"
	"github.com/toolfind/toolfind/writer"
)

// The tools' definitions. Each description leads with what the tool does
// in the words an agent searching for it would use (every client's cut
// keeps the front), then what it needs and what it returns.
var (
	rankTool = &mcp.Tool{
		Name: "rank_tools_for_query",
		Description: "Rank MCP tools for a search query as each AI agent client does: will it find my tool, at what rank, tied with whom.\n" +
			"The clients: Claude Code, Codex, Copilot CLI, Gemini CLI, Grok Build, OpenCode. Give query (the search the model " +
			"types) or prompt (a user request: each client's model writes its own search first). Returns each client's " +
			"ranked tools, ties and the tokens its model reads.",
		Annotations: annotations("Rank tools for a query per client"),
	}
	showTool = &mcp.Tool{
		Name: "show_tool_as_model_sees_it",
		Description: "Show what each AI agent client's model sees of an MCP tool: its name, cut description, rewritten schema and token cost.\n" +
			"Or why the client hides the tool. Give tool as server/tool or a unique tool name.",
		Annotations: annotations("Show a tool as each client's model sees it"),
	}
	lintTool = &mcp.Tool{
		Name: "lint_tool_definitions",
		Description: "Lint MCP tool definitions for every AI agent client: what to fix in names, schemas, descriptions and findability.\n" +
			"Lints catalog files, or the running servers toolfind was started with: broken schemas and names, repeated " +
			"names, descriptions clients cut, text aimed at the model, tools hard to find. Returns one finding per cause " +
			"with its location and each client's consequence.",
		Annotations: annotations("Lint tool definitions for every client"),
	}
	suggestTool = &mcp.Tool{
		Name: "suggest_findability_fixes",
		Description: "Suggest edits to MCP tool descriptions, titles and search hints that make missed tools findable by AI agent clients.\n" +
			"Each edit is proven by re-simulating every client. Give queries: user requests with the tools each expects. " +
			"Returns the edits, the findability before and after, and a JSON Merge Patch for a single catalog file.",
		Annotations: annotations("Suggest fixes that make tools findable"),
	}
)

// rankInput are rank_tools_for_query's arguments.
type rankInput struct {
	Query  string `json:"query,omitempty" jsonschema:"the search query the model types into the client's tool search"`
	Prompt string `json:"prompt,omitempty" jsonschema:"a user request instead of a query: each client's model writes its own search call for it first"`
	Limit  int    `json:"limit,omitempty" jsonschema:"results per search (default: each client's own limit)"`
	Rows   int    `json:"rows,omitempty" jsonschema:"tools listed per client (default 5)"`
	Shown  bool   `json:"include_shown_text,omitempty" jsonschema:"also return the exact text each client's model reads as the search result"`
	source
}

func (h *handlers) rank(ctx context.Context, _ *mcp.CallToolRequest, in rankInput) (*mcp.CallToolResult, any, error) {
	query, prompt := strings.TrimSpace(in.Query), strings.TrimSpace(in.Prompt)
	switch {
	case query == "" && prompt == "":
		return errorResult(fmt.Errorf("give query (the search the model types) or prompt (a user request)")), nil, nil
	case query != "" && prompt != "":
		return errorResult(fmt.Errorf("give query or prompt, not both")), nil, nil
	case in.Limit < 0 || in.Rows < 0:
		return errorResult(fmt.Errorf("limit and rows must be 0 (the default) or more")), nil, nil
	case len(query)+len(prompt) > corpus.MaxQueryLine:
		// The bound of a query file's line (spec: README, limits).
		return errorResult(fmt.Errorf("the query or prompt is longer than %d bytes (%d MiB), the limit for one query", corpus.MaxQueryLine, corpus.MaxQueryLine>>20)), nil, nil
	}
	cat, err := h.catalog(ctx, in.source)
	if err != nil {
		return errorResult(err), nil, nil
	}
	sims, err := h.simulators(cat, in.Clients)
	if err != nil {
		return errorResult(err), nil, nil
	}
	var results []search.Result
	if prompt != "" {
		w, err := writer.ByName(writer.Default)
		if err != nil {
			return nil, nil, err
		}
		results, err = writer.Rank(ctx, w, sims, prompt, in.Limit)
		if err != nil {
			return errorResult(err), nil, nil
		}
	} else if results, err = toolfind.Rank(ctx, sims, search.Query{Text: query, Limit: in.Limit}); err != nil {
		return errorResult(err), nil, nil
	}
	rows := in.Rows
	if rows == 0 {
		rows = 5
	}
	return textResult(rankText(cat, query, prompt, results, rows, in.Shown), "ask for fewer clients, fewer rows, or no shown text"), nil, nil
}

// rankText is rank's answer: per client (and per strategy), its hits with
// ranks, tie ranges, the chance of being shown and scores.
func rankText(cat *corpus.Catalog, query, prompt string, results []search.Result, rows int, shown bool) string {
	var b strings.Builder
	if prompt != "" {
		fmt.Fprintf(&b, "prompt %q", prompt)
	} else {
		fmt.Fprintf(&b, "query %q", query)
	}
	fmt.Fprintf(&b, " over %s in %s\n", count(cat.Len(), "tool"), count(len(cat.Servers), "server"))
	b.WriteString("RANK a-b: tied, the client may put the tool anywhere from a to b; SHOWN: the chance the tool is within the client's limit\n")
	for _, top := range results {
		for _, r := range top.All() {
			b.WriteString("\n")
			title := r.Client
			if r.Strategy != "" {
				title += " [" + r.Strategy + "]"
			}
			limit := "limit " + strconv.Itoa(r.Limit)
			if r.Uncapped {
				limit = "no limit: every tool the model reads is listed"
			}
			fmt.Fprintf(&b, "%s: %s, the model reads %d tokens\n", line(title), limit, r.ShownTokens)
			if r.Call != nil {
				fmt.Fprintf(&b, "  call written by the %s writer: %s\n", line(r.Writer), line(string(r.Call)))
			}
			if r.Error != "" {
				fmt.Fprintf(&b, "  error: %s\n", line(r.Error))
			}
			for _, n := range r.Notes {
				fmt.Fprintf(&b, "  note: %s\n", line(n))
			}
			if len(r.Hits) == 0 {
				b.WriteString("  no tools found\n")
			}
			// A client without scores (eager loading, code-mode scripts)
			// gives every hit 0: no score is printed then.
			scored := false
			for _, hit := range r.Hits {
				scored = scored || hit.Score != 0
			}
			for i, hit := range r.Hits {
				if i == rows {
					fmt.Fprintf(&b, "  … %d more (rows: %d lists them)\n", len(r.Hits)-rows, len(r.Hits))
					break
				}
				rank := strconv.Itoa(hit.Rank)
				if hit.RankWorst > hit.Rank {
					rank += "-" + strconv.Itoa(hit.RankWorst)
				}
				score := ""
				if scored {
					score = ", score " + strconv.FormatFloat(hit.Score, 'g', 7, 64)
				}
				fmt.Fprintf(&b, "  %-5s %s as %s%s, shown %s\n", rank, line(string(hit.Tool)), line(hit.Name), score, percent(hit.PWithinLimit))
			}
			if shown {
				b.WriteString("  --- the text the model reads ---\n")
				b.WriteString(safetext.Block(r.Shown))
				b.WriteString("\n  --- end ---\n")
			}
		}
	}
	return b.String()
}

// showInput are show_tool_as_model_sees_it's arguments.
type showInput struct {
	Tool string `json:"tool" jsonschema:"the tool: server/tool, server__tool, mcp__server__tool or a tool name unique in the catalog"`
	source
}

func (h *handlers) show(ctx context.Context, _ *mcp.CallToolRequest, in showInput) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Tool) == "" {
		return errorResult(fmt.Errorf("give tool (server/tool or a unique tool name)")), nil, nil
	}
	cat, err := h.catalog(ctx, in.source)
	if err != nil {
		return errorResult(err), nil, nil
	}
	id, err := corpus.NewResolver(cat).Resolve(in.Tool)
	if err != nil {
		return errorResult(err), nil, nil
	}
	sims, err := h.simulators(cat, in.Clients)
	if err != nil {
		return errorResult(err), nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s as each client's model sees it\n", line(string(id)))
	for _, sim := range sims {
		viewer, ok := sim.(search.Viewer)
		if !ok {
			continue
		}
		v, shown := viewer.View(id)
		b.WriteString("\n")
		if !shown {
			fmt.Fprintf(&b, "== %s: not shown to the model", line(sim.Client().String()))
			why := v.Notes
			if len(why) == 0 {
				why = problems(sim, id)
			}
			if len(why) > 0 {
				fmt.Fprintf(&b, " (%s)", line(strings.Join(why, "; ")))
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "== %s: as %s, %d tokens\n", line(sim.Client().String()), line(v.Name), v.Tokens)
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "note: %s\n", line(n))
		}
		b.WriteString(safetext.Block(v.Text))
		b.WriteString("\n")
	}
	return textResult(b.String(), "ask for fewer clients"), nil, nil
}

// problems are the client's first error or warning about the tool
// (search.Reporter), which say why it never shows it, as `toolfind show`
// says.
func problems(sim search.Simulator, id corpus.ToolID) []string {
	rep, ok := sim.(search.Reporter)
	if !ok {
		return nil
	}
	for _, d := range rep.Problems() {
		if d.Severity != corpus.Info && corpus.NewToolID(d.Server, d.Tool) == id {
			return []string{d.Message}
		}
	}
	return nil
}

// lintInput are lint_tool_definitions' arguments.
type lintInput struct {
	MinSeverity string `json:"min_severity,omitempty" jsonschema:"the least severe findings listed: info, warning (the default) or error"`
	source
}

func (h *handlers) lint(ctx context.Context, _ *mcp.CallToolRequest, in lintInput) (*mcp.CallToolResult, any, error) {
	min, err := lint.ParseSeverity(in.MinSeverity, "warning")
	if err != nil {
		return errorResult(fmt.Errorf("min_severity: %w", err)), nil, nil
	}
	cat, err := h.catalog(ctx, in.source)
	if err != nil {
		return errorResult(err), nil, nil
	}
	sims, err := h.simulators(cat, in.Clients)
	if err != nil {
		return errorResult(err), nil, nil
	}
	rep, err := lint.Run(ctx, cat, sims, lint.Options{})
	if err != nil {
		return errorResult(err), nil, nil
	}
	var b bytes.Buffer
	if err := rep.WriteTextWidth(&b, min, false, textWidth); err != nil {
		return nil, nil, err
	}
	return textResult(b.String(), "ask for min_severity error, fewer clients, or lint fewer files"), nil, nil
}

// suggestInput are suggest_findability_fixes' arguments.
type suggestInput struct {
	Queries []queryLine `json:"queries,omitempty" jsonschema:"user requests, each with the tools it expects"`
	File    string      `json:"queries_file,omitempty" jsonschema:"a query set file instead of queries: JSON Lines of {query, expect}"`
	Writer  string      `json:"writer,omitempty" jsonschema:"who writes each client's search from a request: heuristic (a prediction of the model's call, the default) or verbatim (the request itself)"`
	Rename  bool        `json:"rename,omitempty" jsonschema:"also try renaming tools (breaks callers)"`
	source
}

// queryLine is one line of a query set.
type queryLine struct {
	Query  string   `json:"query" jsonschema:"what a user asks for"`
	Expect []string `json:"expect" jsonschema:"the tools that should be found: server/tool or unique tool names"`
}

func (h *handlers) suggest(ctx context.Context, _ *mcp.CallToolRequest, in suggestInput) (*mcp.CallToolResult, any, error) {
	if (len(in.Queries) == 0) == (in.File == "") {
		return errorResult(fmt.Errorf("give queries (requests with the tools they expect) or queries_file, one of them")), nil, nil
	}
	name := in.Writer
	if name == "" {
		name = writer.Default
	}
	if name != "heuristic" && name != "verbatim" {
		return errorResult(fmt.Errorf("writer %q: want heuristic or verbatim", name)), nil, nil
	}
	w, err := writer.ByName(name)
	if err != nil {
		return errorResult(err), nil, nil
	}
	cat, err := h.catalog(ctx, in.source)
	if err != nil {
		return errorResult(err), nil, nil
	}
	var qs *corpus.QuerySet
	if in.File != "" {
		qs, err = corpus.LoadQueries(in.File, cat)
	} else {
		var lines bytes.Buffer
		for _, q := range in.Queries {
			data, _ := json.Marshal(q)
			lines.Write(data)
			lines.WriteByte('\n')
		}
		qs, err = corpus.ParseQueries("queries", &lines, cat)
	}
	if err != nil {
		return errorResult(err), nil, nil
	}
	spec := h.clientSpec(in.Clients)
	build := func(c *corpus.Catalog) ([]search.Simulator, error) {
		return toolfind.Clients(c, spec, h.opts.ClientOptions)
	}
	if _, err := build(cat); err != nil {
		return errorResult(err), nil, nil
	}
	rep, err := suggest.Suggest(ctx, cat, build, qs, suggest.Options{
		Writer: w, Rename: in.Rename,
		DescriptionBudget: suggest.DefaultDescriptionBudget, HintWords: suggest.DefaultHintWords,
	})
	if err != nil {
		return errorResult(err), nil, nil
	}
	var b bytes.Buffer
	if err := rep.Write(&b, suggest.Text); err != nil {
		return nil, nil, err
	}
	// The patch, when the edits go into one catalog file.
	if files := h.files(in.source); len(rep.Edits) > 0 && len(files) == 1 && isFile(files[0]) {
		doc, err := os.ReadFile(files[0])
		if err != nil {
			return errorResult(err), nil, nil
		}
		_, patch, err := suggest.EditDocument(files[0], doc, rep.Edits)
		if err != nil {
			return errorResult(err), nil, nil
		}
		fmt.Fprintf(&b, "\nJSON Merge Patch (RFC 7386) against %s:\n%s\n", line(files[0]), strings.TrimSpace(string(patch)))
	}
	return textResult(b.String(), "give fewer queries or fewer clients"), nil, nil
}

// files are the catalog files of a call, when it reads files only.
func (h *handlers) files(src source) []string {
	if len(src.Catalog) > 0 {
		return src.Catalog
	}
	if len(h.opts.Live) > 0 {
		return nil
	}
	return h.opts.Catalogs
}

// textWidth is the line width of the reports (the CLI's width when its
// output is not a terminal).
const textWidth = 100

// line escapes a single-line field: nothing from a catalog reaches the
// model as a control character or a line break.
func line(s string) string { return safetext.Escape(s) }

func count(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

func percent(p float64) string {
	switch p {
	case 1:
		return "always"
	case 0:
		return "never"
	}
	return strconv.FormatFloat(p*100, 'f', 1, 64) + "%"
}
