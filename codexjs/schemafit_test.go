package codexjs

import (
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

// checkFits fails when inputSchemaFits vouches for a schema that the §4
// pipeline rejects, and returns the verdict.
func checkFits(t testing.TB, in ojson.Value) bool {
	t.Helper()
	fits := inputSchemaFits(in)
	if !fits || in.Kind != ojson.Object {
		return fits
	}
	if _, err := normalizeOwned(fromOJSON(in).(*omap)); err != nil {
		t.Fatalf("inputSchemaFits vouched for a rejected schema (%v)", err)
	}
	return fits
}

func TestInputSchemaFits(t *testing.T) {
	for _, tc := range []struct {
		schema string
		fits   bool // the pipeline accepts all of them but the rejected ones below
	}{
		{`{"type":"object","properties":{"a":{"type":"string","description":"x","enum":["p","q"]}},"required":["a"]}`, true},
		{`{}`, true},
		{`{"properties":null,"$defs":7,"encrypted":null}`, true}, // null is absent; a non-object table is dropped
		{`{"properties":{"a":true,"b":{"items":false}},"additionalProperties":{"const":3}}`, true},
		{`{"anyOf":[{"$ref":"#/$defs/A"},true],"$defs":{"A":{"type":["string","integer"]}}}`, true},
		{`{"type":"object","prefixItems":[1,2]}`, true}, // canon never reads prefixItems
		// Not vouched for; the pipeline decides (accepts the first two).
		{`{"type":"foo"}`, false},                        // sanitised: type inferred
		{`{"description":5}`, false},                     // sanitised: cleared
		{`{"type":"null"}`, false},                       // rejected: singleton null
		{`{"properties":{"a":null}}`, false},             // rejected
		{`{"properties":{"a":{"items":[1]}}}`, false},    // rejected: a tuple
		{`{"properties":{"a":{"required":"x"}}}`, false}, // rejected
		{`{"properties":[]}`, false},                     // rejected
		{`{"$ref":5}`, false},                            // rejected
		{`{"anyOf":{"type":"string"}}`, false},           // rejected
		{`{"$defs":{"A":null}}`, false},                  // pruned: unreachable, accepted
	} {
		v, err := ojson.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := checkFits(t, v); got != tc.fits {
			t.Errorf("inputSchemaFits(%s) = %v, want %v", tc.schema, got, tc.fits)
		}
	}
}

// TestInputSchemaFitsCatalogs: over every tool of the shared catalogs and
// of the livemcpbench corpus, a schema inputSchemaFits vouches for is one
// the pipeline accepts, and it vouches for most of them.
func TestInputSchemaFitsCatalogs(t *testing.T) {
	for _, name := range []string{"", "../corpora/livemcpbench/catalogs"} {
		cat := loadShared(t, name)
		fits, all := 0, 0
		for _, tool := range cat.Tools() {
			if in, ok := tool.Value.Get("inputSchema"); ok {
				all++
				if checkFits(t, in) {
					fits++
				}
			}
		}
		t.Logf("%s: %d of %d input schemas vouched for", name, fits, all)
		if fits < all*9/10 {
			t.Errorf("%s: only %d of %d input schemas vouched for", name, fits, all)
		}
	}
}

func FuzzInputSchemaFits(f *testing.F) {
	for _, s := range []string{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"properties":{"a":null}}`,
		`{"anyOf":[true,{"$ref":"#/$defs/A"}],"$defs":{"A":{"const":1}}}`, `{"type":["null"]}`, `{"items":{"items":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, err := ojson.Parse(data); err == nil {
			checkFits(t, v)
		}
	})
}

// TestSchemaErrorPaths: a rejected schema's error names where canon
// stopped, keys joined by ".", array positions in brackets.
func TestSchemaErrorPaths(t *testing.T) {
	for _, tc := range []struct{ schema, err string }{
		{`{"properties":{"a":{"anyOf":[{},{"items":5}]}}}`, "properties.a.anyOf[1].items: schema is a number, not an object"},
		{`{"properties":{"":{"required":[1]}}}`, "properties..required: not a list of strings"},
		{`{"$defs":{"A":{"type":"object","properties":[]}},"$ref":"#/$defs/A"}`, "$defs.A.properties: not an object"},
		{`{"type":"null"}`, "tool input schema must not be a singleton null type"},
	} {
		v, err := ojson.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		_, err = normalizeOwned(fromOJSON(v).(*omap))
		if err == nil || err.Error() != tc.err {
			t.Errorf("normalizeOwned(%s) = %v, want %q", tc.schema, err, tc.err)
		}
	}
}
