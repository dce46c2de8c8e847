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

// omap is a JSON object with insertion-ordered keys.
type omap struct {
	keys []string
	m    map[string]any
}

func newOmap() *omap { return &omap{m: map[string]any{}} }

func (o *omap) get(k string) (any, bool) {
	v, ok := o.m[k]
	return v, ok
}

func (o *omap) has(k string) bool { _, ok := o.m[k]; return ok }

// set replaces the value of an existing key in place or appends a new key.
func (o *omap) set(k string, v any) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

func (o *omap) del(k string) {
	if _, ok := o.m[k]; !ok {
		return
	}
	delete(o.m, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *omap) clear() {
	o.keys = nil
	o.m = map[string]any{}
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
		return jnum(v.Str)
	case ojson.String:
		return v.Str
	case ojson.Array:
		out := make([]any, len(v.Array))
		for i, e := range v.Array {
			out[i] = fromOJSON(e)
		}
		return out
	case ojson.Object:
		o := newOmap()
		for _, m := range v.Members {
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
		o := &omap{keys: append([]string(nil), t.keys...), m: make(map[string]any, len(t.m))}
		for k, e := range t.m {
			o.m[k] = deepCopy(e)
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
			serdeJSON(b, t.m[k])
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("codexjs: unexpected JSON tree node %T", v))
	}
}

func serdeText(v any) string {
	var b strings.Builder
	serdeJSON(&b, v)
	return b.String()
}
