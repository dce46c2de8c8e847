package claude

import (
	"fmt"
	"strings"
	"testing"
)

// badTool fails the MCP SDK's tools/list validation ("properties": null),
// so its whole server's list fails in Claude Code (spec §2).
const badTool = `{"name":"t","description":"bad","inputSchema":{"type":"object","properties":null}}`

// failedCatalog has one good server and failed servers with these names.
func failedCatalog(t testing.TB, names ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"servers":[{"name":"good","tools":[{"name":"alpha","description":"Good tool alpha","inputSchema":{"type":"object"}},` +
		`{"name":"customer_lookup","description":"c","inputSchema":{"type":"object"},"_meta":{"anthropic/alwaysLoad":true}}]}`)
	for _, n := range names {
		fmt.Fprintf(&b, `,{"name":%q,"tools":[%s]}`, n, badTool)
	}
	b.WriteString("]}")
	return b.String()
}

const (
	notePrefix = "No matching deferred tools found. Note: these MCP servers are connected, but listing their tools failed, so their tools are unavailable for now: "
	noteSuffix = ". Treat this as a failure to load their tools — do not conclude the server has no tools."
)

// TestFailedListNote: the texts the real Claude Code 2.1.332 returned for
// these catalogs (recorded with the oracle harness, 2026-12-01).
func TestFailedListNote(t *testing.T) {
	var many []string
	for i := 33; i >= 1; i-- {
		many = append(many, fmt.Sprintf("s%02d", i))
	}
	var first30 []string
	for i := 1; i <= 30; i++ {
		first30 = append(first30, fmt.Sprintf("s%02d", i))
	}
	reminder := "\n\n<system-reminder>\nAlready available in this conversation: mcp__good__customer_lookup. Call it directly.\n</system-reminder>"
	tests := []struct {
		name    string
		servers []string
		prof    Profile
		query   string
		want    string
	}{
		// Catalog order hostile.server, broken; the note sorts them.
		{"spec example", []string{"hostile.server", "broken"}, V2_1_332, "zzzqqq", notePrefix + "broken; hostile.server" + noteSuffix},
		{"2.1.329 has it", []string{"hostile.server", "broken"}, V2_1_329, "zzzqqq", notePrefix + "broken; hostile.server" + noteSuffix},
		{"2.1.328 does not", []string{"hostile.server", "broken"}, V2_1_328, "zzzqqq", NoMatch},
		// Raw names, UTF-16 code-unit order: upper case before lower case,
		// " " < "-" < "." < "_", the emoji's surrogates last.
		{"order", []string{"b", "A", "a_c", "a-c", "a.c", "Z", "hostile.server", "a c", "x😀"}, V2_1_332, "zzzqqq",
			notePrefix + "A; Z; a c; a-c; a.c; a_c; b; hostile.server; x😀" + noteSuffix},
		{"select: too", []string{"broken"}, V2_1_332, "select:nothing_here", notePrefix + "broken" + noteSuffix},
		// 33 failed: 30 names, then "…and 3 more" (33 - 30 = 3).
		{"cap", many, V2_1_332, "zzzqqq", notePrefix + strings.Join(first30, "; ") + "; …and 3 more" + noteSuffix},
		{"a hit: no note", []string{"broken"}, V2_1_332, "alpha", ""},
		{"reminder after the note", []string{"broken"}, V2_1_332, "customer_lookup", notePrefix + "broken" + noteSuffix + reminder},
		{"no failed server", nil, V2_1_332, "zzzqqq", NoMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(catalogOf(t, failedCatalog(t, tt.servers...)), tt.prof, DefaultOptions())
			r := run(t, s, tt.query, 5)
			if tt.want == "" {
				if len(r.Hits) == 0 || strings.Contains(r.Shown, "listing their tools failed") {
					t.Fatalf("hits %q, shown %q", names(r), r.Shown)
				}
				return
			}
			if len(r.Hits) != 0 || r.Shown != tt.want {
				t.Fatalf("hits %q\nshown %q\nwant  %q", names(r), r.Shown, tt.want)
			}
			if got := (2*len(r.Shown) + 4) / 5; r.ShownTokens != got {
				t.Errorf("tokens %d, want ceil(%d bytes / 2.5) = %d", r.ShownTokens, len(r.Shown), got)
			}
		})
	}
}

func TestCompareUTF16(t *testing.T) {
	// U+FF21 (one unit, 0xFF21) sorts after U+1F600 (surrogates 0xD83D…)
	// in JavaScript, before it in UTF-8 byte order.
	if compareUTF16("\uFF21", "😀") <= 0 || compareUTF16("a", "b") >= 0 || compareUTF16("x", "x") != 0 {
		t.Error("compareUTF16")
	}
}

// TestSurfaceSchemaRequired: ToolSearch's input schema requires
// max_results up to 2.1.331 and only query from 2.1.332 (spec §0).
func TestSurfaceSchemaRequired(t *testing.T) {
	for _, tt := range []struct {
		prof Profile
		want string
	}{
		{V2_1_332, `"required":["query"]`},
		{V2_1_329, `"required":["query","max_results"]`},
		{V2_1_328, `"required":["query","max_results"]`},
	} {
		sf, err := New(catalogOf(t, failedCatalog(t)), tt.prof, DefaultOptions()).Surface(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(sf.Tools) == 0 || !strings.Contains(string(sf.Tools[0].InputSchema), tt.want) {
			t.Errorf("%s: %+v, want %s", tt.prof.Version, sf.Tools, tt.want)
		}
	}
}
