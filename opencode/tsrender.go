package opencode

import (
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// This file is the schema-to-TypeScript renderer of OpenCode's code mode
// (§0 "Signatures"; the codemode runtime's schema-to-type function, as read from
// the 1.18.33 build and checked line for line against it). It is a
// transcription of a JavaScript function over JSON.parse'd values, so it
// keeps JavaScript's semantics where they show: truthiness, `??`, property
// lookups that reach Object.prototype, spreading strings and arrays, and
// TypeErrors. OpenCode renders inside try/catch: any TypeError makes the
// whole type "unknown", which jsThrow reproduces.

// maxTypeDepth: deeper nesting renders "unknown" (`depth > 8`).
const maxTypeDepth = 8

// MaxTypeRenderNodes is toolfind's budget for rendering one schema as a
// TypeScript type: at most this many schema nodes visited, $ref expansions
// included. OpenCode's renderer has only its depth limit, so a schema whose
// definitions reference each other many times over ("billion laughs": 30
// properties per level, 8 levels, 30^8 nodes) would expand without end;
// toolfind stops at the budget, renders the type "unknown" and reports the
// tool (opencode-schema-too-large) instead of materialising it. The
// largest real schema in ../shared/catalogs visits 91 nodes
// (mongodb/atlas-streams-build).
const MaxTypeRenderNodes = 10_000

// overBudget is raised when a render passes MaxTypeRenderNodes.
type overBudget struct{}

// jsThrow is raised where the JavaScript renderer would throw a TypeError
// (reading a property of null, calling .map on an object, spreading a
// number…). Signature recovers it and renders "unknown", as OpenCode's
// try/catch does.
type jsThrow struct{ why string }

func throwf(why string) { panic(jsThrow{why}) }

// node is a schema value with the overrides the renderer applies by
// spreading ({...schema, $ref: undefined} and friends).
type node struct {
	v        ojson.Value
	noRef    bool // $ref removed
	noUnion  bool // anyOf and oneOf removed
	noAllOf  bool // allOf removed
	typeSet  bool // "type" replaced by typeVal
	typeVal  ojson.Value
	inherits bool // a function or object reached through Object.prototype: no schema keys
}

// get is JavaScript's `schema[key]` for the fixed schema keywords: absent
// (Kind Invalid) on primitives and arrays, a TypeError on null.
func (n node) get(key string) ojson.Value {
	if n.v.Kind == ojson.Null {
		throwf("cannot read property " + strconv.Quote(key) + " of null")
	}
	if n.inherits || n.v.Kind != ojson.Object {
		return ojson.Value{}
	}
	switch key {
	case "$ref":
		if n.noRef {
			return ojson.Value{}
		}
	case "anyOf", "oneOf":
		if n.noUnion {
			return ojson.Value{}
		}
	case "allOf":
		if n.noAllOf {
			return ojson.Value{}
		}
	case "type":
		if n.typeSet {
			return n.typeVal
		}
	}
	v, _ := n.v.Get(key)
	return v
}

// truthy is JavaScript's ToBoolean.
func truthy(v ojson.Value) bool {
	switch v.Kind {
	case ojson.Invalid, ojson.Null:
		return false
	case ojson.Bool:
		return v.Bool
	case ojson.Number:
		f, _ := v.Float()
		return f == f && f != 0
	case ojson.String:
		return v.Str() != ""
	}
	return true
}

func isStr(v ojson.Value, s string) bool { return v.Kind == ojson.String && v.Str() == s }

// nullish is `v === undefined || v === null`, the left side of `??`.
func nullish(v ojson.Value) bool { return v.Kind == ojson.Invalid || v.Kind == ojson.Null }

// defScope is the `definitions` object the renderer carries down:
// {...outer, ...schema.definitions, ...schema.$defs}. Lookups go from the
// innermost layer out; a layer is the spread of one value.
type defScope struct {
	parent *defScope
	layer  ojson.Value
	left   *int // render nodes left (MaxTypeRenderNodes), shared by all layers
}

// objectProtoNames are the properties every plain JavaScript object
// inherits: a $ref naming one of them finds a function (truthy, renders
// "unknown") instead of nothing.
var objectProtoNames = map[string]bool{
	"constructor": true, "__defineGetter__": true, "__defineSetter__": true,
	"hasOwnProperty": true, "__lookupGetter__": true, "__lookupSetter__": true,
	"isPrototypeOf": true, "propertyIsEnumerable": true, "toString": true,
	"valueOf": true, "__proto__": true, "toLocaleString": true,
}

// lookup is `definitions[name]`; ok false means undefined.
func (d *defScope) lookup(name string) (node, bool) {
	for s := d; s != nil; s = s.parent {
		if v, ok := spreadGet(s.layer, name); ok {
			return node{v: v}, true
		}
	}
	if objectProtoNames[name] {
		return node{inherits: true}, true
	}
	return node{}, false
}

// spreadGet reads name from the own enumerable properties that spreading
// v ({...v}) copies: an object's members, an array's indices, a string's
// UTF-16 units (each a one-character string).
func spreadGet(v ojson.Value, name string) (ojson.Value, bool) {
	switch v.Kind {
	case ojson.Object:
		return v.Get(name)
	case ojson.Array:
		if i, ok := arrayIndex(name); ok && i < uint64(len(v.Array())) {
			return v.Array()[i], true
		}
	case ojson.String:
		if i, ok := arrayIndex(name); ok && i < uint64(utf16Len(v.Str())) {
			return ojson.StringOf("x"), true
		}
	}
	return ojson.Value{}, false
}

// withDefs is the scope a schema renders in: the outer one unless the
// schema has `definitions` or `$defs` (either present, even null).
func withDefs(n node, outer *defScope) *defScope {
	defs, d := n.get("definitions"), n.get("$defs")
	if defs.Kind == ojson.Invalid && d.Kind == ojson.Invalid {
		return outer
	}
	s := outer
	var left *int
	if outer != nil {
		left = outer.left
	}
	if !nullish(defs) {
		s = &defScope{parent: s, layer: defs, left: left}
	}
	if !nullish(d) {
		s = &defScope{parent: s, layer: d, left: left}
	}
	return s
}

// refName extracts the definition name of a local reference,
// "#/$defs/Name" or "#/definitions/Name" (JSON Pointer escapes ~1 and ~0
// undone); ok false for any other reference. A $ref that is not a string
// is a TypeError (`.match` is not a function).
func refName(ref ojson.Value) (string, bool) {
	if ref.Kind != ojson.String {
		throwf("$ref is not a string")
	}
	s := ref.Str()
	var rest string
	switch {
	case strings.HasPrefix(s, "#/$defs/"):
		rest = s[len("#/$defs/"):]
	case strings.HasPrefix(s, "#/definitions/"):
		rest = s[len("#/definitions/"):]
	default:
		return "", false
	}
	if rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	return strings.ReplaceAll(strings.ReplaceAll(rest, "~1", "/"), "~0", "~"), true
}

// joinIntersection is OpenCode's intersection of rendered parts: "unknown"
// parts dropped; none left is "unknown"; one is itself; several are joined
// with " & ", each part containing " | " parenthesised.
func joinIntersection(parts []string) string {
	var keep []string
	for _, p := range parts {
		if p != "unknown" {
			keep = append(keep, p)
		}
	}
	switch len(keep) {
	case 0:
		return "unknown"
	case 1:
		return keep[0]
	}
	for i, p := range keep {
		if strings.Contains(p, " | ") {
			keep[i] = "(" + p + ")"
		}
	}
	return strings.Join(keep, " & ")
}

// iterate is JavaScript's spread/for-of over v ([...v], new Set(v)):
// arrays yield their elements, strings their code points, null/undefined
// are handled by the caller's `?? []`; anything else is a TypeError.
func iterate(v ojson.Value, what string) []ojson.Value {
	switch v.Kind {
	case ojson.Array:
		return v.Array()
	case ojson.String:
		var out []ojson.Value
		for _, r := range v.Str() {
			out = append(out, ojson.StringOf(string(r)))
		}
		return out
	case ojson.Invalid, ojson.Null:
		return nil
	}
	throwf(what + " is not iterable")
	return nil
}

// arrayMethod is `v.map(...)`/`v.some(...)`: only arrays have them.
func arrayMethod(v ojson.Value, what string) []ojson.Value {
	if v.Kind != ojson.Array {
		throwf(what + " is not an array")
	}
	return v.Array()
}

// entries is Object.entries(v) for v = schema.properties ?? {}: an
// object's members in ECMAScript order, an array's or a string's indices,
// nothing for numbers and booleans.
func entries(v ojson.Value) []ojson.Member {
	switch v.Kind {
	case ojson.Object:
		return jsMembers(v)
	case ojson.Array:
		out := make([]ojson.Member, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = ojson.Member{Key: strconv.Itoa(i), Value: e}
		}
		return out
	case ojson.String:
		var out []ojson.Member
		i := 0
		for _, r := range v.Str() {
			out = append(out, ojson.Member{Key: strconv.Itoa(i), Value: ojson.StringOf(string(r))})
			i++
			if r >= 0x10000 {
				out = append(out, ojson.Member{Key: strconv.Itoa(i), Value: ojson.StringOf("\uFFFD")})
				i++
			}
		}
		return out
	}
	return nil
}

// jsMembers returns an object's members as JSON.parse + Object.entries
// sees them: duplicate keys collapsed (first position, last value), then
// array-index keys first in ascending order.
//
// The usual object (distinct keys, none an array index) is returned as it
// is, without allocating; callers do not modify the result.
func jsMembers(v ojson.Value) []ojson.Member {
	ms := v.Members()
	if !hasDuplicateKey(ms) {
		plain := true
		for _, m := range ms {
			if _, ok := arrayIndex(m.Key); ok {
				plain = false
				break
			}
		}
		if plain {
			return ms
		}
	} else {
		ms = ojson.ObjectOf(ms...).Dedup().Members()
	}
	keys := make([]string, len(ms))
	byKey := make(map[string]ojson.Member, len(ms))
	for i, m := range ms {
		keys[i] = m.Key
		byKey[m.Key] = m
	}
	order := jsKeyOrder(keys)
	out := make([]ojson.Member, len(order))
	for i, k := range order {
		out[i] = byKey[k]
	}
	return out
}

// hasDuplicateKey reports whether two members share a key: pairwise for
// the usual few members, with a set for many.
func hasDuplicateKey(ms []ojson.Member) bool {
	if len(ms) <= 16 {
		for i := 1; i < len(ms); i++ {
			for j := 0; j < i; j++ {
				if ms[i].Key == ms[j].Key {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, len(ms))
	for _, m := range ms {
		if seen[m.Key] {
			return true
		}
		seen[m.Key] = true
	}
	return false
}

// jsonCompact is JSON.stringify(v) of a parsed JSON value.
func jsonCompact(v ojson.Value) string { return v.JS("") }

// renderType is OpenCode's schema renderer in its "pretty" form, the one
// signatures use. depth is the nesting level (it sets the indentation of
// object members: two spaces per level), expanding the definitions being
// expanded on this path (a recursive reference renders "unknown").
func renderType(n node, scope *defScope, depth int, expanding []string) string {
	if depth > maxTypeDepth {
		return "unknown"
	}
	if scope != nil && scope.left != nil {
		if *scope.left--; *scope.left < 0 {
			panic(overBudget{})
		}
	}
	scope = withDefs(n, scope)
	if ref := n.get("$ref"); truthy(ref) {
		name, ok := refName(ref)
		if !ok {
			return "unknown"
		}
		def, found := scope.lookup(name)
		if !found || !truthy(def.v) && !def.inherits || contains(expanding, name) {
			return "unknown"
		}
		rest := n
		rest.noRef = true
		return joinIntersection([]string{
			renderType(def, scope, depth, append(append([]string(nil), expanding...), name)),
			renderType(rest, scope, depth+1, expanding),
		})
	}
	if c := n.get("const"); c.Kind != ojson.Invalid {
		return jsonCompact(c)
	}
	if e := n.get("enum"); truthy(e) {
		vals := arrayMethod(e, "enum")
		parts := make([]string, len(vals))
		for i, x := range vals {
			parts[i] = jsonCompact(x)
		}
		return strings.Join(parts, " | ")
	}
	union := n.get("anyOf")
	if nullish(union) {
		union = n.get("oneOf")
	}
	if truthy(union) {
		alts := arrayMethod(union, "anyOf")
		// alts.some(a => a.type === "number") && alts.every(a => a.type ===
		// "number" || nonFinite(a)), with JavaScript's short-circuits (a null
		// alternative throws only when reached).
		anyNumber := false
		for _, a := range alts {
			if isStr(node{v: a}.get("type"), "number") {
				anyNumber = true
				break
			}
		}
		if anyNumber {
			allNumeric := true
			for _, a := range alts {
				if !isStr(node{v: a}.get("type"), "number") && !nonFiniteString(a) {
					allNumeric = false
					break
				}
			}
			if allNumeric {
				return "number"
			}
		}
		if len(alts) == 2 && optType(alts[0], "object") && optGet(alts[0], "properties").Kind == ojson.Invalid &&
			optType(alts[1], "array") && optGet(alts[1], "items").Kind == ojson.Invalid {
			return "{}"
		}
		parts := make([]string, len(alts))
		unknown := false
		for i, a := range alts {
			parts[i] = renderType(node{v: a}, scope, depth+1, expanding)
			if parts[i] == "unknown" {
				unknown = true
			}
		}
		if unknown {
			return "unknown"
		}
		rest := n
		rest.noUnion = true
		return joinIntersection([]string{strings.Join(parts, " | "), renderType(rest, scope, depth+1, expanding)})
	}
	if all := n.get("allOf"); truthy(all) {
		alts := arrayMethod(all, "allOf")
		parts := make([]string, 0, len(alts)+1)
		parts = append(parts, "")
		for _, a := range alts {
			parts = append(parts, renderType(node{v: a}, scope, depth+1, expanding))
		}
		for _, a := range alts {
			if unresolvable(node{v: a}, scope, nil) {
				return "unknown"
			}
		}
		rest := n
		rest.noAllOf = true
		parts[0] = renderType(rest, scope, depth+1, expanding)
		return joinIntersection(parts)
	}
	t := n.get("type")
	if t.Kind == ojson.Array {
		parts := make([]string, len(t.Array()))
		for i, x := range t.Array() {
			m := n
			m.typeSet, m.typeVal = true, x
			parts[i] = renderType(m, scope, depth+1, expanding)
		}
		return strings.Join(parts, " | ")
	}
	switch {
	case isStr(t, "string"):
		return "string"
	case isStr(t, "number"), isStr(t, "integer"):
		return "number"
	case isStr(t, "boolean"):
		return "boolean"
	case isStr(t, "null"):
		return "null"
	case isStr(t, "array"):
		items := n.get("items")
		if nullish(items) {
			items = ojson.Value{Kind: ojson.Object}
		}
		return "Array<" + renderType(node{v: items}, scope, depth+1, expanding) + ">"
	}
	props := n.get("properties")
	if !isStr(t, "object") && !truthy(props) {
		return "unknown"
	}
	required := iterate(n.get("required"), "required")
	var members []ojson.Member
	if !nullish(props) {
		members = entries(props)
	}
	index := ""
	hasIndex := false
	if ap := n.get("additionalProperties"); truthy(ap) && (ap.Kind == ojson.Object || ap.Kind == ojson.Array) {
		index, hasIndex = renderType(node{v: ap}, scope, depth+1, expanding), true
	}
	if len(members) == 0 && !hasIndex {
		return "{}"
	}
	indent := indentOf(depth + 1)
	var b strings.Builder
	b.Grow(48 * (len(members) + 1)) // a member's line and short comment
	b.WriteString("{\n")
	for i, m := range members {
		p := node{v: m.Value}
		desc := p.get("description")
		appendDocComment(&b, desc, tags(p), indent)
		b.WriteString(indent)
		if isIdent(m.Key) {
			b.WriteString(m.Key)
		} else {
			ojson.AppendJSString(&b, m.Key)
		}
		if !isRequired(required, m.Key) {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		b.WriteString(renderType(p, scope, depth+1, expanding))
		b.WriteByte(',')
		if i < len(members)-1 || hasIndex {
			b.WriteByte('\n')
		}
	}
	if hasIndex {
		b.WriteString(indent)
		b.WriteString("[key: string]: ")
		b.WriteString(index)
		b.WriteByte(',')
	}
	b.WriteByte('\n')
	b.WriteString(indentOf(depth))
	b.WriteByte('}')
	return b.String()
}

// indentOf is the indentation of a nesting level: two spaces per level.
func indentOf(depth int) string {
	const spaces = "                          " // levels 0 to 13 (renders stop past 9)
	if 2*depth <= len(spaces) {
		return spaces[:2*depth]
	}
	return strings.Repeat("  ", depth)
}

// isRequired is `new Set(schema.required ?? []).has(key)` over the
// iterated values: only strings match a key.
func isRequired(required []ojson.Value, key string) bool {
	for _, r := range required {
		if r.Kind == ojson.String && r.Str() == key {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// optGet is `v?.[key]`: absent on null/undefined instead of a TypeError.
func optGet(v ojson.Value, key string) ojson.Value {
	if nullish(v) {
		return ojson.Value{}
	}
	return node{v: v}.get(key)
}

func optType(v ojson.Value, want string) bool { return isStr(optGet(v, "type"), want) }

// nonFiniteString is a schema {type: "string", enum: ["NaN" | "Infinity" |
// "-Infinity"]}: how some generators spell a non-finite number.
func nonFiniteString(a ojson.Value) bool {
	n := node{v: a}
	if !isStr(n.get("type"), "string") {
		return false
	}
	e := n.get("enum")
	if e.Kind != ojson.Array || len(e.Array()) != 1 {
		return false
	}
	return isStr(e.Array()[0], "NaN") || isStr(e.Array()[0], "Infinity") || isStr(e.Array()[0], "-Infinity")
}

// unresolvable reports whether a schema inside allOf holds a reference
// the renderer cannot expand: not local, to a missing definition, or
// recursive (then the whole allOf renders "unknown"). visiting are the
// definition names on the current path.
func unresolvable(n node, scope *defScope, visiting []string) bool {
	if ref := n.get("$ref"); ref.Kind != ojson.Invalid {
		name, ok := refName(ref)
		if !ok {
			return true
		}
		def, found := scope.lookup(name)
		if !found || contains(visiting, name) {
			return true
		}
		if unresolvable(def, scope, append(append([]string(nil), visiting...), name)) {
			return true
		}
	}
	var kids []ojson.Value
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		kids = append(kids, iterate(n.get(k), k)...)
	}
	if props := n.get("properties"); !nullish(props) {
		for _, m := range entries(props) {
			kids = append(kids, m.Value)
		}
	}
	if items := n.get("items"); items.Kind != ojson.Invalid {
		kids = append(kids, items)
	}
	if ap := n.get("additionalProperties"); ap.Kind == ojson.Object || ap.Kind == ojson.Array || ap.Kind == ojson.Null {
		kids = append(kids, ap)
	}
	for _, k := range kids {
		if unresolvable(node{v: k}, scope, visiting) {
			return true
		}
	}
	return false
}

// tags are the JSDoc tags OpenCode adds under a property's description:
// @deprecated (deprecated === true), @default JSON, @format (a string),
// @minItems and @maxItems (numbers), in that order.
func tags(p node) []string {
	var out []string
	if d := p.get("deprecated"); d.Kind == ojson.Bool && d.Bool {
		out = append(out, "@deprecated")
	}
	if d := p.get("default"); d.Kind != ojson.Invalid {
		out = append(out, "@default "+jsonCompact(d))
	}
	if f := p.get("format"); f.Kind == ojson.String {
		out = append(out, "@format "+f.Str())
	}
	for _, k := range []string{"minItems", "maxItems"} {
		if v := p.get(k); v.Kind == ojson.Number {
			f, _ := v.Float()
			out = append(out, "@"+k+" "+jsNumberString(f))
		}
	}
	return out
}

// jsNumberString is `${n}`: NaN and the infinities spelled out, the rest
// as Number.prototype.toString.
func jsNumberString(f float64) string {
	switch {
	case f != f:
		return "NaN"
	case f > 1.7976931348623157e308:
		return "Infinity"
	case f < -1.7976931348623157e308:
		return "-Infinity"
	}
	return ojson.JSNumber(f)
}

// appendDocComment writes a property's description and tags as a JSDoc
// comment at the given indentation, with a trailing newline; nothing when
// there is nothing to say. Lines: the description split on "\n" then the tags;
// "*/" becomes "* /"; trailing whitespace (JavaScript \s) cut; blank lines
// at both ends dropped. One line gives `/** line */`, more give a block
// with " * " prefixes (" *" alone for an empty line). A description that
// is not a string (or undefined) is a TypeError (`.split`).
func appendDocComment(b *strings.Builder, desc ojson.Value, tagLines []string, indent string) {
	var buf [8]string // the usual lines, without allocating
	lines := buf[:0]
	if desc.Kind != ojson.Invalid {
		if desc.Kind != ojson.String {
			throwf("description is not a string")
		}
		for rest := desc.Str(); ; {
			l, after, found := strings.Cut(rest, "\n")
			lines = append(lines, l)
			if !found {
				break
			}
			rest = after
		}
	}
	lines = append(lines, tagLines...)
	for i, l := range lines {
		if strings.Contains(l, "*/") {
			l = strings.ReplaceAll(l, "*/", "* /")
		}
		lines[i] = trimRightJS(l)
	}
	for len(lines) > 0 && search.JSTrim(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && search.JSTrim(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	switch len(lines) {
	case 0:
		return
	case 1:
		b.WriteString(indent)
		b.WriteString("/** ")
		b.WriteString(lines[0])
		b.WriteString(" */\n")
		return
	}
	b.WriteString(indent)
	b.WriteString("/**\n")
	for _, l := range lines {
		b.WriteString(indent)
		b.WriteString(" *")
		if l != "" {
			b.WriteByte(' ')
			b.WriteString(l)
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent)
	b.WriteString(" */\n")
}

// schemaType renders a whole input or output schema (OpenCode's
// `schemaToType` for plain JSON schemas): the top-level definitions and
// $defs are in scope; any TypeError gives "unknown".
//
// over reports that the render passed MaxTypeRenderNodes (the type is then
// "unknown", which is toolfind's placeholder, not OpenCode's output).
func schemaType(v ojson.Value) (out string, over bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case jsThrow:
			case overBudget:
				over = true
			default:
				panic(r)
			}
			out = "unknown"
		}
	}()
	if nullish(v) {
		return "unknown", false // reading .definitions of undefined/null throws
	}
	n := node{v: v}
	left := MaxTypeRenderNodes
	scope := withDefs(n, &defScope{left: &left})
	return renderType(n, scope, 0, nil), false
}

// Signature is the TypeScript call signature OpenCode shows for a code
// mode tool (§0): `{rendered path}(input: {input type}): Promise<{output
// type}>`, where the output type is "unknown" without an outputSchema.
// path is the unrendered "namespace.tool".
//
// A schema over MaxTypeRenderNodes renders "unknown"; see SignatureBudget.
func Signature(path string, inputSchema, outputSchema ojson.Value) string {
	sig, _ := SignatureBudget(path, inputSchema, outputSchema)
	return sig
}

// SignatureBudget is Signature that also names the schema ("inputSchema",
// "outputSchema") whose type passed MaxTypeRenderNodes, or "".
func SignatureBudget(path string, inputSchema, outputSchema ojson.Value) (sig, over string) {
	return signatureBudget(RenderPath(path), inputSchema, outputSchema)
}

// signatureBudget is SignatureBudget for an already rendered path.
func signatureBudget(rendered string, inputSchema, outputSchema ojson.Value) (sig, over string) {
	out := "unknown"
	if outputSchema.Kind != ojson.Invalid {
		var o bool
		if out, o = schemaType(outputSchema); o {
			over = "outputSchema"
		}
	}
	in, o := schemaType(inputSchema)
	if o {
		over = "inputSchema"
	}
	return rendered + "(input: " + in + "): Promise<" + out + ">", over
}
