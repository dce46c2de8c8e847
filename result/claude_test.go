package result

import (
	"strings"
	"testing"
)

// The seed's size table ("Notes on MCP Design", rows A–D), at its exact
// boundaries. The text is 53-character lines; the saved form of a text
// result is JSON.stringify(blocks, null, 2), which adds one character per
// escaped newline and a 45-character wrapper.
func TestClaudeSeedRows(t *testing.T) {
	const resultPath = DefaultClaudeResultPath + ".json"
	persisted := func(saved, size string) string {
		return "<persisted-output>\nOutput too large (" + size + "). Full output saved to: " + resultPath +
			"\nPreview (first 2KB):\n" + saved[:2000] + "\n...\n</persisted-output>"
	}
	rowB := blocksJSONOf(t, seedRows(50_001))
	rowC := blocksJSONOf(t, seedRows(100_000))
	// Row B: 50,001 + 943 escaped newlines (50,001 / 53 = 943.4) + 46 = 50,990;
	// 50,990 / 1,024 = 49.79 → "49.8KB". Row C: 100,000 + 1,886 + 46 =
	// 101,932; / 1,024 = 99.54 → "99.5KB".
	if len(rowB) != 50_990 || len(rowC) != 101_932 {
		t.Fatalf("saved lengths %d, %d", len(rowB), len(rowC))
	}
	rowD := "Error: result (100,000 characters across 1,887 lines) exceeds maximum allowed tokens. Output has been saved to " +
		DefaultClaudeOutputPath + ".\nFormat: Plain text\n"
	tests := []struct {
		name    string
		chars   int
		count   int // the count_tokens reply; 0: not asked or not given
		verdict Verdict
		shown   string // exact, or a prefix when prefix is set
		prefix  bool
		chars2  int // shown_chars
	}{
		// A: 50,000 characters, estimate 12,500 (not over half the limit):
		// no count, not over 50,000: whole.
		{"A", 50_000, 0, Whole, seedRows(50_000), false, 50_000},
		// B: 50,001, estimate round(12,500.25) = 12,500: no count; over
		// 50,000: saved, path + preview.
		{"B", 50_001, 0, Replaced, persisted(rowB, "49.8KB"), false, 0},
		// C: 100,000, estimate 25,000 > 12,500: counted, 25,000 is not over
		// 25,000; over 50,000 characters: path + preview.
		{"C", 100_000, 25_000, Replaced, persisted(rowC, "99.5KB"), false, 0},
		// D: 25,001 tokens: over the limit: path only.
		{"D", 100_000, 25_001, Replaced, rowD, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := textResult(t, seedRows(tt.chars))
			d := deliver(t, Input{Result: r}, "claude", Options{Claude: ClaudeOptions{CountTokens: tt.count}})
			if d.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s (%s)", d.Verdict, tt.verdict, d.Detail)
			}
			if tt.prefix && !strings.HasPrefix(d.Shown, tt.shown) || !tt.prefix && d.Shown != tt.shown {
				t.Errorf("shown (%d chars) starts %q\nwant %q", len(d.Shown), head(d.Shown, 300), head(tt.shown, 300))
			}
			if tt.chars2 > 0 && d.ShownChars != tt.chars2 {
				t.Errorf("shown_chars %d, want %d", d.ShownChars, tt.chars2)
			}
		})
	}
}

// Row C's preview starts as the seed quotes it: the JSON wrapper and the
// escaped newline use part of the 2,000 characters.
func TestClaudeRowCPreviewStart(t *testing.T) {
	d := deliver(t, Input{Result: textResult(t, seedRows(100_000))}, "claude", Options{Claude: ClaudeOptions{CountTokens: 25_000}})
	want := "[\n  {\n    \"type\": \"text\",\n    \"text\": \"Row C line 00001: synthetic output for a size check.\\nRow C line 00002: synthetic output for a size chec"
	if i := strings.Index(d.Shown, "Preview (first 2KB):\n"); i < 0 || !strings.HasPrefix(d.Shown[i+21:], want) {
		t.Errorf("preview:\n%s", head(d.Shown, 400))
	}
}

