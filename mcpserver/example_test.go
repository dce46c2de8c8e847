package mcpserver_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind/mcpserver"
)

// An MCP client in the same process lists toolfind's tools and ranks the
// demo catalog for "invoice" in Claude Code.
func Example() {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(mcpserver.Options{}).Connect(ctx, st, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		panic(err)
	}
	for _, t := range tools.Tools {
		fmt.Println(t.Name, "read-only:", t.Annotations.ReadOnlyHint)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rank_tools_for_query",
		Arguments: map[string]any{"query": "invoice", "clients": "claude", "rows": 1}})
	if err != nil {
		panic(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "  1 ") {
			fmt.Println(l[:strings.Index(l, ", score")])
		}
	}
	// Output:
	// lint_tool_definitions read-only: true
	// rank_tools_for_query read-only: true
	// show_tool_as_model_sees_it read-only: true
	// suggest_findability_fixes read-only: true
	//   1     billing/invoice_lookup as mcp__billing__invoice_lookup
}
