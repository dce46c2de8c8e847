// Package textfit fits text output into a width counted in characters
// (runes): word wrapping and shortening a name in the middle; and numbers
// with thousands separators. The bench report, the result details and the
// CLI's tables share it.
package textfit

import (
	"strconv"
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

// Thousands writes n in decimal with a comma between groups of three
// digits, as English number formatting does (JavaScript's toLocaleString,
// golang.org/x/text/message in English): 218237 → "218,237", -1049 →
// "-1,049".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// ShortenMiddle cuts s to at most n characters by replacing its middle
// with "…", keeping more of the end (a tool's own name) than of the start
// (its server): "github/add_pull_request_review_comment" at 24 is
// "github/ad…review_comment" (9 characters before the "…", 14 after).
func ShortenMiddle(s string, n int) string {
	if utf8.RuneCountInString(s) <= n || n < 1 {
		return s
	}
	if n == 1 {
		return "…"
	}
	r := []rune(s)
	keep := n - 1
	head := keep * 2 / 5
	tail := keep - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
