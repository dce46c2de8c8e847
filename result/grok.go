package result

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/search"
)

// Grok Build 1.0.0's MCP output cap (grok.md §B.5).
const (
	// GrokMaxOutputBytes is MCP_MAX_OUTPUT_BYTES.
	GrokMaxOutputBytes = 20_000
	// grokLongLine: a line longer than this makes the saved text "long
	// line" for the steer sentence (§B.5 "a line over 2,000 bytes").
	grokLongLine = 2_000
	// DefaultGrokShell is the shell tool named in the steer sentence when
	// the template names none.
	DefaultGrokShell = "bash"
	// DefaultGrokOutputPath stands for {session}/mcp/{call_id}, + ".json"
	// or ".txt".
	DefaultGrokOutputPath = "~/.grok/sessions/<session>/mcp/<call_id>"
)

// grokText is the text Grok Build caps: the text blocks joined with "\n"
// (how Grok Build turns content blocks into its MCP output text is not in
// grok.md [unverified]); images are pulled out before the cut (§B.5).
func grokText(r *CallResult) (string, []ShownBlock) {
	var texts []string
	var atts []ShownBlock
	for _, b := range r.Content {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "image":
			atts = append(atts, ShownBlock{Type: "image", MimeType: b.MimeType, DataBytes: len(b.Data)})
		case "resource":
			if !b.Blob {
				texts = append(texts, b.Text)
			}
		}
	}
	return strings.Join(texts, "\n"), atts
}

// deliverGrok is §B.5: text over 20,000 bytes is written to a file, cut at
// the last character boundary at or below the cap, and followed by
//
//	\n\n[MCP output truncated: showing first {cap} of {total}. Full output written to: {path}.{steer}]
//
// sizes as "{x:.1} KB" (1 KB = 1,024 bytes; "N B" below 1,024). The steer
// sentence depends on the text: valid JSON with a line over 2,000 bytes,
// other JSON, long-line text, or nothing. Its {examples} clause (which
// depends on the tools installed) is left out.
func deliverGrok(r *CallResult) Delivery {
	d := Delivery{Client: "grok@1.0.0"}
	text, atts := grokText(r)
	if r.Structured.Exists() {
		d.Notes = append(d.Notes, "structuredContent is not part of the text Grok Build caps [unverified]")
	}
	if len(text) <= GrokMaxOutputBytes {
		d.setBlocks(append([]ShownBlock{{Type: "text", Text: text}}, atts...))
		d.Verdict = Whole
		d.Detail = "delivered whole: " + group(len(text)) + " bytes, within the " + group(GrokMaxOutputBytes) + "-byte cap"
		return d
	}
	head, _ := search.TruncateBytes(text, GrokMaxOutputBytes)
	isJSON, longLine := isJSONText(text), maxRustLine(text) > grokLongLine
	ext := ".txt"
	if isJSON {
		ext = ".json"
	}
	path := DefaultGrokOutputPath + ext
	shell := DefaultGrokShell
	var steer string
	switch {
	case isJSON && longLine:
		steer = " The full output is valid JSON with a very long line, so grep/read_file are ineffective on it — use `" + shell + "` to query the saved file."
	case isJSON:
		steer = " The full output is valid JSON saved to the file above; use `" + shell + "` to query it."
	case longLine:
		steer = " The full output has a very long line, so grep/read_file are ineffective on it — use `" + shell + "` to slice/search the saved file."
	}
	shown := head + "\n\n[MCP output truncated: showing first " + grokSize(GrokMaxOutputBytes) + " of " + grokSize(len(text)) +
		". Full output written to: " + path + "." + steer + "]"
	d.setBlocks(append([]ShownBlock{{Type: "text", Text: shown}}, atts...))
	d.Verdict = Cut
	d.Detail = "cut from the head: the first " + group(len(head)) + " of " + group(len(text)) + " bytes kept; the full text is written to a file named in the notice"
	d.Notes = append(d.Notes, "the steer sentence's {examples} clause (query tools found on the machine) is left out; the path stands for Grok Build's session path")
	return d
}

// grokSize formats bytes as Grok Build does: "N B" below 1,024, else
// "{x:.1} KB".
func grokSize(n int) string {
	if n < 1024 {
		return strconv.Itoa(n) + " B"
	}
	return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KB"
}

// isJSONText reports whether the trimmed text starts with { or [ and is
// valid JSON.
func isJSONText(s string) bool {
	t := strings.TrimSpace(s)
	return (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t))
}

// maxRustLine is the longest line in bytes, lines split as Rust's
// str::lines() (a trailing "\r" dropped).
func maxRustLine(s string) int {
	m := 0
	for _, l := range strings.Split(s, "\n") {
		m = max(m, len(strings.TrimSuffix(l, "\r")))
	}
	return m
}
