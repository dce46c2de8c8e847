package copilot

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/toolfind/toolfind/search/intent"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// catalog parses a {"servers": [...]} document.
func catalog(t testing.TB, doc string) *corpus.Catalog {
	t.Helper()
	servers, diags, err := corpus.ParseCatalog("test.json", []byte(doc))
	require.NoError(t, err)
	return &corpus.Catalog{Servers: servers, Diagnostics: diags}
}

// server is one server of tools with empty object schemas, each described
// "D:<name>".
func server(name, instructions string, tools ...string) string {
	var ts []string
	for _, n := range tools {
		b, _ := json.Marshal(n)
		d, _ := json.Marshal("D:" + n)
		ts = append(ts, fmt.Sprintf(`{"name":%s,"description":%s,"inputSchema":{"type":"object","properties":{}}}`, b, d))
	}
	nb, _ := json.Marshal(name)
	ib, _ := json.Marshal(instructions)
	return fmt.Sprintf(`{"name":%s,"instructions":%s,"tools":[%s]}`, nb, ib, strings.Join(ts, ","))
}

func servers(ss ...string) string { return `{"servers":[` + strings.Join(ss, ",") + `]}` }

// copilot.md §1.2 worked examples and toolfind's probes of the real CLI.
func TestSanitizePart(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"A.b", "A-b"},   // case kept
		{"a..b", "a--b"}, // runs not collapsed
		{"my.server/with@chars", "my-server-with-chars"}, // . / @ become -
		{"Second Server", "Second-Server"},
		{"tab\tx", "tab-x"},
		{"unicode_tést", "xn--unicode_tst-jbb"}, // punycode, spec
		{"ünï", "xn--n-nga1b"},
		{"emoji😀", "xn--emoji-3224d"},
		{"Tést", "xn--Tst-bma"},         // observed: no IDNA lowercasing
		{"é.b", "xn--9ca-b"},            // labels at "." (xn--9ca.b), then "." → "-"
		{"ok_ñ.end", "xn--ok_-9ma-end"}, // only the non-ASCII label is encoded
		{"mixé/x", "xn--mix-x-dsa"},     // "/" is no label separator: xn--mix/x-dsa
		{"日本語", "xn--wgv71a119e"},
		{"ß", "xn--zca"}, // no UTS 46 mapping to "ss"
		{"İx", "xn--x-cka"},
		{"ümlaut-srv", "xn--mlaut-srv-p9a"},
	} {
		assert.Equal(t, tt.want, SanitizePart(tt.in), tt.in)
	}
	assert.Equal(t, "-mlaut-srv", NamespaceName("ümlaut-srv")) // one "-" per character, no punycode
	assert.Equal(t, "srv-dup", NamespaceName("srv.dup"))
}

// copilot.md §1.2: the 64-character cut and its counters, and one survivor
// per sanitising collision (observed: the raw (server, tool) that sorts
// last).
func TestNames(t *testing.T) {
	long := "long_name_" + strings.Repeat("abcdefghij", 5)
	cat := catalog(t, servers(
		server("names", "", long+"_C", long+"_A", long+"_B", long+"_D", "a.b", "a-b", "a/b", "a b", "a@b", strings.Repeat("x", 64)),
		server("srv.dup", "", "t"), server("srv-dup", "", "t"),
		server(strings.Repeat("s", 70), "", "t1", "t2"),
	))
	s := New(cat, Options{Model: "gpt-4.1", Offline: true})
	got := map[string]string{}
	for _, e := range s.Entries() {
		got[string(e.Tool.ID())] = e.Name
	}
	// "names-" (6) + "long_name_" (10) + 50 letters + "_X" = 68 > 64:
	// _A (first in raw order) keeps the cut, B, C, D get 63 characters + 2, 3, 4.
	cut64 := ("names-" + long)[:64]
	assert.Equal(t, cut64, got["names/"+long+"_A"])
	assert.Equal(t, cut64[:63]+"2", got["names/"+long+"_B"])
	assert.Equal(t, cut64[:63]+"3", got["names/"+long+"_C"])
	assert.Equal(t, cut64[:63]+"4", got["names/"+long+"_D"])
	// "a b" < "a-b" < "a.b" < "a/b" < "a@b" in bytes: a@b survives alone
	assert.Equal(t, "names-a-b", got["names/a@b"])
	for _, n := range []string{"a.b", "a-b", "a/b", "a b"} {
		_, ok := got["names/"+n]
		assert.False(t, ok, n)
	}
	assert.Equal(t, "srv-dup-t", got["srv.dup/t"]) // "srv.dup" > "srv-dup"
	_, ok := got["srv-dup/t"]
	assert.False(t, ok)
	// a 70-character server leaves no room for the tool part
	assert.Equal(t, strings.Repeat("s", 64), got[strings.Repeat("s", 70)+"/t1"])
	assert.Equal(t, strings.Repeat("s", 63)+"2", got[strings.Repeat("s", 70)+"/t2"])
	assert.Equal(t, "names-"+strings.Repeat("x", 58), got["names/"+strings.Repeat("x", 64)])

	codes := map[string]int{}
	for _, p := range s.Problems() {
		codes[p.Code]++
		assert.NotContains(t, p.Message, ".md", "no spec citations in user text")
	}
	// 4 + 1 collisions dropped; 4 long names, 2 long server names, 1 long
	// x name cut; a@b and srv.dup/t rewritten
	assert.Equal(t, map[string]int{CodeNameCollision: 5, CodeNameCut: 7, CodeNameRewritten: 2}, codes)
}

