package intent

import (
	"strings"

	"github.com/toolfind/toolfind/ojson"
)

// Declaration is how directly a tool's input schema declares an
// identifier.
type Declaration struct {
	// Key is true when the identifier is a property name (an argument or
	// an operator the tool takes), false when it is a "const" or "enum"
	// string or a '$'-word of a description (a value of an argument).
	Key bool
	// Level is the property nesting level: 1 for a top-level argument
	// (or a value of one), 2 for a property inside a top-level argument's
	// value or items, and so on. Combinators (anyOf, oneOf, allOf, items)
	// add no level.
	Level int
}

// better reports whether d declares more directly than o: a key before a
// value, then the shallower level.
func (d Declaration) better(o Declaration) bool {
	if d.Key != o.Key {
		return d.Key
	}
	return d.Level < o.Level
}

// MaxIdentifiers bounds the identifiers taken from one schema; maxIdentDepth
// bounds the JSON nesting walked.
const (
	MaxIdentifiers = 2000
	maxIdentDepth  = 64
)

// isIdentifier reports whether a raw token is written as an API identifier
// rather than as a word: a leading '$' ("$match"), a camelCase boundary
// ("vectorSearch"), or an '_' between letters or digits ("US_EAST_1").
// "MongoDB" is camelCase too; it only matters if some schema declares it.
func isIdentifier(tok string) bool {
	if len(tok) < 3 {
		return false
	}
	if tok[0] == '$' {
		return isAlpha(tok[1])
	}
	for i := 1; i < len(tok); i++ {
		c, p := tok[i], tok[i-1]
		if c >= 'A' && c <= 'Z' && p >= 'a' && p <= 'z' {
			return true
		}
		if c == '_' && i+1 < len(tok) && isAlnum(p) && isAlnum(tok[i+1]) {
			return true
		}
	}
	return false
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }

// normIdent is an identifier's matching form: lowercased, a leading '$'
// kept ("$vectorSearch" → "$vectorsearch"). A schema's '$'-identifier is
// declared in both forms (bare: "vectorsearch"), so a prompt's
// "vectorSearch" finds the operator, while a prompt's "$documents" does
// not find a plain "documents" argument.
func normIdent(s string) string { return strings.ToLower(s) }

// identTokens calls f with each token of text made of ASCII letters,
// digits and '_', with a leading '$' kept ("{$match:" gives "$match").
func identTokens(text string, f func(tok string)) {
	start := -1
	for i := 0; i <= len(text); i++ {
		var c byte
		if i < len(text) {
			c = text[i]
		}
		if i < len(text) && (isAlnum(c) || c == '_') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f(text[start:i])
		}
		start = -1
		if c == '$' {
			start = i
		}
	}
}

// PromptIdentifiers are the tokens of a prompt written as identifiers
// (isIdentifier), normalised (normIdent), distinct, in order: "Run a
// $search query on path 'plot_embeddings'" gives "$search",
// "plot_embeddings".
func PromptIdentifiers(prompt string) []string {
	var out []string
	seen := map[string]bool{}
	identTokens(prompt, func(tok string) {
		if !isIdentifier(tok) {
			return
		}
		if id := normIdent(tok); !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	})
	return out
}

// SchemaIdentifiers are the identifiers a tool's input schema declares,
// each with its most direct Declaration: every property name at any depth
// (through properties, items, additionalProperties, anyOf, oneOf, allOf),
// every string of a "const" or "enum", and every '$'-word of its other
// strings ("`$documents`" in a description). Normalised (normIdent); a
// '$'-identifier is declared with and without its '$'. At most
// MaxIdentifiers, JSON nested at most 64 deep.
//
// Example: {"properties": {"pipeline": {"items": {"anyOf": [{"properties":
// {"$match": {}}}]}}}} declares pipeline {Key, 1}, and $match and match
// {Key, 2}.
func SchemaIdentifiers(schema ojson.Value) map[string]Declaration {
	out := map[string]Declaration{}
	var add func(s string, d Declaration)
	add = func(s string, d Declaration) {
		id := normIdent(s)
		if len(strings.TrimPrefix(id, "$")) < 2 {
			return
		}
		if id[0] == '$' {
			add(id[1:], d)
		}
		if old, ok := out[id]; ok {
			if d.better(old) {
				out[id] = d
			}
			return
		}
		if len(out) < MaxIdentifiers {
			out[id] = d
		}
	}
	var walk func(v ojson.Value, depth, level int, key string)
	walk = func(v ojson.Value, depth, level int, key string) {
		if depth > maxIdentDepth {
			return
		}
		lv := max(level, 1)
		switch v.Kind {
		case ojson.Object:
			for _, m := range v.Members() {
				if key == "properties" {
					add(m.Key, Declaration{Key: true, Level: level + 1})
					walk(m.Value, depth+1, level+1, "")
					continue
				}
				walk(m.Value, depth+1, level, m.Key)
			}
		case ojson.Array:
			for _, e := range v.Array() {
				walk(e, depth+1, level, key)
			}
		case ojson.String:
			if key == "const" || key == "enum" {
				add(v.Str(), Declaration{Level: lv})
				return
			}
			identTokens(v.Str(), func(tok string) {
				if tok[0] == '$' && len(tok) > 1 && isAlpha(tok[1]) {
					add(tok, Declaration{Level: lv})
				}
			})
		}
	}
	walk(schema, 0, 0, "")
	return out
}

// Declared are the prompt's identifiers (PromptIdentifiers) that some
// tool of the index declares, in prompt order.
func (ix *Index) Declared(prompt string) []string {
	var out []string
	for _, id := range PromptIdentifiers(prompt) {
		if len(ix.declarers[id]) > 0 {
			out = append(out, id)
		}
	}
	return out
}

// Declares reports whether tool doc declares any of the identifiers.
func (ix *Index) Declares(doc int, ids []string) bool {
	for _, id := range ids {
		if _, ok := ix.ident[doc][id]; ok {
			return true
		}
	}
	return false
}

// BestDeclarer is the tool a model that knows the API would reach for to
// use the identifiers: of ids (Declared), the one the fewest tools declare
// (the most telling; ties in ids' order); of its declarers, the one that
// declares it most directly (a property name before a value, then the
// shallower level), ties broken by the prompt's ranking (ranked: Rank's
// answer; tools not in it after those that are) and then index order. It
// returns -1 when no tool declares any of ids.
//
// Example (the MongoDB MCP server): "vectorSearch" is a key of
// aggregate's pipeline stages (level 2), of explain's and export's (level
// 4, inside method/exportTarget → arguments → pipeline) and a "const" value
// of create-index's index definition (level 2): aggregate.
func (ix *Index) BestDeclarer(ids []string, ranked []Scored) int {
	best := ""
	for _, id := range ids {
		if n := len(ix.declarers[id]); n > 0 && (best == "" || n < len(ix.declarers[best])) {
			best = id
		}
	}
	if best == "" {
		return -1
	}
	pos := make(map[int]int, len(ranked))
	for i, r := range ranked {
		pos[r.Doc] = i
	}
	place := func(doc int) int {
		if p, ok := pos[doc]; ok {
			return p
		}
		return len(ranked) + doc
	}
	out := -1
	for _, doc := range ix.declarers[best] {
		if out < 0 {
			out = doc
			continue
		}
		d, o := ix.ident[doc][best], ix.ident[out][best]
		if d.better(o) || (!o.better(d) && place(doc) < place(out)) {
			out = doc
		}
	}
	return out
}
