package ojson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// parseReference is the slow reference decoder: encoding/json's tokenizer,
// one token at a time (what Parse was before the single-pass Decoder).
// The fast Decoder must build the same Value and accept the same inputs.
func parseReference(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := refDecode(dec, 0)
	if err != nil {
		return Value{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return Value{}, errors.New("data after the value")
		}
		return Value{}, err
	}
	return v, nil
}

func refDecode(dec *json.Decoder, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, errors.New("too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return Value{Kind: Null}, nil
	case bool:
		return Value{Kind: Bool, Bool: t}, nil
	case json.Number:
		return NumberOf(string(t)), nil
	case string:
		return StringOf(t), nil
	case json.Delim:
		if t == '[' {
			var elems []Value
			for dec.More() {
				e, err := refDecode(dec, depth+1)
				if err != nil {
					return Value{}, err
				}
				elems = append(elems, e)
			}
			_, err := dec.Token()
			return ArrayOf(elems...), err
		}
		var ms []Member
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return Value{}, err
			}
			e, err := refDecode(dec, depth+1)
			if err != nil {
				return Value{}, err
			}
			ms = append(ms, Member{Key: kt.(string), Value: e})
		}
		_, err := dec.Token()
		return ObjectOf(ms...), err
	}
	return Value{}, fmt.Errorf("unexpected token %v", tok)
}

func TestDecoderMatchesReference(t *testing.T) {
	inputs := []string{
		`{"a":[1,2,{"b":null}],"c":"\u00e9","d":true,"e":false}`,
		`[1e400, -0, "x", 0.5e-3, 12E+2, -1.25]`,
		`"\ud83d\ude00 \ud800 \udc00 \ud800\u0041 \\ \/ \b\f\n\r\t"`,
		"\"bad \xff utf8 \xe2\x82\"",
		` { "k" : [ ] , "k" : { } } `,
		`{"a":1,"a":2}`,
		`[]`, `{}`, `0`, `null`,
	}
	for _, in := range inputs {
		want, err := parseReference([]byte(in))
		if err != nil {
			t.Fatalf("reference rejects %q: %v", in, err)
		}
		got, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		if !Equal(got, want) {
			t.Errorf("Parse(%q)\n got %+v\nwant %+v", in, got, want)
		}
	}
}

func TestDecoderErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{``, 0, "unexpected end of JSON input"},
		{`[1,]`, 3, "invalid character ']' looking for beginning of value"},
		{`{"a" 1}`, 5, "invalid character '1' after object key"},
		{`{"a":1 "b":2}`, 7, "invalid character '\"' after object key:value pair"},
		{`[1 2]`, 3, "invalid character '2' after array element"},
		{`{1:2}`, 1, "invalid character '1' looking for beginning of object key string"},
		{`tru`, 3, "unexpected end of JSON input"},
		{`nul1`, 3, "invalid character '1' in literal null (expecting 'l')"},
		{`01`, 1, "invalid character '1' after top-level value"},
		{`-`, 1, "unexpected end of JSON input"},
		{`1.e5`, 2, "invalid character 'e' in numeric literal"},
		{`1e+`, 3, "unexpected end of JSON input"},
		{"\"a\x01\"", 2, `invalid character '\x01' in string literal`},
		{`"\x"`, 2, `invalid character 'x' in string escape code`},
		{`"\u12g4"`, 5, `invalid character 'g' in \u hexadecimal character escape`},
		{`"abc`, 4, "unexpected end of JSON input"},
		{`{} x`, 3, "invalid character 'x' after top-level value"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || se.Msg != tt.msg {
			t.Errorf("Parse(%q) = %d %q, want %d %q", tt.in, se.Offset, se.Msg, tt.offset, tt.msg)
		}
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if _, err := Parse([]byte(deep)); err == nil || !strings.Contains(err.Error(), "max depth") {
		t.Errorf("depth %d: %v", maxDepth+1, err)
	}
}

func TestSharedDecoderSpans(t *testing.T) {
	data := []byte(`{"tools": [ {"name":"a","s":{"x":1}} ]}`)
	d := NewSharedDecoder(data)
	var raw string
	err := d.Object(func(key string) error {
		return d.Array(func(int) error {
			start := d.Start()
			v, err := d.Value()
			raw = string(data[start:d.Offset()])
			if n, _ := v.Get("name"); n.Str() != "a" {
				t.Errorf("name %+v", n)
			}
			return err
		})
	})
	if err != nil || raw != `{"name":"a","s":{"x":1}}` {
		t.Errorf("raw %q, err %v", raw, err)
	}
}

