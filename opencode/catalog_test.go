package opencode

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", name, firstDiff(got, string(want)))
	}
}

// TestCatalogGolden: the section for the demo catalog and github.json.
// github's section is also checked against OpenCode 1.18.33 by hash in
// TestOracleFixtures.
func TestCatalogGolden(t *testing.T) {
	demo := newCodeMode(corpus.Demo(), profile118())
	golden(t, "demo-catalog.golden", demo.catalog.Text+"\n")
	gh := newCodeMode(loadShared(t, "github"), profile118())
	golden(t, "github-catalog.golden", gh.catalog.Text+"\n")
}

// TestVerifiedCounts are the counts OpenCode 1.18.33 shows (§0).
func TestVerifiedCounts(t *testing.T) {
	for _, tc := range []struct {
		catalogs    []string
		shown, used int
		header      string
		ns          []NamespaceSummary
	}{
		{[]string{"github"}, 29, 1928, "## Available tools (PARTIAL - 29 of 117 shown; find the rest with tools.$codemode.search)",
			[]NamespaceSummary{{"github", 117, 29}}},
		{[]string{"github", "filesystem", "memory"}, 25, 1979, "## Available tools (PARTIAL - 25 of 140 shown; find the rest with tools.$codemode.search)",
			[]NamespaceSummary{{"filesystem", 14, 9}, {"github", 117, 8}, {"memory", 9, 8}}},
	} {
		c := newCodeMode(loadShared(t, tc.catalogs...), profile118()).catalog
		if c.Shown != tc.shown || c.Used != tc.used || !strings.HasPrefix(c.Text, tc.header+"\n\n") {
			t.Errorf("%v: %d shown, %d used, header %q", tc.catalogs, c.Shown, c.Used, strings.SplitN(c.Text, "\n", 2)[0])
		}
		if len(c.Namespaces) != len(tc.ns) {
			t.Fatalf("%v: namespaces %+v", tc.catalogs, c.Namespaces)
		}
		for i := range tc.ns {
			if c.Namespaces[i] != tc.ns[i] {
				t.Errorf("%v: namespace %+v, want %+v", tc.catalogs, c.Namespaces[i], tc.ns[i])
			}
		}
	}
}

// line makes a catalog item whose line is n UTF-16 units long.
func line(path string, n int) CatalogItem {
	return CatalogItem{Path: path, Line: strings.Repeat("x", n)}
}

// TestPlanCatalog walks the round-robin with small budgets. Costs are
// round(len/4): 10 → 3 (2.5 rounds up), 9 → 2, 6 → 2 (1.5), 5 → 1, 2 → 1.
func TestPlanCatalog(t *testing.T) {
	items := []CatalogItem{
		line("a.big", 40),  // 10
		line("a.small", 9), // 2
		line("a.tie2", 6),  // 2, ties with a.small: by path, "a.small" < "a.tie2"
		line("b.one", 10),  // 3
		line("c.x", 2),     // 1
	}
	for _, tc := range []struct {
		budget int
		shown  []bool
		used   int
		why    string
	}{
		// Round 1: a.small 2, b.one 3, c.x 1 (6). Round 2: a.tie2 2 (8);
		// b and c are empty. Round 3: a.big 10 > 9−8: a drops out.
		{9, []bool{false, true, true, true, true}, 8, "a.big does not fit"},
		// Round 1: a.small (2), b.one 2+3 > 4: b drops out for good, c.x
		// (3). Round 2: a.tie2 3+2 > 4: a drops out.
		{4, []bool{false, true, false, false, true}, 3, "drop-out is permanent"},
		{100, []bool{true, true, true, true, true}, 18, "everything fits"},
		{0, []bool{false, false, false, false, false}, 0, "nothing fits"},
	} {
		c, shown := PlanCatalog(items, tc.budget)
		for i := range items {
			if shown[i] != tc.shown[i] {
				t.Errorf("budget %d (%s): %s shown %v", tc.budget, tc.why, items[i].Path, shown[i])
			}
		}
		if c.Used != tc.used {
			t.Errorf("budget %d: used %d, want %d", tc.budget, c.Used, tc.used)
		}
	}
	c, _ := PlanCatalog(items, 9)
	want := "## Available tools (PARTIAL - 4 of 5 shown; find the rest with tools.$codemode.search)\n\n" +
		"- a (3 tools, 2 shown)\n" + strings.Repeat("x", 9) + "\n" + strings.Repeat("x", 6) + "\n" +
		"- b (1 tool)\n" + strings.Repeat("x", 10) + "\n" +
		"- c (1 tool)\n" + "xx\n\nSearch returns complete callable signatures:\n- " + searchSignature
	if c.Text != want {
		t.Errorf("text:\n%s", firstDiff(c.Text, want))
	}
	c, _ = PlanCatalog(items, 0)
	if !strings.Contains(c.Text, "- a (3 tools, none shown)\n- b (1 tool, none shown)") {
		t.Errorf("none shown:\n%s", c.Text)
	}
	c, _ = PlanCatalog(items[4:], 1)
	if c.Text != "## Available tools (COMPLETE list - every tool is shown below with its full call signature)\n\n- c (1 tool)\nxx" {
		t.Errorf("complete: %q", c.Text)
	}
	c, _ = PlanCatalog(nil, 2000)
	if c.Text != "## Available tools\n\nNo tools are currently available." {
		t.Errorf("empty: %q", c.Text)
	}
}

