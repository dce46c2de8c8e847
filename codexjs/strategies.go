package codexjs

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/search/bm25"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// Strategy is one way the model searches ALL_TOOLS: a JavaScript program
// (run in goja) and, for the built-ins, a native Go path proven to print
// the same text items (TestNativeMatchesGoja).
type Strategy struct {
	Name   string
	Source string
	native func(c *compiled, terms []string) [][]string
}

// The built-in strategies are the filters models write (seed "How to
// optimise your MCP tools…": a broad dump first, then narrower filters).
// TERMS are the query's words (see Terms).
var builtinStrategies = []Strategy{
	{
		Name:   "all-terms",
		Source: "const hits = ALL_TOOLS.filter(t => {\n  const s = (t.name + \"\\n\" + t.description).toLowerCase();\n  return TERMS.every(w => s.includes(w));\n});\ntext(JSON.stringify(hits));",
		native: func(c *compiled, terms []string) [][]string { return c.filterJSON(terms, true) },
	},
	{
		Name:   "any-term",
		Source: "const hits = ALL_TOOLS.filter(t => {\n  const s = (t.name + \"\\n\" + t.description).toLowerCase();\n  return TERMS.some(w => s.includes(w));\n});\ntext(JSON.stringify(hits));",
		native: func(c *compiled, terms []string) [][]string { return c.filterJSON(terms, false) },
	},
	{
		Name:   "name",
		Source: "text(ALL_TOOLS.filter(t => TERMS.every(w => t.name.toLowerCase().includes(w))).map(t => t.name).join(\"\\n\"));",
		native: func(c *compiled, terms []string) [][]string { return c.filterNames(terms) },
	},
	{
		Name:   "dump",
		Source: "text(JSON.stringify(ALL_TOOLS));",
		native: func(c *compiled, _ []string) [][]string { return [][]string{c.dump} },
	},
}

// BuiltinStrategies returns the built-in strategies in their default order
// (the first is the primary one).
func BuiltinStrategies() []Strategy { return append([]Strategy(nil), builtinStrategies...) }

// Terms are the words a built-in filter looks for: the query lowercased as
// JavaScript's toLowerCase does, split at every character that is not a
// letter, digit or _, duplicates and NLTK English stop words dropped
// (unless every word is one).
func Terms(query string) []string {
	words := strings.FieldsFunc(jsLower(query), func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	seen := map[string]bool{}
	var all, kept []string
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		all = append(all, w)
		if !bm25.IsStopWord(w) {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return all
	}
	return kept
}

var lowerCaser = cases.Lower(language.Und)

// jsLower is String.prototype.toLowerCase as goja implements it: ASCII
// bytes directly, anything else through x/text/cases (full Unicode
// mappings, final sigma), which is also V8's behaviour for these
// mappings.
func jsLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	r := []rune(lowerCaser.String(s))
	// goja's workaround for U+0345 before a final sigma.
	for i := 0; i < len(r)-1; i++ {
		if (i == 0 || r[i-1] != 0x3b1) && r[i] == 0x345 && r[i+1] == 0x3c2 {
			i++
			r[i] = 0x3c3
		}
	}
	return string(r)
}

// lowered returns lowerEntry of entry i, in buf when it is ASCII.
func (c *compiled) lowered(i int, buf []byte) (string, []byte) {
	if s := c.lower[i]; s != "" {
		return s, buf
	}
	e := &c.entries[i]
	buf = ascii.AppendLower(buf[:0], e.Name)
	buf = append(buf, '\n')
	buf = ascii.AppendLower(buf, e.Description)
	return bytesString(buf), buf
}

// filterJSON prints JSON.stringify of the matching entries as pieces:
// "[", the entries' JSON separated by ",", "]". The entries are matched on
// every core.
func (c *compiled) filterJSON(terms []string, all bool) [][]string {
	match := make([]bool, len(c.entries))
	parallelChunks(len(c.entries), func() func(from, to int) {
		var buf []byte
		return func(from, to int) {
			for i := from; i < to; i++ {
				var s string
				s, buf = c.lowered(i, buf) // valid until the next call
				ok := all
				for _, w := range terms {
					has := strings.Contains(s, w)
					if all && !has {
						ok = false
						break
					}
					if !all && has {
						ok = true
						break
					}
				}
				match[i] = ok
			}
		}
	})
	parts := []string{"["}
	n := 0
	for i, ok := range match {
		if !ok {
			continue
		}
		if n > 0 {
			parts = append(parts, ",")
		}
		parts = append(parts, c.json[i])
		n++
	}
	return [][]string{append(parts, "]")}
}

// filterNames prints the matching names, one per line.
func (c *compiled) filterNames(terms []string) [][]string {
	var buf []byte
	return c.namesWhere(func(i int) bool {
		name := c.entries[i].Name
		var s string
		if ascii.Is(name) {
			buf = ascii.AppendLower(buf[:0], name)
			s = bytesString(buf)
		} else {
			s = jsLower(name)
		}
		for _, w := range terms {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// namesWhere prints the names of the entries that match, one per line, in
// ALL_TOOLS order, as text(list.map(t => t.name).join("\n")) does; no
// match prints nothing (text("") adds no item).
func (c *compiled) namesWhere(match func(i int) bool) [][]string {
	var parts []string
	for i, e := range c.entries {
		if !match(i) {
			continue
		}
		if len(parts) > 0 {
			parts = append(parts, "\n")
		}
		parts = append(parts, e.Name)
	}
	if len(parts) == 0 {
		return nil
	}
	return [][]string{parts}
}