// Row D's notice is exact to the character but for the path: the
// reproduced lines plus a stand-in of the measured length of the short-lines
// variant (888 + the path once).
func TestClaudeRowDSize(t *testing.T) {
	d := deliver(t, Input{Result: textResult(t, seedRows(100_000))}, "claude", Options{Claude: ClaudeOptions{CountTokens: 25_001}})
	p := len(DefaultClaudeOutputPath)
	head := len("Error: result (100,000 characters across 1,887 lines) exceeds maximum allowed tokens. Output has been saved to ") + p + len(".\nFormat: Plain text\n")
	if want := head + 888 + p; d.ShownChars != want {
		t.Errorf("shown_chars %d, want %d", d.ShownChars, want)
	}
}

// Without the count, the estimate stands in for it, and the note says so.
func TestClaudeEstimateStandsIn(t *testing.T) {
	d := deliver(t, Input{Result: textResult(t, seedRows(100_004))}, "claude", Options{})
	// round(100,004 / 4) = 25,001 > 25,000: path only, by the estimate.
	if d.Verdict != Replaced || !strings.HasPrefix(d.Shown, "Error: result (100,004 characters across 1,887 lines)") {
		t.Errorf("%s %q", d.Verdict, head(d.Shown, 80))
	}
	if !strings.Contains(strings.Join(d.Notes, "\n"), "approximates by the estimate") {
		t.Errorf("notes %q", d.Notes)
	}
	// Over 4 × 25,000 = 100,000 tokens no count is needed: 400,004 / 4 =
	// 100,001.
	d = deliver(t, Input{Result: textResult(t, strings.Repeat("x", 400_004))}, "claude", Options{})
	if !strings.Contains(strings.Join(d.Notes, "\n"), "over the limit without an exact count") {
		t.Errorf("notes %q", d.Notes)
	}
}

