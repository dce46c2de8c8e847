package geminicli

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/ojson"
)

// ArgsFor makes the arguments the emulated model calls a tool with: an
// object holding a value for every required property and nothing else, so
// that the client's own argument check (Ajv, gemini.md §3) lets the call
// through to the server. A value is the schema's const, its first enum
// entry, its default or its first example; else one of its type (the
// first non-null one): "x" repeated to minLength (or a value of its
// format: email, uri, date, date-time, uuid, ipv4), the smallest number
// allowed, false, null, minItems copies of an item, an object of its own
// required properties; a string that misses its pattern is replaced by
// the first of a few plain candidates (digits, letters, an email, a URL, a
// date, a UUID) that matches. anyOf and oneOf take their first
// alternative, local $refs are followed (8 levels at most). When the
// client still refuses the arguments, verify says so.
func ArgsFor(schema ojson.Value) string {
	g := argGen{root: schema.Dedup()}
	return g.object(g.root, 0).JS("")
}

type argGen struct{ root ojson.Value }

const maxArgDepth = 8

func (g argGen) object(s ojson.Value, depth int) ojson.Value {
	props, _ := s.Get("properties")
	req, _ := s.Get("required")
	var ms []ojson.Member
	seen := map[string]bool{}
	for _, r := range req.Array() {
		if r.Kind != ojson.String || seen[r.Str()] {
			continue
		}
		seen[r.Str()] = true
		p, _ := props.Get(r.Str())
		ms = append(ms, ojson.Member{Key: r.Str(), Value: g.value(p, depth+1)})
	}
	return ojson.ObjectOf(ms...)
}

func (g argGen) value(s ojson.Value, depth int) ojson.Value {
	if depth > maxArgDepth || s.Kind != ojson.Object {
		return ojson.StringOf("x")
	}
	if ref, ok := s.Get("$ref"); ok && ref.Kind == ojson.String {
		return g.value(g.resolve(ref.Str()), depth+1)
	}
	if c, ok := s.Get("const"); ok {
		return c
	}
	if e, ok := s.Get("enum"); ok && e.Kind == ojson.Array && e.Len() > 0 {
		return e.Array()[0]
	}
	if d, ok := s.Get("default"); ok {
		return d
	}
	if ex, ok := s.Get("examples"); ok && ex.Kind == ojson.Array && ex.Len() > 0 {
		return ex.Array()[0]
	}
	for _, k := range [...]string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s.Get(k); ok && alts.Kind == ojson.Array && alts.Len() > 0 {
			return g.value(alts.Array()[0], depth+1)
		}
	}
	switch typeOf(s) {
	case "string":
		return ojson.StringOf(g.str(s))
	case "integer", "number":
		return ojson.NumberOf(strconv.FormatInt(g.number(s), 10))
	case "boolean":
		return ojson.Value{Kind: ojson.Bool}
	case "null":
		return ojson.Value{Kind: ojson.Null}
	case "array":
		n := 0
		if m, ok := s.Get("minItems"); ok {
			if f, ok := m.Float(); ok && f > 0 && f < 64 {
				n = int(f)
			}
		}
		items, _ := s.Get("items")
		out := make([]ojson.Value, n)
		for i := range out {
			out[i] = g.value(items, depth+1)
		}
		return ojson.ArrayOf(out...)
	case "object":
		return g.object(s, depth)
	}
	return ojson.StringOf("x")
}

// typeOf is the schema's type, the first non-null one of a list.
func typeOf(s ojson.Value) string {
	t, _ := s.Get("type")
	switch t.Kind {
	case ojson.String:
		return t.Str()
	case ojson.Array:
		for _, e := range t.Array() {
			if e.Kind == ojson.String && e.Str() != "null" {
				return e.Str()
			}
		}
		if t.Len() > 0 {
			return "null"
		}
	}
	if _, ok := s.Get("properties"); ok {
		return "object"
	}
	return ""
}

func (g argGen) str(s ojson.Value) string {
	v := g.plainStr(s)
	p, ok := s.Get("pattern")
	if !ok || p.Kind != ojson.String {
		return v
	}
	re, err := regexp.Compile(p.Str())
	if err != nil || re.MatchString(v) {
		return v
	}
	n := len(v)
	for _, c := range []string{strings.Repeat("0", n), strings.Repeat("a", n), strings.Repeat("A", n), "a@example.com",
		"https://example.com/", "2026-01-01", "00000000-0000-4000-8000-000000000000", "a-b", "a_b", "0.0.0"} {
		if re.MatchString(c) {
			return c
		}
	}
	return v
}

func (g argGen) plainStr(s ojson.Value) string {
	if f, ok := s.Get("format"); ok {
		switch f.Str() {
		case "email":
			return "a@example.com"
		case "uri", "url", "iri":
			return "https://example.com/"
		case "date":
			return "2026-01-01"
		case "date-time":
			return "2026-01-01T00:00:00Z"
		case "uuid":
			return "00000000-0000-4000-8000-000000000000"
		case "ipv4":
			return "127.0.0.1"
		}
	}
	n := 1
	if m, ok := s.Get("minLength"); ok {
		if f, ok := m.Float(); ok && f > 1 && f < 4096 {
			n = int(f)
		}
	}
	return strings.Repeat("x", n)
}

func (g argGen) number(s ojson.Value) int64 {
	n := int64(1)
	if m, ok := s.Get("minimum"); ok {
		if f, ok := m.Float(); ok && f > -1e15 && f < 1e15 {
			n = ceil(f)
		}
	} else if m, ok := s.Get("exclusiveMinimum"); ok {
		if f, ok := m.Float(); ok && f > -1e15 && f < 1e15 {
			n = ceil(f) + 1
		}
	}
	if m, ok := s.Get("maximum"); ok {
		if f, ok := m.Float(); ok && f < float64(n) && f > -1e15 {
			n = int64(f)
		}
	}
	return n
}

func ceil(f float64) int64 {
	n := int64(f)
	if float64(n) < f {
		n++
	}
	return n
}

// resolve follows a local $ref ("#/$defs/X", "#/definitions/X", "#").
func (g argGen) resolve(ref string) ojson.Value {
	if ref == "#" {
		return g.root
	}
	if !strings.HasPrefix(ref, "#/") {
		return ojson.Value{}
	}
	v := g.root
	for _, p := range strings.Split(ref[2:], "/") {
		p = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
		v, _ = v.Get(p)
	}
	return v
}
