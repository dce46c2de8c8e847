package transcript_test

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/writer/transcript"
)

// A Claude Code transcript, reduced to the lines the importer reads: the
// prompt, the model's ToolSearch call, and the MCP tool it called next.
func ExampleParseClaude() {
	log := `{"type":"user","message":{"role":"user","content":"Close ticket 7"},"sessionId":"5f96877d-db5a","version":"2.1.328","timestamp":"2026-12-01T10:00:00Z"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"ToolSearch","input":{"query":"select:mcp__tickets__close-ticket","max_results":5}}]},"sessionId":"5f96877d-db5a","version":"2.1.328"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"mcp__tickets__close-ticket","input":{"id":7}}]},"sessionId":"5f96877d-db5a","version":"2.1.328"}`
	var st transcript.Stats
	lines, _ := transcript.ParseClaude("session.jsonl", strings.NewReader(log), transcript.Options{}, &st)
	for _, l := range lines {
		fmt.Println(l.ID, l.Client, string(l.Call), l.Expect)
	}
	fmt.Printf("%d prompt, %d search, %d with the tool called next\n", st.Prompts, st.Searches, st.WithExpect)
	// Output:
	// 5f96877d:1 claude@2.1.328 {"query":"select:mcp__tickets__close-ticket","max_results":5} [mcp__tickets__close-ticket]
	// 1 prompt, 1 search, 1 with the tool called next
}
