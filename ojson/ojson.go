// Package ojson is a JSON value that keeps object member order and number
// literals exactly as they were written.
//
// Clients differ in how they print a tool's schema back to the model: Node
// clients (Claude Code, OpenCode) keep insertion order and print numbers with
// JavaScript's Number formatting; Rust clients (Codex, Grok Build) print with
// serde_json. A map[string]any loses both, so every simulator that renders a
// schema parses it into a Value instead.
//
// Parse accepts exactly one JSON value (RFC 8259). Duplicate object keys are
// kept in the order they appear; Get returns the last one, as JSON.parse and
// serde_json do.
//
// A Value is 16 bytes (a kind, a length and a pointer), because a large
// catalog holds millions of them. The Decoder builds a document with few
// allocations: the elements of all its arrays and the members of all its
// objects are cut from a few large slabs, unescaped strings from a byte
// slab, and with NewSharedDecoder every other string points into the input.
package ojson

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON kinds. Invalid is the zero Value: "absent".
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"absent", "null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Member is one key/value pair of an object, in source order.
type Member struct {
	Key   string
	Value Value
}

// Value is a parsed JSON value. The zero Value has Kind Invalid and stands
// for "absent". A Value is 16 bytes (a catalog holds millions): a string's
// text, a number's literal, an array's elements and an object's members
// are read with Str, Array and Members, and such values are made with
// StringOf, NumberOf, ArrayOf and ObjectOf.
type Value struct {
	Kind Kind
	Bool bool           // Bool: the value
	n    uint32         // the length of the text, or the number of elements or members
	p    unsafe.Pointer // the text's first byte, the first element (*Value) or member (*Member)
}

// StringOf returns the JSON string s.
func StringOf(s string) Value {
	return Value{Kind: String, n: length(len(s)), p: unsafe.Pointer(unsafe.StringData(s))}
}

// NumberOf returns the number written lit, which must be a JSON number
// literal (RFC 8259 §6): it is kept as written, not checked.
func NumberOf(lit string) Value {
	return Value{Kind: Number, n: length(len(lit)), p: unsafe.Pointer(unsafe.StringData(lit))}
}

// ArrayOf returns an array of elems. The array uses elems' memory: the
// caller must not modify elems afterwards.
func ArrayOf(elems ...Value) Value {
	return Value{Kind: Array, n: length(len(elems)), p: unsafe.Pointer(unsafe.SliceData(elems))}
}

// ObjectOf returns an object of members, in their order (repeated keys
// kept). The object uses members' memory: the caller must not modify
// members afterwards.
func ObjectOf(members ...Member) Value {
	return Value{Kind: Object, n: length(len(members)), p: unsafe.Pointer(unsafe.SliceData(members))}
}

// length checks that a text, array or object fits a Value: 4 GiB or
// 4,294,967,295 items at most, far above anything a 64 MiB file holds.
func length(n int) uint32 {
	if uint64(n) > math.MaxUint32 {
		panic("ojson: string, array or object longer than 4,294,967,295")
	}
	return uint32(n)
}

// Str returns a String's decoded text or a Number's literal as written;
// "" for any other kind.
func (v Value) Str() string {
	if v.Kind != String && v.Kind != Number {
		return ""
	}
	return unsafe.String((*byte)(v.p), v.n)
}

// Array returns an array's elements (nil for any other kind). The slice
// has no spare capacity: appending to it copies it. Its elements must not
// be modified.
func (v Value) Array() []Value {
	if v.Kind != Array || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), v.n)
}

// Members returns an object's members in source order, repeated keys
// included (nil for any other kind). The slice has no spare capacity:
// appending to it copies it. Its members must not be modified.
func (v Value) Members() []Member {
	if v.Kind != Object || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*Member)(v.p), v.n)
}

// Len returns the number of an array's elements or an object's members
// (repeated keys included), 0 for any other kind.
func (v Value) Len() int {
	if v.Kind != Array && v.Kind != Object {
		return 0
	}
	return int(v.n)
}

// Equal reports whether a and b are the same JSON: the same kind, text,
// and elements or members in the same order (repeated keys included).
// Values must be compared with Equal, not ==, reflect.DeepEqual or a
// testing library's deep equality, which compare where the elements are
// and not what they hold.
func Equal(a, b Value) bool {
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Str() != b.Str() || a.Len() != b.Len() {
		return false
	}
	switch a.Kind {
	case Array:
		bs := b.Array()
		for i, e := range a.Array() {
			if !Equal(e, bs[i]) {
				return false
			}
		}
	case Object:
		bs := b.Members()
		for i, m := range a.Members() {
			if m.Key != bs[i].Key || !Equal(m.Value, bs[i].Value) {
				return false
			}
		}
	}
	return true
}

