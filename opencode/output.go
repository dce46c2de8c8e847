package opencode

import (
	"errors"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Output limits of OpenCode's Truncate.output (§C.1; §0 confirms they
// apply to eager MCP results and to code mode's execute results alike).
const (
	MaxLines = 2000
	MaxBytes = 50 * 1024 // 51,200
)

// The hints OpenCode appends after a cut (§C.1): the first when the agent
// may use the task tool (the default build agent can), else the second.
const (
	hintTask = "The tool call succeeded but the output was truncated. Full output saved to: %s\nUse the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context."
	hintGrep = "The tool call succeeded but the output was truncated. Full output saved to: %s\nUse Grep to search the full content or Read with offset/limit to view specific sections."
)

// DefaultOutputPath stands for the file OpenCode saves a cut output to,
// {data}/tool-output/tool_{id} (the id is time-based, so a simulation
// cannot know it).
const DefaultOutputPath = "~/.local/share/opencode/tool-output/tool_<id>"

// TruncateOptions adjust Truncate. Zero values take OpenCode's defaults.
type TruncateOptions struct {
	MaxLines int // default MaxLines (config tool_output.max_lines)
	MaxBytes int // default MaxBytes (config tool_output.max_bytes)
	// Tail keeps the end instead of the head, with marker and hint first.
	Tail bool
	// NoTask selects the hint for agents that may not use the task tool.
	NoTask bool
	// OutputPath is the saved file's path in the hint (default
	// DefaultOutputPath).
	OutputPath string
}

// Truncation is the outcome of Truncate.
type Truncation struct {
	Content   string
	Truncated bool
	// Removed counts what was cut, in Unit ("lines" or "bytes").
	Removed int
	Unit    string
	// KeptLines and KeptBytes describe the preview.
	KeptLines, KeptBytes int
}

// Truncate is OpenCode's Truncate.output (§C.1): text is split on "\n" (so
// a text ending in "\n" has one more, empty, line) and measured in UTF-8
// bytes. Within both limits it is returned as is. Otherwise whole lines
// are kept from the head (or the tail) while they stay within MaxLines and
// MaxBytes, newlines counted; if the byte limit stopped it, Removed is
// total bytes − kept bytes in "bytes", else the number of lines dropped in
// "lines". The result is
//
//	{preview}\n\n...{Removed} {Unit} truncated...\n\n{hint}
//
// (tail: marker and hint first, then "\n\n" and the preview).
//
// Worked examples (oracle-verified, §0): 3,000 lines of 20 bytes keep
// 2,000 lines, "...1000 lines truncated..."; 600 lines of 99 bytes keep
// 512 lines (99 + 511×100 = 51,199 bytes), "...8800 bytes truncated..."
// (59,999 − 51,199); "abcdefghi\n" × 3,000 is 3,001 lines, "...1001 lines
// truncated...".
func Truncate(text string, opt TruncateOptions) Truncation {
	maxLines, maxBytes := opt.MaxLines, opt.MaxBytes
	if maxLines <= 0 {
		maxLines = MaxLines
	}
	if maxBytes <= 0 {
		maxBytes = MaxBytes
	}
	total := len(text)
	if n := strings.Count(text, "\n") + 1; n <= maxLines && total <= maxBytes {
		return Truncation{Content: text, KeptLines: n, KeptBytes: total}
	}
	lines := strings.Split(text, "\n")
	var kept []string
	bytes, hitBytes := 0, false
	if !opt.Tail {
		for r := 0; r < len(lines) && r < maxLines; r++ {
			x := len(lines[r])
			if r > 0 {
				x++
			}
			if bytes+x > maxBytes {
				hitBytes = true
				break
			}
			kept = append(kept, lines[r])
			bytes += x
		}
	} else {
		for r := len(lines) - 1; r >= 0 && len(kept) < maxLines; r-- {
			x := len(lines[r])
			if len(kept) > 0 {
				x++
			}
			if bytes+x > maxBytes {
				hitBytes = true
				break
			}
			kept = append(kept, lines[r])
			bytes += x
		}
		for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
			kept[i], kept[j] = kept[j], kept[i]
		}
	}
	t := Truncation{Truncated: true, KeptLines: len(kept), KeptBytes: bytes, Unit: "lines", Removed: len(lines) - len(kept)}
	if hitBytes {
		t.Unit, t.Removed = "bytes", total-bytes
	}
	path := opt.OutputPath
	if path == "" {
		path = DefaultOutputPath
	}
	hint := hintTask
	if opt.NoTask {
		hint = hintGrep
	}
	hint = strings.Replace(hint, "%s", path, 1)
	marker := "..." + strconv.Itoa(t.Removed) + " " + t.Unit + " truncated..."
	preview := strings.Join(kept, "\n")
	if opt.Tail {
		t.Content = marker + "\n\n" + hint + "\n\n" + preview
	} else {
		t.Content = preview + "\n\n" + marker + "\n\n" + hint
	}
	return t
}

