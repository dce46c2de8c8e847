package opencode

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// FuzzTokenize checks the fast tokenizer against the regexp transcription
// of search()'s JavaScript, and the forms' invariants.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"create issues", "getHTTPStatus", "aBcD", "a1B2C", "tools.github.get_me", "Ünïcode İs", "x__y*z", "ÀB", "aÀB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if !utf8.ValidString(q) {
			return // queries are JavaScript strings: valid text
		}
		got, want := Tokenize(q), refTokenize(q)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Tokenize(%q) = %q, reference %q", q, got, want)
		}
		for _, term := range got {
			if term == "" || strings.Trim(term, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
				t.Fatalf("bad term %q", term)
			}
			fs := Forms(term)
			if fs[0] != term || len(fs) > 3 {
				t.Fatalf("Forms(%q) = %q", term, fs)
			}
		}
	})
}

// FuzzSignature feeds arbitrary JSON to the renderer: it must never panic,
// must be deterministic, and an object schema's type must open with "{"
// or be a known fallback.
func FuzzSignature(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string","description":"x\ny"}}}`,
		`{"$defs":{"N":{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}}}},"$ref":"#/$defs/N"}`,
		`{"anyOf":[null,{"type":"number"}]}`, `{"allOf":[{"$ref":5}]}`, `{"type":["object","array"],"items":null}`,
		`{"properties":"abc","required":"a"}`, `{"enum":{}}`, `null`, `[]`, `"s"`, `{"type":"object","additionalProperties":{}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ojson.Parse([]byte(s))
		if err != nil {
			return
		}
		a := Signature("ns.tool", v, v)
		if b := Signature("ns.tool", v, v); a != b {
			t.Fatal("not deterministic")
		}
		if !strings.HasPrefix(a, "tools.ns.tool(input: ") || !strings.Contains(a, "): Promise<") {
			t.Fatalf("malformed %q", a)
		}
		propertyText(v) // must not panic either
	})
}

// FuzzCatalog builds the whole code mode simulator from arbitrary tool
// lists: no panic, and every shown line is in the section.
func FuzzCatalog(f *testing.F) {
	f.Add(`{"server":"s","tools":[{"name":"a.b","description":"x","inputSchema":{"type":"object"}}]}`)
	f.Add(`{"servers":[{"name":"a","tools":[{"name":"b_c","inputSchema":{"type":"object","properties":{"p":{}}}}]},{"name":"a_b","tools":[]}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		servers, _, err := corpus.ParseCatalog("fuzz.json", []byte(s))
		if err != nil {
			return
		}
		cat := &corpus.Catalog{}
		if cat.Add(servers...) != nil {
			return
		}
		c := newCodeMode(cat, profile118())
		for i, e := range c.entries {
			if c.shown[i] && !strings.Contains(c.catalog.Text, c.line(i)) {
				t.Fatalf("%s shown but not in the section", e.path)
			}
			if got, want := lineTokens(c.index[i].signature, c.index[i].desc), Tokens(c.line(i)); got != want {
				t.Fatalf("%s: lineTokens %d, Tokens of the line %d", e.path, got, want)
			}
		}
		c.runSearch(SearchInput{Query: s})
		NewEager(cat)
	})
}

// FuzzTruncate checks Truncate's invariants.
func FuzzTruncate(f *testing.F) {
	f.Add("a\nb\nc", 2, 10)
	f.Add(strings.Repeat("x", 100), 5, 50)
	f.Fuzz(func(t *testing.T, s string, lines, bytes int) {
		lines, bytes = 1+abs(lines)%50, 1+abs(bytes)%500
		r := Truncate(s, TruncateOptions{MaxLines: lines, MaxBytes: bytes})
		n := strings.Count(s, "\n") + 1
		if !r.Truncated {
			if r.Content != s || n > lines || len(s) > bytes {
				t.Fatal("must cut")
			}
			return
		}
		if r.KeptLines > lines || r.KeptBytes > bytes || !strings.Contains(r.Content, " truncated...") {
			t.Fatalf("kept %d lines %d bytes", r.KeptLines, r.KeptBytes)
		}
		if r.Unit == "lines" && r.Removed != n-r.KeptLines || r.Unit == "bytes" && r.Removed != len(s)-r.KeptBytes {
			t.Fatalf("removed %d %s", r.Removed, r.Unit)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}