// copilot.md §1.2 "Order" and toolfind's probes: servers by raw name
// (bytes), then final names (bytes).
func TestOrder(t *testing.T) {
	cat := catalog(t, servers(
		server("é", "", "t"), server("y", "", "t"), server("b.x", "", "t"), server("b-y", "", "t"),
		server("tier", "", "a~x", "a-y", "Ab", "aa"),
	))
	var names []string
	for _, e := range New(cat, Options{Model: "gpt-4.1"}).Entries() {
		names = append(names, e.Name)
	}
	// "b-y" < "b.x" < "tier" < "y" < "é"; in tier "Ab" < "a-x" (raw a~x) < "a-y" < "aa"
	assert.Equal(t, []string{"b-y-t", "b-x-t", "tier-Ab", "tier-a-x", "tier-a-y", "tier-aa", "y-t", "xn--9ca-t"}, names)
}

func tools(prefix string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%s%02d", prefix, i))
	}
	return out
}

// copilot.md §1.1 threshold (runs TH12–TH14) and the model×wire matrix
// (toolfind's runs with 14 and 15 MCP tools).
func TestDecide(t *testing.T) {
	thirteen := catalog(t, servers(server("th", "", tools("t", 13)...)))
	fourteen := catalog(t, servers(server("th", "", tools("t", 14)...)))
	// 17 builtins + 13 = 30: not above 30
	s := New(thirteen, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	assert.Equal(t, 30, s.Total())
	assert.Equal(t, Full, s.Mode())
	// 17 + 14 = 31: all 14 deferred
	s = New(fourteen, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	assert.Equal(t, 31, s.Total())
	assert.Equal(t, Deferred, s.Mode())
	for _, e := range s.Entries() {
		assert.True(t, e.Deferred)
		assert.True(t, strings.HasSuffix(e.JSON, `,"defer_loading":true}`), e.JSON)
	}
	// online: 19 builtins + 13 = 32 defers
	assert.Equal(t, Deferred, New(thirteen, Options{Model: "claude-sonnet-4.5", API: Anthropic}).Mode())
	// the toolSearch setting off
	assert.Equal(t, Full, New(fourteen, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true, NoToolSearch: true}).Mode())

	for _, tt := range []struct {
		model string
		api   API
		n     int // MCP tools
		want  Mode
	}{
		{"claude-sonnet-4", Anthropic, 14, Deferred},
		{"claude-sonnet-4.6", Anthropic, 14, Deferred},
		{"claude-opus-4.5", Anthropic, 14, Deferred},
		{"claude-opus-4.6", Anthropic, 14, Deferred},
		{"claude-haiku-4.5", Anthropic, 14, Deferred},
		{"claude-3.7-sonnet", Anthropic, 14, Full},
		{"claude-sonnet-4.5", OpenAI, 14, ReminderOnly},
		{"claude-haiku-4.5", OpenAI, 14, ReminderOnly},
		{"claude-3.7-sonnet", OpenAI, 15, Full},
		{"gpt-5.4", OpenAI, 15, Full},      // 16 builtins + 15 = 31, no search on chat
		{"gpt-5.4", Responses, 15, Hosted}, // 16 + 15 = 31
		{"gpt-5.4", Responses, 14, Full},   // 16 + 14 = 30
		{"gpt-5.4-mini", Responses, 15, Hosted},
		{"gpt-5.5", Responses, 15, Hosted},
		{"gpt-5.2", Responses, 15, Full},
		{"gpt-5-mini", Responses, 15, Full},
		{"gpt-5.1-codex", Responses, 15, Full},
		{"gpt-5.3-codex", Responses, 15, Full},
		{"gpt-4.1", Responses, 15, Full},
		{"o3", Responses, 15, Full},
		{"gpt-4.1", OpenAI, 20, Full},
		{"gemini-2.5-pro", OpenAI, 20, Full},
	} {
		cat := catalog(t, servers(server("th", "", tools("t", tt.n)...)))
		assert.Equal(t, tt.want, New(cat, Options{Model: tt.model, API: tt.api, Offline: true}).Mode(), "%s over %s with %d", tt.model, tt.api, tt.n)
	}
	assert.Len(t, Builtins("gpt-5.4", true), 16)
	assert.Len(t, Builtins("gpt-5.1-codex", true), 16)
	assert.Len(t, Builtins("gpt-5.2", true), 17)
	assert.Len(t, Builtins("claude-sonnet-4.5", false), 19)
}

// copilot.md §1.1 "deferTools: never" (run DT): that server's tools are
// sent in full; on the Responses wire they come as plain functions before
// the namespaces.
func TestNeverDefer(t *testing.T) {
	cat := catalog(t, servers(server("big", "", tools("t", 15)...), server("keep", "", "x")))
	s := New(cat, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true, NeverDefer: []string{"keep"}})
	for _, e := range s.Entries() {
		assert.Equal(t, e.Tool.Server == "big", e.Deferred, e.Name)
	}
	v, ok := s.View(corpus.NewToolID("keep", "x"))
	require.True(t, ok)
	assert.Equal(t, `{"name":"keep-x","description":"D:x","input_schema":{"properties":{},"type":"object"}}`, v.Text)
	assert.NotContains(t, s.Reminder("intro"), "keep")
}

