package opencode

import (
	"strings"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// jsonString is JSON.stringify of a string.
func jsonString(s string) string { return ojson.JSString(s) }

func utf16Len(s string) int { return search.UTF16Len(s) }

// trimRightJS is s.replace(/\s+$/, "").
func trimRightJS(s string) string { return strings.TrimRightFunc(s, search.IsJSSpace) }

// jsLower is String.prototype.toLowerCase as far as it matters here: the
// Unicode default lowercase mapping, where U+0130 (İ) becomes "i̇" (two
// code points) as in JavaScript, not "i" as in Go. Other characters whose
// full lowercase differs from the simple one do not produce ASCII letters
// or digits, the only thing search() compares.
func jsLower(s string) string { return search.JSLower(s) }

// sliceUTF16 is s.slice(0, n) on UTF-16 units. A cut inside a surrogate
// pair keeps the lone high surrogate in JavaScript; it is written here as
// U+FFFD (what a UTF-8 encoder emits for it), one unit long as well.
func sliceUTF16(s string, n int) string {
	out, _ := search.SliceUTF16(s, n)
	return out
}

// roundQuarter is Math.max(0, Math.round(n / 4)) for n >= 0: OpenCode's
// token estimate (§C.2 step 3; Token.estimate).
func roundQuarter(n int) int { return (n + 2) / 4 }

// Tokens is OpenCode's token estimate of a text: round(UTF-16 length / 4)
// (§C.2 step 3, the catalog cost; OpenCode's Token.estimate).
func Tokens(s string) int { return roundQuarter(utf16Len(s)) }
