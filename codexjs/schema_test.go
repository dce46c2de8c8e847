package codexjs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

func parseTree(t testing.TB, s string) any {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return fromOJSON(v)
}

// sanitized runs §4.3 on one (sub)schema and prints it compactly.
func sanitized(t *testing.T, s string) string {
	v := parseTree(t, s)
	sanitizeSchema(&v)
	return serdeText(v)
}

// §4.3 test vectors. Objects print in insertion order (serde_json
// preserve_order), so written-back keys keep their place and new ones
// come last.
func TestSanitizeVectors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"properties":{"query":{"description":"search query"}}}`, `{"properties":{"query":{}},"type":"object"}`},
		{`{"description":"Ticket identifier","title":"Ticket ID"}`, `{}`},
		{`{"type":"object","properties":{"page":{"type":"integer"},"tags":{"type":"array"}}}`,
			`{"type":"object","properties":{"page":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}}`},
		{`{"additionalProperties":false}`, `{"additionalProperties":false,"type":"object","properties":{}}`},
		{`{"additionalProperties":{"type":"string"}}`, `{"additionalProperties":{"type":"string"},"type":"object","properties":{}}`},
		{`{"minimum":1}`, `{"minimum":1,"type":"number"}`},
		{`{"multipleOf":5}`, `{"multipleOf":5,"type":"number"}`},
		{`{"enum":["fast","safe"]}`, `{"enum":["fast","safe"],"type":"string"}`},
		{`{"const":"file"}`, `{"enum":["file"],"type":"string"}`},
		{`{"format":"date-time"}`, `{"format":"date-time","type":"string"}`},
		{`{}`, `{}`},
		{`{"type":"object","properties":{"extra":{}}}`, `{"type":"object","properties":{"extra":{}}}`},
		{`{"prefixItems":[{"type":"string"}]}`, `{"prefixItems":[{"type":"string"}],"type":"array","items":{"type":"string"}}`},
		{`{"type":["object","null"]}`, `{"type":["object","null"],"properties":{}}`},
		{`{"type":["array","null"]}`, `{"type":["array","null"],"items":{"type":"string"}}`},
		{`{"type":"enum","enum":["a"]}`, `{"type":"string","enum":["a"]}`},
		{`{"type":"const","const":"tagged"}`, `{"type":"string","enum":["tagged"]}`},
		{`{"type":["string","null"],"description":"d"}`, `{"type":["string","null"],"description":"d"}`},
		{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, `{"anyOf":[{"type":"string"},{"type":"null"}]}`},
		// Children of an exempt composition are still sanitised.
		{`{"oneOf":[{"const":"exact"},{"type":"number"}]}`, `{"oneOf":[{"enum":["exact"],"type":"string"},{"type":"number"}]}`},
		{`{"allOf":[{"type":"string"},{"description":"x"}]}`, `{"allOf":[{"type":"string"},{}]}`},
		{`{"allOf":[{"$ref":"#/$defs/A"},{"type":"object"}]}`, `{"allOf":[{"$ref":"#/$defs/A"},{"type":"object","properties":{}}]}`},
		// A boolean schema becomes a string; inside additionalProperties it stays.
		{`true`, `{"type":"string"}`},
		{`{"type":"object","properties":{"b":false},"additionalProperties":true}`, `{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":true}`},
		// A definition table that is not an object is removed.
		{`{"type":"object","$defs":null}`, `{"type":"object","properties":{}}`},
	}
	for _, tt := range tests {
		if got := sanitized(t, tt.in); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func normalized(t *testing.T, s string) (string, error) {
	v := parseTree(t, s)
	o, ok := v.(*omap)
	if !ok {
		t.Fatalf("%s is not an object", s)
	}
	n, err := normalizeInputSchema(o)
	if err != nil {
		return "", err
	}
	return serdeText(n), nil
}

// The whole pipeline: pre-patch (§4.1), allowed keywords and serialization
// order (§4.2), pruning (§4.4).
func TestNormalizeInputSchema(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"type":"object"}`, `{"type":"object","properties":{}}`},
		{`{"type":"object","properties":null}`, `{"type":"object","properties":{}}`},
		// title, default, examples, format, pattern, minimum… are dropped;
		// fields in struct order; properties sorted.
		{`{"properties":{"z":{"type":"string","title":"Z","default":"a","pattern":"x"},"a":{"type":"integer","minimum":1}},"required":["z"],"type":"object","$schema":"x"}`,
			`{"type":"object","properties":{"a":{"type":"integer"},"z":{"type":"string"}},"required":["z"]}`},
		// Unused definitions are pruned, reachable ones (also through a
		// nested pointer and transitively) kept; an empty table goes.
		{`{"type":"object","properties":{"u":{"$ref":"#/$defs/User/properties/name"}},"$defs":{"User":{"type":"object","properties":{"name":{"$ref":"#/definitions/Name"}}},"Unused":{"type":"string"}},"definitions":{"Name":{"type":"string"},"X":{"type":"string"}}}`,
			`{"type":"object","properties":{"u":{"$ref":"#/$defs/User/properties/name"}},"$defs":{"User":{"type":"object","properties":{"name":{"$ref":"#/definitions/Name"}}}},"definitions":{"Name":{"type":"string"}}}`},
		{`{"type":"object","$defs":{"A":{"type":"string"}}}`, `{"type":"object","properties":{}}`},
		// Percent-encoded and ~-escaped refs keep their definition.
		{`{"type":"object","properties":{"s":{"$ref":"#/$defs/Foo%20Bar"},"t":{"$ref":"#/$defs/a~1b"}},"$defs":{"Foo Bar":{"type":"string"},"a/b":{"type":"number"},"c":{"type":"string"}}}`,
			`{"type":"object","properties":{"s":{"$ref":"#/$defs/Foo%20Bar"},"t":{"$ref":"#/$defs/a~1b"}},"$defs":{"Foo Bar":{"type":"string"},"a/b":{"type":"number"}}}`},
	}
	for _, tt := range tests {
		got, err := normalized(t, tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tt.in, got, err, tt.want)
		}
	}
}

// Values that do not fit the allowed subset make Codex skip the tool
// (§4.2); the probe catalog showed it for each of these on 0.171.0.
func TestNormalizeRejects(t *testing.T) {
	for _, in := range []string{
		`{"type":"null"}`, // singleton null
		`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}`,
		`{"type":"object","properties":{"a":{"type":"string","description":5}}}`,
		`{"type":"object","properties":[]}`,
		`{"type":"object","properties":{"a":5}}`,
		`{"anyOf":[{"type":"string"}],"type":"whatever"}`,
	} {
		if got, err := normalized(t, in); err == nil {
			t.Errorf("%s: accepted as %s", in, got)
		}
	}
}

// §4.5 compaction vectors.
func TestCompaction(t *testing.T) {
	x5500 := strings.Repeat("x", 5500)
	props := make([]string, 300)
	for i := range props {
		props[i] = `"p` + itoa(i) + `":{"type":"string"}`
	}
	tests := []struct {
		name, in string
		check    func(string) bool
	}{
		{"pass 1 strips descriptions, refs and defs stay",
			`{"type":"object","description":"` + x5500 + `","properties":{"m":{"$ref":"#/$defs/metadata"}},"$defs":{"metadata":{"type":"object","description":"meta"}}}`,
			func(s string) bool {
				return s == `{"type":"object","properties":{"m":{"$ref":"#/$defs/metadata"}},"$defs":{"metadata":{"type":"object","properties":{}}}}`
			}},
		{"dropped keywords are not measured",
			`{"type":"object","examples":["` + x5500 + `"],"properties":{"a":{"type":"string","title":"T","description":"kept"}}}`,
			func(s string) bool {
				return s == `{"type":"object","properties":{"a":{"type":"string","description":"kept"}}}`
			}},
		{"pass 2 replaces definition refs by {} and drops the tables",
			`{"type":"object","description":"` + x5500 + `","properties":{"metadata":{"$ref":"#/$defs/metadata"},"event":{"type":"object","properties":{"recurrence":{"type":"object","properties":{"pattern":{"type":"string"}}}}}},"$defs":{"metadata":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}}`,
			func(s string) bool {
				return s == `{"type":"object","properties":{"event":{"type":"object","properties":{"recurrence":{"type":"object","properties":{"pattern":{"type":"string"}}}}},"metadata":{}}}`
			}},
		{"a property named description survives; description keywords go",
			`{"type":"object","description":"` + x5500 + `","properties":{"description":{"type":"string","description":"d"},"extras":{"type":"object","description":"e","additionalProperties":{"type":"string","description":"f"}},"list":{"type":"array","items":{"type":"string","description":"g"}},"u":{"anyOf":[{"type":"string","description":"h"}]}}}`,
			func(s string) bool {
				return s == `{"type":"object","properties":{"description":{"type":"string"},"extras":{"type":"object","properties":{},"additionalProperties":{"type":"string"}},"list":{"type":"array","items":{"type":"string"}},"u":{"anyOf":[{"type":"string"}]}}}`
			}},
		{"pass 4: big compositions become {}",
			`{"type":"object","properties":{"choice":{"anyOf":[{"enum":["` + strings.Repeat("a", 2000) + `"]},{"enum":["` + strings.Repeat("b", 2000) + `"]},{"enum":["` + strings.Repeat("c", 2000) + `"]}]}}}`,
			func(s string) bool { return s == `{"type":"object","properties":{"choice":{}}}` }},
		{"a single-variant anyOf with a 5,500-byte enum",
			`{"type":"object","properties":{"choice":{"anyOf":[{"enum":["` + x5500 + `"]}]}}}`,
			func(s string) bool { return s == `{"type":"object","properties":{"choice":{}}}` }},
		{"enum objects keep their description fields",
			`{"type":"object","properties":{"choice":{"enum":[{"description":"keep me"}]}}}`,
			func(s string) bool {
				return s == `{"type":"object","properties":{"choice":{"type":"string","enum":[{"description":"keep me"}]}}}`
			}},
	}
	for _, tt := range tests {
		got, err := normalized(t, tt.in)
		if err != nil || !tt.check(got) {
			if len(got) > 400 {
				got = got[:400] + "…"
			}
			t.Errorf("%s: got %s (%v)", tt.name, got, err)
		}
	}
}

// §4.5 pass 3 applied directly: complex schemas at depth ≥ 3 become {}.
func TestCollapseDeep(t *testing.T) {
	in := `{"type":"object","properties":{
		"object_parent":{"type":"object","properties":{"complex":{"type":"object","properties":{"nested":{"type":"object","properties":{"x":{"type":"string"}}},"scalar":{"type":"string"}}}}},
		"array_parent":{"type":"array","items":{"type":"object","properties":{"nested":{"type":"object","properties":{"x":{"type":"string"}}},"scalar":{"type":"string"}}}},
		"map_parent":{"type":"object","additionalProperties":{"type":"object","properties":{"nested":{"type":"object","properties":{"x":{"type":"string"}}},"scalar":{"type":"string"}}}},
		"union_parent":{"anyOf":[{"type":"object","properties":{"nested":{"type":"object","properties":{"x":{"type":"string"}}},"scalar":{"type":"string"}}}]}}}`
	v := parseTree(t, in)
	collapseDeep(&v, 0)
	got := serdeText(v)
	for _, want := range []string{
		`"object_parent":{"type":"object","properties":{"complex":{"type":"object","properties":{"nested":{},"scalar":{"type":"string"}}}}}`,
		`"array_parent":{"type":"array","items":{"type":"object","properties":{"nested":{},"scalar":{"type":"string"}}}}`,
		`"map_parent":{"type":"object","additionalProperties":{"type":"object","properties":{"nested":{},"scalar":{"type":"string"}}}}`,
		`"union_parent":{"anyOf":[{"type":"object","properties":{"nested":{},"scalar":{"type":"string"}}}]}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}