// The entries of copilot.md §2's evidence, byte for byte (R1 is
// server-everything's get-resource-links over chat completions; R3 and R6
// the probe's tool_000 over Anthropic and inside a Responses namespace).
func TestSpecEntries(t *testing.T) {
	everything := `{"servers":[{"name":"everything","tools":[{"name":"get-resource-links","description":"Returns up to ten resource links that reference different types of resources","inputSchema":{"type":"object","properties":{"count":{"type":"number","minimum":1,"maximum":10,"default":3,"description":"Number of resource links to return (1-10)"}},"$schema":"http://json-schema.org/draft-07/schema#"}}]}]}`
	s := New(catalog(t, everything), Options{Model: "gpt-4.1", API: OpenAI, Offline: true})
	v, ok := s.View(corpus.NewToolID("everything", "get-resource-links"))
	require.True(t, ok)
	assert.Equal(t, `{"type":"function","function":{"name":"everything-get-resource-links","description":"Returns up to ten resource links that reference different types of resources","parameters":{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"count":{"default":3,"description":"Number of resource links to return (1-10)\n\n{minimum: 1, maximum: 10}","type":"number"}},"type":"object"}}}`, v.Text)

	probe := `{"name":"tool_000","description":"Generic probe tool number 0. Returns a short string.","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"query"}},"required":["q"]}}`
	var more []string
	for i := 1; i < 42; i++ {
		more = append(more, fmt.Sprintf(`{"name":"tool_%03d","description":"d","inputSchema":{"type":"object"}}`, i))
	}
	fake := `{"servers":[{"name":"fake","tools":[` + probe + "," + strings.Join(more, ",") + `]}]}`
	s = New(catalog(t, fake), Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	v, _ = s.View(corpus.NewToolID("fake", "tool_000"))
	assert.Equal(t, `{"name":"fake-tool_000","description":"Generic probe tool number 0. Returns a short string.","input_schema":{"properties":{"q":{"description":"query","type":"string"}},"required":["q"],"type":"object"},"defer_loading":true}`, v.Text)

	odd := strings.Replace(fake, `"name":"fake"`, `"name":"my.server/with@chars"`, 1)
	s = New(catalog(t, odd), Options{Model: "gpt-5.4", API: Responses, Offline: true})
	v, _ = s.View(corpus.NewToolID("my.server/with@chars", "tool_000"))
	assert.Equal(t, `{"type":"namespace","name":"my-server-with-chars","description":"MCP server \"my.server/with@chars\".","tools":[{"name":"my-server-with-chars-tool_000","description":"Generic probe tool number 0. Returns a short string.","parameters":{"properties":{"q":{"description":"query","type":"string"}},"required":["q"],"type":"object"},"strict":false,"type":"function","defer_loading":true}]}`, v.Text)
}

// copilot.md §1.3, the keyword probe (run KW) over chat completions and
// Anthropic, and toolfind's further probes; each expectation is what the
// real CLI sent.
func TestSchema(t *testing.T) {
	for _, tt := range []struct {
		name, in, openai, anthropic string
	}{
		{"kw_schema (spec run KW)",
			`{"type":"object","title":"KwTitle","description":"top desc","properties":{"s":{"type":"string","description":"sdesc","pattern":"^a+$","minLength":2,"maxLength":9,"format":"email","default":"aa","examples":["aaa"],"title":"S"},"n":{"type":"number","minimum":0,"maximum":10,"exclusiveMinimum":0,"multipleOf":0.5},"i":{"type":"integer","enum":[1,2,3],"const":2},"arr":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true},"arr_noitems":{"type":"array"},"obj":{"type":"object","properties":{"x":{"type":"string"}},"patternProperties":{"^y":{"type":"string"}},"additionalProperties":{"type":"string"}},"one":{"oneOf":[{"type":"string"},{"type":"integer"}]},"all":{"allOf":[{"type":"string"},{"minLength":1}]},"nul":{"type":"string","nullable":true},"neg":{"not":{"type":"string"}},"cond":{"if":{"type":"string"},"then":{"minLength":1}},"notype":{"description":"no type at all"}},"required":["s","missing_prop"],"anyOf":[{"required":["s"]},{"required":["n"]}]}`,
			`{"description":"top desc\n\n{anyOf: [{\"required\":[\"s\"]},{\"required\":[\"n\"]}]}","properties":{"all":{"allOf":[{"type":"string"},{"description":"{minLength: 1}"}]},"arr":{"items":{"type":"string"},"type":"array","description":"{minItems: 1, maxItems: 3, uniqueItems: true}"},"arr_noitems":{"type":"array","items":{}},"cond":{"description":"{if: {\"type\":\"string\"}, then: {\"minLength\":1}}"},"i":{"const":2,"enum":[1,2,3],"type":"integer"},"n":{"type":"number","description":"{minimum: 0, maximum: 10, multipleOf: 0.5, exclusiveMinimum: 0}"},"neg":{"description":"{not: {\"type\":\"string\"}}"},"notype":{"description":"no type at all"},"nul":{"nullable":true,"type":"string"},"obj":{"additionalProperties":{"type":"string"},"properties":{"x":{"type":"string"}},"type":"object","description":"{patternProperties: {\"^y\":{\"type\":\"string\"}}}"},"one":{"oneOf":[{"type":"string"},{"type":"integer"}]},"s":{"default":"aa","description":"sdesc\n\n{minLength: 2, maxLength: 9, pattern: \"^a+$\", format: \"email\"}","examples":["aaa"],"title":"S","type":"string"}},"required":["s","missing_prop"],"title":"KwTitle","type":"object"}`,
			`{"description":"top desc\n\n{anyOf: [{\"required\":[\"s\"]},{\"required\":[\"n\"]}]}","properties":{"all":{"allOf":[{"type":"string"},{"description":"{minLength: 1}"}]},"arr":{"items":{"type":"string"},"type":"array","description":"{minItems: 1, maxItems: 3, uniqueItems: true}"},"arr_noitems":{"type":"array","items":{}},"cond":{"description":"{if: {\"type\":\"string\"}, then: {\"minLength\":1}}"},"i":{"const":2,"enum":[1,2,3],"type":"integer"},"n":{"type":"number","description":"{minimum: 0, maximum: 10, multipleOf: 0.5, exclusiveMinimum: 0}"},"neg":{"description":"{not: {\"type\":\"string\"}}"},"notype":{"description":"no type at all"},"nul":{"type":"string","description":"{nullable: true}"},"obj":{"additionalProperties":{"type":"string"},"properties":{"x":{"type":"string"}},"type":"object","description":"{patternProperties: {\"^y\":{\"type\":\"string\"}}}"},"one":{"anyOf":[{"type":"string"},{"type":"integer"}]},"s":{"description":"sdesc\n\n{minLength: 2, maxLength: 9, pattern: \"^a+$\", format: \"email\"}\n\n{default: \"aa\", examples: [\"aaa\"]}","title":"S","type":"string"}},"required":["s","missing_prop"],"title":"KwTitle","type":"object"}`},
		{"empty schema: type and properties added", `{}`, `{"type":"object","properties":{}}`, `{"type":"object","properties":{}}`},
		{"top-level type forced, description last", `{"type":"string","minLength":1}`, `{"type":"object","properties":{},"description":"{minLength: 1}"}`, `{"type":"object","properties":{},"description":"{minLength: 1}"}`},
		{"top-level allOf merged, not dropped",
			`{"type":"object","properties":{"a":{"type":"string"}},"not":{"required":["x"]},"allOf":[{"properties":{"b":{"type":"integer","minimum":1}},"required":["b"],"description":"from allof"},{"required":["a"],"type":"object"}]}`,
			`{"properties":{"a":{"type":"string"},"b":{"type":"integer","description":"{minimum: 1}"}},"type":"object","required":["b","a"]}`,
			`{"properties":{"a":{"type":"string"},"b":{"type":"integer","description":"{minimum: 1}"}},"type":"object","required":["b","a"]}`},
		{"top-level anyOf and oneOf groups", `{"type":"object","properties":{},"oneOf":[{"required":["a"]}],"anyOf":[{"required":["b"]}],"description":"d"}`,
			`{"description":"d\n\n{anyOf: [{\"required\":[\"b\"]}]}\n\n{oneOf: [{\"required\":[\"a\"]}]}","properties":{},"type":"object"}`,
			`{"description":"d\n\n{anyOf: [{\"required\":[\"b\"]}]}\n\n{oneOf: [{\"required\":[\"a\"]}]}","properties":{},"type":"object"}`},
		{"boolean subschemas, tuple items, empty description",
			`{"type":"object","properties":{"f":false,"t":true,"tup":{"type":"array","items":[{"type":"string","minLength":1},{"type":"number"}]},"e":{"type":"string","description":"","minLength":1},"arr":{"type":"array","minItems":1}}}`,
			`{"properties":{"arr":{"type":"array","items":{},"description":"{minItems: 1}"},"e":{"description":"{minLength: 1}","type":"string"},"f":{"description":"{schema: false}"},"t":{},"tup":{"items":{"anyOf":[{"type":"string","description":"{minLength: 1}"},{"type":"number"}]},"type":"array"}},"type":"object"}`,
			`{"properties":{"arr":{"type":"array","items":{},"description":"{minItems: 1}"},"e":{"description":"{minLength: 1}","type":"string"},"f":{"description":"{schema: false}"},"t":{},"tup":{"items":{"anyOf":[{"type":"string","description":"{minLength: 1}"},{"type":"number"}]},"type":"array"}},"type":"object"}`},
		{"Anthropic's second group", `{"$schema":"x","type":"object","nullable":true,"default":{},"properties":{"a":{"type":"string","default":"v","examples":["w"],"nullable":false,"description":"da","maxLength":3},"b":{"examples":[1],"type":"integer"}}}`,
			`{"$schema":"x","default":{},"nullable":true,"properties":{"a":{"default":"v","description":"da\n\n{maxLength: 3}","examples":["w"],"nullable":false,"type":"string"},"b":{"examples":[1],"type":"integer"}},"type":"object"}`,
			`{"properties":{"a":{"description":"da\n\n{maxLength: 3}\n\n{default: \"v\", examples: [\"w\"], nullable: false}","type":"string"},"b":{"type":"integer","description":"{examples: [1]}"}},"type":"object","description":"{$schema: \"x\", default: {}, nullable: true}"}`},
		// copilot.md §1.3: on the Anthropic wire a nested oneOf becomes
		// anyOf and comes after the node's own sorted keys (description,
		// title, type), ahead of the added description/items keys.
		{"nested oneOf renamed after own keys", `{"type":"object","properties":{"p":{"type":"string","title":"T","oneOf":[{"minLength":1},{"const":"x"}],"description":"pd"},"q":{"oneOf":[{"type":"array"}],"default":1}}}`,
			`{"properties":{"p":{"description":"pd","oneOf":[{"description":"{minLength: 1}"},{"const":"x"}],"title":"T","type":"string"},"q":{"default":1,"oneOf":[{"type":"array","items":{}}]}},"type":"object"}`,
			`{"properties":{"p":{"description":"pd","title":"T","type":"string","anyOf":[{"description":"{minLength: 1}"},{"const":"x"}]},"q":{"anyOf":[{"type":"array","items":{}}],"description":"{default: 1}"}},"type":"object"}`},
		{"numbers as the CLI prints them", `{"type":"object","properties":{"a":{"type":"number","minimum":1e16,"maximum":1.5e-07,"multipleOf":1e2,"exclusiveMinimum":-0,"exclusiveMaximum":1e-5}}}`,
			`{"properties":{"a":{"type":"number","description":"{minimum: 1e+16, maximum: 1.5e-7, multipleOf: 100.0, exclusiveMinimum: -0.0, exclusiveMaximum: 0.00001}"}},"type":"object"}`,
			`{"properties":{"a":{"type":"number","description":"{minimum: 1e+16, maximum: 1.5e-7, multipleOf: 100.0, exclusiveMinimum: -0.0, exclusiveMaximum: 0.00001}"}},"type":"object"}`},
	} {
		v, err := ojson.Parse([]byte(tt.in))
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.openai, compact(rewriter{}.Schema(v)), "openai: "+tt.name)
		assert.Equal(t, tt.anthropic, compact(rewriter{anthropic: true}.Schema(v)), "anthropic: "+tt.name)
	}
}

