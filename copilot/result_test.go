package copilot

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
