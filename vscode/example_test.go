package vscode_test

import (
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/vscode"
)

// The worked example of copilot.md §4.2: 51 built-ins and servers of 24,
// 10 and 13 tools share 88 − 51 = 37 slots.
func ExampleAllocateSlots() {
	fmt.Println(vscode.AllocateSlots([]int{24, 10, 13}, vscode.ToolsAndGroupsLimit-51))
	// Output: [21 7 9]
}

// The name VS Code gives an MCP tool.
func ExamplePrefix() {
	fmt.Println(vscode.Prefix("GitHub") + "list_issues")
	fmt.Println(vscode.Prefix("My Very Long Server Name") + "x") // 13 characters: "my_very_long_", then "_"
	// Output:
	// mcp_github_list_issues
	// mcp_my_very_long__x
}

// A server that does not fit its slots is grouped behind a stub.
func ExampleNew() {
	srv, _, _ := corpus.ParseCatalog("c.json", []byte(`{"servers":[{"name":"files","tools":[
	 {"name":"read","description":"Read a file","inputSchema":{"type":"object"}},
	 {"name":"write","description":"Write a file","inputSchema":{"type":"object"}}]}]}`))
	// 87 built-ins + 2 ≥ 64: grouping; 88 − 87 = 1 slot → one group.
	s, _ := vscode.New(&corpus.Catalog{Servers: srv}, vscode.Options{Builtins: 87})
	for _, e := range s.Layout().Entries {
		fmt.Println(e.Name(), "→", e.Group.Summary)
	}
	ss := s.NewSession("")
	fmt.Println(ss.Call("activate_files_tools"))
	// Output:
	// activate_files_tools → Contains the tools: mcp_files_read, mcp_files_write
	// Tools activated: mcp_files_read, mcp_files_write <nil>
}