// Parse decodes data as a single JSON value (see Decoder).
func Parse(data []byte) (Value, error) {
	d := NewDecoder(data)
	v, err := d.Value()
	if err != nil {
		return Value{}, err
	}
	if err := d.End(); err != nil {
		return Value{}, err
	}
	return v, nil
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack (the
// limit encoding/json has).
const maxDepth = 10000

// Get returns the value of key in an object (the last one when the key is
// repeated, as JSON.parse does) and whether it exists. On a non-object it
// returns false.
func (v Value) Get(key string) (Value, bool) {
	if v.Kind != Object {
		return Value{}, false
	}
	ms := v.Members()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key == key {
			return ms[i].Value, true
		}
	}
	return Value{}, false
}

// Lookup follows a path of object keys; it returns the zero Value when any
// step is missing or not an object.
func (v Value) Lookup(path ...string) Value {
	for _, k := range path {
		next, ok := v.Get(k)
		if !ok {
			return Value{}
		}
		v = next
	}
	return v
}

// Exists reports whether v is present (Kind != Invalid).
func (v Value) Exists() bool { return v.Kind != Invalid }

// IsObject reports whether v is a JSON object.
func (v Value) IsObject() bool { return v.Kind == Object }

// Keys returns the distinct keys of an object in first-appearance order.
func (v Value) Keys() []string {
	if v.Kind != Object {
		return nil
	}
	ms := v.Members()
	keys := make([]string, 0, len(ms))
	if !hasDuplicateKeys(ms) {
		for _, m := range ms {
			keys = append(keys, m.Key)
		}
		return keys
	}
	seen := make(map[string]bool, len(ms))
	for _, m := range ms {
		if !seen[m.Key] {
			seen[m.Key] = true
			keys = append(keys, m.Key)
		}
	}
	return keys
}

// Float returns a Number's value as float64 (what JavaScript would hold).
func (v Value) Float() (float64, bool) {
	if v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str(), 64)
	if err != nil {
		// Out-of-range literals become ±Inf in JavaScript.
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// Dedup returns v with repeated object keys collapsed the way JSON.parse
// does: the key keeps its first position and takes its last value.
// It applies recursively.
func (v Value) Dedup() Value {
	switch v.Kind {
	case Array:
		out := make([]Value, v.n)
		for i, e := range v.Array() {
			out[i] = e.Dedup()
		}
		return ArrayOf(out...)
	case Object:
		out := dedupMembers(v.Members()) // a fresh slice
		for i := range out {
			out[i].Value = out[i].Value.Dedup()
		}
		return ObjectOf(out...)
	}
	return v
}

// JS returns v as JavaScript's JSON.stringify(JSON.parse(text), null, indent)
// would print it: duplicate keys collapsed (first position, last value),
// integer-like keys first in ascending order (ECMAScript property order),
// numbers in JavaScript Number formatting, strings escaped as JSON.stringify
// does (no HTML escaping). indent "" gives the compact form.
func (v Value) JS(indent string) string {
	var b strings.Builder
	writeJS(&b, v, indent, "")
	return b.String()
}

// AppendJS writes v.JS(indent) to b.
func (v Value) AppendJS(b *strings.Builder, indent string) {
	writeJS(b, v, indent, "")
}

// writeJS prints v as JS does. Duplicate keys are collapsed object by
// object as they are printed (what Dedup does to the whole tree first), so
// a tree without them is not copied.
func writeJS(b *strings.Builder, v Value, indent, prefix string) {
	switch v.Kind {
	case Invalid:
		b.WriteString("undefined")
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		if lit := v.Str(); plainInteger(lit) {
			b.WriteString(lit) // what JSNumber prints for it
			return
		}
		f, _ := v.Float()
		b.WriteString(JSNumber(f))
	case String:
		AppendJSString(b, v.Str())
	case Array:
		if v.n == 0 {
			b.WriteString("[]")
			return
		}
		inner := prefix + indent
		b.WriteByte('[')
		for i, e := range v.Array() {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(inner)
			}
			writeJS(b, e, indent, inner)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(prefix)
		}
		b.WriteByte(']')
	case Object:
		if v.n == 0 {
			b.WriteString("{}")
			return
		}
		ms := v.Members()
		if hasDuplicateKeys(ms) {
			ms = dedupMembers(ms)
		}
		inner := prefix + indent
		b.WriteByte('{')
		for i, m := range jsOrder(ms) {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(inner)
			}
			AppendJSString(b, m.Key)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			writeJS(b, m.Value, indent, inner)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(prefix)
		}
		b.WriteByte('}')
	}
}

