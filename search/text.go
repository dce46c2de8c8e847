package search

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/toolfind/toolfind/internal/ascii"
)

// IsWordByte is JavaScript's \w without the u flag: [A-Za-z0-9_]. Bytes of
// multi-byte UTF-8 sequences are never word bytes, just as non-ASCII UTF-16
// units are not \w in JavaScript, so boundaries fall in the same places.
func IsWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// BoundaryAt reports whether JavaScript's \b (ASCII word characters)
// matches at byte offset i of s.
func BoundaryAt(s string, i int) bool {
	before := i > 0 && IsWordByte(s[i-1])
	after := i < len(s) && IsWordByte(s[i])
	return before != after
}

// ContainsWord reports whether new RegExp("\\b" + escape(word) + "\\b")
// matches text: an occurrence of word (compared byte for byte; lowercase
// both sides first for a case-insensitive match) with a \b on both sides.
// A \b next to a non-word character of the word itself needs a word
// character on the other side, exactly as in JavaScript. No regexp is
// compiled.
func ContainsWord(text, word string) bool {
	if word == "" {
		for i := 0; i <= len(text); i++ {
			if BoundaryAt(text, i) {
				return true
			}
		}
		return false
	}
	for off := 0; off+len(word) <= len(text); {
		j := strings.Index(text[off:], word)
		if j < 0 {
			return false
		}
		start := off + j
		if BoundaryAt(text, start) && BoundaryAt(text, start+len(word)) {
			return true
		}
		off = start + 1
	}
	return false
}

