package codexjs

import "github.com/toolfind/toolfind/ojson"

// maxFitDepth bounds schemaFits's recursion; deeper schemas take the full
// pipeline.
const maxFitDepth = 64

// inputSchemaFits reports, without building anything, that the §4
// pipeline (normalizeOwned) cannot reject this raw input schema: every
// value that canonicalSchema reads already has the shape it wants, or one
// sanitizeSchema gives it (a boolean schema becomes {"type":"string"},
// const becomes an enum, a definition table that is not an object is
// dropped), and the top-level type is not null. Pruning and the
// compaction passes only remove values or replace schemas by {}, so they
// keep a fitting schema fitting. False means "not sure": the caller runs
// the pipeline. tool_search uses it to skip the pipeline for the tools
// whose normalised schema it never prints (TestInputSchemaFits checks it
// against normalizeOwned).
func inputSchemaFits(in ojson.Value) bool {
	if in.Kind != ojson.Object {
		return false
	}
	for _, m := range in.Members() {
		if m.Key == "type" && typeHasNull(m.Value) {
			return false // a singleton null type is rejected (§4.2)
		}
	}
	return schemaFits(in, 0)
}

func typeHasNull(v ojson.Value) bool {
	if v.Kind == ojson.String {
		return v.Str() == "null"
	}
	for _, e := range v.Array() {
		if e.Kind == ojson.String && e.Str() == "null" {
			return true
		}
	}
	return false
}

// schemaFits is inputSchemaFits for a schema position (canon's argument).
func schemaFits(v ojson.Value, depth int) bool {
	if v.Kind == ojson.Bool {
		return true // sanitised to {"type":"string"}
	}
	if v.Kind != ojson.Object || depth > maxFitDepth {
		return false
	}
	for _, m := range v.Members() {
		x := m.Value
		if x.Kind == ojson.Null {
			// canon reads a null keyword as absent; sanitizeSchema skips
			// it (and drops a null definition table).
			continue
		}
		ok := true
		switch m.Key {
		case "$ref", "description":
			ok = x.Kind == ojson.String
		case "type":
			ok = isTypeName(x)
			if x.Kind == ojson.Array {
				ok = true
				for _, e := range x.Array() {
					ok = ok && isTypeName(e)
				}
			}
		case "encrypted":
			ok = x.Kind == ojson.Bool
		case "enum":
			ok = x.Kind == ojson.Array
		case "required":
			ok = x.Kind == ojson.Array
			for _, e := range x.Array() {
				ok = ok && e.Kind == ojson.String
			}
		case "items":
			ok = schemaFits(x, depth+1)
		case "additionalProperties":
			ok = x.Kind == ojson.Bool || schemaFits(x, depth+1)
		case "properties", "$defs", "definitions":
			if x.Kind != ojson.Object {
				// A table that is not an object is dropped by
				// sanitizeSchema; properties is not.
				ok = m.Key != "properties"
				break
			}
			for _, e := range x.Members() {
				ok = ok && schemaFits(e.Value, depth+1)
			}
		case "anyOf", "oneOf", "allOf":
			ok = x.Kind == ojson.Array
			for _, e := range x.Array() {
				ok = ok && schemaFits(e, depth+1)
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func isTypeName(v ojson.Value) bool {
	return v.Kind == ojson.String && primitiveTypeNames[v.Str()]
}
