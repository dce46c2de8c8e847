package copilot

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/ojson"
)

// Result delivery facts (copilot.md §1.4, observed in runs SZ, R4, EV,
// EVA).
const (
	// LargeOutputBytes is the most UTF-8 bytes a result is inlined with
	// (COPILOT_LARGE_OUTPUT_MAX_BYTES overrides it): 20,480 inline, 20,481
	// saved to a file.
	LargeOutputBytes = 20480
	// PreviewChars is the preview the notice carries, in characters.
	PreviewChars = 500
	// SpillPath stands for the file the CLI saves to,
	// <os tmpdir>/<epoch-ms>-copilot-tool-output-<32 hex>.txt.
	SpillPath = "/tmp/1700000000000-copilot-tool-output-00000000000000000000000000000000.txt"
	// ImageOmitted is the placeholder for an image whose data is not valid.
	ImageOmitted = "[MCP image omitted because its data was invalid or its MIME type unsupported]"
	// spillHint is toolfind's wording of the CLI's line suggesting how to
	// read the saved file (grep, head/tail, view with a range, jq).
	spillHint = "Read it in parts: search it with grep, look at its start or end with head or tail, view a line range, or query JSON with jq."
)

// Delivered is what the model receives of one tool result.
type Delivered struct {
	// Text is what the model reads.
	Text string
	// Bytes is the UTF-8 size of the converted text before any spill.
	Bytes int
	// Spilled says the text was saved to a file and replaced by a notice
	// with a preview.
	Spilled bool
	// Dropped lists the blocks the model does not get ("image",
	// "resource_link", …), in order.
	Dropped []string
	// Notes say which rules applied.
	Notes []string
}

// DeliverOptions adjust Deliver.
type DeliverOptions struct {
	// MaxBytes is COPILOT_LARGE_OUTPUT_MAX_BYTES (0: LargeOutputBytes).
	MaxBytes int
}

// Deliver converts a CallToolResult (its parsed value) as the CLI does
// for the model (copilot.md §1.4):
//
//  1. Text blocks, and the text of embedded text resources, are joined
//     with nothing between them ("…requested:The image above…").
//  2. resource_link blocks are dropped; images are dropped under a BYOK
//     provider (an image whose base64 data does not decode becomes
//     ImageOmitted); audio and blob resources are dropped too
//     [inferred].
//  3. structuredContent is appended after "\n\n" as compact JSON, unless
//     the text already is that JSON (changelog 1.0.56).
//  4. isError: "MCP server '<server>': " + the text.
//  5. Over MaxBytes UTF-8 bytes the text is saved to a file and the model
//     gets "Output too large to read at once (<KB, 1 decimal> KB). Saved
//     to: <path>", a line on how to read it, a blank line, "Preview (first
//     500 chars):" and the first 500 characters.
func Deliver(server string, result ojson.Value, opts DeliverOptions) Delivered {
	var d Delivered
	var b strings.Builder
	content, _ := result.Get("content")
	for _, blk := range content.Array() {
		typ, _ := blk.Get("type")
		switch typ.Str() {
		case "text":
			t, _ := blk.Get("text")
			b.WriteString(t.Str())
		case "resource":
			res, _ := blk.Get("resource")
			if t, ok := res.Get("text"); ok && t.Kind == ojson.String {
				b.WriteString(t.Str())
			} else {
				d.Dropped = append(d.Dropped, "resource (blob)")
			}
		case "image":
			data, _ := blk.Get("data")
			if _, err := base64.StdEncoding.DecodeString(data.Str()); err != nil {
				b.WriteString(ImageOmitted)
				d.Notes = append(d.Notes, "an image whose data is not valid base64 becomes a placeholder")
			} else {
				d.Dropped = append(d.Dropped, "image")
			}
		default:
			d.Dropped = append(d.Dropped, typ.Str())
		}
	}
	text := b.String()
	if sc, ok := result.Get("structuredContent"); ok && sc.Kind != ojson.Null {
		js := compact(sc)
		same := false
		if tv, err := ojson.Parse([]byte(text)); err == nil && ojson.Equal(canon(tv), canon(sc)) {
			same = true
		}
		if same {
			d.Notes = append(d.Notes, "structuredContent is the text's own JSON, so it is not repeated")
		} else {
			if text != "" {
				text += "\n\n"
			}
			text += js
			d.Notes = append(d.Notes, "structuredContent is appended to the text as compact JSON")
		}
	}
	if isErr, ok := result.Get("isError"); ok && isErr.Kind == ojson.Bool && isErr.Bool {
		text = "MCP server '" + server + "': " + text
		d.Notes = append(d.Notes, "isError: the text is prefixed with the server's name")
	}
	for _, x := range d.Dropped {
		switch x {
		case "image":
			d.Notes = append(d.Notes, "images are not sent to the model with a model provider of your own (BYOK); with GitHub's own endpoint this is not established")
		case "resource_link":
			d.Notes = append(d.Notes, "resource links are not sent to the model")
		}
	}
	d.Bytes = len(text)
	max := opts.MaxBytes
	if max <= 0 {
		max = LargeOutputBytes
	}
	if d.Bytes <= max {
		d.Text = text
		return d
	}
	d.Spilled = true
	preview := text
	if utf8.RuneCountInString(text) > PreviewChars {
		n := 0
		for i := range text {
			if n == PreviewChars {
				preview = text[:i]
				break
			}
			n++
		}
	}
	d.Text = fmt.Sprintf("Output too large to read at once (%.1f KB). Saved to: %s\n%s\n\nPreview (first %d chars):\n%s",
		float64(d.Bytes)/1024, SpillPath, spillHint, PreviewChars, preview)
	d.Notes = append(d.Notes, "over "+textfit.Thousands(max)+" bytes: saved to a file; the model gets a notice and the first "+textfit.Thousands(PreviewChars)+" characters",
		"the line on how to read the saved file is toolfind's wording; the path stands for the CLI's temporary file")
	return d
}
