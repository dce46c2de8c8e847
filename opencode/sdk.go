package opencode

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// rejection is why the MCP SDK inside OpenCode refuses a tools/list
// answer: one invalid tool fails the whole answer, and OpenCode then runs
// without any tool of that server (§0 "A server … is dropped for the
// whole run"; the same happens to a server whose tools/list does not
// parse). Verified with opencode-oracle for a property schema that is not
// an object (true) and a "required" that is not an array; the other rules
// are the SDK's Tool schema as documented (description and title strings,
// inputSchema an object of type "object", properties an object of
// objects, required an array of strings).
type rejection struct {
	tool  *corpus.Tool
	field string
	msg   string
}

// sdkReject checks one tool against the MCP SDK's Tool schema.
func sdkReject(t *corpus.Tool) *rejection {
	r := func(field, format string, a ...any) *rejection {
		return &rejection{tool: t, field: field, msg: fmt.Sprintf(format, a...)}
	}
	for _, k := range []string{"description", "title"} {
		if v, ok := t.Value.Get(k); ok && v.Kind != ojson.String {
			return r(k, "%s is %s, not a string", k, v.Kind)
		}
	}
	if a, ok := t.Value.Get("annotations"); ok {
		if a.Kind != ojson.Object {
			return r("annotations", "annotations is %s, not an object", a.Kind)
		}
		ms := a.Members()
		if hasDuplicateKey(ms) {
			ms = a.Dedup().Members()
		}
		for _, m := range ms {
			want := ojson.Bool
			switch m.Key {
			case "title":
				want = ojson.String
			case "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint":
			default:
				continue
			}
			if m.Value.Kind != want {
				return r("annotations."+m.Key, "annotations.%s is %s, not a %s", m.Key, m.Value.Kind, want)
			}
		}
	}
	in := t.InputSchema
	if in.Kind != ojson.Object {
		return r("inputSchema", "inputSchema is %s, not an object", in.Kind)
	}
	if ty, _ := in.Get("type"); !isStr(ty, "object") {
		return r("inputSchema.type", `inputSchema.type is not "object"`)
	}
	if p, ok := in.Get("properties"); ok {
		if p.Kind != ojson.Object {
			return r("inputSchema.properties", "inputSchema.properties is %s, not an object", p.Kind)
		}
		for _, m := range jsMembers(p) {
			if m.Value.Kind != ojson.Object && m.Value.Kind != ojson.Array {
				return r("inputSchema.properties."+m.Key, "the schema of property %q is %s, not an object", m.Key, m.Value.Kind)
			}
		}
	}
	if req, ok := in.Get("required"); ok {
		if req.Kind != ojson.Array {
			return r("inputSchema.required", "inputSchema.required is %s, not an array", req.Kind)
		}
		for _, e := range req.Array() {
			if e.Kind != ojson.String {
				return r("inputSchema.required", "inputSchema.required holds a %s, not only strings", e.Kind)
			}
		}
	}
	return nil
}

// rejectedServers maps each server whose tools/list the SDK would refuse
// to the first offending tool.
func rejectedServers(cat *corpus.Catalog) map[string]*rejection {
	out := map[string]*rejection{}
	for _, s := range cat.Servers {
		for _, t := range s.Tools {
			if rj := sdkReject(t); rj != nil {
				out[s.Name] = rj
				break
			}
		}
	}
	return out
}

// rejectionProblems reports every tool of a refused server.
func rejectionProblems(cat *corpus.Catalog, client string, rejected map[string]*rejection) []corpus.Diagnostic {
	var out []corpus.Diagnostic
	for _, s := range cat.Servers {
		rj := rejected[s.Name]
		if rj == nil {
			continue
		}
		for _, t := range s.Tools {
			d := corpus.Diagnostic{Severity: corpus.Error, Code: "opencode-server-dropped", Client: client, File: s.Source,
				Server: s.Name, Tool: t.Name}
			if t == rj.tool {
				d.Field = rj.field
				d.Message = "the MCP SDK refuses this tools/list answer because " + rj.msg + ", so OpenCode runs without any tool of this server"
			} else {
				d.Message = fmt.Sprintf("hidden: OpenCode runs without this server's tools because its tool %q is invalid (%s)", rj.tool.Name, rj.msg)
			}
			out = append(out, d)
		}
	}
	return out
}