func FuzzNormalizeInputSchema(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, `{"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"anyOf":[true,{"const":1}]}}}`,
		`{"type":["object","null"],"items":[1],"required":"x"}`, `{"$ref":"#","properties":{"a":{"$ref":"#/properties/a"}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ojson.Parse(data)
		if err != nil || v.Kind != ojson.Object {
			return
		}
		tree := fromOJSON(v).(*omap)
		if got, want := serdeLen(tree), len(serdeText(tree)); got != want {
			t.Fatalf("serdeLen %d, serialized %d bytes", got, want)
		}
		n, err := normalizeInputSchema(tree)
		if err != nil {
			return
		}
		// The result is canonical: normalising it again changes nothing
		// but the compaction it may already have had.
		_ = renderTypeScript(n)
		if s := serdeText(n); len(s) > 5000 {
			if c, err := canonicalSchema(n, true); err != nil || serdeText(c) != s {
				t.Fatalf("not canonical: %s", s)
			}
		}
	})
}

// §1.4 test vector 1 (with §0's order: description, blank line,
// instructions) and §1.5's MCP vectors.
func TestDeclarationVectors(t *testing.T) {
	cat := writeCatalog(t, `{"servers":[
	 {"name":"rmcp","instructions":"Use these tools to exercise the rmcp test server.","tools":[
	  {"name":"echo","description":"Echo back the provided message and include environment data.",
	   "inputSchema":{"type":"object","properties":{"message":{"type":"string"},"env_var":{"type":"string"}},"required":["message"]},
	   "outputSchema":{"type":"object","properties":{"echo":{"type":"string"},"env":{"type":["string","null"]}},"required":["echo","env"]}}]},
	 {"name":"sample","tools":[
	  {"name":"alpha","inputSchema":{"type":"object","properties":{},"additionalProperties":false},
	   "outputSchema":{"type":"object","properties":{},"additionalProperties":false}}]}]}`)
	at := BuildAllTools(cat, false)
	echo, _ := at.Entry("rmcp/echo")
	want := "Echo back the provided message and include environment data.\n\nUse these tools to exercise the rmcp test server." +
		"\n\nexec tool declaration:\n```ts\n" +
		"declare const tools: { mcp__rmcp__echo(args: { env_var?: string; message: string; }): Promise<CallToolResult<{ echo: string; env: string | null; }>>; };" +
		"\n```"
	if echo.Name != "mcp__rmcp__echo" || echo.Description != want {
		t.Errorf("echo:\n got %q\nwant %q", echo.Description, want)
	}
	alpha, _ := at.Entry("sample/alpha")
	if want := "\n\nexec tool declaration:\n```ts\ndeclare const tools: { mcp__sample__alpha(args: {}): Promise<CallToolResult<{}>>; };\n```"; alpha.Description != want {
		t.Errorf("alpha:\n got %q\nwant %q", alpha.Description, want)
	}
	// hidden_dynamic_tool's types (§1.5), rendered by the same renderer.
	in := ts(t, `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)
	out := ts(t, `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)
	if in != "{ city: string; }" || out != "{ ok: boolean; }" {
		t.Errorf("hidden_dynamic_tool: %s / %s", in, out)
	}
}

