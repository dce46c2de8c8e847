package toolfind_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/writer"
)

// twoClients is a written-queries file of two kinds of sessions: Claude
// was asked prompts 1 and 2, Codex prompt 3 (issue 24, point 4). Every
// call finds its tool.
const twoClients = `{"id": 1, "prompt": "find the invoice", "client": "claude", "call": {"query": "select:mcp__billing__invoice_lookup"}, "expect": ["billing/invoice_lookup"], "writer": "import"}
{"id": 2, "prompt": "weather alerts", "client": "claude", "call": {"query": "select:mcp__weather__get_alerts"}, "expect": ["weather/get_alerts"], "writer": "import"}
{"id": 3, "prompt": "list the files", "client": "codex", "call": {"code": "const re = /list/i;\ntext(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join(\"\\n\"));"}, "expect": ["files/list_directory"], "writer": "import"}
`

// TestWrittenScoresEachClientOverItsPrompts: a prompt the file has no
// line for is not asked of that client and is no miss of it: Claude is
// scored 2 of 2 (not 2 of 3, 66.7%), Codex 1 of 1 (not 1 of 3).
func TestWrittenScoresEachClientOverItsPrompts(t *testing.T) {
	cat := corpus.Demo()
	lines, err := writer.Parse("two.jsonl", strings.NewReader(twoClients))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := writer.QuerySet("two.jsonl", lines, cat)
	if err != nil {
		t.Fatal(err)
	}
	sims, err := toolfind.Clients(cat, "claude,codex", nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := toolfind.Evaluate(context.Background(), sims, qs, bench.Options{Writers: []writer.Writer{writer.NewReplay(lines)}})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		client        string
		queries, runs int
		found         float64
	}
	var got []row
	for _, c := range rep.Clients {
		got = append(got, row{c.Client, c.Queries, c.Runs, c.FoundAtLimit})
	}
	want := []row{{"claude@2.1.332", 2, 2, 1}, {"codex@0.171.0", 1, 1, 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("rows %+v, want %+v", got, want)
	}
	// Outcomes: one per (prompt, client asked), query-major.
	var outs []string
	for _, o := range rep.Outcomes {
		outs = append(outs, o.Query+"="+o.Client)
	}
	if g, w := strings.Join(outs, ", "), "find the invoice=claude@2.1.332, weather alerts=claude@2.1.332, list the files=codex@0.171.0"; g != w {
		t.Errorf("outcomes %s, want %s", g, w)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\neach client is scored over the prompts written for it: claude@2.1.332 on 2, codex@0.171.0 on 1 (of 3\nprompts)\n") {
		t.Errorf("the table does not say what each client is scored on:\n%s", b.String())
	}
}
