package copilot

import (
	"strings"

	"github.com/toolfind/toolfind/ojson"
)

// Schema rewriting (copilot.md §1.3, observed for every wire). The CLI
// rewrites each MCP tool's input schema before it sends it: validation
// keywords leave their node and are appended to the node's description in
// braces, a few shapes are normalised, and on the Anthropic wire every
// keyword the Messages API does not take goes to the description too.
//
// Per node (an object schema), with its keys sorted and deduplicated:
//
//  1. Validation keywords are removed and written, in the fixed order of
//     validationKeywords (not source order), as one group
//     "{kw: <compact JSON>, kw: …}". Their values are written as they were
//     (sorted keys, serde_json numbers), not rewritten.
//  2. Anthropic only: keys outside anthropicKept form a second group, in
//     key order, with their values rewritten where they are schemas
//     (additionalItems, definitions). A nested oneOf becomes anyOf when the
//     node has no anyOf (else it joins the second group); the renamed key
//     comes right after the node's own sorted keys, ahead of added keys.
//  3. Subschemas are rewritten: properties' values, items (an array of
//     items becomes {"anyOf": [...]}), additionalProperties and
//     additionalItems when they are schemas, the entries of anyOf, allOf
//     and oneOf, and the values of $defs and definitions. A boolean schema
//     true becomes {}, false becomes {"description": "{schema: false}"}
//     (additionalProperties keeps its boolean).
//  4. The top-level node: allOf is merged (its entries' properties join
//     properties, their required lists are appended, other keys are
//     dropped), not is dropped, anyOf and oneOf each become a group of
//     their own ahead of the validation group, type is set to "object",
//     and properties {} is added when missing.
//  5. A node whose type is "array" and that has no items gets items {}.
//  6. The groups (after a non-empty string description) are joined with
//     "\n\n" into description: in place when the node had a description
//     key (a non-string one is replaced), else appended last.
//
// Keys the rewrite adds (type, properties, required, items, description)
// come after the node's own keys, in that order; the node's own keys stay
// sorted.

// validationKeywords are the keywords moved to the description, in the
// order the group lists them (copilot.md §1.3, observed: run KW and
// toolfind's own probes of every draft 2020-12 validation keyword).
var validationKeywords = []string{
	"contentEncoding", "contentMediaType", "not",
	"minLength", "maxLength", "pattern", "format",
	"minimum", "maximum", "multipleOf", "exclusiveMinimum", "exclusiveMaximum",
	"patternProperties", "minItems", "maxItems", "uniqueItems",
	"unevaluatedProperties", "propertyNames", "minProperties", "maxProperties",
	"unevaluatedItems", "contains", "minContains", "maxContains",
	"if", "then", "else", "dependentRequired", "dependentSchemas",
}

// validationIndex is the position of a keyword in validationKeywords, or
// false.
func validationIndex(k string) (int, bool) {
	for i, v := range validationKeywords {
		if v == k {
			return i, true
		}
	}
	return 0, false
}

// anthropicKept are the keys a node keeps on the Anthropic wire
// (copilot.md §1.3 provider table; observed: $schema, default, examples,
// nullable, $id, $comment, definitions, readOnly, deprecated… all moved).
func anthropicKept(k string) bool {
	switch k {
	case "type", "description", "properties", "required", "items", "enum", "const", "title",
		"anyOf", "allOf", "additionalProperties", "$ref", "$defs":
		return true
	}
	return false
}

// rewriter rewrites schemas for one wire.
type rewriter struct{ anthropic bool }

// Schema returns the input schema as the CLI sends it (the top-level
// node). An absent or non-object schema is treated as {}.
func (rw rewriter) Schema(v ojson.Value) ojson.Value {
	if v.Kind != ojson.Object {
		v = emptyObj
	}
	return rw.node(v, true)
}

// sub rewrites a value in a subschema position.
func (rw rewriter) sub(v ojson.Value) ojson.Value {
	switch v.Kind {
	case ojson.Bool:
		if v.Bool {
			return emptyObj
		}
		return obj("description", ojson.StringOf("{schema: false}"))
	case ojson.Object:
		return rw.node(v, false)
	}
	return canon(v)
}

// value rewrites a kept member's value by what its key holds.
func (rw rewriter) value(key string, v ojson.Value) ojson.Value {
	switch key {
	case "properties", "$defs", "definitions":
		if v.Kind != ojson.Object {
			return canon(v)
		}
		ms := sortedMembers(v)
		for i := range ms {
			ms[i].Value = rw.sub(ms[i].Value)
		}
		return ojson.ObjectOf(ms...)
	case "items":
		if v.Kind == ojson.Array {
			in := v.Array()
			out := make([]ojson.Value, len(in))
			for i, e := range in {
				out[i] = rw.sub(e)
			}
			return obj("anyOf", ojson.ArrayOf(out...))
		}
		return rw.sub(v)
	case "additionalProperties":
		if v.Kind == ojson.Object {
			return rw.node(v, false)
		}
		return canon(v)
	case "additionalItems":
		return rw.sub(v)
	case "anyOf", "allOf", "oneOf":
		if v.Kind != ojson.Array {
			return canon(v)
		}
		in := v.Array()
		out := make([]ojson.Value, len(in))
		for i, e := range in {
			out[i] = rw.sub(e)
		}
		return ojson.ArrayOf(out...)
	}
	return canon(v)
}

