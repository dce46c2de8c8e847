package codexjs

import (
	"strings"
	"testing"
)

func ts(t *testing.T, s string) string { return renderTypeScript(parseTree(t, s)) }

// §4.6 dispatch rules and test vectors.
func TestRenderTypeScript(t *testing.T) {
	tests := []struct{ in, want string }{
		{`true`, "unknown"},
		{`false`, "never"},
		{`5`, "unknown"},
		{`{"type":"string"}`, "string"},
		{`{"type":"integer"}`, "number"},
		{`{"type":["string","null"]}`, "string | null"},
		{`{"const":"a"}`, `"a"`},
		{`{"enum":["a",1,null,{"b":1,"a":2}]}`, `"a" | 1 | null | {"b":1,"a":2}`},
		{`{"anyOf":[{"type":"string"},{"type":"number"}]}`, "string | number"},
		{`{"type":"array","items":{"type":"string"}}`, "Array<string>"},
		{`{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]}`, "[string, number]"},
		{`{"type":"array"}`, "unknown[]"},
		{`{"type":"object","properties":{}}`, "{ [key: string]: unknown; }"},
		{`{"type":"object","properties":{},"additionalProperties":false}`, "{}"},
		{`{"type":"object","properties":{"b":{"type":"number"},"a":{"type":"string"}},"required":["a"]}`, "{ a: string; b?: number; }"},
		{`{"type":"object","properties":{"foo-bar":{"type":"string"},"1x":{"type":"string"},"$ok":{"type":"string"}},"additionalProperties":{"type":"boolean"}}`,
			`{ $ok?: string; "1x"?: string; "foo-bar"?: string; [key: string]: boolean; }`},
		{`{"properties":{"a":{"type":"string"}}}`, "{ a?: string; }"},
		{`{"items":{"type":"string"}}`, "Array<string>"},
		{`{"description":"only"}`, "unknown"},
		// weather_tool input and output.
		{`{"type":"object","properties":{"weather":{"type":"array","description":"look up weather for a given list of locations","items":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}}},"required":["weather"]}`,
			"{\n  // look up weather for a given list of locations\n  weather: Array<{ location: string; }>;\n}"},
		{`{"type":"object","properties":{"forecast":{"type":"string","description":"human readable weather forecast"}},"required":["forecast"]}`,
			"{\n  // human readable weather forecast\n  forecast: string;\n}"},
		// Description lines: trimmed, empty ones skipped; nested objects not re-indented.
		{`{"type":"object","properties":{"o":{"type":"object","description":" a \n\n b\r\n","properties":{"i":{"type":"string","description":"inner"}}}}}`,
			"{\n  // a\n  // b\n  o?: {\n  // inner\n  i?: string;\n};\n}"},
		// $ref with siblings; percent-decoded pointer; allOf parenthesises unions.
		{`{"$ref":"#/$defs/Label","enum":["A"],"$defs":{"Label":{"type":"string"}}}`, `(string) & ("A")`},
		{`{"type":"object","properties":{"s":{"$ref":"#/$defs/Foo%20Bar"}},"required":["s"],"$defs":{"Foo Bar":{"type":"string"}}}`, "{ s: string; }"},
		{`{"allOf":[{"$ref":"#/$defs/Choice"},{"type":"object","properties":{"value":{"type":"string"}}}],"$defs":{"Choice":{"oneOf":[{"type":"string"},{"type":"number"}]}}}`,
			"(string | number) & { value?: string; }"},
		// A nested $id resource: its fragment refs render unknown.
		{`{"type":"object","properties":{"nested":{"$id":"https://x/y","type":"object","properties":{"value":{"$ref":"#/$defs/V"}},"$defs":{"V":{"type":"string"}}}}}`,
			"{ nested?: { value?: unknown; }; }"},
		// A recursive definition with ~1/~0 escapes expands twice, then unknown.
		{`{"$ref":"#/$defs/Boolean~1Clause~0v1","$defs":{"Boolean/Clause~v1":{"type":"array","items":{"$ref":"#/$defs/Boolean~1Clause~0v1"}}}}`,
			"Array<Array<unknown>>"},
		{`{"$ref":"https://example.com/x"}`, "unknown"},
		{`{"$ref":"#/$defs/Missing"}`, "unknown"},
	}
	for _, tt := range tests {
		if got := ts(t, tt.in); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// A property description of 16,000 bytes pushes the rendering over the
// 16,000-byte cap: the whole schema becomes unknown (§4.6).
func TestRenderTypeScriptCaps(t *testing.T) {
	in := `{"type":"object","properties":{"a":{"type":"string","description":"` + strings.Repeat("d", 16000) + `"}}}`
	if got := ts(t, in); got != "unknown" {
		t.Errorf("got %.80q", got)
	}
	// 40 refs to one definition: after 32 expansions the rest are unknown.
	var props []string
	for i := 0; i < 40; i++ {
		props = append(props, `"p`+itoa(100+i)+`":{"$ref":"#/$defs/S"}`)
	}
	got := ts(t, `{"type":"object","properties":{`+strings.Join(props, ",")+`},"$defs":{"S":{"type":"string"}}}`)
	if n := strings.Count(got, "?: string;"); n != 32 {
		t.Errorf("%d expansions, want 32: %s", n, got)
	}
}

// §1.5: the MCP structured output through a ~-escaped definitions ref.
func TestOutputType(t *testing.T) {
	cat := probeCatalog(t)
	at := BuildAllTools(cat, false)
	for _, e := range at.Entries {
		if e.Name == "mcp__probe__out_schema" {
			if !strings.Contains(e.Description, "results: Array<{ id: string; score: number; }>;") {
				t.Errorf("%s", e.Description)
			}
		}
		if e.Name == "mcp__probe__out_empty" {
			if !strings.Contains(e.Description, "declare const tools: { mcp__probe__out_empty(args: {}): Promise<CallToolResult<{}>>; };") {
				t.Errorf("%s", e.Description)
			}
		}
	}
}

func FuzzRenderTypeScript(f *testing.F) {
	f.Add([]byte(`{"$ref":"#","properties":{"a":{"$ref":"#/properties/a"}}}`))
	f.Add([]byte(`{"allOf":[{"$ref":"#/$defs/A"}],"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"enum":[1,"x"]}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseFuzz(data)
		if err != nil {
			return
		}
		if s := renderTypeScript(v); len(s) > maxRenderedSchemaBytes {
			t.Fatalf("rendering of %d bytes", len(s))
		}
	})
}
