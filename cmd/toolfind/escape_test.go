package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/search"
)

// assertSafe fails when text output could reach a terminal as anything but
// printable text: invalid UTF-8, or an unsafe rune other than the layout
// newline and tab.
func assertSafe(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: output is not valid UTF-8", what)
		return
	}
	for i, r := range out {
		if r != '\n' && r != '\t' && safetext.Unsafe(r) {
			lo := max(i-40, 0)
			t.Errorf("%s: %U at byte %d: …%q…", what, r, i, out[lo:min(i+40, len(out))])
			return
		}
	}
}

// hostileEscapes is a catalog whose names, descriptions, schema and
// instructions carry what the issue found passing through: a terminal
// title change and screen clear, a bidi override, NUL, a newline that
// would fake a lint line, zero-width and tag characters, and a query file
// with the same in its text and tags.
func hostileEscapes(t *testing.T) (catalog, queries string) {
	dir := t.TempDir()
	catalog = filepath.Join(dir, "evil.json")
	doc := `{"server":"evil","instructions":"Use me\u001b[2J first","tools":[
 {"name":"title\u001b]0;TITLE\u0007\u001b[2J","description":"Find invoices.\u001b]0;TITLE\u0007\u001b[2J Pay now\u202eevil","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"zero\u200bwidth\udb40\udc41"}}}},
 {"name":"fake\nhostile.json:1:1: error: all good","description":"invoice lookup\r\nOK","inputSchema":{"type":"object","properties":{"q\u0000x":{"type":"string"}}}},
 {"name":"invoice_lookup","description":"Look up an invoice\u202e by number.","inputSchema":{"type":"object"}}]}`
	if err := os.WriteFile(catalog, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	queries = filepath.Join(dir, "q.jsonl")
	q := `{"query":"invoice\u001b[31m red","expect":["evil/invoice_lookup"],"category":"bad\u202etag\u0007"}
{"query":"pay\u0000now\ufe0f\u3164","expect":["evil/title\u001b]0;TITLE\u0007\u001b[2J"]}
`
	if err := os.WriteFile(queries, []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	return catalog, queries
}

// TestHostileTextEscaped: no control, bidi or invisible character from the
// catalog or the query file reaches any text output; each shows escaped.
func TestHostileTextEscaped(t *testing.T) {
	cat, qs := hostileEscapes(t)
	runs := [][]string{
		{"rank", "--catalog", cat, "-q", "invoice", "--shown", "--explain", "--rows", "0"},
		{"rank", "--catalog", cat, "-q", "pay now", "--shown"},
		{"show", "--catalog", cat},
		{"lint", "--catalog", cat},
		{"lint", "--catalog", cat, "--verbose"},
		{"bench", "--catalog", cat, "--queries", qs, "--by", "category", "--per-tool"},
		{"bench", "--catalog", cat, "--queries", qs, "--by", "category", "--per-tool", "--format", "markdown"},
		{"bench", "--catalog", cat, "--queries", qs, "--by", "category", "--per-tool", "--format", "html"},
		{"check", "--catalog", cat, "--queries", qs, "--min-mrr", "1"},
		{"surface", "--catalog", cat},
	}
	for _, args := range runs {
		out, errOut, code := run(t, args...)
		if code == exitBadInput && strings.HasPrefix(errOut, "toolfind: unknown command") {
			continue
		}
		what := strings.Join(args[:1], " ") + " " + strings.Join(args[len(args)-2:], " ")
		assertSafe(t, what+" stdout", out)
		assertSafe(t, what+" stderr", errOut)
	}
	// The escapes themselves, exactly.
	out, _, _ := run(t, "rank", "--catalog", cat, "--client", "claude,grok", "-q", "title invoice", "--shown", "--rows", "0")
	if want := "  2     12     yes       evil/title\\x1b]0;TITLE\\x07\\x1b[2J  mcp__evil__title__0_TITLE___2J\n"; !strings.Contains(out, want) {
		t.Errorf("rank output lacks %q:\n%s", want, out)
	}
	// The newline in a tool name cannot start a fake lint line.
	// (Lines are wrapped to the width: compare the words.)
	out, _, _ = run(t, "lint", "--catalog", cat)
	if want := `evil/fake\nhostile.json:1:1: error: all good: name "fake\nhostile.json:1:1: error: all good" breaks the MCP naming rule`; !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("lint output lacks %q:\n%s", want, out)
	}
	out, _, _ = run(t, "show", "--catalog", cat, "--client", "grok", "--tool", "evil/invoice_lookup")
	if want := `Look up an invoice\u202e by number.`; !strings.Contains(out, want) {
		t.Errorf("show output lacks %q:\n%s", want, out)
	}
	out, _, _ = run(t, "bench", "--catalog", cat, "--queries", qs, "--client", "claude", "--by", "category")
	if want := `bad\u202etag\x07`; !strings.Contains(out, want) {
		t.Errorf("bench table lacks %q:\n%s", want, out)
	}
	out, _, _ = run(t, "bench", "--catalog", cat, "--queries", qs, "--client", "claude", "--format", "html")
	if want := `invoice\x1b[31m red`; !strings.Contains(out, want) {
		t.Errorf("bench HTML lacks %q", want)
	}
	// JSON stays exact: the control characters are there, JSON-escaped.
	out, _, _ = run(t, "rank", "--catalog", cat, "--client", "claude", "-q", "title invoice", "--format", "json")
	if want := `"tool": "evil/title\u001b]0;TITLE\u0007\u001b[2J"`; !strings.Contains(out, want) {
		t.Errorf("rank JSON lacks %q", want)
	}
}

// FuzzRankTable: whatever a result holds, the rank table writes no
// control, bidi or invisible character.
func FuzzRankTable(f *testing.F) {
	f.Add("claude@2.1.328", "script", "evil/t\x1b[2J", "mcp__evil__t\u202e", "why\x00", "note\r", "shown\nline\x1b]0;T\x07", "boom\x1b")
	f.Fuzz(func(t *testing.T, client, strategy, tool, name, why, note, shown, errText string) {
		res := []search.Result{{Client: client, Strategy: strategy, Limit: 1, Shown: shown, Notes: []string{note}, Error: errText,
			Hits: []search.Hit{{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: corpus.ToolID(tool), Name: name, Why: []string{why}}}}}
		var b strings.Builder
		if err := writeRankTable(&b, res, tableOptions{explain: true, shown: true}); err != nil {
			t.Fatal(err)
		}
		assertSafe(t, "rank table", b.String())
	})
}

// FuzzShowText: whatever a view holds, show's text writes no control,
// bidi or invisible character.
func FuzzShowText(f *testing.F) {
	f.Add("grok@1.0.0", "evil/t\x1b", "t\u202e", "{\n  \"a\": \"\x00\"\n}\r", "note\x07", true)
	f.Fuzz(func(t *testing.T, client, tool, name, text, note string, shown bool) {
		var b strings.Builder
		views := []showView{{Client: client, Tool: corpus.ToolID(tool), Shown: shown, Name: name, Text: text, Notes: []string{note}}}
		if err := writeShowText(&b, views); err != nil {
			t.Fatal(err)
		}
		assertSafe(t, "show text", b.String())
	})
}

// FuzzRankCompact: whatever the results and the query hold, the
// one-table view of several clients writes no control, bidi or invisible
// character.
func FuzzRankCompact(f *testing.F) {
	f.Add("invoice\x1b[2J\ufe0f", "evil/t\u202e", "note\r\x00", "boom\x1b", "script")
	f.Fuzz(func(t *testing.T, query, tool, note, errText, strategy string) {
		hit := search.Hit{Rank: 1, RankWorst: 2, PWithinLimit: 0.5, Tool: corpus.ToolID(tool), Name: tool}
		res := []search.Result{
			{Client: "claude@2.1.332", Limit: 5, Hits: []search.Hit{hit}, Notes: []string{note}},
			{Client: "codex@0.171.0", Strategy: strategy, Limit: 1, Hits: []search.Hit{hit}, Error: errText, Notes: []string{note}},
		}
		var b strings.Builder
		if err := writeRankCompact(&b, res, query, 10, 100); err != nil {
			t.Fatal(err)
		}
		assertSafe(t, "compact rank table", b.String())
	})
}
