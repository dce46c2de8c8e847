package claude

import (
	"strings"

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

// sanitize replaces every UTF-16 unit outside [A-Za-z0-9_-] with "_" (spec
// §2; observed on 2.1.328: "e_😀_x" → "e____x", "unicode_naïve_tool" →
// "unicode_na_ve_tool"); search.SanitizeName.
func sanitize(s string) string { return search.SanitizeName(s) }
