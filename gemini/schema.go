package gemini

import (
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// WaitForPreviousDescription is the description of the boolean
// wait_for_previous property that the CLI appends to every object schema
// (DeclarativeTool.addWaitForPreviousParameter; gemini.md §3). Gemini CLI
// is Apache-2.0; see THIRD_PARTY_LICENSES.txt.
const WaitForPreviousDescription = "Set to true to wait for all previously requested tools in this turn to complete before starting. Set to false (or omit) to run in parallel. Use true when this tool depends on the output of previous tools."

// WaitForPrevious is the property's name.
const WaitForPrevious = "wait_for_previous"

// Parameters is the parametersJsonSchema Gemini CLI 0.61.0 sends for an
// MCP tool (gemini.md §3 "Exact schema changes"), built from the tool's
// inputSchema as the CLI receives it:
//
//  1. JSON.parse: a repeated key keeps its first position and its last
//     value (ojson Dedup).
//  2. The MCP SDK's zod parse of the tools/list result puts the schema's
//     known keys first — "type", "properties", "required", those present —
//     and the other keys after them in the server's order (§3 "Key
//     order", observed: type, properties, required, $schema,
//     additionalProperties, $defs). Nested values are left as they are.
//  3. discoverTools' transform, over every object and array of the whole
//     schema: an object whose "type" is an array of exactly two entries,
//     one "null" and the other a string X, gets "type": X and "nullable":
//     true ("nullable" keeps its place when it is there, else comes last).
//     Arrays of three or more types are left alone.
//  4. addWaitForPreviousParameter: the object's "properties" (created last
//     when absent) get "wait_for_previous" {"type":"boolean",
//     "description": WaitForPreviousDescription} at the end, or in the
//     place of a property of that name. It is never added to "required".
//
// Nothing else changes: $schema, additionalProperties, format, default,
// anyOf, $ref and $defs pass through. The input must be what Listable
// accepts (an object of type "object").
func Parameters(input ojson.Value) ojson.Value {
	s := zodOrder(input.Dedup())
	s = nullable(s)
	return addWaitForPrevious(s)
}

// zodOrder moves the known keys of the MCP SDK's inputSchema shape to the
// front, in its order (§3 "Key order").
func zodOrder(v ojson.Value) ojson.Value {
	ms := v.Members()
	out := make([]ojson.Member, 0, len(ms)+1)
	for _, k := range [...]string{"type", "properties", "required"} {
		if x, ok := v.Get(k); ok {
			out = append(out, ojson.Member{Key: k, Value: x})
		}
	}
	for _, m := range ms {
		if m.Key != "type" && m.Key != "properties" && m.Key != "required" {
			out = append(out, m)
		}
	}
	return ojson.ObjectOf(out...)
}

// nullable is discoverTools' transform (step 3 of Parameters).
func nullable(v ojson.Value) ojson.Value {
	switch v.Kind {
	case ojson.Array:
		out := make([]ojson.Value, v.Len())
		for i, e := range v.Array() {
			out[i] = nullable(e)
		}
		return ojson.ArrayOf(out...)
	case ojson.Object:
		ms := append([]ojson.Member(nil), v.Members()...)
		if t, ok := v.Get("type"); ok && t.Kind == ojson.Array && t.Len() == 2 {
			ts := t.Array()
			for i, e := range ts {
				if e.Kind == ojson.String && e.Str() == "null" && ts[1-i].Kind == ojson.String {
					set(&ms, "type", ts[1-i])
					set(&ms, "nullable", ojson.Value{Kind: ojson.Bool, Bool: true})
					break
				}
			}
		}
		for i := range ms {
			ms[i].Value = nullable(ms[i].Value)
		}
		return ojson.ObjectOf(ms...)
	}
	return v
}

// set gives key the value v, in its place when present, else at the end.
func set(ms *[]ojson.Member, key string, v ojson.Value) {
	for i := range *ms {
		if (*ms)[i].Key == key {
			(*ms)[i].Value = v
			return
		}
	}
	*ms = append(*ms, ojson.Member{Key: key, Value: v})
}

// addWaitForPrevious is step 4 of Parameters: only for a schema whose type
// is "object" and whose properties are absent or an object.
func addWaitForPrevious(s ojson.Value) ojson.Value {
	if t, ok := s.Get("type"); !ok || t.Kind != ojson.String || t.Str() != "object" {
		return s
	}
	props, ok := s.Get("properties")
	if ok && props.Kind != ojson.Object {
		return s
	}
	pm := append([]ojson.Member(nil), props.Members()...)
	set(&pm, WaitForPrevious, ojson.ObjectOf(
		ojson.Member{Key: "type", Value: ojson.StringOf("boolean")},
		ojson.Member{Key: "description", Value: ojson.StringOf(WaitForPreviousDescription)},
	))
	ms := append([]ojson.Member(nil), s.Members()...)
	set(&ms, "properties", ojson.ObjectOf(pm...))
	return ojson.ObjectOf(ms...)
}

// Listable says why the MCP SDK inside Gemini CLI 0.61.0 refuses a tool of
// a tools/list answer (its zod ToolSchema), or "" when it accepts it. One
// refused tool fails the whole answer: the CLI then declares no tool of
// that server (discoverTools rethrows the parse error; §1). The checks:
// name a string; title, description optional strings; inputSchema an
// object with "type": "object", "properties" (optional) an object whose
// values are objects or arrays, "required" (optional) an array of strings;
// outputSchema optional with the same shape; annotations an optional
// object of an optional string title and optional boolean hints; _meta an
// optional object; icons an optional array of objects with a string src.
// field names the member at fault.
func Listable(t *corpus.Tool) (field, why string) {
	v := t.Value.Dedup()
	if v.Kind != ojson.Object {
		return "", "the tool is not a JSON object"
	}
	if n, ok := v.Get("name"); !ok || n.Kind != ojson.String {
		return "name", "the name is not a string"
	}
	for _, k := range [...]string{"title", "description"} {
		if x, ok := v.Get(k); ok && x.Kind != ojson.String {
			return k, fmt.Sprintf("%q is %s, not a string", k, kindName(x))
		}
	}
	in, ok := v.Get("inputSchema")
	if !ok {
		return "inputSchema", "inputSchema is missing"
	}
	if f, why := objectSchema("inputSchema", in); why != "" {
		return f, why
	}
	if out, ok := v.Get("outputSchema"); ok {
		if f, why := objectSchema("outputSchema", out); why != "" {
			return f, why
		}
	}
	if a, ok := v.Get("annotations"); ok {
		if a.Kind != ojson.Object {
			return "annotations", "annotations is " + kindName(a) + ", not an object"
		}
		for _, m := range a.Dedup().Members() {
			switch m.Key {
			case "title":
				if m.Value.Kind != ojson.String {
					return "annotations.title", "annotations.title is not a string"
				}
			case "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint":
				if m.Value.Kind != ojson.Bool {
					return "annotations." + m.Key, "annotations." + m.Key + " is not a boolean"
				}
			}
		}
	}
	if m, ok := v.Get("_meta"); ok && m.Kind != ojson.Object {
		return "_meta", "_meta is " + kindName(m) + ", not an object"
	}
	if ic, ok := v.Get("icons"); ok {
		if ic.Kind != ojson.Array {
			return "icons", "icons is not an array"
		}
		for i, e := range ic.Array() {
			if src, ok := e.Get("src"); e.Kind != ojson.Object || !ok || src.Kind != ojson.String {
				return fmt.Sprintf("icons[%d]", i), "an icon without a string src"
			}
		}
	}
	return "", ""
}

// objectSchema checks the zod shape of inputSchema and outputSchema.
func objectSchema(field string, s ojson.Value) (string, string) {
	if s.Kind != ojson.Object {
		return field, field + " is " + kindName(s) + ", not an object"
	}
	if t, ok := s.Get("type"); !ok || t.Kind != ojson.String || t.Str() != "object" {
		return field + ".type", field + `.type is not "object"`
	}
	if p, ok := s.Get("properties"); ok {
		if p.Kind != ojson.Object {
			return field + ".properties", field + ".properties is " + kindName(p) + ", not an object"
		}
		for _, m := range p.Dedup().Members() {
			if m.Value.Kind != ojson.Object && m.Value.Kind != ojson.Array {
				return field + ".properties." + m.Key, fmt.Sprintf("property %q is %s, not a schema object", m.Key, kindName(m.Value))
			}
		}
	}
	if r, ok := s.Get("required"); ok {
		if r.Kind != ojson.Array {
			return field + ".required", field + ".required is not an array"
		}
		for _, e := range r.Array() {
			if e.Kind != ojson.String {
				return field + ".required", field + ".required holds " + kindName(e) + ", not only strings"
			}
		}
	}
	return "", ""
}

func kindName(v ojson.Value) string {
	switch v.Kind {
	case ojson.Null:
		return "null"
	case ojson.Bool:
		return "a boolean"
	case ojson.Number:
		return "a number"
	case ojson.String:
		return "a string"
	case ojson.Array:
		return "an array"
	case ojson.Object:
		return "an object"
	}
	return "missing"
}
