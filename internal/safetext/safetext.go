// Package safetext is toolfind's one escaping rule for text output: nothing
// a catalog, a live server, a query file or a script contains can reach a
// terminal, a Markdown table or an HTML page as a control character.
//
// The rule. A rune is unsafe, and is written as an escape instead of itself,
// when it is
//
//   - a C0 control (U+0000–U+001F), DEL (U+007F) or a C1 control
//     (U+0080–U+009F): ESC starts terminal sequences that retitle the
//     window, clear the screen or move the cursor; CR and BS overwrite what
//     was printed; NUL truncates in some viewers;
//   - a format character (Unicode category Cf): the bidi embeddings,
//     overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks
//     U+200E/U+200F/U+061C, zero-width space/joiners (U+200B–U+200D), word
//     joiner and invisible operators (U+2060–U+2064), the byte-order mark
//     U+FEFF, the soft hyphen U+00AD, the tag characters U+E0001–U+E007F…:
//     they reorder or hide what the reader sees;
//   - a line or paragraph separator (U+2028, U+2029): some renderers break
//     the line there;
//   - any other default-ignorable code point (Unicode's
//     Other_Default_Ignorable_Code_Point and Variation_Selector, e.g. the
//     Hangul fillers U+3164, the combining grapheme joiner U+034F and the
//     variation selectors U+FE00–U+FE0F, U+E0100–U+E01EF): they render as
//     nothing and can carry hidden text.
//
// A byte that is not part of valid UTF-8 is unsafe too.
//
// Escapes. Newline, carriage return and tab are written `\n`, `\r`, `\t`;
// an invalid byte and any other unsafe rune below U+0080 are written `\xHH`
// (ESC is `\x1b`, NUL `\x00`, an invalid byte 0xff `\xff`); an unsafe
// rune up to U+FFFF is `\uHHHH` (`\u202e`, `\u0085`); above that `\UHHHHHHHH`
// (`\U000e0041`). Hex digits are lower case. Everything else — printable
// ASCII, letters and symbols of every script, emoji, spaces, backslash — is
// written unchanged, so the output of [Escape] is valid UTF-8 with no unsafe
// rune, and Escape(Escape(s)) == Escape(s). The escaped form is for a human
// reader; it is not reversible (a literal backslash is not doubled).
//
// Line breaks. [Escape] is for single-line fields — table cells, names,
// tool and query strings, one-line messages — and escapes "\n" and "\t" like
// every other control. [Block] is for a multi-line block whose layout needs
// line breaks and indentation (the text a model reads in `show` and
// `rank --shown`, a description printed as a paragraph): it keeps "\n" and
// "\t" and escapes everything else, "\r" included. [Writer] applies Block
// to a stream. [HTML] is Escape followed by HTML escaping for HTML reports.
//
// JSON and SARIF output do not use this package: they must stay exact, and
// JSON already escapes every control.
package safetext

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Escape returns s with every unsafe rune and invalid byte escaped, "\n" and
// "\t" included; see the package doc for the rule.
func Escape(s string) string { return escape(s, false) }

// Block returns s with every unsafe rune and invalid byte escaped except
// "\n" and "\t", for multi-line blocks.
func Block(s string) string { return escape(s, true) }

// HTML returns Escape(s) with &, <, >, " and ' HTML-escaped, for text and
// attribute values in HTML reports.
func HTML(s string) string { return html.EscapeString(Escape(s)) }

// Unsafe reports whether r is written escaped (see the package doc). "\n"
// and "\t" are unsafe; [Block] keeps them anyway.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x7f:
		return false
	case r <= 0x9f: // C1 controls
		return true
	case r < 0xad:
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// IsSafe reports whether Escape(s) == s: s is valid UTF-8 with no unsafe
// rune (no "\n" or "\t" either).
func IsSafe(s string) bool { return safePrefix(s, false) == len(s) }

// safePrefix returns the length of the longest prefix of s that needs no
// escaping.
func safePrefix(s string, keepLayout bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || keepLayout && (c == '\n' || c == '\t') {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Unsafe(r) {
			return i
		}
		i += size
	}
	return len(s)
}

func escape(s string, keepLayout bool) string {
	i := safePrefix(s, keepLayout)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || keepLayout && (c == '\n' || c == '\t') {
				b.WriteByte(c)
			} else {
				writeRuneEscape(&b, rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeByteEscape(&b, c)
		case Unsafe(r):
			writeRuneEscape(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func writeByteEscape(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

func writeRuneEscape(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
		return
	case '\r':
		b.WriteString(`\r`)
		return
	case '\t':
		b.WriteString(`\t`)
		return
	}
	if r < 0x80 {
		writeByteEscape(b, byte(r))
		return
	}
	digits := 4
	if r > 0xffff {
		b.WriteString(`\U`)
		digits = 8
	} else {
		b.WriteString(`\u`)
	}
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}
