// Package didyoumean finds, for a mistyped word (a flag value, a client,
// a tool name), the known word it is most likely a typo of.
//
// The distance is the optimal-string-alignment distance in runes, case
// folded: an insertion, a deletion, a substitution or a swap of two
// neighbours each count 1. A known word is near enough when its distance
// is at most a third of its length (at least 1), or when the word typed is
// a prefix of it of three or more characters; the nearest wins, the first
// of equals.
package didyoumean

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Hint is ` (did you mean "x"?)` for the known word nearest to s, or ""
// when none is near enough.
func Hint(s string, known []string) string {
	if m := Nearest(s, known); m != "" {
		return fmt.Sprintf(" (did you mean %q?)", m)
	}
	return ""
}

// Nearest is the word of known nearest to s, if it is near enough to be
// a typo of it (see the package doc); s itself is never suggested, but a
// word that differs from it only in case is (distance 0).
func Nearest(s string, known []string) string {
	ls := strings.ToLower(s)
	n := utf8.RuneCountInString(ls)
	best, bestD := "", -1
	for _, k := range known {
		if k == s {
			continue
		}
		lk := strings.ToLower(k)
		limit := max(1, utf8.RuneCountInString(lk)/3)
		var d int
		switch m := utf8.RuneCountInString(lk); {
		case n >= 3 && strings.HasPrefix(lk, ls):
			d = 1
		case m-n > limit || n-m > limit:
			continue // the distance is at least the difference in length
		default:
			d = Distance(ls, lk)
		}
		if d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

// Distance is the optimal-string-alignment distance of a and b, in runes:
// an insertion, deletion, substitution or swap of two neighbours each
// count 1 ("jsno" → "json" is 1, "kitten" → "sitting" 3).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows of the table, the two before the current one: the swap
	// looks two back. Short words (names) need no allocation.
	var buf [3 * 65]int
	w := len(rb) + 1
	var rows []int
	if 3*w <= len(buf) {
		rows = buf[:3*w]
	} else {
		rows = make([]int, 3*w)
	}
	prev2, prev, cur := rows[:w], rows[w:2*w], rows[2*w:]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
