package copilot

import (
	"math"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// The CLI holds schemas as serde_json Values without preserve_order
// (copilot.md §1.3, "Key order"): an object is a map sorted by key bytes,
// a repeated key keeps its last value, and numbers print as serde_json
// prints them. canon returns v in that form; compact writes it.

// canon returns v with every object's members deduplicated (last value
// wins) and sorted by key bytes, recursively.
func canon(v ojson.Value) ojson.Value {
	switch v.Kind {
	case ojson.Array:
		in := v.Array()
		out := make([]ojson.Value, len(in))
		for i, e := range in {
			out[i] = canon(e)
		}
		return ojson.ArrayOf(out...)
	case ojson.Object:
		ms := sortedMembers(v)
		for i := range ms {
			ms[i].Value = canon(ms[i].Value)
		}
		return ojson.ObjectOf(ms...)
	}
	return v
}

// sortedMembers returns an object's members as a BTreeMap holds them:
// one per key (the last value), sorted by key bytes. The values are not
// changed.
func sortedMembers(v ojson.Value) []ojson.Member {
	in := v.Members()
	last := make(map[string]int, len(in))
	for i, m := range in {
		last[m.Key] = i
	}
	out := make([]ojson.Member, 0, len(last))
	for i, m := range in {
		if last[m.Key] == i {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// compact writes v as serde_json::to_string does: no spaces, members in
// the order v holds them, strings escaped as serde_json escapes them,
// numbers in serde_json's form.
func compact(v ojson.Value) string {
	var b strings.Builder
	appendCompact(&b, v)
	return b.String()
}

func appendCompact(b *strings.Builder, v ojson.Value) {
	switch v.Kind {
	case ojson.Invalid:
		b.WriteString("null")
	case ojson.Null:
		b.WriteString("null")
	case ojson.Bool:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case ojson.Number:
		b.WriteString(Number(v.Str()))
	case ojson.String:
		search.AppendSerdeString(b, v.Str())
	case ojson.Array:
		b.WriteByte('[')
		for i, e := range v.Array() {
			if i > 0 {
				b.WriteByte(',')
			}
			appendCompact(b, e)
		}
		b.WriteByte(']')
	case ojson.Object:
		b.WriteByte('{')
		for i, m := range v.Members() {
			if i > 0 {
				b.WriteByte(',')
			}
			search.AppendSerdeString(b, m.Key)
			b.WriteByte(':')
			appendCompact(b, m.Value)
		}
		b.WriteByte('}')
	}
}

// obj builds an object from key/value pairs in order.
func obj(kv ...any) ojson.Value {
	ms := make([]ojson.Member, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		ms = append(ms, ojson.Member{Key: kv[i].(string), Value: kv[i+1].(ojson.Value)})
	}
	return ojson.ObjectOf(ms...)
}

var (
	jsonTrue  = ojson.Value{Kind: ojson.Bool, Bool: true}
	jsonFalse = ojson.Value{Kind: ojson.Bool}
	emptyObj  = ojson.ObjectOf()
)

func jsonString(s string) ojson.Value { return ojson.StringOf(s) }

func arrayOf(vs ...ojson.Value) ojson.Value { return ojson.ArrayOf(vs...) }

// Number prints a JSON number literal as the CLI does (observed, toolfind's
// probe of 23 literals): serde_json's reading (an integer that fits u64 or
// i64 stays an integer, anything else becomes an f64: "1e2" → 100.0, "-0"
// → -0.0) in ryu's layout, except that a positive exponent has a "+":
// 1e16 → "1e+16", 1e21 → "1e+21", 1.5e-07 → "1.5e-7", 1e15 →
// "1000000000000000.0", 1e-5 → "0.00001", 1e-6 → "1e-6".
func Number(lit string) string {
	s := search.SerdeNumber(lit)
	if i := strings.IndexByte(s, 'e'); i >= 0 && i+1 < len(s) && s[i+1] != '-' && s[i+1] != '+' {
		return s[:i+1] + "+" + s[i+1:]
	}
	return s
}

// overflows reports whether v holds a number literal outside the f64
// range, which the CLI cannot read (toolfind's probe: a schema with
// "maximum": 1e400 made the CLI drop its server's whole tools/list).
func overflows(v ojson.Value) bool {
	switch v.Kind {
	case ojson.Number:
		f, ok := v.Float()
		return !ok || math.IsInf(f, 0)
	case ojson.Array:
		for _, e := range v.Array() {
			if overflows(e) {
				return true
			}
		}
	case ojson.Object:
		for _, m := range v.Members() {
			if overflows(m.Value) {
				return true
			}
		}
	}
	return false
}
