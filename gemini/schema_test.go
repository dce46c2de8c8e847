package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

func parse(t *testing.T, s string) ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	require.NoError(t, err, s)
	return v
}

const wfp = `"wait_for_previous":{"type":"boolean","description":"Set to true to wait for all previously requested tools in this turn to complete before starting. Set to false (or omit) to run in parallel. Use true when this tool depends on the output of previous tools."}`

// The worked example of gemini.md §3 ("Example as sent", server edge,
// echo_tool): the server sent $schema, type, additionalProperties,
// properties, required, $defs; the request has type, properties,
// required first, then the rest in the server's order; "maybe"'s
// ["string","null"] became "string" + nullable; "multi"'s three types
// stayed; wait_for_previous came last in properties.
func TestParametersSpecExample(t *testing.T) {
	in := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
	 "properties":{
	  "text":{"type":"string","description":"text to echo","minLength":1,"maxLength":100,"default":"hi","format":"email","pattern":"^.*$","examples":["a"]},
	  "maybe":{"type":["string","null"],"description":"nullable string"},
	  "multi":{"type":["string","number","null"]},
	  "choice":{"anyOf":[{"type":"string"},{"type":"integer","minimum":0,"exclusiveMaximum":10}]},
	  "one":{"oneOf":[{"const":"x"},{"enum":["y","z"]}]},
	  "nested":{"$ref":"#/$defs/Nested"},
	  "tuple":{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true}},
	 "required":["text"],
	 "$defs":{"Nested":{"type":"object","title":"NestedTitle","properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}}}}`
	want := `{"type":"object","properties":{` +
		`"text":{"type":"string","description":"text to echo","minLength":1,"maxLength":100,"default":"hi","format":"email","pattern":"^.*$","examples":["a"]},` +
		`"maybe":{"type":"string","description":"nullable string","nullable":true},` +
		`"multi":{"type":["string","number","null"]},` +
		`"choice":{"anyOf":[{"type":"string"},{"type":"integer","minimum":0,"exclusiveMaximum":10}]},` +
		`"one":{"oneOf":[{"const":"x"},{"enum":["y","z"]}]},` +
		`"nested":{"$ref":"#/$defs/Nested"},` +
		`"tuple":{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true},` + wfp + `},` +
		`"required":["text"],"$schema":"http://json-schema.org/draft-07/schema#","additionalProperties":false,` +
		`"$defs":{"Nested":{"type":"object","title":"NestedTitle","properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}}}}`
	assert.Equal(t, want, Parameters(parse(t, in)).JS(""))
}

func TestParametersCases(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		// §3: {"type":"object"} gets properties holding only wait_for_previous.
		{"no properties", `{"type":"object"}`, `{"type":"object","properties":{` + wfp + `}}`},
		// properties created last, after the server's other keys
		{"no properties, $schema", `{"$schema":"s","type":"object"}`, `{"type":"object","$schema":"s","properties":{` + wfp + `}}`},
		// either order of the pair; nullable appended unless present
		{"null first", `{"type":"object","properties":{"a":{"type":["null","integer"]}}}`,
			`{"type":"object","properties":{"a":{"type":"integer","nullable":true},` + wfp + `}}`},
		{"nullable kept in place", `{"type":"object","properties":{"a":{"nullable":false,"type":["string","null"]}}}`,
			`{"type":"object","properties":{"a":{"nullable":true,"type":"string"},` + wfp + `}}`},
		// the transform reaches items, $defs, anyOf
		{"deep", `{"type":"object","properties":{"l":{"type":"array","items":{"type":["string","null"]}},"u":{"anyOf":[{"type":["boolean","null"]}]}},"$defs":{"D":{"type":["number","null"]}}}`,
			`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","nullable":true}},"u":{"anyOf":[{"type":"boolean","nullable":true}]},` + wfp + `},"$defs":{"D":{"type":"number","nullable":true}}}`},
		// not two entries, or the other not a string: unchanged
		{"three types", `{"type":"object","properties":{"a":{"type":["string","number","null"]}}}`,
			`{"type":"object","properties":{"a":{"type":["string","number","null"]},` + wfp + `}}`},
		{"two without null", `{"type":"object","properties":{"a":{"type":["string","number"]}}}`,
			`{"type":"object","properties":{"a":{"type":["string","number"]},` + wfp + `}}`},
		{"null and an object", `{"type":"object","properties":{"a":{"type":["null",{"x":1}]}}}`,
			`{"type":"object","properties":{"a":{"type":["null",{"x":1}]},` + wfp + `}}`},
		// a property named wait_for_previous is replaced where it stands
		{"own wait_for_previous", `{"type":"object","properties":{"wait_for_previous":{"type":"string"},"b":{}}}`,
			`{"type":"object","properties":{` + wfp + `,"b":{}}}`},
		// JSON.parse: a repeated key keeps its first place and last value;
		// integer-like keys come first (ECMAScript property order)
		{"repeated and integer keys", `{"type":"object","properties":{"b":{"type":"string"},"10":{},"2":{},"b":{"type":"integer"}}}`,
			`{"type":"object","properties":{"2":{},"10":{},"b":{"type":"integer"},` + wfp + `}}`},
		// required moves before the other keys
		{"required first", `{"additionalProperties":false,"required":["a"],"type":"object","properties":{"a":{}}}`,
			`{"type":"object","properties":{"a":{},` + wfp + `},"required":["a"],"additionalProperties":false}`},
	} {
		assert.Equal(t, c.want, Parameters(parse(t, c.in)).JS(""), c.name)
	}
}

func tool(t *testing.T, server, raw string) *corpus.Tool {
	t.Helper()
	srv, _, err := corpus.ParseCatalog("t.json", []byte(`{"server":"`+server+`","tools":[`+raw+`]}`))
	require.NoError(t, err)
	require.Len(t, srv, 1)
	require.Len(t, srv[0].Tools, 1)
	return srv[0].Tools[0]
}

// The MCP SDK's zod ToolSchema (Listable): what makes it refuse.
func TestListable(t *testing.T) {
	for _, c := range []struct{ raw, field, why string }{
		{`{"name":"a","inputSchema":{"type":"object"}}`, "", ""},
		{`{"name":"a","description":"d","title":"T","inputSchema":{"type":"object","properties":{"x":{},"y":[]},"required":["x"]},"outputSchema":{"type":"object"},"annotations":{"title":"t","readOnlyHint":true},"_meta":{},"icons":[{"src":"s"}]}`, "", ""},
		{`{"name":"a"}`, "inputSchema", "inputSchema is missing"},
		{`{"name":"a","inputSchema":{"type":"string"}}`, "inputSchema.type", `inputSchema.type is not "object"`},
		{`{"name":"a","inputSchema":{}}`, "inputSchema.type", `inputSchema.type is not "object"`},
		{`{"name":"a","inputSchema":{"type":"object","properties":null}}`, "inputSchema.properties", "inputSchema.properties is null, not an object"},
		{`{"name":"a","inputSchema":{"type":"object","properties":{"x":true}}}`, "inputSchema.properties.x", `property "x" is a boolean, not a schema object`},
		{`{"name":"a","inputSchema":{"type":"object","required":"x"}}`, "inputSchema.required", "inputSchema.required is not an array"},
		{`{"name":"a","inputSchema":{"type":"object","required":[1]}}`, "inputSchema.required", "inputSchema.required holds a number, not only strings"},
		{`{"name":"a","description":5,"inputSchema":{"type":"object"}}`, "description", `"description" is a number, not a string`},
		{`{"name":"a","title":null,"inputSchema":{"type":"object"}}`, "title", `"title" is null, not a string`},
		{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}`, "outputSchema.type", `outputSchema.type is not "object"`},
		{`{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}`, "annotations.readOnlyHint", "annotations.readOnlyHint is not a boolean"},
		{`{"name":"a","inputSchema":{"type":"object"},"_meta":[]}`, "_meta", "_meta is an array, not an object"},
		{`{"name":"a","inputSchema":{"type":"object"},"icons":[{}]}`, "icons[0]", "an icon without a string src"},
	} {
		f, why := Listable(tool(t, "s", c.raw))
		assert.Equal(t, c.field, f, c.raw)
		assert.Equal(t, c.why, why, c.raw)
	}
}

// A declaration is {name, description, parametersJsonSchema}: no title,
// annotations, outputSchema, icons or _meta; a missing description is "".
func TestDeclaration(t *testing.T) {
	tl := tool(t, "my srv", `{"name":"t/1","title":"T","annotations":{"title":"A","readOnlyHint":true},"outputSchema":{"type":"object"},"_meta":{"k":1},"icons":[{"src":"x"}],"inputSchema":{"type":"object","properties":{}}}`)
	assert.Equal(t, `{"name":"mcp_my_srv_t_1","description":"","parametersJsonSchema":{"type":"object","properties":{`+wfp+`}}}`, Declaration(tl))
	tl = tool(t, "s", `{"name":"d","description":"<b> \"quoted\" é","inputSchema":{"type":"object"}}`)
	assert.Equal(t, `{"name":"mcp_s_d","description":"<b> \"quoted\" é","parametersJsonSchema":{"type":"object","properties":{`+wfp+`}}}`, Declaration(tl))
}
