package claude

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/search"
)

// truncMarker is appended to a cut description: U+2026, a space,
// "[truncated]" — 13 characters (spec §3).
const truncMarker = "… [truncated]"

// jsFields is s.split(/\s+/) with empty pieces dropped.
func jsFields(s string) []string { return strings.FieldsFunc(s, search.IsJSSpace) }

// isWordTerm reports whether every byte of t is a word character: then
// \bt\b matches exactly where t is a whole maximal run of word characters,
// which lets the index look terms up in a set of words.
func isWordTerm(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !search.IsWordByte(t[i]) {
			return false
		}
	}
	return true
}

// wordRuns returns the distinct maximal runs of word characters in s.
func wordRuns(s string, add func(string)) {
	for i := 0; i < len(s); {
		if !search.IsWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && search.IsWordByte(s[j]) {
			j++
		}
		add(s[i:j])
		i = j
	}
}

// containsWordFold is search.ContainsWord(lower(text), word) for an ASCII
// text, lower being ASCII lowercasing, without the lowercase copy: the
// occurrences of word's first byte in either case are found with
// strings.IndexByte, and the rest compared folding text's letters. A word
// with an uppercase letter or a non-ASCII byte is never found (the
// lowercase text has neither); \b does not depend on case.
func containsWordFold(text, word string) bool {
	if word == "" {
		return search.ContainsWord(text, word)
	}
	if !ascii.Is(word) || hasUpperASCII(word) {
		return false
	}
	first, upper := word[0], word[0]
	if first >= 'a' && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	next := func(c byte, from int) int {
		if k := strings.IndexByte(text[from:], c); k >= 0 {
			return from + k
		}
		return len(text)
	}
	lo := next(first, 0)
	up := lo
	if upper != first {
		up = next(upper, 0)
	}
	for {
		at := min(lo, up)
		end := at + len(word)
		if end > len(text) {
			return false
		}
		if equalFold(text[at+1:end], word[1:]) && search.BoundaryAt(text, at) && search.BoundaryAt(text, end) {
			return true
		}
		if lo == at {
			lo = next(first, at+1)
		}
		if up == at {
			up = next(upper, at+1)
		}
	}
}

// hasUpperASCII reports whether s has a letter A-Z.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// equalFold reports whether lower(a) == b for ASCII a and a lowercase b.
func equalFold(a, b string) bool {
	for i := 0; i < len(b); i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

// capText cuts s to max UTF-16 units and appends the marker when it cut
// (spec §3: "description.slice(0, cap) + '… [truncated]'").
func capText(s string, max int) (string, bool) {
	return capTextLen(s, search.UTF16Len(s), max)
}

// capTextLen is capText for s of n UTF-16 units.
func capTextLen(s string, n, max int) (string, bool) {
	if max <= 0 || n <= max {
		return s, false
	}
	cut, _ := search.SliceUTF16(s, max)
	return cut + truncMarker, true
}

// normalizeHint is the search-hint rule of spec §1: whitespace runs
// collapsed to one space, trimmed, empty ignored, cut to max characters,
// lowercased.
func normalizeHint(s string, max int) (string, bool) {
	h := strings.Join(jsFields(s), " ")
	if h == "" {
		return "", false
	}
	if max > 0 {
		h, _ = search.SliceUTF16(h, max)
	}
	return jsLower(h), true
}

// splitBuiltinName splits a built-in's name as Claude Code does (spec §1):
// a space at every lowercase→uppercase boundary (JavaScript
// replace(/([a-z])([A-Z])/g, "$1 $2"), non-overlapping), "_" to spaces,
// lowercased, split on whitespace.
func splitBuiltinName(name string) []string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		b.WriteByte(c)
		if c >= 'a' && c <= 'z' && i+1 < len(name) && name[i+1] >= 'A' && name[i+1] <= 'Z' {
			b.WriteByte(' ')
			i++
			b.WriteByte(name[i])
		}
	}
	s := strings.ReplaceAll(b.String(), "_", " ")
	return jsFields(jsLower(s))
}

// splitCoarse splits a coarse part on runs of whitespace, "_" or "."
// (JavaScript /[\s_.]+/), dropping empty pieces (spec §1).
func splitCoarse(s string) []string { return appendCoarseParts(nil, s) }

// appendCoarseParts appends splitCoarse(s) to parts.
func appendCoarseParts(parts []string, s string) []string {
	eachCoarsePart(s, func(p string) { parts = append(parts, p) })
	return parts
}

// countCoarseParts is len(splitCoarse(s)).
func countCoarseParts(s string) int {
	n := 0
	eachCoarsePart(s, func(string) { n++ })
	return n
}

// eachCoarsePart calls part with each piece of splitCoarse(s), in order.
func eachCoarsePart(s string, part func(string)) {
	start := -1
	for i, r := range s {
		if r == '_' || r == '.' || search.IsJSSpace(r) {
			if start >= 0 {
				part(s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		part(s[start:])
	}
}

// splitLegacy is the 2.1.88 parse of an MCP wire name (background §3):
// drop "mcp__", lowercase, split on "__" then on "_", drop empties.
func splitLegacy(wire string) []string {
	s := jsLower(strings.TrimPrefix(wire, "mcp__"))
	var parts []string
	for _, seg := range strings.Split(s, "__") {
		for _, p := range strings.Split(seg, "_") {
			if p != "" {
				parts = append(parts, p)
			}
		}
	}
	return parts
}

// jsLower is String.prototype.toLowerCase (search.JSLower).
func jsLower(s string) string { return search.JSLower(s) }

// appendJSLower appends jsLower(s) to b, rune by rune: what search.JSLower
// does (İ to "i" + U+0307, then strings.ToLower: unicode.ToLower of each
// rune, an invalid byte becoming U+FFFD).
func appendJSLower(b []byte, s string) []byte {
	for _, r := range s {
		if r == 'İ' {
			b = append(b, "i\u0307"...)
			continue
		}
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return b
}

// jsLowerLen is len(appendJSLower(nil, s)).
func jsLowerLen(s string) int {
	n := 0
	for _, r := range s {
		if r == 'İ' {
			n += len("i\u0307")
			continue
		}
		n += utf8.RuneLen(unicode.ToLower(r))
	}
	return n
}

// sanitize replaces every UTF-16 unit outside [A-Za-z0-9_-] with "_" (spec
// §2; observed on 2.1.328: "e_😀_x" → "e____x", "unicode_naïve_tool" →
// "unicode_na_ve_tool"); search.SanitizeName.
func sanitize(s string) string { return search.SanitizeName(s) }
