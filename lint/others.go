// The rules of clients that toolfind does not simulate yet
// (../shared/specs/others.md): name-length and tool-count limits that make
// a client rename, refuse or hide tools.
//
//   - cursor-name-length: Cursor rejects a tool whose server name plus tool
//     name exceed 60 characters (community guides, not first-party).
//   - cursor-tool-count: older Cursor warned past 40 MCP tools in total
//     (community guides, not first-party).
//   - goose-tool-count: Goose's docs recommend fewer than 25 tools.
//
// (vscode-tool-count, once here, is computed by the vscode package, which
// simulates VS Code Copilot Chat's grouping.)
//
// Counts are over the whole catalog (first definition of each name), as a
// client connected to all its servers would see them.

package lint

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
)

// Limits from ../shared/specs/others.md.
const (
	CursorNameLimit = 60 // server name + tool name
	CursorToolLimit = 40 // total MCP tools
	GooseToolAdvice = 25 // "fewer than 25 tools"
)

// Check returns the diagnostics of the unsimulated clients' rules, per
// tool in catalog order, then the catalog-wide counts.
func Check(cat *corpus.Catalog) []corpus.Diagnostic {
	var out []corpus.Diagnostic
	tools := cat.UniqueTools()
	for _, t := range tools {
		src := ""
		if s := cat.Server(t.Server); s != nil {
			src = s.Source
		}
		if n := utf8.RuneCountInString(t.Server) + utf8.RuneCountInString(t.Name); n > CursorNameLimit {
			out = append(out, corpus.Diagnostic{Severity: corpus.Warning, Code: "cursor-name-length", Client: "cursor",
				File: src, Server: t.Server, Tool: t.Name, Field: "name",
				Message: fmt.Sprintf("server + tool name is %d characters; Cursor accepts at most %d", n, CursorNameLimit)})
		}
	}
	n := len(tools)
	count := func(sev corpus.Severity, code, client, format string, args ...any) {
		out = append(out, corpus.Diagnostic{Severity: sev, Code: code, Client: client, Message: fmt.Sprintf(format, args...)})
	}
	if n > CursorToolLimit {
		count(corpus.Info, "cursor-tool-count", "cursor", "%d tools; older Cursor releases warned past %d MCP tools", n, CursorToolLimit)
	}
	if n >= GooseToolAdvice {
		count(corpus.Info, "goose-tool-count", "goose", "%d tools; Goose recommends fewer than %d", n, GooseToolAdvice)
	}
	return out
}