// TestSerdeLen: the counted length equals the serialized one, escapes
// included (\" and \\ and \n are 2 bytes, \u0001 is 6).
func TestSerdeLen(t *testing.T) {
	for _, in := range []string{`{}`, `[]`, `null`, `{"a":[1,true,false,null,"x"]}`,
		`{"q\"b\\s":"line\nnext\ttab\u0001\u001f end"}`, `[1.0e+21,-0,{"k":{}}]`} {
		v := parseTree(t, in)
		if got, want := serdeLen(v), len(serdeText(v)); got != want {
			t.Errorf("%s: serdeLen %d, serialized %d", in, got, want)
		}
	}
	// By hand: {"a":"\n"} is { + "a" (3) + : + "\n" (4) + } = 10 bytes.
	if n := serdeLen(parseTree(t, `{"a":"\n"}`)); n != 10 {
		t.Errorf(`serdeLen({"a":"\n"}) = %d, want 10`, n)
	}
}

// TestOmapLarge: past omapIndexMin keys the index map takes over lookups;
// set, get, del and deepCopy keep insertion order and positions right.
func TestOmapLarge(t *testing.T) {
	o := newOmap()
	for i := 0; i < 40; i++ {
		o.set(fmt.Sprintf("k%02d", i), i)
	}
	o.set("k05", "five") // in place
	o.del("k10")
	o.del("k00")
	o.del("absent")
	c := deepCopy(o).(*omap)
	for _, m := range []*omap{o, c} {
		if m.len() != 38 || m.keys[0] != "k01" || m.keys[8] != "k09" || m.keys[9] != "k11" {
			t.Fatalf("keys %v", m.keys)
		}
		for i, k := range m.keys {
			if m.find(k) != i {
				t.Fatalf("find(%s) = %d, want %d", k, m.find(k), i)
			}
		}
		if v, _ := m.get("k05"); v != "five" {
			t.Errorf("k05 = %v", v)
		}
		if v, ok := m.get("k39"); !ok || v != 39 {
			t.Errorf("k39 = %v %v", v, ok)
		}
		if m.has("k10") || m.has("k00") {
			t.Error("deleted keys still found")
		}
	}
}
