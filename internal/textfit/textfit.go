// Package textfit fits text output into a width counted in characters
// (runes): word wrapping and shortening a name in the middle. The bench
// report and the CLI's tables share it.
package textfit

import (
	"strings"
	"unicode/utf8"
)

// Wrap breaks s into lines of at most width characters at white space; a
// word longer than the width gets a line of its own. Runs of white space
// become one space. An empty s is one empty line.
func Wrap(s string, width int) []string {
	var lines []string
	var cur strings.Builder
	n := 0
	for _, word := range strings.Fields(s) {
		wl := utf8.RuneCountInString(word)
		if n > 0 && n+1+wl > width {
			lines = append(lines, cur.String())
			cur.Reset()
			n = 0
		}
		if n > 0 {
			cur.WriteByte(' ')
			n++
		}
		cur.WriteString(word)
		n += wl
	}
	if n > 0 || len(lines) == 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
