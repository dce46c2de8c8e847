package jsonpos

import (
	"encoding/json"
	"os"
	"testing"
)

func TestPositions(t *testing.T) {
	doc := "{\n  \"a\": [1, {\"b/c\": \"x\"}],\n  \"d~\": \"é\\u00e9\", \"e\": true\n}"
	ix, err := Build([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ptr       string
		line, col int // of the member key, else the value
		raw       string
	}{
		{"", 1, 1, doc},
		{"/a", 2, 3, `[1, {"b/c": "x"}]`},
		{"/a/0", 2, 9, "1"},
		{"/a/1/b~1c", 2, 13, `"x"`}, // "/" escaped as ~1; after `  "a": [1, {` (12 columns)
		{"/d~0", 3, 3, `"é\u00e9"`}, // "~" escaped as ~0
		{"/e", 3, 20, "true"},       // é is one column: 3 + len(`"d~": "é\u00e9", `) in code points = 3 + 17
	}
	for _, tt := range tests {
		p, ok := ix.Lookup(tt.ptr)
		if !ok {
			t.Errorf("%q not indexed", tt.ptr)
			continue
		}
		if l, c := ix.LineCol(p.Start()); l != tt.line || c != tt.col {
			t.Errorf("%q at %d:%d, want %d:%d", tt.ptr, l, c, tt.line, tt.col)
		}
		if raw, _ := ix.Raw(tt.ptr); string(raw) != tt.raw {
			t.Errorf("%q raw %q, want %q", tt.ptr, raw, tt.raw)
		}
	}
	if ix.Len() != 7 {
		t.Errorf("%d values indexed, want 7", ix.Len())
	}
	if got := Pointer("servers", "0", "a/b~"); got != "/servers/0/a~1b~0" {
		t.Errorf("Pointer = %q", got)
	}
}

func TestDuplicateKeyKeepsLast(t *testing.T) {
	ix, err := Build([]byte(`{"k":1,"k":22}`))
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := ix.Raw("/k"); string(raw) != "22" {
		t.Errorf("/k = %s, want the last value 22", raw)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":}`, `[1,]`, `"\x"`, `01x`, `{"a":1} 2`, `-`, `1.`, `1e`, "\"\x01\"", `tru`, `"\u12"`} {
		if _, err := Build([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzBuild: never panics, and accepts exactly what encoding/json accepts.
func FuzzBuild(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"\ud83d\ude00"}]}`, `[]`, `"x"`, `{"a":1,"a":2}`, `-0.5e+3`, `{"x":[[[]]]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := Build(data)
		if err == nil && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if err != nil && json.Valid(data) {
			t.Fatalf("rejected valid JSON %q: %v", data, err)
		}
		if err == nil {
			p, _ := ix.Lookup("")
			if p.Value < 0 || p.End > len(data) {
				t.Fatalf("root %+v out of range", p)
			}
			ix.LineCol(len(data))
		}
	})
}

// BenchmarkBuild indexes the largest shared catalog (azure.json, 795 kB).
func BenchmarkBuild(b *testing.B) {
	data, err := os.ReadFile("../../../shared/catalogs/azure.json")
	if err != nil {
		b.Skipf("shared catalogs not found: %v", err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := Build(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLookupFold: encoding/json matches member names case-insensitively,
// so a catalog with "Tools" loads; LookupFold finds it.
func TestLookupFold(t *testing.T) {
	ix, err := Build([]byte(`{"Tools":[{"NAME":"a"}],"tools2":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, _, ok := ix.LookupFold("/tools/0/name"); !ok || got != "/Tools/0/NAME" {
		t.Errorf("LookupFold = %q %v, want /Tools/0/NAME", got, ok)
	}
	if _, _, ok := ix.LookupFold("/tools/1"); ok {
		t.Error("found a missing element")
	}
}

func TestTokensAndFieldName(t *testing.T) {
	for ptr, want := range map[string]string{
		"":                             "",
		"/content/2/text":              "content[2].text",
		"/inputSchema/required/0":      "inputSchema.required[0]",
		"/_meta/a~1b/c~0d":             "_meta.a/b.c~d",
		"/properties/-1":               "properties.-1",
		"/properties/body/description": "properties.body.description",
	} {
		if got := FieldName(Tokens(ptr)); got != want {
			t.Errorf("FieldName(Tokens(%q)) = %q, want %q", ptr, got, want)
		}
	}
}
