package grok

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Grok Build reads a server's tools/list answer with serde_json (grok.md
// B.3: the client's JSON is serde_json's). serde_json refuses some JSON
// that encoding/json, and so toolfind's catalog loader, accepts
// (serde_json src/read.rs and de.rs, without arbitrary_precision):
//
//   - a number whose value is outside the f64 range (1e999, -1e999, an
//     integer of 400 digits): "number out of range"; underflow (1e-999)
//     is 0 and accepted;
//   - a \u escape of a trailing surrogate (\udc00) or of a leading one
//     followed by an escape of anything but a trailing surrogate: "lone
//     leading surrogate in hex escape" (encoding/json makes it U+FFFD);
//   - a leading surrogate escape not followed by another \u escape:
//     "unexpected end of hex escape";
//   - a byte that is not UTF-8 inside a string: "invalid unicode code
//     point" (encoding/json makes it U+FFFD).
//
// serdeRefusal reports the first of these in raw, a well-formed JSON
// value: its path from the value's root ("inputSchema.properties.n.maximum",
// "enum[2]") and serde_json's error with the text refused. ok is false
// when serde_json reads raw.
func serdeRefusal(raw []byte) (path, why string, ok bool) {
	w := serdeWalker{raw: raw}
	w.value()
	if w.why == "" {
		return "", "", false
	}
	return strings.Join(w.refused, ""), w.why, true
}

type serdeWalker struct {
	raw     []byte
	i       int
	path    []string // the current path's segments: ".key" or "[n]"
	refused []string // the path of the refusal
	why     string
}

func (w *serdeWalker) space() {
	for w.i < len(w.raw) {
		switch w.raw[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *serdeWalker) refuse(why string) {
	if w.why == "" {
		w.why = why
		w.refused = append([]string(nil), w.path...)
		if len(w.refused) > 0 {
			w.refused[0] = strings.TrimPrefix(w.refused[0], ".")
		}
	}
}

// value walks one value; it stops at the first refusal.
func (w *serdeWalker) value() {
	w.space()
	if w.i >= len(w.raw) || w.why != "" {
		return
	}
	switch c := w.raw[w.i]; {
	case c == '{':
		w.i++
		for w.why == "" {
			w.space()
			if w.i >= len(w.raw) || w.raw[w.i] == '}' {
				w.i++
				return
			}
			if w.raw[w.i] == ',' {
				w.i++
				continue
			}
			key := w.str()
			w.space()
			w.i++ // ':'
			w.path = append(w.path, "."+key)
			w.value()
			w.path = w.path[:len(w.path)-1]
		}
	case c == '[':
		w.i++
		for n := 0; w.why == ""; {
			w.space()
			if w.i >= len(w.raw) || w.raw[w.i] == ']' {
				w.i++
				return
			}
			if w.raw[w.i] == ',' {
				w.i++
				n++
				continue
			}
			w.path = append(w.path, "["+strconv.Itoa(n)+"]")
			w.value()
			w.path = w.path[:len(w.path)-1]
		}
	case c == '"':
		w.str()
	case c == '-' || c >= '0' && c <= '9':
		start := w.i
		for w.i < len(w.raw) && strings.IndexByte("+-.eE0123456789", w.raw[w.i]) >= 0 {
			w.i++
		}
		if lit := string(w.raw[start:w.i]); numberOutOfRange(lit) {
			w.refuse("number out of range: " + lit)
		}
	default: // true, false, null
		for w.i < len(w.raw) && w.raw[w.i] >= 'a' && w.raw[w.i] <= 'z' {
			w.i++
		}
	}
}

// numberOutOfRange reports whether serde_json refuses the literal: an
// integer that fits u64 or i64 is kept as one; any other literal is read
// as f64 and refused when that overflows (de.rs f64_from_parts).
func numberOutOfRange(lit string) bool {
	f, err := strconv.ParseFloat(lit, 64)
	return err != nil && math.IsInf(f, 0)
}

// str walks a string from its opening quote and returns its text (escapes
// undone as far as the path needs; a refused one is left as written).
func (w *serdeWalker) str() string {
	w.i++ // '"'
	var b strings.Builder
	for w.i < len(w.raw) {
		c := w.raw[w.i]
		switch {
		case c == '"':
			w.i++
			return b.String()
		case c == '\\':
			w.escape(&b)
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			w.i++
		default:
			r, n := utf8.DecodeRune(w.raw[w.i:])
			if r == utf8.RuneError && n == 1 {
				w.refuse(fmt.Sprintf(`invalid unicode code point: byte \x%02x`, c))
			}
			b.WriteRune(r)
			w.i += n
		}
	}
	return b.String()
}

// escape walks one escape from its backslash (read.rs parse_escape with
// validate, as for a String).
func (w *serdeWalker) escape(b *strings.Builder) {
	start := w.i
	if w.i+1 >= len(w.raw) || w.raw[w.i+1] != 'u' {
		if w.i+1 < len(w.raw) {
			b.WriteString(unescapeShort(w.raw[w.i+1]))
		}
		w.i += 2
		return
	}
	n1, ok := w.hex(w.i + 2)
	w.i += 6
	switch {
	case !ok:
	case n1 >= 0xDC00 && n1 <= 0xDFFF:
		w.refuse("lone leading surrogate in hex escape: " + string(w.raw[start:w.i]))
	case n1 >= 0xD800 && n1 <= 0xDBFF:
		if w.i+1 >= len(w.raw) || w.raw[w.i] != '\\' || w.raw[w.i+1] != 'u' {
			w.refuse("unexpected end of hex escape: " + string(w.raw[start:w.i]))
			return
		}
		n2, ok := w.hex(w.i + 2)
		w.i += 6
		if !ok || n2 < 0xDC00 || n2 > 0xDFFF {
			w.refuse("lone leading surrogate in hex escape: " + string(w.raw[start:w.i]))
			return
		}
		b.WriteRune(rune((n1-0xD800)<<10|(n2-0xDC00)) + 0x10000)
	default:
		b.WriteRune(rune(n1))
	}
}

func (w *serdeWalker) hex(at int) (uint32, bool) {
	if at+4 > len(w.raw) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(w.raw[at:at+4]), 16, 16)
	return uint32(n), err == nil
}

func unescapeShort(c byte) string {
	switch c {
	case 'b':
		return "\b"
	case 'f':
		return "\f"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	}
	return string(c)
}