// FuzzDecoder checks the single-pass Decoder against the reference
// decoder and encoding/json's validator on any input.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,{"b":null}],"c":"\u00e9"}`))
	f.Add([]byte(`"\ud800\udc00\ud800x"`))
	f.Add([]byte("[\"\xff\", 1e5, -0.0]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Parse(data)
		want, refErr := parseReference(data)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("Parse(%q) error %v, json.Valid %v", data, err, json.Valid(data))
		}
		if err == nil && refErr == nil && !Equal(got, want) {
			t.Fatalf("Parse(%q)\n got %+v\nwant %+v", data, got, want)
		}
		shared, err2 := func() (Value, error) {
			d := NewSharedDecoder(bytes.Clone(data))
			v, err := d.Value()
			if err == nil {
				err = d.End()
			}
			return v, err
		}()
		if (err == nil) != (err2 == nil) || (err == nil && !Equal(got, shared)) {
			t.Fatalf("shared decoder differs on %q", data)
		}
	})
}

// TestSlabsDoNotAlias: values cut from one slab have no spare capacity, so
// an append to one copies instead of overwriting its neighbour, and
// unescaped strings sharing a text slab keep their own bytes.
func TestSlabsDoNotAlias(t *testing.T) {
	v, err := Parse([]byte(`{"a":[1,2],"b":[3],"c":{"x":"\n1"},"d":{"y":"\t2"},"e":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := v.Get("a")
	if cap(a.Array()) != 2 || cap(v.Members()) != 5 {
		t.Fatalf("capacities %d and %d, want 2 and 5", cap(a.Array()), cap(v.Members()))
	}
	_ = append(a.Array(), Value{Kind: Null})
	c, _ := v.Get("c")
	_ = append(c.Members(), Member{Key: "z"})
	if got := v.JS(""); got != `{"a":[1,2],"b":[3],"c":{"x":"\n1"},"d":{"y":"\t2"},"e":[]}` {
		t.Errorf("after appends: %s", got)
	}
	if e, _ := v.Get("e"); e.Kind != Array || e.Len() != 0 {
		t.Errorf("empty array %#v", e)
	}
}

// TestResetKeepsEarlierValues: values decoded from several inputs through
// Reset share slabs, and each stays what a decoder of its own input alone
// gives; a Reset in the middle of a value starts the new input cleanly.
func TestResetKeepsEarlierValues(t *testing.T) {
	docs := []string{
		`{"a":[1,2,{"b":"\u00e9\n"}],"c":{}}`,
		`[{"x":"y"},[true,null],"\"q\""]`,
		`{"deep":{"er":{"est":[["\t"]]}}}`,
		`"plain"`,
		`{"k":[` + strings.Repeat(`{"n":[1,"two",{"3":4}]},`, 200) + `0]}`,
	}
	for _, share := range []bool{false, true} {
		d := NewDecoder(nil)
		if share {
			d = NewSharedDecoder(nil)
		}
		var got []Value
		for i, doc := range docs {
			d.Reset([]byte(doc))
			if d.Offset() != 0 {
				t.Fatalf("offset %d after Reset", d.Offset())
			}
			v, err := d.Value()
			if err != nil {
				t.Fatalf("doc %d: %v", i, err)
			}
			if err := d.End(); err != nil {
				t.Fatalf("doc %d: %v", i, err)
			}
			got = append(got, v)
		}
		// An input left in the middle of an object.
		d.Reset([]byte(`{"open":[1,`))
		if _, err := d.Value(); err == nil {
			t.Fatal("no error for a cut input")
		}
		d.Reset([]byte(`{"after":[3]}`))
		after, err := d.Value()
		if err != nil || after.JS("") != `{"after":[3]}` {
			t.Fatalf("after a failed input: %s, %v", after.JS(""), err)
		}
		for i, doc := range docs {
			want, err := Parse([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if !Equal(got[i], want) {
				t.Errorf("shared %v: doc %d is %s once all are decoded, want %s", share, i, got[i].JS(""), want.JS(""))
			}
		}
	}
}

// TestAllocSize: a slab's size is cut down to one the allocator gives
// exactly: a power of two up to 32 KiB, whole 8 KiB pages above.
func TestAllocSize(t *testing.T) {
	for _, tt := range []struct{ in, want int }{
		{8, 8}, {9, 8}, {1000, 512}, {1024, 1024}, {1500, 1024},
		{20480, 16384}, {32768, 32768},
		{40000, 32768}, // 4 pages of 8,192 = 32,768 (40,000 - 7,232)
		{49152, 49152}, // 6 pages
		{65535, 57344}, // 7 pages
		{65536, 65536},
	} {
		if got := allocSize(tt.in); got != tt.want {
			t.Errorf("allocSize(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
