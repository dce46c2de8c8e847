package result

import (
	"github.com/toolfind/toolfind/opencode"
)

// deliverOpenCode is OpenCode 1's eager path (opencode.md §C.1 and §0, the
// opencode package's JoinEager and Truncate): text joined with "\n\n",
// then 2,000 lines / 51,200 bytes from the head, the marker and the hint
// for agents that may use the task tool (the default build agent).
// Images and other binary content travel as attachments.
func deliverOpenCode(r *CallResult) (Delivery, error) {
	d := Delivery{Client: "opencode@1.18.33"}
	text, err := opencode.JoinEager(r.Value)
	if err != nil {
		return d, err
	}
	t := opencode.Truncate(text, opencode.TruncateOptions{})
	blocks := []ShownBlock{{Type: "text", Text: t.Content}}
	for _, b := range r.Content {
		switch {
		case b.Type == "image" || b.Type == "audio":
			blocks = append(blocks, ShownBlock{Type: b.Type, MimeType: b.MimeType, DataBytes: len(b.Data)})
		case b.Type == "resource" && b.Blob:
			blocks = append(blocks, ShownBlock{Type: "resource", MimeType: b.MimeType, DataBytes: len(b.Data)})
		}
	}
	d.setBlocks(blocks)
	if r.IsError {
		d.Notes = append(d.Notes, "isError: the model gets the error message made of the text blocks")
	}
	if r.Structured.Exists() {
		d.Notes = append(d.Notes, "structuredContent is used only when content is empty") // opencode.md §0
	}
	if !t.Truncated {
		d.Verdict = Whole
		d.Detail = "delivered whole: " + group(t.KeptLines) + " " + plural(t.KeptLines, "line", "lines") + ", " + group(t.KeptBytes) + " bytes (limits 2,000 lines, 51,200 bytes)"
		return d, nil
	}
	if t.KeptBytes == 0 && t.KeptLines <= 1 {
		d.Verdict = Replaced
		d.Detail = "replaced by a file reference: the first line alone is over " + group(opencode.MaxBytes) +
			" bytes and only whole lines are kept, so the model gets the marker (" + group(t.Removed) + " " + t.Unit + " truncated) and the saved-file hint, none of the text"
		d.Notes = append(d.Notes, "the saved file's path stands for OpenCode's "+opencode.DefaultOutputPath)
		return d, nil
	}
	d.Verdict = Cut
	d.Detail = "cut from the head: the first " + group(t.KeptLines) + " " + plural(t.KeptLines, "line", "lines") + " (" + group(t.KeptBytes) +
		" bytes) kept, " + group(t.Removed) + " " + t.Unit + " removed; the full text is saved to a file named in the hint"
	d.Notes = append(d.Notes, "the saved file's path stands for OpenCode's "+opencode.DefaultOutputPath)
	return d, nil
}
