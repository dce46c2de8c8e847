package result

import (
	"strings"
	"testing"
)

const codexHeader = "Script completed\nWall time 0.0 seconds\nOutput:\n"

// codexJSONFor returns a text result whose JSON.stringify is exactly n
// bytes: {"content":[{"text":"xxx…","type":"text"}]} (the fixture's
// member order, which JSON.stringify keeps) has 39 bytes around the text.
func codexJSONFor(t *testing.T, n int) (*CallResult, string) {
	t.Helper()
	text := strings.Repeat("x", n-39)
	js := `{"content":[{"text":"` + text + `","type":"text"}]}`
	if len(js) != n {
		t.Fatalf("fixture %d bytes", len(js))
	}
	return mustParse(t, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}), js
}

// The 40,000-byte Codex budget (codex.md §2.1: 10,000 tokens × 4).
func TestCodexBudget(t *testing.T) {
	r, js := codexJSONFor(t, 40_000)
	d := deliver(t, Input{Result: r}, "codex", Options{})
	if d.Verdict != Whole || d.Shown != codexHeader+js {
		t.Errorf("40,000 bytes: %s %q", d.Verdict, head(d.Shown, 120))
	}
	r, js = codexJSONFor(t, 40_001)
	d = deliver(t, Input{Result: r}, "codex", Options{})
	// 40,001 bytes: original count ceil(40,001 / 4) = 10,001; one line; the
	// first 20,000 and last 20,000 bytes kept; marker K = ceil((40,001 −
	// 40,000) / 4) = 1.
	want := codexHeader + "Warning: truncated output (original token count: 10001)\nTotal output lines: 1\n\n" +
		js[:20_000] + "…1 tokens truncated…" + js[20_001:]
	if d.Verdict != Cut || d.Shown != want {
		t.Errorf("40,001 bytes: %s %q", d.Verdict, head(d.Shown, 160))
	}
}

// Codex passes content, structuredContent and isError, not _meta, in that
// order, so the model sees both copies of the data.
func TestCodexValue(t *testing.T) {
	r := mustParse(t, map[string]any{"_meta": map[string]any{"m": 1}, "isError": false,
		"structuredContent": map[string]any{"n": 1}, "content": []any{map[string]any{"type": "text", "text": `{"n":1}`}}})
	d := deliver(t, Input{Result: r}, "codex", Options{})
	want := codexHeader + `{"content":[{"text":"{\"n\":1}","type":"text"}],"structuredContent":{"n":1},"isError":false}`
	if d.Shown != want {
		t.Errorf("got  %q\nwant %q", d.Shown, want)
	}
}

// grokResult is a text result of n bytes of "g".
func grokResult(t *testing.T, text string) *CallResult { return textResult(t, text) }

// The 20,000-byte Grok cap (grok.md §B.5).
func TestGrokCap(t *testing.T) {
	d := deliver(t, Input{Result: grokResult(t, strings.Repeat("g", 20_000))}, "grok", Options{})
	if d.Verdict != Whole || d.ShownBytes != 20_000 {
		t.Errorf("20,000 bytes: %s %d", d.Verdict, d.ShownBytes)
	}
	d = deliver(t, Input{Result: grokResult(t, strings.Repeat("g", 20_001))}, "grok", Options{})
	// 20,000 / 1,024 = 19.53 → "19.5 KB"; 20,001 / 1,024 = 19.53 → "19.5 KB".
	// Plain text without a long line... its one line is 20,001 bytes > 2,000:
	// the long-line steer.
	want := strings.Repeat("g", 20_000) + "\n\n[MCP output truncated: showing first 19.5 KB of 19.5 KB. Full output written to: " +
		DefaultGrokOutputPath + ".txt. The full output has a very long line, so grep/read_file are ineffective on it — use `bash` to slice/search the saved file.]"
	if d.Verdict != Cut || d.Shown != want {
		t.Errorf("20,001 bytes: %s %q", d.Verdict, d.Shown[20_000:])
	}
}

func TestGrokSteerAndBoundary(t *testing.T) {
	short := strings.Repeat("line of text\n", 2000) // 26,000 bytes, lines of 12
	d := deliver(t, Input{Result: grokResult(t, short)}, "grok", Options{})
	if !strings.HasSuffix(d.Shown, "of 25.4 KB. Full output written to: "+DefaultGrokOutputPath+".txt.]") {
		t.Errorf("plain text: %q", d.Shown[20_000:])
	}
	json := "[" + strings.Repeat(`{"a":1},`+"\n", 3000) + `{"a":1}]`
	d = deliver(t, Input{Result: grokResult(t, json)}, "grok", Options{})
	if !strings.HasSuffix(d.Shown, ".json. The full output is valid JSON saved to the file above; use `bash` to query it.]") {
		t.Errorf("JSON: %q", d.Shown[20_000:])
	}
	// A 4-byte character straddling byte 20,000 is dropped whole: 19,998 +
	// "😀" ends at 20,002.
	d = deliver(t, Input{Result: grokResult(t, strings.Repeat("g", 19_998)+"😀tail")}, "grok", Options{})
	if !strings.HasPrefix(d.Shown, strings.Repeat("g", 19_998)+"\n\n[MCP output truncated") {
		t.Errorf("boundary: %q", d.Shown[19_990:20_030])
	}
}

