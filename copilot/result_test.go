package copilot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/ojson"
)

func deliver(t *testing.T, doc string) Delivered {
	t.Helper()
	v, err := ojson.Parse([]byte(doc))
	require.NoError(t, err)
	return Deliver("fake", v, DeliverOptions{})
}

// copilot.md §1.4.
func TestDeliver(t *testing.T) {
	// blocks joined with nothing between them (server-everything's two
	// text blocks became "…requested:The image above…")
	d := deliver(t, `{"content":[{"type":"text","text":"requested:"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},{"type":"text","text":"The image above"},{"type":"resource_link","uri":"x://y","name":"y"}]}`)
	assert.Equal(t, "requested:The image above", d.Text)
	assert.Equal(t, []string{"image", "resource_link"}, d.Dropped)
	// structuredContent appended after a blank line
	d = deliver(t, `{"content":[{"type":"text","text":"human text"}],"structuredContent":{"a":1}}`)
	assert.Equal(t, "human text\n\n{\"a\":1}", d.Text)
	// … unless the text is that JSON (changelog 1.0.56)
	d = deliver(t, `{"content":[{"type":"text","text":"{\"a\": 1}"}],"structuredContent":{"a":1}}`)
	assert.Equal(t, `{"a": 1}`, d.Text)
	// the error prefix
	d = deliver(t, `{"content":[{"type":"text","text":"something failed"}],"isError":true}`)
	assert.Equal(t, "MCP server 'fake': something failed", d.Text)
	// an image whose data is not base64
	d = deliver(t, `{"content":[{"type":"image","data":"not base64!","mimeType":"image/png"}]}`)
	assert.Equal(t, ImageOmitted, d.Text)
	// an embedded text resource is inlined
	d = deliver(t, `{"content":[{"type":"text","text":"a"},{"type":"resource","resource":{"uri":"x://1","text":"b"}}]}`)
	assert.Equal(t, "ab", d.Text)
}

// The 20,480-byte boundary, in bytes (run SZ: 20,480 inline, 20,481
// saved; 10,241 × "é" = 20,482 bytes saved).
func TestDeliverSpill(t *testing.T) {
	for _, tt := range []struct {
		text  string
		spill bool
	}{
		{strings.Repeat("a", 20480), false},
		{strings.Repeat("a", 20481), true},
		{strings.Repeat("é", 10240), false}, // 20,480 bytes
		{strings.Repeat("é", 10241), true},  // 20,482 bytes
	} {
		d := deliver(t, `{"content":[{"type":"text","text":"`+tt.text+`"}]}`)
		assert.Equal(t, tt.spill, d.Spilled, len(tt.text))
		if !tt.spill {
			assert.Equal(t, tt.text, d.Text)
			continue
		}
		kb := map[int]string{20481: "20.0", 20482: "20.0"}[len(tt.text)]
		head := "Output too large to read at once (" + kb + " KB). Saved to: " + SpillPath + "\n"
		assert.True(t, strings.HasPrefix(d.Text, head), d.Text[:120])
		_, preview, ok := strings.Cut(d.Text, "\n\nPreview (first 500 chars):\n")
		require.True(t, ok)
		assert.Equal(t, string([]rune(tt.text)[:500]), preview) // 500 characters, not bytes
	}
}

// An example result in outputSchema.examples is checked as the CLI would
// deliver it (copilot.md §1.4): the compact JSON of the example, not
// repeated when the text block is that JSON; spilled over 20,480 bytes.
func TestExampleSpill(t *testing.T) {
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, tt := range []struct {
		name    string
		example string // JSON
		want    string // the finding's field, "" for none
		bytes   int
	}{
		// "…" with 20,478 a's: 20,478 + 2 quotes = 20,480 bytes, inline.
		{"at the limit", str(strings.Repeat("a", 20478)), "", 0},
		// 20,479 + 2 = 20,481 bytes: spilled.
		{"one byte over", str(strings.Repeat("a", 20479)), "outputSchema.examples[0]", 20481},
		// 10,239 é are 20,478 bytes + 2 quotes = 20,480: bytes count, not characters.
		{"two-byte letters at the limit", str(strings.Repeat("é", 10239)), "", 0},
		// {"k":"…"}: 8 bytes of framing + 20,473 = 20,481.
		{"object over", `{"k":` + str(strings.Repeat("b", 20473)) + `}`, "outputSchema.examples[0]", 20481},
		// compact: the indentation of the catalog does not count.
		{"indented within", "{\n    \"k\":   " + str(strings.Repeat("b", 20472)) + "\n}", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := `{"servers":[{"name":"s","tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","examples":[` + tt.example + `]}}]}]}`
			s := New(catalog(t, doc), Options{Model: "gpt-4.1"})
			var got []corpus.Diagnostic
			for _, p := range s.Problems() {
				if p.Code == CodeResultSpill {
					got = append(got, p)
				}
			}
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, tt.want, got[0].Field)
			assert.Equal(t, "t", got[0].Tool)
			assert.Contains(t, got[0].Message, fmt.Sprintf("is %s bytes", textfit.Thousands(tt.bytes)))
		})
	}
}

// Only the first spilling example is reported, with its index.
func TestExampleSpillIndex(t *testing.T) {
	big, _ := json.Marshal(strings.Repeat("x", 30000))
	doc := `{"servers":[{"name":"s","tools":[{"name":"t","outputSchema":{"examples":[{"ok":1},` + string(big) + `,` + string(big) + `]}}]}]}`
	s := New(catalog(t, doc), Options{})
	var fields []string
	for _, p := range s.Problems() {
		if p.Code == CodeResultSpill {
			fields = append(fields, p.Field)
		}
	}
	assert.Equal(t, []string{"outputSchema.examples[1]"}, fields)
}
