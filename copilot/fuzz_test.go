package copilot

import (
	"encoding/json"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

// FuzzSchema: any schema a server sends rewrites to valid JSON, on both
// wires, without panicking.
func FuzzSchema(f *testing.F) {
	for _, s := range []string{`{}`, `{"type":"object","properties":{"a":{"type":"array","items":[true,false]}}}`,
		`{"allOf":[{"properties":{"x":{"minLength":1}},"required":["x"]}],"anyOf":[1],"oneOf":null,"not":{}}`,
		`{"properties":{"a":{"oneOf":[{"type":"array"}],"description":5,"$defs":{"x":false}}}}`, `[1,2]`, `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := ojson.Parse([]byte(doc))
		if err != nil {
			return
		}
		for _, rw := range []rewriter{{}, {anthropic: true}} {
			out := compact(rw.Schema(v))
			if !json.Valid([]byte(out)) {
				t.Fatalf("invalid JSON %q from %q", out, doc)
			}
		}
	})
}

// FuzzPattern: any pattern gives a result or a message, never a panic.
func FuzzPattern(f *testing.F) {
	for _, p := range []string{"(", "[", `\`, "*", "x{2,1}", "(?i)x", "a{", "a|b", `(?<n>a)\k<n>`, "(a+)+$"} {
		f.Add(p)
	}
	cat := `{"servers":[{"name":"s","tools":[{"name":"aaaa","description":"aaaaaaaaaaaaaaaaaaaaaaaa!"}]}]}`
	f.Fuzz(func(t *testing.T, p string) {
		s := New(catalog(t, cat), Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true, NeverDefer: nil})
		r := s.RunSearch(p, 0)
		if len(r.Names) == 0 && r.Text == "" {
			t.Fatalf("pattern %q: no hit and no message", p)
		}
		_ = regexReason(p)
		_, _, _ = braceQuantifier(p)
	})
}