func TestFirstLineAndCatalogLine(t *testing.T) {
	long := strings.Repeat("d", 121)
	for _, tc := range []struct{ desc, want string }{
		{"Create an issue", "Create an issue"},
		{"  padded \t\nsecond", "padded"},
		{"\nsecond line only", ""},
		{strings.Repeat("d", 120), strings.Repeat("d", 120)},                      // 120 is kept whole
		{long, strings.Repeat("d", 119) + "..."},                                  // 121 → 119 + "..."
		{strings.Repeat("é", 121), strings.Repeat("é", 119) + "..."},              // UTF-16 units, not bytes
		{strings.Repeat("a", 118) + "😀😀", strings.Repeat("a", 118) + "\uFFFD..."}, // cut inside a surrogate pair
	} {
		if got := FirstLine(tc.desc); got != tc.want {
			t.Errorf("FirstLine(%q) = %q, want %q", tc.desc, got, tc.want)
		}
	}
	if got := CatalogLine("tools.a.b(input: {}): Promise<unknown>", ""); got != "  - tools.a.b(input: {}): Promise<unknown>" {
		t.Errorf("no description: %q", got)
	}
	if got := CatalogLine("sig", "Desc"); got != "  - sig // Desc" {
		t.Errorf("%q", got)
	}
}

