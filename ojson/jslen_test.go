package ojson

import (
	"os"
	"testing"
)

func TestJSLen(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1e21`, `1.50`, `123456789012345678`,
		`"a\"b\\c\n\u0001é😀"`, `{"b":1,"a":[1,2,{"x":null}],"2":"two","1":true}`,
		`{"k":1,"k":[1,2,3],"j":{"k":"v","k":"w"}}`, `{"type":"object","properties":{"q":{"type":"string","description":"Query"}}}`,
	} {
		v, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got, want := v.JSLen(), len(v.JS("")); got != want {
			t.Errorf("%s: JSLen %d, len(JS) %d (%s)", src, got, want, v.JS(""))
		}
	}
	if got := (Value{}).JSLen(); got != len("undefined") {
		t.Errorf("invalid value: JSLen %d", got)
	}
}

// FuzzJSLen: JSLen is the length of JS("") for any document.
func FuzzJSLen(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5,"x\u0000"],"a":{"1":null,"0":-0.0}}`))
	f.Add([]byte("\"\xff\xfe\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		if got, want := v.JSLen(), len(v.JS("")); got != want {
			t.Fatalf("%q: JSLen %d, len(JS) %d", data, got, want)
		}
	})
}

// BenchmarkJSLen sizes the input schemas of the shared Azure catalog
// (235 tools, 446 KB of compact JSON) without printing them, against
// printing them (JS).
func BenchmarkJSLen(b *testing.B) {
	data, err := os.ReadFile("../../shared/catalogs/azure.json")
	if err != nil {
		b.Skipf("shared azure catalog: %v", err)
	}
	v, err := Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	tools, _ := v.Get("tools")
	var schemas []Value
	for _, t := range tools.Array() {
		if s, ok := t.Get("inputSchema"); ok {
			schemas = append(schemas, s)
		}
	}
	b.Run("JSLen", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range schemas {
				s.JSLen()
			}
		}
	})
	b.Run("JS", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range schemas {
				_ = s.JS("")
			}
		}
	})
}
