package codexjs

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Input-schema normalisation, spec §4.1–4.5: pre-patch, sanitise, prune
// unused definitions, compact when large, then "deserialize" into the
// allowed keyword subset. The result is the serialized JsonSchema: only the
// allowed keywords, in the struct's field order, property and definition
// maps sorted by key (BTreeMap), nulls dropped (Option::None).

// Schema limits, spec §4.5.
const (
	maxCompactSchemaBytes = 5000 // MAX_COMPACT_TOOL_SCHEMA_BYTES
	maxCompactSchemaDepth = 3    // MAX_COMPACT_TOOL_SCHEMA_DEPTH
)

var (
	definitionTables   = []string{"$defs", "definitions"}
	schemaChildKeys    = []string{"items", "anyOf", "oneOf", "allOf"}
	compositionKeys    = []string{"anyOf", "oneOf", "allOf"}
	errSingletonNull   = errors.New("tool input schema must not be a singleton null type")
	primitiveTypeNames = map[string]bool{"string": true, "number": true, "boolean": true, "integer": true, "object": true, "array": true, "null": true}
)

// normalizeInputSchema runs the whole §4 pipeline on an MCP inputSchema
// object. The error is what makes Codex skip the tool (§4.2: a value that
// does not fit the allowed subset, or a singleton null type).
func normalizeInputSchema(input *omap) (*omap, error) {
	return normalizeOwned(deepCopy(input).(*omap))
}

// normalizeOwned is normalizeInputSchema on a tree that is the caller's to
// give up: it is rewritten in place.
func normalizeOwned(v *omap) (*omap, error) {
	// §4.1 pre-patch: a missing or null top-level "properties" becomes {}.
	if p, ok := v.get("properties"); !ok || p == nil {
		v.set("properties", newOmap())
	}
	var root any = v
	sanitizeSchema(&root)
	pruneUnreachableDefinitions(root)
	out, err := compactLargeSchema(&root)
	if err != nil {
		return nil, err
	}
	// canonicalSchema's top-level check, on the form already computed.
	if t, ok := out.get("type"); ok && t == "null" {
		return nil, errSingletonNull
	}
	return out, nil
}

// sanitizeSchema is §4.3, children before the parent.
func sanitizeSchema(p *any) {
	switch t := (*p).(type) {
	case bool:
		// §4.3.1 boolean schema → {"type":"string"}.
		o := newOmap()
		o.set("type", "string")
		*p = o
	case []any:
		for i := range t {
			sanitizeSchema(&t[i])
		}
	case *omap:
		if props, ok := t.get("properties"); ok {
			if pm, ok := props.(*omap); ok {
				for i := range pm.vals {
					sanitizeSchema(&pm.vals[i])
				}
			}
		}
		sanitizeKey(t, "items")
		if ap, ok := t.get("additionalProperties"); ok {
			if _, isBool := ap.(bool); !isBool {
				sanitizeKey(t, "additionalProperties")
			}
		}
		sanitizeKey(t, "prefixItems")
		for _, k := range compositionKeys {
			sanitizeKey(t, k)
		}
		for _, table := range definitionTables {
			if d, ok := t.get(table); ok {
				if dm, ok := d.(*omap); ok {
					for i := range dm.vals {
						sanitizeSchema(&dm.vals[i])
					}
				} else {
					// A definition table that is not an object (null
					// included) is removed.
					t.del(table)
				}
			}
		}
		// §4.3.3 const → enum [const], replacing any enum.
		if c, ok := t.get("const"); ok {
			t.del("const")
			t.set("enum", []any{c})
		}
		types := recognizedTypes(t)
		// §4.3.5 exemption.
		if len(types) == 0 && (t.has("$ref") || hasComposition(t)) {
			return
		}
		// §4.3.6 inference, first match wins.
		if len(types) == 0 {
			switch {
			case t.has("properties") || t.has("required") || t.has("additionalProperties"):
				types = []string{"object"}
			case t.has("items") || t.has("prefixItems"):
				types = []string{"array"}
			case t.has("enum") || t.has("format"):
				types = []string{"string"}
			case t.has("minimum") || t.has("maximum") || t.has("exclusiveMinimum") ||
				t.has("exclusiveMaximum") || t.has("multipleOf"):
				types = []string{"number"}
			default:
				t.clear()
				return
			}
		}
		// §4.3.7 write back, then defaults.
		if len(types) == 1 {
			t.set("type", types[0])
		} else {
			arr := make([]any, len(types))
			for i, s := range types {
				arr[i] = s
			}
			t.set("type", arr)
		}
		if contains(types, "object") && !t.has("properties") {
			t.set("properties", newOmap())
		}
		if contains(types, "array") && !t.has("items") {
			it := newOmap()
			it.set("type", "string")
			t.set("items", it)
		}
	}
}

