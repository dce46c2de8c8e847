package result

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/search"
)

// Report is the JSON document of `toolfind result --format json`:
// {"results": [{"client", "verdict", "shown", "shown_chars", "shown_bytes",
// "advice", "detail", "blocks", "notes"}]}.
type Report struct {
	Results []Delivery `json:"results"`
}

// WriteJSON writes the deliveries as a Report, indented by two spaces,
// without HTML escaping.
func WriteJSON(w io.Writer, ds []Delivery) error {
	if ds == nil {
		ds = []Delivery{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(Report{Results: ds})
}

// TextOptions adjust WriteText.
type TextOptions struct {
	// Full prints every shown text whole; otherwise a text over
	// abbreviateAbove characters is printed as its head and tail.
	Full bool
}

const (
	abbreviateAbove = 1_500
	abbreviateHead  = 800
	abbreviateTail  = 400
)

// Summary describes a result in one line: its text size, blocks, and
// flags.
func Summary(r *CallResult) string {
	chars, bytes, texts, other := 0, 0, 0, 0
	for _, b := range r.Content {
		if b.Type == "text" {
			texts++
			chars += search.UTF16Len(b.Text)
			bytes += len(b.Text)
			continue
		}
		other++
	}
	s := fmt.Sprintf("%s %s of text (%s characters, %s bytes)", group(texts), plural(texts, "block", "blocks"), group(chars), group(bytes))
	if other > 0 {
		s += fmt.Sprintf(", %s other %s", group(other), plural(other, "block", "blocks"))
	}
	if r.Structured.Exists() {
		s += fmt.Sprintf(", structuredContent (%s characters as JSON)", group(search.UTF16Len(r.Structured.JS(""))))
	}
	if r.IsError {
		s += ", isError"
	}
	if r.Meta.Exists() {
		s += ", _meta"
	}
	return s
}

// WriteText writes a human report: per client the verdict, the size of
// what the model reads, how much was kept, the text itself (indented,
// escaped by safetext, abbreviated unless Full), notes and advice.
func WriteText(w io.Writer, source string, r *CallResult, ds []Delivery, o TextOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "result %s: %s\n", safetext.Escape(source), Summary(r))
	// Advice every advised client shares is printed once, at the end;
	// a client's own advice stays under it.
	common := sharedAdvice(ds)
	for _, d := range ds {
		fmt.Fprintf(&b, "\n%s  %s  %s characters, %s bytes\n", d.Client, strings.ToUpper(string(d.Verdict)), group(d.ShownChars), group(d.ShownBytes))
		fmt.Fprintf(&b, "  %s\n", safetext.Escape(d.Detail))
		if len(d.Blocks) > 0 {
			fmt.Fprintf(&b, "  blocks:")
			for _, bl := range d.Blocks {
				if bl.Type == "text" {
					fmt.Fprintf(&b, " text (%s chars)", group(search.UTF16Len(bl.Text)))
				} else {
					fmt.Fprintf(&b, " %s %s (%s bytes of base64)", safetext.Escape(bl.Type), safetext.Escape(bl.MimeType), group(bl.DataBytes))
				}
			}
			b.WriteByte('\n')
		}
		b.WriteString("  shown:\n")
		writeQuoted(&b, d.Shown, o.Full)
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "  note: %s\n", safetext.Escape(n))
		}
		var own []string
		for _, a := range d.Advice {
			if !slices.Contains(common, a) {
				own = append(own, a)
			}
		}
		if len(own) > 0 {
			b.WriteString("  advice:\n")
			for _, a := range own {
				fmt.Fprintf(&b, "    - %s\n", safetext.Escape(a))
			}
		}
	}
	if len(common) > 0 {
		b.WriteString("\nadvice for the server author:\n")
		for _, a := range common {
			fmt.Fprintf(&b, "  - %s\n", safetext.Escape(a))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sharedAdvice is the advice, in the first advised client's order, that
// every client with advice gives.
func sharedAdvice(ds []Delivery) []string {
	var out []string
	first := true
	for _, d := range ds {
		if len(d.Advice) == 0 {
			continue
		}
		if first {
			out, first = append(out, d.Advice...), false
			continue
		}
		out = slices.DeleteFunc(out, func(a string) bool { return !slices.Contains(d.Advice, a) })
	}
	return out
}

// writeQuoted writes text as "    | line" lines, escaped; a long text
// unless full as head, a marker line and tail.
func writeQuoted(b *strings.Builder, text string, full bool) {
	n := search.UTF16Len(text)
	if !full && n > abbreviateAbove {
		head := sliceUTF16Whole(text, abbreviateHead)
		tail := tailUTF16(text, abbreviateTail)
		quoteLines(b, head)
		fmt.Fprintf(b, "    [toolfind: %s characters not printed; --full prints all]\n", group(n-search.UTF16Len(head)-search.UTF16Len(tail)))
		quoteLines(b, tail)
		return
	}
	quoteLines(b, text)
}

func quoteLines(b *strings.Builder, s string) {
	for _, line := range strings.Split(s, "\n") {
		b.WriteString("    | ")
		b.WriteString(safetext.Block(line))
		b.WriteByte('\n')
	}
}

// tailUTF16 is the last n UTF-16 units of s, never splitting a character.
func tailUTF16(s string, n int) string {
	units := 0
	for i := len(s); i > 0; {
		j := i - 1
		for j > 0 && s[j]&0xC0 == 0x80 {
			j--
		}
		w := search.UTF16Len(s[j:i])
		if units+w > n {
			return s[i:]
		}
		units += w
		i = j
	}
	return s
}
