package opencode

import (
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

// generated is the oracle's --result-lines N --result-width W text: N
// lines "line 000001 xxx…" of W bytes, without a final newline.
func generated(n, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		l := "line " + pad6(i) + " "
		l += strings.Repeat("x", max(0, width-len(l)))
		b.WriteString(l)
		if i < n {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func pad6(i int) string {
	s := itoa(i)
	return strings.Repeat("0", 6-len(s)) + s
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

const taskHintTail = "\n\nThe tool call succeeded but the output was truncated. Full output saved to: ~/.local/share/opencode/tool-output/tool_<id>\nUse the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context."

// TestTruncate reproduces the three cases measured on OpenCode 1.18.33
// (§0 and the oracle README).
func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		name        string
		text        string
		marker      string
		keptLines   int
		keptBytes   int
		previewTail string
	}{
		// 3,000 lines of 20 bytes: 59,999 bytes > 51,200 but the line
		// limit stops first: 2,000 lines = 2,000×20 + 1,999 = 41,999 bytes.
		{"lines", generated(3000, 20), "...1000 lines truncated...", 2000, 41999, "line 002000 xxxxxxxx"},
		// 600 lines of 99 bytes = 59,999 bytes: 99 + 511×100 = 51,199
		// fit, the 513th line would make 51,299: cut 59,999 − 51,199.
		{"bytes", generated(600, 99), "...8800 bytes truncated...", 512, 51199, "line 000512 " + strings.Repeat("x", 87)},
		// A trailing "\n" makes 3,001 lines (the last empty).
		{"trailing newline", strings.Repeat("abcdefghi\n", 3000), "...1001 lines truncated...", 2000, 19999, "abcdefghi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Truncate(tc.text, TruncateOptions{})
			if !got.Truncated || got.KeptLines != tc.keptLines || got.KeptBytes != tc.keptBytes {
				t.Fatalf("truncated %v kept %d lines %d bytes, want %d, %d", got.Truncated, got.KeptLines, got.KeptBytes, tc.keptLines, tc.keptBytes)
			}
			want := tc.previewTail + "\n\n" + tc.marker + taskHintTail
			if !strings.HasSuffix(got.Content, want) {
				t.Errorf("ends %q", got.Content[max(0, len(got.Content)-len(want)-20):])
			}
			if len(got.Content) != tc.keptBytes+len("\n\n"+tc.marker)+len(taskHintTail) {
				t.Errorf("content is %d bytes", len(got.Content))
			}
		})
	}
}

func TestTruncateEdges(t *testing.T) {
	// Within both limits: unchanged, even at exactly the limits.
	exact := strings.Repeat("a", MaxBytes)
	if got := Truncate(exact, TruncateOptions{}); got.Truncated || got.Content != exact {
		t.Error("51,200 bytes must pass unchanged")
	}
	lines := strings.Repeat("a\n", MaxLines-1) + "a" // 2,000 lines
	if got := Truncate(lines, TruncateOptions{}); got.Truncated {
		t.Error("2,000 lines must pass unchanged")
	}
	// One line over the byte limit keeps nothing.
	got := Truncate(strings.Repeat("é", 30000), TruncateOptions{}) // 60,000 bytes in one line
	if got.Content != "\n\n...60000 bytes truncated..."+taskHintTail {
		t.Errorf("single long line: %q", got.Content[:60])
	}
	// Tail mode: marker and hint first, the last lines kept.
	got = Truncate("1\n2\n3\n4", TruncateOptions{MaxLines: 2, Tail: true, NoTask: true, OutputPath: "/tmp/out"})
	want := "...2 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: /tmp/out\nUse Grep to search the full content or Read with offset/limit to view specific sections.\n\n3\n4"
	if got.Content != want {
		t.Errorf("tail: %q", got.Content)
	}
	// Head mode, 4-byte limit: "1" (1) and "\n2" (2) fit, "\n3" would make
	// 5; removed = 7 − 3 = 4 bytes.
	got = Truncate("1\n2\n3\n4", TruncateOptions{MaxBytes: 4, OutputPath: "p"})
	if !strings.HasPrefix(got.Content, "1\n2\n\n...4 bytes truncated...") {
		t.Errorf("head bytes: %q", got.Content)
	}
}

func TestJoinContent(t *testing.T) {
	parse := func(s string) ojson.Value {
		v, err := ojson.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The oracle's parts.json: two text items and a resource_link (§0).
	parts := parse(`{"content":[{"type":"text","text":"part one"},{"type":"text","text":"part two"},{"type":"resource_link","uri":"file:///x.txt","name":"x.txt"}],"isError":false}`)
	if got, _ := JoinEager(parts); got != "part one\n\npart two" {
		t.Errorf("eager: %q", got)
	}
	if got, _ := JoinCodeMode(parts); got != "part one\npart two\nx.txt: file:///x.txt" {
		t.Errorf("code mode: %q", got)
	}
	sc := parse(`{"content":[{"type":"text","text":"ignored"}],"structuredContent":{"b":1,"a":[true]}}`)
	if got, _ := JoinCodeMode(sc); got != "{\n  \"b\": 1,\n  \"a\": [\n    true\n  ]\n}" {
		t.Errorf("code mode structured: %q", got)
	}
	if got, _ := JoinEager(sc); got != "ignored" {
		t.Errorf("eager keeps content when present: %q", got)
	}
	if got, _ := JoinEager(parse(`{"content":[],"structuredContent":{"k":"v"}}`)); got != `{"k":"v"}` {
		t.Errorf("eager structured only: %q", got)
	}
	if got, _ := JoinEager(parse(`{"content":[{"type":"text","text":"  "},{"type":"text","text":"bad"}],"isError":true}`)); got != "bad" {
		t.Errorf("eager error: %q", got)
	}
	if got, _ := JoinCodeMode(parse(`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"image","data":"AA==","mimeType":"image/png"}]}`)); got != "[2 images attached to the result]" {
		t.Errorf("images: %q", got)
	}
	if got, _ := JoinCodeMode(parse(`{"content":[{"type":"resource","resource":{"uri":"x","blob":"AA=="}}]}`)); got != "[1 file attached to the result]" {
		t.Errorf("blob: %q", got)
	}
	if got, _ := JoinCodeMode(parse(`{"content":[]}`)); got != "null" {
		t.Errorf("empty: %q", got)
	}
	if _, err := JoinEager(parse(`{"content": 5}`)); err == nil {
		t.Error("content 5 must be an error")
	}
}