// jsOrder orders members as ECMAScript OrdinaryOwnPropertyKeys does:
// array-index keys (canonical integers below 2^32-1) ascending, then the
// others in insertion order.
func jsOrder(ms []Member) []Member {
	if !slices.ContainsFunc(ms, func(m Member) bool { return isArrayIndex(m.Key) }) {
		return ms
	}
	var idx, rest []Member
	for _, m := range ms {
		if isArrayIndex(m.Key) {
			idx = append(idx, m)
		} else {
			rest = append(rest, m)
		}
	}
	// insertion sort: index keys are rare and few
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0; j-- {
			a, _ := strconv.ParseUint(idx[j-1].Key, 10, 64)
			c, _ := strconv.ParseUint(idx[j].Key, 10, 64)
			if a <= c {
				break
			}
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	return append(idx, rest...)
}

func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < math.MaxUint32
}

// plainInteger reports whether a number literal is an integer that
// JSNumber prints exactly as written: an optional minus and 1 to 15 digits
// without a leading zero (exact in a float64), or "0". "-0" prints as 0.
func plainInteger(lit string) bool {
	d := strings.TrimPrefix(lit, "-")
	if d == "0" {
		return lit == "0"
	}
	if d == "" || len(d) > 15 || d[0] == '0' {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// hasDuplicateKeys reports whether an object repeats a key.
func hasDuplicateKeys(ms []Member) bool {
	if len(ms) > 32 {
		seen := make(map[string]struct{}, len(ms))
		for _, m := range ms {
			if _, ok := seen[m.Key]; ok {
				return true
			}
			seen[m.Key] = struct{}{}
		}
		return false
	}
	for i := 1; i < len(ms); i++ {
		for j := 0; j < i; j++ {
			if ms[i].Key == ms[j].Key {
				return true
			}
		}
	}
	return false
}

// dedupMembers is one level of Dedup: a repeated key keeps its first
// position and takes its last value.
func dedupMembers(ms []Member) []Member {
	idx := make(map[string]int, len(ms))
	out := make([]Member, 0, len(ms))
	for _, m := range ms {
		if i, ok := idx[m.Key]; ok {
			out[i].Value = m.Value
			continue
		}
		idx[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// JSNumber formats f as JavaScript's Number.prototype.toString (and so
// JSON.stringify, which prints non-finite numbers as null).
func JSNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // e.g. 1e+21, 1.5e-07
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	if exp == "" {
		exp = "0"
	}
	return mant + "e" + string(sign) + exp
}

// JSString quotes s as JSON.stringify does: `"`, `\` and control characters
// escaped (\b \f \n \r \t by name, others as \u00XX), everything else
// verbatim. Invalid UTF-8 bytes become U+FFFD, as Node's decoder does.
func JSString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	AppendJSString(&b, s)
	return b.String()
}

// JSStringLen is len(JSString(s)), counted without building it: the
// quotes and s, plus one byte per escape named with a letter, five per
// other control character escaped as \u00XX and two per invalid UTF-8
// byte (printed as U+FFFD, three bytes).
func JSStringLen(s string) int {
	n := 2 + len(s)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += int(jsEscapeExtra[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 2
		}
		i += size
	}
	return n
}

// jsEscapeExtra is how many bytes JSString adds to an ASCII byte: one for
// \b \t \n \f \r \" \\, five for the other control characters (\u00XX).
var jsEscapeExtra = [utf8.RuneSelf]uint8{
	0x00: 5, 0x01: 5, 0x02: 5, 0x03: 5, 0x04: 5, 0x05: 5, 0x06: 5, 0x07: 5,
	0x08: 1, 0x09: 1, 0x0a: 1, 0x0b: 5, 0x0c: 1, 0x0d: 1, 0x0e: 5, 0x0f: 5,
	0x10: 5, 0x11: 5, 0x12: 5, 0x13: 5, 0x14: 5, 0x15: 5, 0x16: 5, 0x17: 5,
	0x18: 5, 0x19: 5, 0x1a: 5, 0x1b: 5, 0x1c: 5, 0x1d: 5, 0x1e: 5, 0x1f: 5,
	'"': 1, '\\': 1,
}

// AppendJSString writes JSString(s) to b, runs of plainASCII (printable
// ASCII other than `"` and `\`, and DEL) in one piece.
func AppendJSString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && plainASCII[s[j]] {
			j++
		}
		b.WriteString(s[i:j])
		if i = j; i == len(s) {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