// structuredContent replaces text on success; only content on isError;
// images kept (before the structured text); _meta never shown.
func TestClaudeContentRules(t *testing.T) {
	text := map[string]any{"type": "text", "text": "TEXT_CONTENT"}
	img := map[string]any{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
	sc := map[string]any{"marker": "STRUCTURED_CONTENT"}
	meta := map[string]any{"marker": "META"}
	tests := []struct {
		name   string
		result map[string]any
		shown  string
		blocks []ShownBlock
	}{
		{"success", map[string]any{"content": []any{text}, "structuredContent": sc, "_meta": meta}, `{"marker":"STRUCTURED_CONTENT"}`, nil},
		{"error", map[string]any{"content": []any{text}, "structuredContent": sc, "isError": true}, "TEXT_CONTENT", nil},
		{"image", map[string]any{"content": []any{text, img}, "structuredContent": sc}, `{"marker":"STRUCTURED_CONTENT"}`,
			[]ShownBlock{{Type: "image", MimeType: "image/png", DataBytes: 12}, {Type: "text", Text: `{"marker":"STRUCTURED_CONTENT"}`}}},
		{"null structured", map[string]any{"content": []any{text}, "structuredContent": nil}, "null", nil},
		{"no output", map[string]any{"content": []any{map[string]any{"type": "text", "text": " \n"}}}, "(mcp__billing__export completed with no output)", nil},
		{"resources", map[string]any{"content": []any{
			map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///a", "text": "A"}},
			map[string]any{"type": "resource_link", "uri": "file:///b", "name": "b", "description": "the b"},
			map[string]any{"type": "resource_link", "uri": "file:///c", "name": "c"},
		}}, "[Resource from billing at file:///a] A[Resource link: b] file:///b (the b)[Resource link: c] file:///c", []ShownBlock{
			{Type: "text", Text: "[Resource from billing at file:///a] A"},
			{Type: "text", Text: "[Resource link: b] file:///b (the b)"},
			{Type: "text", Text: "[Resource link: c] file:///c"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := deliver(t, Input{Result: mustParse(t, tt.result), Server: "billing", Tool: "export"}, "claude", Options{})
			if d.Verdict != Whole || d.Shown != tt.shown {
				t.Errorf("%s %q, want whole %q", d.Verdict, d.Shown, tt.shown)
			}
			if len(tt.blocks) > 0 && !equalBlocks(d.Blocks, tt.blocks) {
				t.Errorf("blocks %+v\nwant %+v", d.Blocks, tt.blocks)
			}
			if strings.Contains(d.Shown, "META") {
				t.Error("_meta shown")
			}
		})
	}
}

func equalBlocks(a, b []ShownBlock) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// _meta["anthropic/maxResultSizeChars"] raises the file threshold (to at
// most 500,000) and skips the token limit for text-only output.
func TestClaudeMaxResultSizeChars(t *testing.T) {
	r := textResult(t, seedRows(150_000)) // estimate 37,500 tokens: over 25,000
	if d := deliver(t, Input{Result: r}, "claude", Options{}); d.Verdict != Replaced || !strings.HasPrefix(d.Shown, "Error: result") {
		t.Fatalf("without override: %s %q", d.Verdict, head(d.Shown, 40))
	}
	if d := deliver(t, Input{Result: r, MaxResultSizeChars: 200_000}, "claude", Options{}); d.Verdict != Whole || d.ShownChars != 150_000 {
		t.Errorf("override 200,000: %s %d", d.Verdict, d.ShownChars)
	}
	// 150,000 > 100,000: saved with a preview.
	if d := deliver(t, Input{Result: r, MaxResultSizeChars: 100_000}, "claude", Options{}); d.Verdict != Replaced || !strings.HasPrefix(d.Shown, "<persisted-output>") {
		t.Errorf("override 100,000: %s %q", d.Verdict, head(d.Shown, 40))
	}
	// The ceiling: 600,000 acts as 500,000; 500,001 characters are saved.
	big := textResult(t, strings.Repeat("y\n", 250_000)+"z")
	if d := deliver(t, Input{Result: big, MaxResultSizeChars: 600_000}, "claude", Options{}); d.Verdict != Replaced || !strings.Contains(d.Detail, "500,001 characters > 500,000") {
		t.Errorf("ceiling: %s %s", d.Verdict, d.Detail)
	}
}

// An image with text over the token limit: text cut to 100,000
// characters, the image kept, the truncation notice appended.
func TestClaudeImagesCut(t *testing.T) {
	r := mustParse(t, map[string]any{"content": []any{
		map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"},
		map[string]any{"type": "text", "text": strings.Repeat("a", 120_000)},
		map[string]any{"type": "text", "text": "dropped"},
	}})
	// Estimate 1,600 + 30,000 = 31,600; text estimate 30,000 ≤ 100,000:
	// counted; the estimate stands in: over 25,000.
	d := deliver(t, Input{Result: r}, "claude", Options{})
	if d.Verdict != Cut || len(d.Blocks) != 3 {
		t.Fatalf("%s %+v", d.Verdict, d.Blocks)
	}
	// Budget 100,000 characters; the image is charged 6,400: 93,600 of text.
	if d.Blocks[0].Type != "image" || len(d.Blocks[1].Text) != 93_600 {
		t.Errorf("blocks: %s, %d chars", d.Blocks[0].Type, len(d.Blocks[1].Text))
	}
	if !strings.HasPrefix(d.Blocks[2].Text, "\n[OUTPUT TRUNCATED - exceeded 25000 token limit]\n") {
		t.Errorf("notice %q", d.Blocks[2].Text)
	}
}

func TestFormatFileSize(t *testing.T) {
	for n, want := range map[int]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1KB", 2000: "2KB", // 1.953 → "2.0" → "2"
		50_990: "49.8KB", 1_048_575: "1024KB", 1_048_576: "1MB", 5 << 30: "5GB",
	} {
		if got := formatFileSize(n); got != want {
			t.Errorf("formatFileSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSchemaSketch(t *testing.T) {
	tests := []struct{ in, want string }{
		{`null`, "null"},
		{`[]`, "[]"},
		{`"s"`, "string"},
		{`{"b": 1, "a": "x", "2": true, "1": null}`, "{1: null, 2: boolean, b: number, a: string}"},
		// The seed's 2.1.301 capture: "{…, items: [{...}], limit: number, offset: number, nextOffset: null, …}".
		{`{"items": [{"id": 1}], "limit": 20, "offset": 0, "nextOffset": null}`, "{items: [{...}], limit: number, offset: number, nextOffset: null}"},
		{`{"a": {"b": {"c": 1}}}`, "{a: {b: {...}}}"},
		{`{"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"k10":1,"k11":1}`,
			"{k1: number, k2: number, k3: number, k4: number, k5: number, k6: number, k7: number, k8: number, k9: number, k10: number, ...}"},
	}
	for _, tt := range tests {
		v := parseValue(t, tt.in)
		if got := schemaSketch(v, 2); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The preview is cut back to the last newline when that is past 1,000.
func TestClaudePreview(t *testing.T) {
	s := strings.Repeat("a", 1500) + "\n" + strings.Repeat("b", 1000)
	if p, more := claudePreview(s); p != strings.Repeat("a", 1500) || !more {
		t.Errorf("newline at 1,500: %d chars", len(p))
	}
	s = strings.Repeat("a", 900) + "\n" + strings.Repeat("b", 1500)
	if p, _ := claudePreview(s); len(p) != 2000 {
		t.Errorf("newline at 900: %d chars, want 2,000", len(p))
	}
	// A surrogate pair straddling unit 2,000 is dropped whole.
	s = strings.Repeat("a", 1999) + "😀" + "tail"
	if p, _ := claudePreview(s); p != strings.Repeat("a", 1999) {
		t.Errorf("pair: %d bytes", len(p))
	}
	if p, more := claudePreview("short"); p != "short" || more {
		t.Error("short text")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":               "''",
		"/tmp/a-b_c.txt": "/tmp/a-b_c.txt",
		"~/x":            "'~/x'",
		"it's":           `'it'"'"'s'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStandIn(t *testing.T) {
	for _, n := range []int{1, 10, 60, 888, 1118} {
		if s := standIn(n, "x"); len(s) != n || !strings.HasSuffix(s, "\n") {
			t.Errorf("standIn(%d) has %d", n, len(s))
		}
	}
}

func head(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// An isError result is an error message: text members and resource links
// joined with "\n", images dropped, "Unknown error" when nothing is left.
func TestClaudeErrorText(t *testing.T) {
	tests := []struct {
		result map[string]any
		want   string
	}{
		{map[string]any{"isError": true, "content": []any{
			map[string]any{"type": "text", "text": "first"},
			map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"},
			map[string]any{"type": "resource_link", "uri": "file:///log", "name": "log"},
			map[string]any{"type": "text", "text": "second"},
		}}, "first\n[Resource link: log] file:///log\nsecond"},
		{map[string]any{"isError": true, "content": []any{map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"}}}, "Unknown error"},
		{map[string]any{"isError": true, "content": []any{}}, "Unknown error"},
		{map[string]any{"isError": true, "content": []any{}, "error": "boom"}, "boom"},
		{map[string]any{"isError": true, "content": []any{}, "error": map[string]any{"code": 1}}, "[object Object]"},
		{map[string]any{"isError": true, "content": []any{map[string]any{"type": "custom", "text": 12.50}}}, "12.5"},
	}
	for _, tt := range tests {
		d := deliver(t, Input{Result: mustParse(t, tt.result)}, "claude", Options{})
		if d.Verdict != Whole || d.Shown != tt.want || len(d.Blocks) != 0 {
			t.Errorf("%v: %s %q %+v, want %q", tt.result, d.Verdict, d.Shown, d.Blocks, tt.want)
		}
	}
}