// TruncateRunes cuts s to at most n Unicode code points and reports whether
// it cut anything.
func TruncateRunes(s string, n int) (string, bool) {
	if n < 0 {
		n = 0
	}
	if len(s) <= n { // fast path: byte length bounds rune count
		return s, false
	}
	i := 0
	for count := 0; i < len(s); count++ {
		if count == n {
			return s[:i], true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s, false
}

// UTF16Len is the length of s in UTF-16 code units: JavaScript's
// String.prototype.length.
func UTF16Len(s string) int {
	if ascii.Is(s) { // one unit a byte (SWAR test, 8 bytes at a time)
		return len(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 && r <= utf8.MaxRune {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// SliceUTF16 is JavaScript's s.slice(0, n) on UTF-16 code units, reporting
// whether it cut. When the cut falls inside a surrogate pair, the lone high
// surrogate that JavaScript keeps is written as U+FFFD, which is what Node
// sends when it encodes such a string as UTF-8.
func SliceUTF16(s string, n int) (string, bool) {
	if n < 0 {
		n = 0
	}
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			if units < n { // half a pair fits
				return s[:i] + "\uFFFD", true
			}
			return s[:i], true
		}
		units += w
	}
	return s, false
}

// TruncateBytes cuts s to at most n bytes at a character boundary (Rust's
// floor_char_boundary), reporting whether it cut.
func TruncateBytes(s string, n int) (string, bool) {
	if n < 0 {
		n = 0
	}
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// collators pools ICU-compatible collators: a collate.Collator is not safe
// for concurrent use.
var collators = sync.Pool{New: func() any { return collate.New(language.Und) }}

// LocaleCompare orders strings as JavaScript's a.localeCompare(b) does in
// Node (ICU root collation, non-ignorable punctuation): case-insensitive at
// the first level with lowercase before uppercase on a tie, and punctuation
// before digits before letters (`_` < `-` < `.`). It returns -1, 0 or 1.
func LocaleCompare(a, b string) int {
	c := collators.Get().(*collate.Collator)
	r := c.CompareString(a, b)
	collators.Put(c)
	return r
}

// SortLocale sorts names in place by LocaleCompare, stably. A long list is
// sorted on collation keys (LocaleKeys), each string's weights derived
// once instead of at every comparison.
func SortLocale(names []string) {
	if len(names) < 32 {
		c := collators.Get().(*collate.Collator)
		defer collators.Put(c)
		sort.SliceStable(names, func(i, j int) bool { return c.CompareString(names[i], names[j]) < 0 })
		return
	}
	keys := LocaleKeys(names)
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	sorted := make([]string, len(names))
	for i, j := range idx {
		sorted[i] = names[j]
	}
	copy(names, sorted)
}

// LocaleKeys precomputes collation keys so a large pool can be sorted
// without re-deriving weights on every comparison: bytes.Compare of two
// keys equals LocaleCompare of the strings.
func LocaleKeys(names []string) [][]byte {
	if nameKeys := asciiNameKeys(names); nameKeys != nil {
		return nameKeys
	}
	c := collators.Get().(*collate.Collator)
	defer collators.Put(c)
	var buf collate.Buffer
	keys := make([][]byte, len(names))
	for i, n := range names {
		keys[i] = append([]byte(nil), c.KeyFromString(&buf, n)...)
		buf.Reset()
	}
	return keys
}

// asciiPrimary is ICU root collation's primary order of the characters of
// MCP names and paths, [A-Za-z0-9_.-], each one collation element:
// "_" < "-" < "." < digits < letters, a letter's case ignored; 0 for any
// other byte. specs/opencode.md and specs/claude.md sort with
// localeCompare (LocaleCompare).
var asciiPrimary = func() (t [256]uint8) {
	t['_'], t['-'], t['.'] = 1, 2, 3
	for c := '0'; c <= '9'; c++ {
		t[c] = uint8(4 + c - '0')
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = uint8(14+c-'a'), uint8(14+c-'a')
	}
	return t
}()

// ASCIICollatable reports whether ASCIILocaleCompare applies to s: s is
// made of [A-Za-z0-9_.-].
func ASCIICollatable(s string) bool {
	for i := 0; i < len(s); i++ {
		if asciiPrimary[s[i]] == 0 {
			return false
		}
	}
	return true
}

// ASCIILocaleCompare is LocaleCompare for two ASCIICollatable strings,
// without the collator: the strings' primary weights decide (asciiPrimary),
// a shorter string first when it is a prefix of the other; on equal
// primaries the first difference in case decides, lowercase first.
// TestASCIILocaleCompare holds it to the collator.
func ASCIILocaleCompare(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if pa, pb := asciiPrimary[a[i]], asciiPrimary[b[i]]; pa != pb {
			return cmp.Compare(pa, pb)
		}
	}
	if len(a) != len(b) {
		return cmp.Compare(len(a), len(b))
	}
	for i := 0; i < n; i++ {
		if a[i] != b[i] { // the same letter in two cases
			if a[i] >= 'a' {
				return -1
			}
			return 1
		}
	}
	return 0
}

// asciiNameKeys computes LocaleKeys without the collator when every name
// is made of [A-Za-z0-9_-] (MCP names as Claude Code and OpenCode sanitise
// them), nil otherwise. The key is ASCIILocaleCompare's rule written out:
// the primary weights (asciiPrimary), a 0 (so a prefix sorts first), then
// the tertiary weights, lowercase 1 < uppercase 2. Keys of the two kinds
// must not be compared, hence all or none. FuzzLocaleKeys and
// TestASCIINameKeys check it against the collator.
func asciiNameKeys(names []string) [][]byte {
	size := 0
	for _, n := range names {
		for i := 0; i < len(n); i++ {
			if !isNameByte(n[i]) {
				return nil
			}
		}
		size += 2*len(n) + 1
	}
	buf := make([]byte, 0, size)
	keys := make([][]byte, len(names))
	for i, n := range names {
		start := len(buf)
		for j := 0; j < len(n); j++ {
			buf = append(buf, asciiPrimary[n[j]])
		}
		buf = append(buf, 0)
		for j := 0; j < len(n); j++ {
			if c := n[j]; c >= 'A' && c <= 'Z' {
				buf = append(buf, 2)
			} else {
				buf = append(buf, 1)
			}
		}
		keys[i] = buf[start:len(buf):len(buf)]
	}
	return keys
}

// CeilDiv is ceil(n/d) for non-negative n and positive d.
func CeilDiv(n, d int) int { return (n + d - 1) / d }

// JSLower is JavaScript's String.prototype.toLowerCase: Unicode's default
// lowercase mapping. It agrees with strings.ToLower except for U+0130 (İ),
// which JavaScript maps to "i̇" (i + U+0307, SpecialCasing) and Go to "i".
// The context-dependent final sigma is not reproduced: it never yields an
// ASCII letter or digit, the only characters the clients compare.
func JSLower(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			if strings.ContainsRune(s, 'İ') {
				s = strings.ReplaceAll(s, "İ", "i\u0307")
			}
			return strings.ToLower(s)
		}
	}
	return strings.ToLower(s)
}

// isNameByte is the character class both Claude Code (claude spec §2) and
// OpenCode (opencode spec §C.1) keep in MCP names: [A-Za-z0-9_-].
func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// SanitizeName replaces every UTF-16 code unit outside [A-Za-z0-9_-] with
// "_", as Claude Code and OpenCode do with JavaScript's
// s.replace(/[^a-zA-Z0-9_-]/g, "_"): a character outside the Basic
// Multilingual Plane is two code units and becomes "__"
// ("unicode_naïve_tool" → "unicode_na_ve_tool", "e_😀_x" → "e____x").
func SanitizeName(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && isNameByte(byte(r)):
			b.WriteByte(byte(r))
		case r >= 0x10000:
			b.WriteString("__")
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// IsJSSpace reports whether r is in JavaScript's \s, which is also what
// String.prototype.trim removes: WhiteSpace plus LineTerminator. Unlike
// Go's unicode.IsSpace it includes U+FEFF and excludes U+0085.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// JSTrim is String.prototype.trim.
func JSTrim(s string) string { return strings.TrimFunc(s, IsJSSpace) }