// outputSchemaProblem reports why the MCP SDK would refuse a tool's
// outputSchema, or "". The SDK checks it with the rest of the tools/list
// answer (an object of type "object", properties an object of objects,
// required an array of strings) and compiles it with a JSON Schema
// validator, which fails on a reference it cannot resolve. OpenCode then
// lists the server's tools again without validating output schemas, and
// they come back without them: every tool of that server shows
// Promise<unknown> (oracle-verified for an outputSchema of type "string").
func outputSchemaProblem(t *corpus.Tool) string {
	raw, ok := t.Value.Get("outputSchema")
	if !ok {
		return ""
	}
	if raw.Kind != ojson.Object {
		return "outputSchema is " + raw.Kind.String() + ", not an object"
	}
	if ty, _ := raw.Get("type"); !isStr(ty, "object") {
		return `outputSchema.type is not "object"`
	}
	if p, ok := raw.Get("properties"); ok {
		if p.Kind != ojson.Object {
			return "outputSchema.properties is not an object"
		}
		for _, m := range jsMembers(p) {
			if m.Value.Kind != ojson.Object && m.Value.Kind != ojson.Array {
				return fmt.Sprintf("the output schema of property %q is not an object", m.Key)
			}
		}
	}
	if req, ok := raw.Get("required"); ok {
		if req.Kind != ojson.Array {
			return "outputSchema.required is not an array"
		}
		for _, e := range req.Array() {
			if e.Kind != ojson.String {
				return "outputSchema.required holds a non-string"
			}
		}
	}
	if ref := unresolvedRef(raw, raw); ref != "" {
		return fmt.Sprintf("outputSchema has a reference the validator cannot resolve (%q)", ref)
	}
	return ""
}

// subschemaMaps and subschemaKeys are the JSON Schema keywords whose
// values are schemas (maps of schemas, or a schema or array of schemas).
var (
	subschemaMaps = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	subschemaKeys = []string{"additionalProperties", "items", "prefixItems", "additionalItems", "anyOf", "oneOf", "allOf",
		"not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"}
)

// unresolvedRef returns the first $ref in schema positions of s that does
// not point into root ("#" or a JSON Pointer "#/…"), or "".
func unresolvedRef(s, root ojson.Value) string {
	switch s.Kind {
	case ojson.Array:
		for _, e := range s.Array() {
			if r := unresolvedRef(e, root); r != "" {
				return r
			}
		}
		return ""
	case ojson.Object:
	default:
		return ""
	}
	if ref, ok := s.Get("$ref"); ok && ref.Kind == ojson.String && !resolvePointer(root, ref.Str()) {
		return ref.Str()
	}
	for _, k := range subschemaMaps {
		if m, ok := s.Get(k); ok && m.Kind == ojson.Object {
			for _, mm := range m.Members() {
				if r := unresolvedRef(mm.Value, root); r != "" {
					return r
				}
			}
		}
	}
	for _, k := range subschemaKeys {
		if v, ok := s.Get(k); ok {
			if r := unresolvedRef(v, root); r != "" {
				return r
			}
		}
	}
	return ""
}

// resolvePointer reports whether ref ("#" or "#/a/b") names a value
// inside root.
func resolvePointer(root ojson.Value, ref string) bool {
	if ref == "#" {
		return true
	}
	if !strings.HasPrefix(ref, "#/") {
		return false
	}
	v := root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v.Kind {
		case ojson.Object:
			next, ok := v.Get(tok)
			if !ok {
				return false
			}
			v = next
		case ojson.Array:
			i, ok := arrayIndex(tok)
			if !ok || i >= uint64(len(v.Array())) {
				return false
			}
			v = v.Array()[i]
		default:
			return false
		}
	}
	return true
}

// outputFallback maps each server whose output schemas OpenCode loses to
// the first tool that caused it.
func outputFallback(cat *corpus.Catalog, rejected map[string]*rejection) map[string]*rejection {
	out := map[string]*rejection{}
	for _, s := range cat.Servers {
		if rejected[s.Name] != nil {
			continue
		}
		for _, t := range s.Tools {
			if msg := outputSchemaProblem(t); msg != "" {
				out[s.Name] = &rejection{tool: t, field: "outputSchema", msg: msg}
				break
			}
		}
	}
	return out
}

// outputFallbackProblems reports the tools whose output type is lost.
func outputFallbackProblems(cat *corpus.Catalog, client string, lost map[string]*rejection) []corpus.Diagnostic {
	var out []corpus.Diagnostic
	for _, s := range cat.Servers {
		rj := lost[s.Name]
		if rj == nil {
			continue
		}
		for _, t := range s.Tools {
			if _, has := t.Value.Get("outputSchema"); !has && t != rj.tool {
				continue
			}
			out = append(out, corpus.Diagnostic{Severity: corpus.Warning, Code: "opencode-output-schema-dropped", Client: client, File: s.Source,
				Server: s.Name, Tool: t.Name, Field: "outputSchema",
				Message: fmt.Sprintf("OpenCode lists this server's tools without output schemas because %s (tool %q), so the signature returns Promise<unknown>", rj.msg, rj.tool.Name)})
		}
	}
	return out
}