// ErrNotResult is returned for a CallToolResult that is not a JSON object
// with a "content" array.
var ErrNotResult = errors.New("opencode: a CallToolResult must be an object with a content array")

func contentItems(result ojson.Value) ([]ojson.Value, error) {
	if result.Kind != ojson.Object {
		return nil, ErrNotResult
	}
	c, ok := result.Get("content")
	if !ok || c.Kind != ojson.Array {
		return nil, ErrNotResult
	}
	return c.Array(), nil
}

func str(v ojson.Value, key string) string {
	s, _ := v.Get(key)
	if s.Kind == ojson.String {
		return s.Str()
	}
	return ""
}

// JoinEager is the text an eager MCP tool call gives the model before
// truncation (§C.1, §0): when content is empty and structuredContent is
// set, its compact JSON; otherwise the text items (and the text of
// embedded text resources) joined with "\n\n". resource_link items and
// binary content (images, audio, blobs, sent as attachments) add no text.
// For isError results it is the error message OpenCode raises: the
// non-blank text items joined with "\n\n", or "MCP tool returned an error".
func JoinEager(result ojson.Value) (string, error) {
	items, err := contentItems(result)
	if err != nil {
		return "", err
	}
	if isErr, _ := result.Get("isError"); isErr.Kind == ojson.Bool && isErr.Bool {
		var parts []string
		for _, it := range items {
			if str(it, "type") == "text" && search.JSTrim(str(it, "text")) != "" {
				parts = append(parts, str(it, "text"))
			}
		}
		if len(parts) == 0 {
			return "MCP tool returned an error", nil
		}
		return strings.Join(parts, "\n\n"), nil
	}
	if sc, ok := result.Get("structuredContent"); len(items) == 0 && ok && !nullish(sc) {
		return sc.JS(""), nil
	}
	var parts []string
	for _, it := range items {
		switch str(it, "type") {
		case "text":
			parts = append(parts, str(it, "text"))
		case "resource":
			if r, ok := it.Get("resource"); ok {
				if t, ok := r.Get("text"); ok && t.Kind == ojson.String {
					parts = append(parts, t.Str())
				}
			}
		}
	}
	return strings.Join(parts, "\n\n"), nil
}

// JoinCodeMode is what `return await tools.ns.tool(...)` makes the
// execute result read in code mode (§0): a non-null structuredContent
// wins and is printed as JSON.stringify(value, null, 2); otherwise text
// items, embedded text resources and resource_links ("name: uri") joined
// with "\n"; otherwise "[N images|files attached to the result]" for
// binary content; otherwise "null".
func JoinCodeMode(result ojson.Value) (string, error) {
	items, err := contentItems(result)
	if err != nil {
		return "", err
	}
	var parts []string
	files, images := 0, 0
	for _, it := range items {
		switch str(it, "type") {
		case "text":
			parts = append(parts, str(it, "text"))
		case "image", "audio":
			files++
			if strings.HasPrefix(str(it, "mimeType"), "image/") {
				images++
			}
		case "resource":
			r, _ := it.Get("resource")
			if t, ok := r.Get("text"); ok {
				parts = append(parts, t.Str())
				break
			}
			files++
			mime := str(r, "mimeType")
			if mime == "" {
				mime = "application/octet-stream"
			}
			if strings.HasPrefix(mime, "image/") {
				images++
			}
		case "resource_link":
			parts = append(parts, str(it, "name")+": "+str(it, "uri"))
		}
	}
	if sc, ok := result.Get("structuredContent"); ok && !nullish(sc) {
		if sc.Kind == ojson.String {
			return sc.Str(), nil
		}
		return sc.JS("  "), nil
	}
	if len(parts) > 0 {
		return strings.Join(parts, "\n"), nil
	}
	if files > 0 {
		kind := "file"
		if files == images {
			kind = "image"
		}
		if files != 1 {
			kind += "s"
		}
		return "[" + strconv.Itoa(files) + " " + kind + " attached to the result]", nil
	}
	return "null", nil
}