func sanitizeKey(t *omap, k string) {
	if v, ok := t.get(k); ok {
		sanitizeSchema(&v)
		t.set(k, v)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// recognizedTypes reads "type" keeping the seven recognised names (§4.3.4).
func recognizedTypes(t *omap) []string {
	v, ok := t.get("type")
	if !ok {
		return nil
	}
	switch tv := v.(type) {
	case string:
		if primitiveTypeNames[tv] {
			return []string{tv}
		}
	case []any:
		var out []string
		for _, e := range tv {
			if s, ok := e.(string); ok && primitiveTypeNames[s] {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func hasComposition(t *omap) bool {
	for _, k := range compositionKeys {
		if t.has(k) {
			return true
		}
	}
	return false
}

// forEachSchemaChild visits the schema positions of §4.5 (property values,
// items, anyOf/oneOf/allOf, schema-valued additionalProperties and, when
// defs is true, definition entries). Arrays are visited as values; the
// callers iterate their elements.
func forEachSchemaChild(t *omap, defs bool, visit func(p *any)) {
	if props, ok := t.get("properties"); ok {
		if pm, ok := props.(*omap); ok {
			for i := range pm.vals {
				visit(&pm.vals[i])
			}
		}
	}
	for _, k := range schemaChildKeys {
		if v, ok := t.get(k); ok {
			visit(&v)
			t.set(k, v)
		}
	}
	if ap, ok := t.get("additionalProperties"); ok {
		if _, isBool := ap.(bool); !isBool {
			visit(&ap)
			t.set("additionalProperties", ap)
		}
	}
	if defs {
		for _, table := range definitionTables {
			if d, ok := t.get(table); ok {
				if dm, ok := d.(*omap); ok {
					for i := range dm.vals {
						visit(&dm.vals[i])
					}
				}
			}
		}
	}
}

// defPointer names one entry of a root definition table.
type defPointer struct{ table, name string }

// parseLocalDefinitionRef reads "#/$defs/<name>…" or "#/definitions/<name>…"
// (percent-decoded, JSON-pointer unescaped) per §4.4.
func parseLocalDefinitionRef(ref string) (defPointer, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return defPointer{}, false
	}
	dec, ok := urlDecode(frag)
	if !ok {
		return defPointer{}, false
	}
	tokens, ok := parsePointer(dec)
	if !ok || len(tokens) < 2 {
		return defPointer{}, false
	}
	if tokens[0] != "$defs" && tokens[0] != "definitions" {
		return defPointer{}, false
	}
	return defPointer{tokens[0], tokens[1]}, true
}

// urlDecode is the urlencoding crate's decode: %XX sequences become bytes,
// a malformed sequence stays as written, and the result must be UTF-8.
func urlDecode(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b = append(b, h<<4|l)
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	out := string(b)
	if !utf8.ValidString(out) {
		return "", false
	}
	return out, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// parsePointer splits an RFC 6901 pointer ("" or "/a/b") into decoded
// tokens; "~" must be followed by 0 or 1.
func parsePointer(p string) ([]string, bool) {
	if p == "" {
		return nil, true
	}
	if p[0] != '/' {
		return nil, false
	}
	parts := strings.Split(p[1:], "/")
	for i, part := range parts {
		if strings.Contains(part, "~") {
			var b strings.Builder
			for j := 0; j < len(part); j++ {
				if part[j] != '~' {
					b.WriteByte(part[j])
					continue
				}
				if j+1 >= len(part) || (part[j+1] != '0' && part[j+1] != '1') {
					return nil, false
				}
				if part[j+1] == '0' {
					b.WriteByte('~')
				} else {
					b.WriteByte('/')
				}
				j++
			}
			parts[i] = b.String()
		}
	}
	return parts, true
}

// pruneUnreachableDefinitions is §4.4.
func pruneUnreachableDefinitions(root any) {
	rm, ok := root.(*omap)
	if !ok {
		return
	}
	reachable := map[defPointer]bool{}
	var pending []defPointer
	var outside func(v any)
	outside = func(v any) {
		switch t := v.(type) {
		case []any:
			for _, e := range t {
				outside(e)
			}
		case *omap:
			if p, ok := refOf(t); ok {
				pending = append(pending, p)
			}
			forEachSchemaChild(t, false, func(p *any) { outside(*p) })
		}
	}
	var all func(v any)
	all = func(v any) {
		switch t := v.(type) {
		case []any:
			for _, e := range t {
				all(e)
			}
		case *omap:
			if p, ok := refOf(t); ok {
				pending = append(pending, p)
			}
			for _, v := range t.vals {
				all(v)
			}
		}
	}
	outside(root)
	for len(pending) > 0 {
		p := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if reachable[p] {
			continue
		}
		reachable[p] = true
		if tbl, ok := rm.get(p.table); ok {
			if tm, ok := tbl.(*omap); ok {
				if def, ok := tm.get(p.name); ok {
					all(def)
				}
			}
		}
	}
	for _, table := range definitionTables {
		tbl, ok := rm.get(table)
		if !ok {
			continue
		}
		tm, ok := tbl.(*omap)
		if !ok {
			continue
		}
		for _, name := range append([]string(nil), tm.keys...) {
			if !reachable[defPointer{table, name}] {
				tm.del(name)
			}
		}
		if tm.len() == 0 {
			rm.del(table)
		}
	}
}

func refOf(t *omap) (defPointer, bool) {
	r, ok := t.get("$ref")
	if !ok {
		return defPointer{}, false
	}
	s, ok := r.(string)
	if !ok {
		return defPointer{}, false
	}
	return parseLocalDefinitionRef(s)
}

// compactLargeSchema is §4.5: up to four passes, each only while the
// canonical compact size is over 5,000 bytes. A schema that does not
// deserialize counts as fitting (size 0). It returns the canonical form of
// the result, canonicalSchema(root, false), which every pass's size check
// computes anyway.
func compactLargeSchema(root *any) (*omap, error) {
	passes := []func(*any){stripDescriptions, dropDefinitions, func(p *any) { collapseDeep(p, 0) }, pruneCompositions}
	for _, pass := range passes {
		c, err := canonicalSchema(*root, false)
		if err != nil || serdeLen(c) <= maxCompactSchemaBytes {
			return c, err
		}
		pass(root)
	}
	return canonicalSchema(*root, false)
}

// Pass 1: every schema object loses its "description" keyword.
func stripDescriptions(p *any) {
	switch t := (*p).(type) {
	case []any:
		for i := range t {
			stripDescriptions(&t[i])
		}
	case *omap:
		t.del("description")
		forEachSchemaChild(t, true, stripDescriptions)
	}
}

// Pass 2: local-definition refs outside the tables become {}, then the
// root tables go.
func dropDefinitions(p *any) {
	rewriteDefinitionRefs(p)
	if t, ok := (*p).(*omap); ok {
		for _, table := range definitionTables {
			t.del(table)
		}
	}
}

func rewriteDefinitionRefs(p *any) {
	switch t := (*p).(type) {
	case []any:
		for i := range t {
			rewriteDefinitionRefs(&t[i])
		}
	case *omap:
		if _, ok := refOf(t); ok {
			*p = newOmap()
			return
		}
		forEachSchemaChild(t, false, rewriteDefinitionRefs)
	}
}

// Pass 3: complex schemas at depth ≥ 3 become {}.
func collapseDeep(p *any, depth int) {
	switch t := (*p).(type) {
	case []any:
		for i := range t {
			collapseDeep(&t[i], depth)
		}
	case *omap:
		if depth >= maxCompactSchemaDepth && isComplexSchema(t) {
			*p = newOmap()
			return
		}
		forEachSchemaChild(t, false, func(c *any) { collapseDeep(c, depth+1) })
	}
}

func isComplexSchema(t *omap) bool {
	for _, k := range schemaChildKeys {
		if t.has(k) {
			return true
		}
	}
	return t.has("properties") || t.has("additionalProperties") || t.has("$ref")
}

// Pass 4: any schema with anyOf/oneOf/allOf is replaced whole by {}.
func pruneCompositions(p *any) {
	switch t := (*p).(type) {
	case []any:
		for i := range t {
			pruneCompositions(&t[i])
		}
	case *omap:
		if hasComposition(t) {
			*p = newOmap()
			return
		}
		forEachSchemaChild(t, false, pruneCompositions)
	}
}

// schemaPath is where canon is in the schema, rendered only for an
// error: "properties.a.items", "anyOf[0]".
type schemaPath struct {
	parent  *schemaPath
	key     string
	index   int
	isIndex bool
}

func (p *schemaPath) String() string {
	if p == nil {
		return ""
	}
	parent := p.parent.String()
	switch {
	case p.isIndex:
		return parent + "[" + strconv.Itoa(p.index) + "]"
	case parent == "":
		return p.key
	}
	return parent + "." + p.key
}

// schemaError says which keyword did not fit the allowed subset.
type schemaError struct {
	path string
	msg  string
}

func (e *schemaError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// canonicalSchema "deserializes" v into the allowed subset of §4.2 and
// returns its serialization; top marks the root (singleton null check).
func canonicalSchema(v any, top bool) (*omap, error) {
	out, err := canon(v, nil)
	if err != nil {
		return nil, err
	}
	if top {
		if t, ok := out.get("type"); ok && t == "null" {
			return nil, errSingletonNull
		}
	}
	return out, nil
}

func canon(v any, path *schemaPath) (*omap, error) {
	t, ok := v.(*omap)
	if !ok {
		return nil, &schemaError{path.String(), fmt.Sprintf("schema is %s, not an object", kindName(v))}
	}
	// At most one value per key of t.
	out := &omap{keys: make([]string, 0, len(t.keys)), vals: make([]any, 0, len(t.keys))}
	field := func(k string) (any, bool) {
		x, ok := t.get(k)
		if !ok || x == nil {
			return nil, false
		}
		return x, true
	}
	sub := func(k string) *schemaPath { return &schemaPath{parent: path, key: k} }
	if x, ok := field("$ref"); ok {
		s, ok := x.(string)
		if !ok {
			return nil, &schemaError{sub("$ref").String(), "not a string"}
		}
		out.set("$ref", s)
	}
	if x, ok := field("type"); ok {
		switch tv := x.(type) {
		case string:
			if !primitiveTypeNames[tv] {
				return nil, &schemaError{sub("type").String(), fmt.Sprintf("unknown variant %q", tv)}
			}
			out.set("type", tv)
		case []any:
			arr := make([]any, len(tv))
			for i, e := range tv {
				s, ok := e.(string)
				if !ok || !primitiveTypeNames[s] {
					return nil, &schemaError{sub("type").String(), "not a list of type names"}
				}
				arr[i] = s
			}
			out.set("type", arr)
		default:
			return nil, &schemaError{sub("type").String(), "not a type name or list"}
		}
	}
	if x, ok := field("description"); ok {
		s, ok := x.(string)
		if !ok {
			return nil, &schemaError{sub("description").String(), "not a string"}
		}
		out.set("description", s)
	}
	if x, ok := field("encrypted"); ok {
		b, ok := x.(bool)
		if !ok {
			return nil, &schemaError{sub("encrypted").String(), "not a boolean"}
		}
		out.set("encrypted", b)
	}
	if x, ok := field("enum"); ok {
		arr, ok := x.([]any)
		if !ok {
			return nil, &schemaError{sub("enum").String(), "not an array"}
		}
		out.set("enum", deepCopy(arr))
	}
	if x, ok := field("items"); ok {
		c, err := canon(x, sub("items"))
		if err != nil {
			return nil, err
		}
		out.set("items", c)
	}
	if x, ok := field("properties"); ok {
		m, err := canonMap(x, sub("properties"))
		if err != nil {
			return nil, err
		}
		out.set("properties", m)
	}
	if x, ok := field("required"); ok {
		arr, ok := x.([]any)
		if !ok {
			return nil, &schemaError{sub("required").String(), "not an array"}
		}
		req := make([]any, len(arr))
		for i, e := range arr {
			s, ok := e.(string)
			if !ok {
				return nil, &schemaError{sub("required").String(), "not a list of strings"}
			}
			req[i] = s
		}
		out.set("required", req)
	}
	if x, ok := field("additionalProperties"); ok {
		if b, ok := x.(bool); ok {
			out.set("additionalProperties", b)
		} else {
			c, err := canon(x, sub("additionalProperties"))
			if err != nil {
				return nil, err
			}
			out.set("additionalProperties", c)
		}
	}
	for _, k := range compositionKeys {
		x, ok := field(k)
		if !ok {
			continue
		}
		arr, ok := x.([]any)
		if !ok {
			return nil, &schemaError{sub(k).String(), "not an array"}
		}
		list := make([]any, len(arr))
		for i, e := range arr {
			c, err := canon(e, &schemaPath{parent: sub(k), index: i, isIndex: true})
			if err != nil {
				return nil, err
			}
			list[i] = c
		}
		out.set(k, list)
	}
	for _, k := range definitionTables {
		if x, ok := field(k); ok {
			m, err := canonMap(x, sub(k))
			if err != nil {
				return nil, err
			}
			out.set(k, m)
		}
	}
	return out, nil
}

// canonMap deserializes a BTreeMap<String, JsonSchema>: sorted by key.
func canonMap(x any, path *schemaPath) (*omap, error) {
	m, ok := x.(*omap)
	if !ok {
		return nil, &schemaError{path.String(), "not an object"}
	}
	keys := append([]string(nil), m.keys...)
	sort.Strings(keys)
	out := &omap{keys: make([]string, 0, len(keys)), vals: make([]any, 0, len(keys))}
	for _, k := range keys {
		c, err := canon(m.value(k), &schemaPath{parent: path, key: k})
		if err != nil {
			return nil, err
		}
		out.set(k, c)
	}
	return out, nil
}

func kindName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case jnum:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *omap:
		return "an object"
	}
	return "unknown"
}