// The search over toolfind's probe catalog; every expectation is what
// the real CLI's tool_search_tool returned for the same catalog
// (claude-sonnet-4.5 over the Anthropic wire).
func TestSearch(t *testing.T) {
	doc := `{"servers":[{"name":"sx","tools":[
 {"name":"dotted.name.tool","description":"Dots in the raw name.","inputSchema":{"type":"object","properties":{}}},
 {"name":"alpha_tool","description":"Generic alpha description.","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"query text","minLength":2}},"required":["q"]}},
 {"name":"beta_tool","description":"Second beta. Mentions ZEBRA.","inputSchema":{"type":"object","properties":{"zorro_param":{"type":"integer"}}}},
 {"name":"delta_tool","description":"Line one.\nSecond line starts here.","inputSchema":{"type":"object","properties":{}}},
 {"name":"eps_tool","description":"x","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["needle_enum"]}}}},
 {"name":"eta_tool","description":"z","inputSchema":{"type":"object","properties":{"nested":{"type":"object","properties":{"deepname":{"type":"string"}}}}}},
 {"name":"filler_00","description":"Filler tool 0.","inputSchema":{"type":"object","properties":{}}},
 {"name":"filler_01","description":"Filler tool 1.","inputSchema":{"type":"object","properties":{}}},
 {"name":"filler_02","description":"Filler tool 2.","inputSchema":{"type":"object","properties":{}}},
 {"name":"filler_03","description":"Filler tool 3.","inputSchema":{"type":"object","properties":{}}},
 {"name":"filler_04","description":"Filler tool 4.","inputSchema":{"type":"object","properties":{}}},
 {"name":"filler_05","description":"Filler tool 5.","inputSchema":{"type":"object","properties":{}}}]},
 {"name":"tier","tools":[
 {"name":"zz_target","description":"none","inputSchema":{"type":"object","properties":{}}},
 {"name":"aa_other","description":"mentions target","inputSchema":{"type":"object","properties":{}}},
 {"name":"ab_x","description":"p","inputSchema":{"type":"object","properties":{"target_p":{"type":"string"}}}},
 {"name":"ac_y","description":"p","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"a target here"}}}}]},
 {"name":"plain","instructions":"Plain server instructions.","tools":[{"name":"one","description":"first","inputSchema":{"type":"object"}}]}]}`
	s := New(catalog(t, doc), Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	require.Equal(t, Deferred, s.Mode()) // 17 + 17 = 34
	for _, tt := range []struct {
		pattern string
		limit   int
		want    []string // or the message
		text    string
	}{
		{pattern: `dotted\.name`, text: `No tools found matching pattern 'dotted\.name'.`}, // raw names are not searched
		{pattern: `dotted-name`, want: []string{"sx-dotted-name-tool"}},
		{pattern: `^Generic`, want: []string{"sx-alpha_tool"}},                                                              // each text alone
		{pattern: `alpha_tool.*Generic`, text: `No tools found matching pattern 'alpha_tool.*Generic'.`},                    // name and description not joined
		{pattern: `minLength`, text: `No tools found matching pattern 'minLength'.`},                                        // raw parameter descriptions, not the schema
		{pattern: `query text`, want: []string{"sx-alpha_tool"}},                                                            // a parameter description
		{pattern: `zorro_param`, want: []string{"sx-beta_tool"}},                                                            // a parameter name
		{pattern: `needle_enum`, text: `No tools found matching pattern 'needle_enum'.`},                                    // enum values are not
		{pattern: `deepname`, text: `No tools found matching pattern 'deepname'.`},                                          // nested properties are not
		{pattern: `zebra`, want: []string{"sx-beta_tool"}},                                                                  // case-insensitive
		{pattern: `^Second line`, text: `No tools found matching pattern '^Second line'.`},                                  // no multiline flag
		{pattern: `filler`, want: []string{"sx-filler_00", "sx-filler_01", "sx-filler_02", "sx-filler_03", "sx-filler_04"}}, // limit 5
		{pattern: `filler`, limit: 2, want: []string{"sx-filler_00", "sx-filler_01"}},
		{pattern: `\bfiller_0[0-2]\b`, want: []string{"sx-filler_00", "sx-filler_01", "sx-filler_02"}},
		{pattern: `target`, want: []string{"tier-zz_target", "tier-aa_other", "tier-ab_x", "tier-ac_y"}}, // name, description, parameter name, parameter description
		{pattern: `Plain server`, text: `No tools found matching pattern 'Plain server'.`},               // instructions are not searched
		{pattern: `alpha(?=_tool)`, want: []string{"sx-alpha_tool"}},
		{pattern: `(l)\1`, want: []string{"sx-filler_00", "sx-filler_01", "sx-filler_02", "sx-filler_03", "sx-filler_04"}},
		{pattern: `\p{L}`, text: `No tools found matching pattern '\p{L}'.`}, // "p{L}" without the u flag
		{pattern: `\u0041b`, want: []string{"tier-ab_x"}},
		{pattern: `a{`, text: `No tools found matching pattern 'a{'.`},
		{pattern: `(`, text: `Error: Invalid regex pattern '(': Unbalanced parenthesis`},
		{pattern: `[`, text: `Error: Invalid regex pattern '[': Unbalanced bracket`},
		{pattern: `\`, text: `Error: Invalid regex pattern '\': Incomplete escape`},
		{pattern: `*`, text: `Error: Invalid regex pattern '*': Invalid atom character`},
		{pattern: `x{2,1}`, text: `Error: Invalid regex pattern 'x{2,1}': Invalid quantifier`},
		{pattern: `(?i)x`, text: `Error: Invalid regex pattern '(?i)x': Invalid group modifier`},
	} {
		r := s.RunSearch(tt.pattern, tt.limit)
		assert.Equal(t, tt.want, r.Names, tt.pattern)
		assert.Equal(t, tt.text, r.Text, tt.pattern)
	}
	res, err := s.Search(context.Background(), search.Query{Text: "target", Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, `[{"type":"tool_reference","tool_name":"tier-zz_target"},{"type":"tool_reference","tool_name":"tier-aa_other"}]`, res.Shown)
	assert.Equal(t, 2, res.Limit)
	assert.Equal(t, []string{"the pattern matches the tool's name"}, res.Hits[0].Why)
}

// copilot.md §1.1 "The deferred-tools reminder", with the forms the real
// CLI wrote for toolfind's probe servers.
func TestReminder(t *testing.T) {
	cat := catalog(t, servers(
		server("sx", "", append(tools("t", 12), "dotted.name")...),
		server("plain", "Plain server instructions.", "one", "two"),
		server("b.x", "", "t"), server("b-y", "", "t"), server("é", "", "t"),
		server("names", "names server instructions", "ZZ_upper", "ok_ñ.end", "Tést", "mixé/x"),
	))
	s := New(cat, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	require.Equal(t, Deferred, s.Mode())
	got := s.Reminder("INTRO")
	var sx []string
	for _, n := range tools("t", 12) {
		sx = append(sx, "- sx-"+n)
	}
	want := "<system_reminder>\nINTRO\n\n" +
		"b-y MCP server. Tools prefixed with `b-y-`:\n- t\n\n" +
		"b.x MCP server. Tools:\n- b-x-t\n\n" +
		"é MCP server. Tools:\n- xn--9ca-t\n\n" +
		"names MCP server - names server instructions. Tools:\n- names-xn--ok_-9ma-end\n- names-xn--Tst-bma\n- names-ZZ_upper\n\n" +
		"names MCP server. Tools:\n- names-xn--mix-x-dsa\n\n" +
		"plain MCP server - Plain server instructions.. Tools prefixed with `plain-`:\n- one\n- two\n\n" +
		"sx MCP server. Tools:\n- sx-dotted-name\n" + strings.Join(sx, "\n") + "\n</system_reminder>"
	assert.Equal(t, want, got)
}

func TestNumber(t *testing.T) {
	// toolfind's probe of the real CLI: literal → what the CLI wrote
	for lit, want := range map[string]string{
		"1e16": "1e+16", "1e+16": "1e+16", "1E16": "1e+16", "1.5e-07": "1.5e-7", "100": "100", "100.0": "100.0",
		"1e2": "100.0", "1e21": "1e+21", "1e-5": "0.00001", "123456789012345678901234": "1.2345678901234569e+23",
		"-0": "-0.0", "-0.0": "-0.0", "1.0e0": "1.0", "0.1e1": "1.0", "18446744073709551615": "18446744073709551615",
		"18446744073709551616": "1.8446744073709552e+19", "-9223372036854775808": "-9223372036854775808",
		"1e15": "1000000000000000.0", "123.456e3": "123456.0", "0.000001": "1e-6", "1e-7": "1e-7",
	} {
		assert.Equal(t, want, Number(lit), lit)
	}
}

// A number outside the float range: the CLI reads none of the server's
// tools (toolfind's probe).
func TestUnreadableServer(t *testing.T) {
	cat := catalog(t, `{"servers":[{"name":"bad","tools":[{"name":"ok","inputSchema":{"type":"object"}},{"name":"big","inputSchema":{"type":"object","properties":{"a":{"type":"number","maximum":1e400}}}}]},{"name":"good","tools":[{"name":"x"}]}]}`)
	s := New(cat, Options{Model: "gpt-4.1"})
	require.Len(t, s.Entries(), 1)
	assert.Equal(t, "good-x", s.Entries()[0].Name)
	p := s.Problems()
	require.Len(t, p, 1)
	assert.Equal(t, CodeServerDropped, p[0].Code)
	assert.Equal(t, "big", p[0].Tool)
}

func TestHostedSaysSo(t *testing.T) {
	cat := catalog(t, servers(server("big", "", tools("t", 20)...)))
	s := New(cat, Options{Model: "gpt-5.4", API: Responses, Offline: true})
	require.Equal(t, Hosted, s.Mode())
	r, err := s.Search(context.Background(), search.Query{Text: "t0"})
	require.NoError(t, err)
	assert.Empty(t, r.Hits)
	assert.Contains(t, strings.Join(r.Notes, " "), "runs at OpenAI")
	assert.Nil(t, s.HeuristicCalls("list the things"))
}

func TestHeuristic(t *testing.T) {
	cat := catalog(t, `{"servers":[{"name":"github","tools":[
	 {"name":"create_issue","description":"Create a new issue in a repository"},
	 {"name":"list_pull_requests","description":"List pull requests"}]},{"name":"pad","tools":[`+strings.Join(func() []string {
		var o []string
		for i := range 20 {
			o = append(o, fmt.Sprintf(`{"name":"p%02d","description":"padding"}`, i))
		}
		return o
	}(), ",")+`]}]}`)
	s := New(cat, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	calls := s.HeuristicCalls("open a new issue about the login bug")
	require.Len(t, calls, 1)
	r, err := s.Replay(context.Background(), calls[0])
	require.NoError(t, err)
	require.NotEmpty(t, r.Hits, string(calls[0]))
	assert.Equal(t, "github-create_issue", r.Hits[0].Name, string(calls[0]))
	_, err = s.Replay(context.Background(), json.RawMessage(`{"limit":3}`))
	assert.ErrorContains(t, err, `"pattern" is missing`)
}

// The two pattern modes of the fitted writer on one catalog: mode 0
// names the best-ranked deferred tools (at most "names"), mode 1 joins
// the selected words' stems. The word model: weight 10 on the ninth
// feature, which only "issue" and its family word "create" have (the
// words of the best tool's name), bias -5: P(issue) = P(create) =
// 1/(1+e^-5) = 0.993, every other word 1/(1+e^5) = 0.007; threshold 0.4
// keeps those two, printed family words first: "creat|issu".
func TestHeuristicModes(t *testing.T) {
	cat := catalog(t, `{"servers":[{"name":"github","tools":[
	 {"name":"create_issue","description":"Create a new issue in a repository"},
	 {"name":"list_pull_requests","description":"List pull requests"}]},{"name":"pad","tools":[`+strings.Join(func() []string {
		var o []string
		for i := range 30 {
			o = append(o, fmt.Sprintf(`{"name":"p%02d","description":"padding"}`, i))
		}
		return o
	}(), ",")+`]}]}`)
	s := New(cat, Options{Model: "claude-sonnet-4.5", API: Anthropic, Offline: true})
	prompt := "open a new issue about the login bug"
	names := &intent.Logit{Features: intent.WordFeatures, Weights: make([]float64, len(intent.WordFeatures)), Options: map[string]float64{"names": 1}}
	assert.Equal(t, `{"pattern":"github-create_issue"}`, string(s.HeuristicCallsWith(prompt, names)[0]))
	w := make([]float64, len(intent.WordFeatures))
	w[8] = 10
	words := &intent.Logit{Features: intent.WordFeatures, Weights: w, Bias: -5, Threshold: 0.4, Max: 3, Options: map[string]float64{"mode": 1}}
	cands := s.WriterCandidates(prompt)
	require.GreaterOrEqual(t, len(cands), 2)
	call := s.HeuristicCallsWith(prompt, words)
	require.Len(t, call, 1)
	assert.Equal(t, `{"pattern":"creat|issu"}`, string(call[0]), "candidates %+v", cands)
	r, err := s.Replay(context.Background(), call[0])
	require.NoError(t, err)
	require.NotEmpty(t, r.Hits)
	assert.Equal(t, "github-create_issue", r.Hits[0].Name)
}
