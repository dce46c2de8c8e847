package approval_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/approval"
	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/codexjs"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func catalog(t testing.TB, js string) *corpus.Catalog {
	t.Helper()
	servers, diags, err := corpus.ParseCatalog("test.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	cat := &corpus.Catalog{Diagnostics: diags}
	if err := cat.Add(servers...); err != nil {
		t.Fatal(err)
	}
	return cat
}

func sims(t testing.TB, cat *corpus.Catalog) []search.Simulator {
	t.Helper()
	code, err := codexjs.NewCodeMode(cat, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := codexjs.NewToolSearch(cat, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return []search.Simulator{claude.New(cat, claude.V2_1_332, claude.DefaultOptions()), code, ts, plain{}}
}

// plain is a client without approvals.
type plain struct{}

func (plain) Client() search.ClientID { return search.ClientID{Name: "other", Version: "1"} }
func (plain) Search(context.Context, search.Query) (search.Result, error) {
	return search.Result{}, nil
}

func demo(t testing.TB) *corpus.Catalog {
	data, err := os.ReadFile("../cmd/toolfind/testdata/approvals/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	return catalog(t, string(data))
}

func TestRunShape(t *testing.T) {
	cat := demo(t)
	rep, err := approval.Run(cat, sims(t, cat), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// claude: 5 simulated modes × 5 tools; codex (code mode and
	// tool_search share one check): 4 modes × 5 tools.
	if len(rep.Rows) != 5*5+4*5 {
		t.Errorf("%d rows, want 45", len(rep.Rows))
	}
	want := []approval.NotSimulated{
		{Client: "claude@2.1.332", Mode: "auto", Because: "Claude Code sends each call to a classifier model that toolfind cannot reproduce"},
		{Client: "other@1", Because: "toolfind has no measurement or published rule of how this client gates MCP tool calls"},
	}
	if fmt.Sprint(rep.NotSimulated) != fmt.Sprint(want) {
		t.Errorf("not simulated = %+v\nwant %+v", rep.NotSimulated, want)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "codex-search@0.171.0 decides approvals as codex@0.171.0") {
		t.Errorf("notes %q lack the shared Codex check", rep.Notes)
	}
	// Row order: client, then mode, then tool in catalog order.
	first := rep.Rows[0]
	if first.Client != "claude@2.1.332" || first.Mode != "default" || first.Tool != "demo/read_only" {
		t.Errorf("first row %+v", first)
	}
	if r := rep.Rows[5]; r.Mode != "acceptEdits" || r.Tool != "demo/read_only" {
		t.Errorf("row 6 %+v, want acceptEdits demo/read_only", r)
	}
}

func TestDefaultVerdicts(t *testing.T) {
	cat := demo(t)
	got := approval.DefaultVerdicts(sims(t, cat), cat.Servers[0].Tools[2]) // destructive
	var lines []string
	for _, v := range got {
		lines = append(lines, v.Client+": "+approval.Summary(v))
	}
	want := []string{
		"claude@2.1.332: ask in default mode, runs alone: no allow rule matches (no annotation lets a call run without asking)",
		"codex@0.171.0: ask in auto mode, runs alone: destructiveHint is true, so Codex asks",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestTextFits: every line fits the width, from 40 to 200 columns, with
// long ids and hostile names (control characters are escaped, never
// printed).
func TestTextFits(t *testing.T) {
	cat := catalog(t, `{"servers": [
	 {"name": "a-very-long-server-name-for-testing", "tools": [{"name": "an_extremely_long_tool_name_that_goes_on_and_on", "inputSchema": {"type": "object"}}]},
	 {"name": "evil", "tools": [{"name": "bell\u0007tool", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]}]}`)
	rep, err := approval.Run(cat, sims(t, cat), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for width := 40; width <= 200; width += 7 {
		var b bytes.Buffer
		if err := rep.WriteText(&b, width); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("width %d: line of %d: %q", width, n, line)
			}
			if strings.ContainsRune(line, '\a') {
				t.Errorf("width %d: raw control character in %q", width, line)
			}
		}
	}
}

// TestTextFallback: at a width no matrix fits, one block per tool.
func TestTextFallback(t *testing.T) {
	cat := demo(t)
	rep, err := approval.Run(cat, sims(t, cat)[:1], cat.Servers[0].Tools[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b, 40); err != nil {
		t.Fatal(err)
	}
	want := "claude@2.1.332\n" +
		"demo/read_only\n" +
		"    default: ask 1, acceptEdits: ask 1,\n" +
		"    plan: ask 2, bypassPermissions: run\n" +
		"    3, dontAsk: deny 4, parallel: yes 5\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("width 40:\n%s\nwant a block\n%s", b.String(), want)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	cat := catalog(t, `{"server": "pipe|srv", "tools": [{"name": "x*_y", "inputSchema": {"type": "object"}}]}`)
	rep, err := approval.Run(cat, sims(t, cat)[:1], nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `| pipe\|srv/x\*\_y | ask 1 |`) {
		t.Errorf("markdown row not escaped:\n%s", b.String())
	}
}

func ExampleRun() {
	servers, _, _ := corpus.ParseCatalog("demo.json", []byte(`{"server": "demo", "tools": [
	 {"name": "lookup", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]}`))
	cat := &corpus.Catalog{}
	_ = cat.Add(servers...)
	sims := []search.Simulator{claude.New(cat, claude.V2_1_332, claude.DefaultOptions())}
	rep, _ := approval.Run(cat, sims, nil, []search.RuleText{{Kind: search.Allow, Text: "mcp__demo"}})
	for _, v := range rep.Rows {
		fmt.Printf("%s %s: %s (parallel %v)\n", v.Mode, v.Tool, v.Decision, v.Parallel)
	}
	// Output:
	// default demo/lookup: run (parallel true)
	// acceptEdits demo/lookup: run (parallel true)
	// plan demo/lookup: run (parallel true)
	// bypassPermissions demo/lookup: run (parallel true)
	// dontAsk demo/lookup: run (parallel true)
}