func TestGrokSize(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 20_000: "19.5 KB", 218_237: "213.1 KB"} {
		if got := grokSize(n); got != want {
			t.Errorf("grokSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// OpenCode 1: 51,200 bytes and 2,000 lines (opencode.md §C.1).
func TestOpenCodeLimits(t *testing.T) {
	hint := "The tool call succeeded but the output was truncated. Full output saved to: ~/.local/share/opencode/tool-output/tool_<id>\n" +
		"Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context."
	// 512 lines of 99 bytes + 511 newlines = 51,199; one more "x" line of
	// one byte → 51,201: the last line does not fit.
	lines99 := strings.Repeat(strings.Repeat("o", 99)+"\n", 511) + strings.Repeat("o", 99)
	tests := []struct {
		name    string
		text    string
		verdict Verdict
		shown   string
	}{
		{"51,200 bytes", strings.Repeat("b", 51_200), Whole, strings.Repeat("b", 51_200)},
		{"51,201 bytes, one line", strings.Repeat("b", 51_201), Replaced, "\n\n...51201 bytes truncated...\n\n" + hint},
		{"51,199 + 2 bytes", lines99 + "\nx", Cut, lines99 + "\n\n...2 bytes truncated...\n\n" + hint},
		{"2,000 lines", strings.TrimSuffix(strings.Repeat("l\n", 2000), "\n"), Whole, strings.TrimSuffix(strings.Repeat("l\n", 2000), "\n")},
		// A trailing newline is one more, empty, line: 2,001 lines.
		{"2,001 lines", strings.Repeat("l\n", 2000), Cut, strings.TrimSuffix(strings.Repeat("l\n", 2000), "\n") + "\n\n...1 lines truncated...\n\n" + hint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := deliver(t, Input{Result: textResult(t, tt.text)}, "opencode", Options{})
			if d.Verdict != tt.verdict || d.Shown != tt.shown {
				t.Errorf("%s (%s)\n got tail %q\nwant tail %q", d.Verdict, d.Detail, tail(d.Shown, 120), tail(tt.shown, 120))
			}
		})
	}
}

// OpenCode joins text blocks with a blank line; images travel as
// attachments.
func TestOpenCodeJoin(t *testing.T) {
	r := mustParse(t, map[string]any{"content": []any{
		map[string]any{"type": "text", "text": "one"},
		map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"},
		map[string]any{"type": "text", "text": "two"},
	}})
	d := deliver(t, Input{Result: r}, "opencode", Options{})
	if d.Shown != "one\n\ntwo" || len(d.Blocks) != 2 || d.Blocks[1] != (ShownBlock{Type: "image", MimeType: "image/png", DataBytes: 4}) {
		t.Errorf("%q %+v", d.Shown, d.Blocks)
	}
}

func TestDeliverClients(t *testing.T) {
	r := textResult(t, "x")
	ds, err := Deliver(Input{Result: r}, Options{Clients: []string{"grok", "claude@2.1.328"}})
	if err != nil || len(ds) != 2 || ds[0].Client != "claude@2.1.328" || ds[1].Client != "grok@1.0.0" {
		t.Fatalf("%v %+v", err, ds)
	}
	if _, err := Deliver(Input{Result: r}, Options{Clients: []string{"codex-search"}}); err == nil || !strings.Contains(err.Error(), `unknown client "codex-search"`) {
		t.Errorf("err = %v", err)
	}
	if _, err := Deliver(Input{Result: r}, Options{Clients: []string{"claude@2.1.88"}}); err == nil {
		t.Error("claude@2.1.88 accepted")
	}
	ds, _ = Deliver(Input{Result: r}, Options{Clients: []string{"all"}})
	for i, d := range ds {
		if d.Client != Clients[i] || d.Verdict != Whole || len(d.Advice) != 0 {
			t.Errorf("%d: %+v", i, d)
		}
	}
}

// Advice appears only when a cap bit, and names the duplicate data.
func TestAdvice(t *testing.T) {
	big := strings.Repeat("w", 30_000)
	r := mustParse(t, map[string]any{"content": []any{map[string]any{"type": "text", "text": big}}, "structuredContent": map[string]any{"w": big}})
	ds, _ := Deliver(Input{Result: r}, Options{})
	// copilot: 30,000 + 2 + 30,008 bytes of text and structuredContent are over 20,480: replaced
	want := map[string]int{"claude@2.1.328": 0, "codex@0.171.0": 6, "grok@1.0.0": 5, "opencode@1.18.33": 0, "copilot@1.0.102": 5}
	for _, d := range ds {
		if len(d.Advice) != want[d.Client] {
			t.Errorf("%s: %d advice %q", d.Client, len(d.Advice), d.Advice)
		}
		if len(d.Advice) > 0 && d.Advice[4] != AdviceTwice {
			t.Errorf("%s: %q", d.Client, d.Advice)
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
