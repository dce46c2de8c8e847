package jsonpos

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestLineEnds: "\r" alone ends a line as "\n" and "\r\n" do (old Mac
// files; before, every position of a CR-only file was on line 1).
func TestLineEnds(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
	}{
		{"LF", "{\n\"a\": 1,\n  \"b\": 2}"},
		{"CRLF", "{\r\n\"a\": 1,\r\n  \"b\": 2}"},
		{"CR", "{\r\"a\": 1,\r  \"b\": 2}"},
		{"mixed", "{\r\"a\": 1,\r\n  \"b\": 2}"},
	} {
		ix, err := Build([]byte(tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct {
			ptr       string
			line, col int
		}{{"/a", 2, 1}, {"/b", 3, 3}} {
			p, _ := ix.Lookup(w.ptr)
			if l, c := ix.LineCol(p.Start()); l != w.line || c != w.col {
				t.Errorf("%s: %s at %d:%d, want %d:%d", tt.name, w.ptr, l, c, w.line, w.col)
			}
		}
	}
}

// lineColRef is the plain definition LineCol must agree with: lines end at
// "\n", "\r\n" or a lone "\r"; the column counts code points from the line
// start.
func lineColRef(data []byte, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' || data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(data[start:off]) + 1
}

// TestLineColMatchesReference checks the checkpointed column count against
// lineColRef on one long line and on many lines, with multi-byte and
// invalid UTF-8 in strings straddling the checkpoints.
func TestLineColMatchesReference(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		if i%7 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\"%s\xff\"", strings.Repeat("é€😀", i%5))
	}
	b.WriteString("]")
	for _, doc := range []string{b.String(), strings.ReplaceAll(b.String(), "\n", "")} {
		ix, err := Build([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3000; i += 13 {
			p, _ := ix.Lookup("/" + strconv.Itoa(i))
			gl, gc := ix.LineCol(p.Value)
			wl, wc := lineColRef([]byte(doc), p.Value)
			if gl != wl || gc != wc {
				t.Fatalf("element %d at %d:%d, want %d:%d", i, gl, gc, wl, wc)
			}
		}
	}
}

// TestLineColCost: a position costs at most one checkpoint interval of
// counting, however long its line. Before, LineCol counted from the line
// start, so the findings of a minified (one-line) 5 MB catalog of 32,000
// tools took 29 s; here the last element of a 2 MB line must not count
// more than runeStep+3 bytes (a checkpoint sits at the first rune boundary
// at or after each multiple of runeStep).
func TestLineColCost(t *testing.T) {
	doc := "[" + strings.Repeat(`"abcdefgh",`, 200000) + "1]"
	ix, err := Build([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	defer func(f func([]byte) int) { runeCount = f }(runeCount)
	runeCount = func(b []byte) int { most = max(most, len(b)); return utf8.RuneCount(b) }
	p, _ := ix.Lookup("/200000")
	if l, c := ix.LineCol(p.Value); l != 1 || c != len(doc)-1 { // "1" before the final "]"
		t.Errorf("last element at %d:%d, want 1:%d", l, c, len(doc)-1)
	}
	if most > runeStep+utf8.UTFMax-1 {
		t.Errorf("counted %d bytes for one position, want at most %d", most, runeStep+utf8.UTFMax-1)
	}
}

// TestLookupFoldFirstInDocumentOrder: a pointer matched case-insensitively
// is the first such member written, including Unicode folds EqualFold
// knows (K, the Kelvin sign, folds to k; ſ, the long s, to s).
func TestLookupFoldFirstInDocumentOrder(t *testing.T) {
	ix, err := Build([]byte(`{"Name": 1, "NAME": 2, "\u212aey": 3, "ſ": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ ask, want string }{
		{"/name", "/Name"}, {"/NAME", "/NAME"}, {"/key", "/\u212aey"}, {"/S", "/ſ"}, {"/nope", ""},
	} {
		got, _, ok := ix.LookupFold(tt.ask)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("LookupFold(%q) = %q, %v; want %q", tt.ask, got, ok, tt.want)
		}
	}
}
