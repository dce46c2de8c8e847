package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/result"
)

// MaxResultBytes is the most UTF-8 bytes of a result's text: the smallest
// cap among the simulated clients' result delivery rules, Grok Build's
// 20,000 bytes (specs/grok.md §B.5, result.GrokMaxOutputBytes), less room
// for the note a cut text ends with. The package doc lists the others.
const MaxResultBytes = result.GrokMaxOutputBytes - noteRoom

// MaxResultLines is the most lines, under OpenCode's 2,000 (specs/opencode.md
// §C.1).
const MaxResultLines = 1_900

// noteRoom is the room kept for the note of a cut text.
const noteRoom = 500

// fit returns text when every simulated client delivers it whole to its
// model, else its longest head of whole lines (at most MaxResultBytes and
// MaxResultLines) that every client delivers whole, followed by a note
// saying how much was left out and, when given, how to ask for less.
func fit(text, narrower string) string {
	if wholeEverywhere(text) {
		return text
	}
	limit := min(len(text), MaxResultBytes)
	for {
		head := headLines(text, limit, MaxResultLines)
		note := fmt.Sprintf("\n[toolfind cut this result to %d of its %d bytes so that every agent client shows it whole", len(head), len(text))
		if narrower != "" {
			note += "; for the rest, " + narrower
		}
		out := head + note + "]\n"
		if wholeEverywhere(out) || limit == 0 {
			return out
		}
		limit = len(head) * 9 / 10
	}
}

// headLines is text's longest head of whole lines of at most n bytes and
// maxLines lines (a first line longer than n is cut at a character
// boundary).
func headLines(text string, n, maxLines int) string {
	if n >= len(text) && strings.Count(text, "\n") < maxLines {
		return text
	}
	n = min(n, len(text))
	head := text[:n]
	if i := strings.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	} else {
		for n > 0 && !utf8Start(text[n]) {
			n--
		}
		head = text[:n]
	}
	for strings.Count(head, "\n") > maxLines {
		head = head[:strings.LastIndexByte(strings.TrimSuffix(head, "\n"), '\n')+1]
	}
	return head
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// wholeEverywhere reports whether every client result knows delivers a
// result of this one text block whole (result.Deliver).
func wholeEverywhere(text string) bool {
	if len(text) > result.GrokMaxOutputBytes {
		return false // the smallest cap (fast path)
	}
	data, err := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": text}}})
	if err != nil {
		return false
	}
	r, err := result.Parse("result", data)
	if err != nil {
		return false
	}
	ds, err := result.Deliver(result.Input{Result: r, Server: Name, Tool: "rank_tools_for_query"}, result.Options{})
	if err != nil {
		return false
	}
	for _, d := range ds {
		if d.Verdict != result.Whole {
			return false
		}
	}
	return true
}