// node rewrites one object schema.
func (rw rewriter) node(v ojson.Value, top bool) ojson.Value {
	ms := sortedMembers(v)
	var (
		kept     []ojson.Member
		added    []ojson.Member
		moved    = make([]string, len(validationKeywords)) // by validationIndex
		anyMoved bool
		extras   []string
		lead     []string // top-level anyOf and oneOf groups
		desc     ojson.Value
		hasDesc  bool
		hasAnyOf bool
		renamed  []ojson.Member // a nested oneOf renamed to anyOf (Anthropic)
	)
	get := func(key string) (ojson.Value, bool) {
		for _, m := range ms {
			if m.Key == key {
				return m.Value, true
			}
		}
		return ojson.Value{}, false
	}
	_, hasAnyOf = get("anyOf")
	var mergedProps []ojson.Member
	var mergedRequired []ojson.Value
	if top {
		if all, ok := get("allOf"); ok && all.Kind == ojson.Array {
			for _, e := range all.Array() {
				if e.Kind != ojson.Object {
					continue
				}
				if p, ok := e.Get("properties"); ok && p.Kind == ojson.Object {
					mergedProps = append(mergedProps, p.Members()...)
				}
				if r, ok := e.Get("required"); ok && r.Kind == ojson.Array {
					mergedRequired = append(mergedRequired, r.Array()...)
				}
			}
		}
	}
	for _, m := range ms {
		k := m.Key
		if top {
			switch k {
			case "allOf", "not":
				continue
			case "anyOf", "oneOf":
				lead = append(lead, "{"+k+": "+compact(canon(m.Value))+"}")
				continue
			case "type":
				kept = append(kept, ojson.Member{Key: k, Value: ojson.StringOf("object")})
				continue
			}
		}
		if i, ok := validationIndex(k); ok {
			moved[i] = compact(canon(m.Value))
			anyMoved = true
			continue
		}
		if k == "description" {
			desc, hasDesc = m.Value, true
			kept = append(kept, m) // the value is settled below
			continue
		}
		if rw.anthropic {
			if k == "oneOf" && !hasAnyOf {
				// copilot.md §1.3: the renamed key comes after the
				// node's own (sorted) keys, not in anyOf's sorted place.
				renamed = append(renamed, ojson.Member{Key: "anyOf", Value: rw.value(k, m.Value)})
				continue
			}
			if !anthropicKept(k) {
				extras = append(extras, k+": "+compact(rw.value(k, m.Value)))
				continue
			}
		}
		kept = append(kept, ojson.Member{Key: k, Value: rw.value(k, m.Value)})
	}
	kept = append(kept, renamed...)
	if len(mergedProps) > 0 {
		merged := false
		for i := range kept {
			if kept[i].Key == "properties" && kept[i].Value.Kind == ojson.Object {
				all := append(append([]ojson.Member{}, kept[i].Value.Members()...), mergedProps...)
				kept[i].Value = rw.value("properties", ojson.ObjectOf(all...))
				merged = true
			}
		}
		if !merged {
			added = append(added, ojson.Member{Key: "properties", Value: rw.value("properties", ojson.ObjectOf(mergedProps...))})
		}
	}
	if top {
		if _, ok := get("type"); !ok {
			added = append(added, ojson.Member{Key: "type", Value: ojson.StringOf("object")})
		}
		if !hasKey(kept, "properties") && !hasKey(added, "properties") {
			added = append(added, ojson.Member{Key: "properties", Value: emptyObj})
		}
	}
	if len(mergedRequired) > 0 {
		done := false
		for i := range kept {
			if kept[i].Key == "required" && kept[i].Value.Kind == ojson.Array {
				kept[i].Value = ojson.ArrayOf(append(append([]ojson.Value{}, kept[i].Value.Array()...), canonAll(mergedRequired)...)...)
				done = true
			}
		}
		if !done {
			added = append(added, ojson.Member{Key: "required", Value: ojson.ArrayOf(canonAll(mergedRequired)...)})
		}
	}
	if t, ok := get("type"); ok && t.Kind == ojson.String && t.Str() == "array" && !top {
		if _, ok := get("items"); !ok {
			added = append(added, ojson.Member{Key: "items", Value: emptyObj})
		}
	}
	groups := lead
	if anyMoved {
		var parts []string
		for i, s := range moved {
			if s != "" {
				parts = append(parts, validationKeywords[i]+": "+s)
			}
		}
		groups = append(groups, "{"+strings.Join(parts, ", ")+"}")
	}
	if len(extras) > 0 {
		groups = append(groups, "{"+strings.Join(extras, ", ")+"}")
	}
	if len(groups) > 0 {
		var parts []string
		if hasDesc && desc.Kind == ojson.String && desc.Str() != "" {
			parts = append(parts, desc.Str())
		}
		text := ojson.StringOf(strings.Join(append(parts, groups...), "\n\n"))
		if hasDesc {
			for i := range kept {
				if kept[i].Key == "description" {
					kept[i].Value = text
				}
			}
		} else {
			added = append(added, ojson.Member{Key: "description", Value: text})
		}
	} else if hasDesc {
		for i := range kept {
			if kept[i].Key == "description" {
				kept[i].Value = canon(desc)
			}
		}
	}
	return ojson.ObjectOf(append(kept, added...)...)
}

func hasKey(ms []ojson.Member, key string) bool {
	for _, m := range ms {
		if m.Key == key {
			return true
		}
	}
	return false
}

func canonAll(vs []ojson.Value) []ojson.Value {
	out := make([]ojson.Value, len(vs))
	for i, v := range vs {
		out[i] = canon(v)
	}
	return out
}
