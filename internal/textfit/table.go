package textfit

import (
	"strings"
	"unicode/utf8"
)

// Table is a text table fitted to a width. Its first Keys columns name a
// row (a tool, a client); the other columns are values. When the values do
// not fit beside the keys, they are split into blocks, one under the
// other, each repeating the key columns; a key column may also be
// shortened in the middle (Shrink). Headers may take several lines
// ("FOUND\n@1"), aligned at the bottom; columns are two spaces apart.
type Table struct {
	// Head is each column's header, its lines separated by "\n".
	Head []string
	// Right marks the columns aligned right (numbers).
	Right []bool
	// Keys is how many leading columns name a row.
	Keys int
	// Shrink is the index of the key column that is shortened
	// (ShortenMiddle) when the keys and the widest value column do not fit,
	// down to MinShrink characters; -1: none.
	Shrink int
	// Indent starts every line.
	Indent string
	Rows   [][]string
}

// MinShrink is the narrowest a shrunk key column gets.
const MinShrink = 16

// Lines lays the table out in lines of at most width characters where it
// can (a single column wider than the width stays whole); trailing blanks
// are trimmed. Blocks are separated by an empty line.
func (t *Table) Lines(width int) []string {
	n := len(t.Head)
	widths := make([]int, n)
	heads := make([][]string, n)
	for j, h := range t.Head {
		heads[j] = strings.Split(h, "\n")
		for _, l := range heads[j] {
			widths[j] = max(widths[j], utf8.RuneCountInString(l))
		}
	}
	for _, r := range t.Rows {
		for j := 0; j < n && j < len(r); j++ {
			widths[j] = max(widths[j], utf8.RuneCountInString(r[j]))
		}
	}
	keyW := func() int {
		w := utf8.RuneCountInString(t.Indent)
		for j := 0; j < t.Keys; j++ {
			if j > 0 {
				w += 2
			}
			w += widths[j]
		}
		return w
	}
	widest := 0
	for j := t.Keys; j < n; j++ {
		widest = max(widest, widths[j])
	}
	if s := t.Shrink; s >= 0 && s < t.Keys {
		if over := keyW() + 2 + widest - width; over > 0 {
			floor := MinShrink
			for _, l := range heads[s] {
				floor = max(floor, utf8.RuneCountInString(l))
			}
			widths[s] = max(min(widths[s], floor), widths[s]-over)
		}
	}
	// Pack the value columns into blocks.
	var blocks [][]int
	cur := keyW()
	for j := t.Keys; j < n; j++ {
		if len(blocks) == 0 || cur+2+widths[j] > width && len(blocks[len(blocks)-1]) > 0 {
			blocks = append(blocks, nil)
			cur = keyW()
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], j)
		cur += 2 + widths[j]
	}
	if len(blocks) == 0 {
		blocks = [][]int{nil}
	}
	var out []string
	for bi, block := range blocks {
		if bi > 0 {
			out = append(out, "")
		}
		cols := make([]int, 0, t.Keys+len(block))
		for j := 0; j < t.Keys; j++ {
			cols = append(cols, j)
		}
		cols = append(cols, block...)
		h := 0
		for _, j := range cols {
			h = max(h, len(heads[j]))
		}
		cell := func(j int, v string) string {
			if j == t.Shrink {
				v = ShortenMiddle(v, widths[j])
			}
			return v
		}
		line := func(value func(j int) string) string {
			var b strings.Builder
			b.WriteString(t.Indent)
			for k, j := range cols {
				if k > 0 {
					b.WriteString("  ")
				}
				v := cell(j, value(j))
				pad := strings.Repeat(" ", max(widths[j]-utf8.RuneCountInString(v), 0))
				if j < len(t.Right) && t.Right[j] {
					b.WriteString(pad + v)
				} else {
					b.WriteString(v + pad)
				}
			}
			return strings.TrimRight(b.String(), " ")
		}
		for i := 0; i < h; i++ {
			out = append(out, line(func(j int) string {
				// Bottom-aligned: a header of fewer lines starts lower.
				if k := i - (h - len(heads[j])); k >= 0 {
					return heads[j][k]
				}
				return ""
			}))
		}
		for _, r := range t.Rows {
			out = append(out, line(func(j int) string {
				if j < len(r) {
					return r[j]
				}
				return ""
			}))
		}
	}
	return out
}
