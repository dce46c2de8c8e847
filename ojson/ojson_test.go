package ojson

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestJS freezes what Node printed for
// JSON.stringify(JSON.parse(in), null, 2) (node -e, v20).
func TestJS(t *testing.T) {
	in := `{"b":1,"2":2,"a":[1.5,1e21,1e-7,0.000001,-0,100,"<&>\u2028\u0001"],"1":{}}`
	want := `{
  "1": {},
  "2": 2,
  "b": 1,
  "a": [
    1.5,
    1e+21,
    1e-7,
    0.000001,
    0,
    100,
    "<&>` + "\u2028" + `\u0001"
  ]
}`
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.JS("  "); got != want {
		t.Errorf("JS:\n%s\nwant:\n%s", got, want)
	}
	if got := v.JS(""); got != `{"1":{},"2":2,"b":1,"a":[1.5,1e+21,1e-7,0.000001,0,100,"<&>`+"\u2028"+`\u0001"]}` {
		t.Errorf("compact: %s", got)
	}
}

func TestJSNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-2.5, "-2.5"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{1e-6, "0.000001"}, {1e-7, "1e-7"}, {1.5e-10, "1.5e-10"}, {123456789012345680000, "123456789012345680000"},
		{point3(), "0.30000000000000004"},
	}
	for _, tt := range tests {
		if got := JSNumber(tt.in); got != tt.want {
			t.Errorf("JSNumber(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func point3() float64 { a, b := 0.1, 0.2; return a + b }

func TestDuplicateKeys(t *testing.T) {
	v, err := Parse([]byte(`{"a":1,"b":2,"a":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Members()) != 3 {
		t.Errorf("members kept: %d, want 3", len(v.Members()))
	}
	if a, _ := v.Get("a"); a.Str() != "3" {
		t.Errorf("Get returns %q, want the last value 3", a.Str())
	}
	if got := strings.Join(v.Keys(), ","); got != "a,b" {
		t.Errorf("Keys = %s", got)
	}
	if got := v.JS(""); got != `{"a":3,"b":2}` { // JSON.parse: first position, last value
		t.Errorf("JS = %s", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":}`, `[1,]`, `{} {}`, `{"a" 1}`, `nul`} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
	deep := strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2)
	if _, err := Parse([]byte(deep)); err == nil {
		t.Error("no error past the depth limit")
	}
}

func TestLookupAndKinds(t *testing.T) {
	v, _ := Parse([]byte(`{"ui":{"visibility":["app"]},"n":12.50,"t":true,"z":null}`))
	if vis := v.Lookup("ui", "visibility"); vis.Kind != Array || vis.Array()[0].Str() != "app" {
		t.Errorf("Lookup: %+v", vis)
	}
	if v.Lookup("ui", "nope").Exists() || v.Lookup("n", "x").Exists() {
		t.Error("missing path exists")
	}
	if n, _ := v.Get("n"); n.Str() != "12.50" {
		t.Errorf("number literal %q not kept as written", n.Str())
	}
	if f, ok := v.Lookup("n").Float(); !ok || f != 12.5 {
		t.Errorf("Float = %v %v", f, ok)
	}
	if v.Lookup("t").Kind.String() != "boolean" || v.Lookup("z").Kind != Null || Kind(99).String() != "Kind(99)" {
		t.Error("kinds")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,{"b":null}],"c":"\u00e9"}`))
	f.Add([]byte(`[1e400, -0, "x"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		// Whatever parses must print as valid JSON, and printing is a
		// fixed point: parse(print(v)) prints the same.
		out := v.JS("")
		if !json.Valid([]byte(out)) {
			t.Fatalf("JS output %q is not JSON", out)
		}
		w, err := Parse([]byte(out))
		if err != nil {
			t.Fatalf("JS output %q does not re-parse: %v", out, err)
		}
		if again := w.JS(""); again != out {
			t.Fatalf("not a fixed point: %s then %s", out, again)
		}
		if !json.Valid(data) {
			t.Fatalf("ojson accepted invalid JSON %q", data)
		}
	})
}

// jsRef is JS as first written: Dedup the whole tree, then print with
// every number through JSNumber and every string through a rune-by-rune
// JSString; the reference for the faster printer.
func jsRef(v Value, indent string) string {
	var b strings.Builder
	writeJSRef(&b, v.Dedup(), indent, "")
	return b.String()
}

func writeJSRef(b *strings.Builder, v Value, indent, prefix string) {
	str := func(s string) {
		b.WriteByte('"')
		for _, r := range s { // an invalid byte is U+FFFD
			switch {
			case r == '"' || r == '\\':
				b.WriteString(`\` + string(r))
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
	open := func(c byte, n int, item func(i int)) {
		inner := prefix + indent
		b.WriteByte(c)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteString("\n" + inner)
			}
			item(i)
		}
		if indent != "" {
			b.WriteString("\n" + prefix)
		}
		b.WriteByte(c + 2) // [ → ], { → }
	}
	switch v.Kind {
	case Invalid:
		b.WriteString("undefined")
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		f, _ := v.Float()
		b.WriteString(JSNumber(f))
	case String:
		str(v.Str())
	case Array:
		if len(v.Array()) == 0 {
			b.WriteString("[]")
			return
		}
		open('[', len(v.Array()), func(i int) { writeJSRef(b, v.Array()[i], indent, prefix+indent) })
	case Object:
		if len(v.Members()) == 0 {
			b.WriteString("{}")
			return
		}
		var idx, rest []Member
		for _, m := range v.Members() {
			if isArrayIndex(m.Key) {
				idx = append(idx, m)
			} else {
				rest = append(rest, m)
			}
		}
		slices.SortStableFunc(idx, func(a, c Member) int {
			x, _ := strconv.ParseUint(a.Key, 10, 64)
			y, _ := strconv.ParseUint(c.Key, 10, 64)
			return cmp.Compare(x, y)
		})
		ms := append(idx, rest...)
		open('{', len(ms), func(i int) {
			str(ms[i].Key)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			writeJSRef(b, ms[i].Value, indent, prefix+indent)
		})
	}
}

// FuzzJSMatchesReference: the printer (no tree copy, plain integers and
// ASCII runs written as they are) prints what the reference prints,
// compact and indented.
func FuzzJSMatchesReference(f *testing.F) {
	for _, s := range []string{`{"b":1,"2":2,"a":[1.5,1e21,1e-7,0.000001,-0,100,"<&>\u2028\u0001"],"1":{}}`,
		`{"a":1,"a":{"x":2,"x":[3]},"10":0,"9":-12345678901234567}`, `["\ud800", "tab\there", 007]`, `[-0, 0, 123456789012345, 1234567890123456]`} {
		f.Add([]byte(s))
	}
	f.Add([]byte("\"bad \xff utf8 \x7f\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		if v.Kind == String {
			if n := JSStringLen(v.Str()); n != len(JSString(v.Str())) {
				t.Fatalf("JSStringLen(%q) = %d, JSString is %d bytes", v.Str(), n, len(JSString(v.Str())))
			}
		}
		for _, indent := range []string{"", "  "} {
			if got, want := v.JS(indent), jsRef(v, indent); got != want {
				t.Fatalf("JS(%q):\n got %s\nwant %s", indent, got, want)
			}
		}
	})
}

// TestJSStringLen: \" and \n are two bytes, \u0001 six, é two, an invalid
// byte three (U+FFFD).
func TestJSStringLen(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{{"", 2}, {"ab", 4}, {"a\"b\n", 8}, {"\x01", 8}, {"é", 4}, {"\xff", 5}, {"\x7f", 3}} {
		if n := JSStringLen(tc.s); n != tc.want || n != len(JSString(tc.s)) {
			t.Errorf("JSStringLen(%q) = %d, want %d (JSString %d bytes)", tc.s, n, tc.want, len(JSString(tc.s)))
		}
	}
}

// TestAccessors: each accessor gives its kind's content and the zero
// result for every other kind, as the fields they replace did.
func TestAccessors(t *testing.T) {
	v, err := Parse([]byte(`[null,true,false,-0.5e3,"a\u00e9",[1,[]],{"k":1,"k":2},{}]`))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		kind      Kind
		b         bool
		str       string
		len       int
		arr, mems bool // Array() / Members() non-nil
	}
	want := []row{
		{Null, false, "", 0, false, false},
		{Bool, true, "", 0, false, false},
		{Bool, false, "", 0, false, false},
		{Number, false, "-0.5e3", 0, false, false},
		{String, false, "aé", 0, false, false},
		{Array, false, "", 2, true, false},
		{Object, false, "", 2, false, true}, // both "k" members kept
		{Object, false, "", 0, false, false},
	}
	if v.Len() != len(want) || len(v.Array()) != len(want) {
		t.Fatalf("Len %d, want %d", v.Len(), len(want))
	}
	for i, e := range v.Array() {
		got := row{e.Kind, e.Bool, e.Str(), e.Len(), e.Array() != nil, e.Members() != nil}
		if got != want[i] {
			t.Errorf("element %d: %+v, want %+v", i, got, want[i])
		}
	}
	if (Value{}).Str() != "" || (Value{}).Len() != 0 || (Value{}).Array() != nil || (Value{}).Members() != nil {
		t.Error("the zero Value is not empty")
	}
}

// TestEqual: Equal compares content, member order and repeated keys
// included; values parsed from different bytes are equal when the JSON is.
func TestEqual(t *testing.T) {
	parse := func(s string) Value {
		v, err := Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"a":[1,"x",null,true]}`, ` { "a" : [ 1 , "x" , null , true ] } `, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false}, // order matters
		{`{"a":1,"a":2}`, `{"a":2}`, false},       // repeated keys kept
		{`[1]`, `[1.0]`, false},                   // literals as written
		{`"a"`, `"\u0061"`, true},                 // decoded text
		{`true`, `false`, false},
		{`[]`, `{}`, false},
		{`[[]]`, `[[0]]`, false},
		{`null`, `null`, true},
	}
	for _, tt := range tests {
		if got := Equal(parse(tt.a), parse(tt.b)); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if !Equal(StringOf("x"), parse(`"x"`)) || !Equal(NumberOf("2"), parse(`2`)) || !Equal(ArrayOf(), parse(`[]`)) || !Equal(ObjectOf(), parse(`{}`)) {
		t.Error("constructed values differ from parsed ones")
	}
}