func TestNamesAndPaths(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"get_me", "get_me"}, {"close-ticket", "close-ticket"}, {"a.b c", "a_b_c"}, {"ünï", "_n_"}, {"😀x", "__x"},
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"github.create_issue", "tools.github.create_issue"},
		{"chrome-devtools.list_pages", `tools["chrome-devtools"].list_pages`},
		{"mongodb.insert-many", `tools.mongodb["insert-many"]`},
		{"a_b_c.t-1", `tools.a_b_c["t-1"]`},
		{"x.1st", `tools.x["1st"]`},
		{"$x._y", "tools.$x._y"},
	} {
		if got := RenderPath(tc.in); got != tc.want {
			t.Errorf("RenderPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNamespaces: the longest server name that prefixes a key wins, so
// svc's admin_reset files under svc_admin (oracle-verified, edge.json).
// Path order is the tools object's: namespaces by their first key in
// localeCompare order (the catalog itself sorts namespaces by name).
func TestNamespaces(t *testing.T) {
	cat, err := corpus.Load("testdata/edge.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range buildEntries(cat, nil) {
		got = append(got, e.path)
	}
	want := []string{"a_b_c.t-1", "edge-cases.do_thing", "edge-cases.docs", "edge-cases.empty", "edge-cases.get_thing", "edge-cases.maps",
		"edge-cases.names", "edge-cases.noDesc", "edge-cases.refs", "edge-cases.typeless", "edge-cases.unions", "edge-cases.withOutput",
		"svc_admin.reset", "svc_admin.x", "svc.list"} // object order: svc_admin's keys sort first ("svc_admin_reset" < "svc_list")
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paths:\n got %v\nwant %v", got, want)
	}
}

// TestSignatures are renderer cases written out; the renderer is also
// checked against OpenCode's own on every shared catalog tool and on our
// edge catalog (TestOracleFixtures).
func TestSignatures(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"empty object", `{"type":"object"}`, "{}"},
		{"optional and required", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"]}`,
			"{\n  a?: string,\n  b: number,\n}"},
		{"doc comment", `{"type":"object","properties":{"q":{"type":"string","description":"The query"}}}`,
			"{\n  /** The query */\n  q?: string,\n}"},
		{"block comment with tags", `{"type":"object","properties":{"n":{"type":"array","items":{"type":"number"},"description":"Ids\n","default":[1],"maxItems":3}}}`,
			"{\n  /**\n   * Ids\n   *\n   * @default [1]\n   * @maxItems 3\n   */\n  n?: Array<number>,\n}"}, // "Ids\n" splits into "Ids", "": inner blank lines stay
		{"nested indent", `{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"boolean"}}}}}`,
			"{\n  o?: {\n    x?: boolean,\n  },\n}"},
		{"array of objects indents two levels", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"null"}}}}}}`,
			"{\n  l?: Array<{\n      x?: null,\n    }>,\n}"},
		{"quoted names", `{"type":"object","properties":{"a-b":{"type":"string"},"2":{"type":"string"}}}`,
			"{\n  \"2\"?: string,\n  \"a-b\"?: string,\n}"},
		{"enum and const", `{"type":"object","properties":{"e":{"enum":["x",1,null]},"c":{"const":{"k":true}}}}`,
			"{\n  e?: \"x\" | 1 | null,\n  c?: {\"k\":true},\n}"},
		{"union", `{"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`, "{\n  u?: string | null,\n}"},
		{"numeric union", `{"type":"object","properties":{"u":{"oneOf":[{"type":"number"},{"type":"string","enum":["NaN"]}]}}}`, "{\n  u?: number,\n}"},
		// Only type "number" triggers the numeric shortcut, not "integer".
		{"integer union", `{"type":"object","properties":{"u":{"oneOf":[{"type":"integer"},{"type":"string","enum":["NaN"]}]}}}`, "{\n  u?: number | \"NaN\",\n}"},
		{"object-or-array union", `{"type":"object","properties":{"u":{"anyOf":[{"type":"object"},{"type":"array"}]}}}`, "{\n  u?: {},\n}"},
		{"ref", `{"type":"object","$defs":{"P":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/P"}}}`, "{\n  p?: string,\n}"},
		{"recursive ref", `{"$defs":{"N":{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}}}},"$ref":"#/$defs/N"}`,
			"{\n  n?: unknown,\n}"},
		{"index signature", `{"type":"object","additionalProperties":{"type":"number"}}`, "{\n  [key: string]: number,\n}"},
		{"type list", `{"type":["string","null"]}`, "string | null"},
		{"null property throws", `{"type":"object","properties":{"a":null}}`, "unknown"},
		{"numeric description throws", `{"type":"object","properties":{"a":{"type":"string","description":5}}}`, "unknown"},
		{"enum object throws", `{"type":"object","properties":{"a":{"enum":{"x":1}}}}`, "unknown"},
		{"depth 9", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"string"}}}}}}}}}}}`,
			"{\n  a?: Array<Array<Array<Array<Array<Array<Array<Array<unknown>>>>>>>>,\n}"},
	} {
		v, err := ojson.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := schemaType(v); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	if got := Signature("github.get_me", ojson.Value{}, ojson.Value{}); got != "tools.github.get_me(input: unknown): Promise<unknown>" {
		t.Errorf("absent schemas: %q", got)
	}
}

// TestLineTokens: the cost computed from the parts is Tokens of the line.
func TestLineTokens(t *testing.T) {
	long := strings.Repeat("é", 130) // first line cut to 119 units + "..."
	for _, tc := range []struct {
		sig, desc string
		want      int
	}{
		// "  - " 4 + 16 = 20 units → 5.
		{"tools.a.b(input)", "", 5},
		// 4 + 16 + " // " 4 + 5 = 29 → round(7.25) = 7.
		{"tools.a.b(input)", "Hello\nworld", 7},
		// 4 + 16 + 4 + 119 + 3 = 146 → round(36.5) = 37.
		{"tools.a.b(input)", long, 37},
		// "😀" is 2 UTF-16 units: 4 + 17 + 4 + 2 = 27 → round(6.75) = 7.
		{"tools.a.b(input😀", "😀", 7},
		// A description whose first line is blank: no comment. 4 + 2 = 6 → round(1.5) = 2.
		{"xy", "   \nmore", 2},
	} {
		assert.Equal(t, tc.want, lineTokens(tc.sig, tc.desc), "%q %q", tc.sig, tc.desc)
		assert.Equal(t, Tokens(CatalogLine(tc.sig, tc.desc)), tc.want, "%q %q", tc.sig, tc.desc)
	}
}
