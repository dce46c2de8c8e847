package copilot

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
)

// MaxName is the length the CLI cuts a tool name to (copilot.md §1.2).
const MaxName = 64

// SanitizePart is how the CLI writes a server or tool name inside a tool
// name (copilot.md §1.2, observed): a name with a non-ASCII character is
// first split into labels at "." and each label holding one is replaced by
// "xn--" + its punycode, case kept ("Tést" → "xn--Tst-bma", "é.b" →
// "xn--9ca.b", "mixé/x" → "xn--mix/x-dsa"); then every byte outside
// [A-Za-z0-9_-] becomes "-", one for one ("a..b" → "a--b").
func SanitizePart(s string) string {
	if !isASCII(s) {
		labels := strings.Split(s, ".")
		for i, l := range labels {
			if !isASCII(l) {
				labels[i] = "xn--" + punycode(l)
			}
		}
		s = strings.Join(labels, ".")
	}
	return mapBytes(s)
}

// NamespaceName is the name of a server's namespace on the Responses wire
// (copilot.md §1.1, observed): the raw server name with every character
// outside [A-Za-z0-9_-] replaced by "-", one per character, no punycode
// and no cut ("ümlaut-srv" → "-mlaut-srv").
func NamespaceName(server string) string {
	var b strings.Builder
	for _, r := range server {
		if r < utf8.RuneSelf && nameByte(byte(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

func mapBytes(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !nameByte(c) {
			b[i] = '-'
		}
	}
	return string(b)
}

func nameByte(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FullName is "<server>-<tool>" before the 64-character cut.
func FullName(server, tool string) string { return SanitizePart(server) + "-" + SanitizePart(tool) }

// named is one MCP tool with the name the CLI gives it, or the reason it
// has none.
type named struct {
	tool *corpus.Tool
	full string // FullName, before the cut
	name string // the final name; "" when dropped
	// lost is set on a tool that another tool's name replaced (a
	// sanitising collision): the survivor.
	lost *corpus.Tool
	// suffix is the collision counter the name got after the cut (0: none).
	suffix int
}

// assignNames gives every tool its final name (copilot.md §1.2, observed
// in runs NAMES and toolfind's own):
//
//  1. Tools whose FullName is equal (a sanitising collision: "a.b", "a-b",
//     "a/b" and "a b" in one server, or servers "srv.dup" and "srv-dup")
//     keep one survivor, the one whose raw (server, tool) sorts last in
//     byte order; the others are not sent at all.
//  2. Names over 64 characters are cut to 64. When cut names collide, the
//     first in raw (server, tool) order keeps the plain cut and each later
//     one is cut shorter and given a counter: 63 characters + "2", + "3",
//     … (two digits take 62 characters).
//
// The result is in the input order.
func assignNames(tools []*corpus.Tool) []named {
	out := make([]named, len(tools))
	order := make([]int, len(tools))
	for i, t := range tools {
		out[i] = named{tool: t, full: FullName(t.Server, t.Name)}
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := tools[order[a]], tools[order[b]]
		if ta.Server != tb.Server {
			return ta.Server < tb.Server
		}
		return ta.Name < tb.Name
	})
	// 1. the last in raw order wins each full name
	winner := map[string]int{}
	for _, i := range order {
		winner[out[i].full] = i
	}
	// 2. cut and count, in raw order
	used := map[string]int{} // cut name → how many took it
	for _, i := range order {
		w := winner[out[i].full]
		if w != i {
			out[i].lost = tools[w]
			continue
		}
		name := out[i].full
		if len(name) <= MaxName {
			out[i].name = name
			used[name]++
			continue
		}
		cut := name[:MaxName]
		used[cut]++
		if n := used[cut]; n == 1 {
			out[i].name = cut
		} else {
			c := strconv.Itoa(n)
			out[i].name = cut[:MaxName-len(c)] + c
			out[i].suffix = n
		}
	}
	return out
}
