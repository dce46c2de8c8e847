package codexjs

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/ojson"
)

// The schema passes of spec §4 work on serde_json values the way Codex
// 0.171.0 holds them: objects keep insertion order (serde_json's
// preserve_order; a repeated key keeps its first position and takes its last
// value), numbers keep their literal text (arbitrary_precision: the oracle
// showed `1.0`, `1e+21` and a 30-digit integer printed as written). The tree
// below is that model: an object is *omap, an array []any, a string string,
// a number jnum, a boolean bool, null nil.

// jnum is a JSON number as its literal text.
type jnum string

// omap is a JSON object with insertion-ordered keys. Keys and values sit
// in two parallel slices, found by a linear scan while the object is small
// (schemas' objects mostly are) and through a map once it has more than
// omapIndexMin keys.
type omap struct {
	keys []string
	vals []any
	idx  map[string]int // key → position; nil while len(keys) ≤ omapIndexMin
}

const omapIndexMin = 16

func newOmap() *omap { return &omap{} }

// find returns the position of k, or -1.
func (o *omap) find(k string) int {
	if o.idx != nil {
		if i, ok := o.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, kk := range o.keys {
		if kk == k {
			return i
		}
	}
	return -1
}

func (o *omap) get(k string) (any, bool) {
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// value returns the value of k (nil when absent).
func (o *omap) value(k string) any {
	v, _ := o.get(k)
	return v
}

func (o *omap) has(k string) bool { return o.find(k) >= 0 }

// set replaces the value of an existing key in place or appends a new key.
func (o *omap) set(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	switch {
	case o.idx != nil:
		o.idx[k] = len(o.keys) - 1
	case len(o.keys) > omapIndexMin:
		o.reindex()
	}
}

func (o *omap) reindex() {
	o.idx = make(map[string]int, len(o.keys))
	for i, k := range o.keys {
		o.idx[k] = i
	}
}

// del removes k; the key and value slices are copied, not shifted in
// place, so a caller ranging over the old ones is not disturbed.
func (o *omap) del(k string) {
	i := o.find(k)
	if i < 0 {
		return
	}
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
	o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
	if o.idx != nil {
		delete(o.idx, k)
		for j := i; j < len(o.keys); j++ {
			o.idx[o.keys[j]] = j
		}
	}
}

func (o *omap) clear() {
	o.keys, o.vals, o.idx = nil, nil, nil
}

func (o *omap) len() int { return len(o.keys) }

// fromOJSON converts a parsed value into the tree (duplicate keys: first
// position, last value, as serde_json's preserve_order map does).
func fromOJSON(v ojson.Value) any {
	switch v.Kind {
	case ojson.Null:
		return nil
	case ojson.Bool:
		return v.Bool
	case ojson.Number:
		return jnum(v.Str())
	case ojson.String:
		return v.Str()
	case ojson.Array:
		out := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = fromOJSON(e)
		}
		return out
	case ojson.Object:
		o := &omap{keys: make([]string, 0, len(v.Members())), vals: make([]any, 0, len(v.Members()))}
		for _, m := range v.Members() {
			o.set(m.Key, fromOJSON(m.Value))
		}
		return o
	}
	return nil
}

// deepCopy copies a tree.
func deepCopy(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	case *omap:
		o := &omap{keys: append([]string(nil), t.keys...), vals: make([]any, len(t.vals))}
		for i, e := range t.vals {
			o.vals[i] = deepCopy(e)
		}
		if t.idx != nil {
			o.reindex()
		}
		return o
	}
	return v
}

// serdeString quotes s as serde_json does: `"`, `\` and the control
// characters below U+0020 escaped (\b \f \n \r \t by name, the rest as
// \u00xx in lowercase hex); everything else, `/` and U+2028 included, as is.
func serdeString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// serdeJSON writes v compactly as serde_json::to_string does.
func serdeJSON(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case jnum:
		b.WriteString(string(t))
	case string:
		serdeString(b, t)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			serdeJSON(b, e)
		}
		b.WriteByte(']')
	case *omap:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			serdeString(b, k)
			b.WriteByte(':')
			serdeJSON(b, t.vals[i])
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("codexjs: unexpected JSON tree node %T", v))
	}
}

// serdeLen is len(serdeText(v)), counted without building the text.
func serdeLen(v any) int {
	switch t := v.(type) {
	case nil:
		return len("null")
	case bool:
		if t {
			return len("true")
		}
		return len("false")
	case jnum:
		return len(t)
	case string:
		return serdeStringLen(t)
	case []any:
		n := 2 + max(len(t)-1, 0) // brackets, commas
		for _, e := range t {
			n += serdeLen(e)
		}
		return n
	case *omap:
		n := 2 + max(len(t.keys)-1, 0) // braces, commas
		for i, k := range t.keys {
			n += serdeStringLen(k) + 1 + serdeLen(t.vals[i])
		}
		return n
	}
	panic(fmt.Sprintf("codexjs: unexpected JSON tree node %T", v))
}

// serdeStringLen is the length of s quoted by serdeString.
func serdeStringLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			n++ // a two-byte escape
		case c < 0x20:
			n += 5 // \u00xx
		}
	}
	return n
}

func serdeText(v any) string {
	var b strings.Builder
	serdeJSON(&b, v)
	return b.String()
}
