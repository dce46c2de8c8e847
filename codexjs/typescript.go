package codexjs

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON Schema → TypeScript, spec §4.6 (the renderer since 2026-08-14).

const (
	maxLocalRefExpansionsPerPath = 2      // same pointer expanded at most twice on one path
	maxTotalLocalRefExpansions   = 32     // expansions per rendering
	maxRenderedSchemaBytes       = 16_000 // a longer rendering becomes `unknown`
	renderWorkMultiplier         = 4      // work budget = 4 × 16,000 = 64,000 bytes
)

// renderTypeScript renders schema (a JSON tree; the root for local refs) to
// a TypeScript type.
func renderTypeScript(schema any) string {
	r := &tsRenderer{
		root:      schema,
		remaining: maxTotalLocalRefExpansions,
		work:      maxRenderedSchemaBytes * renderWorkMultiplier,
	}
	out := r.render(schema)
	if len(out) > maxRenderedSchemaBytes {
		return "unknown"
	}
	return out
}

type tsRenderer struct {
	root      any
	nestedIDs int            // depth of nested $id resources on the path
	active    map[string]int // pointer → expansions on the current path (nil until the first)
	remaining int            // total ref expansions left
	work      int            // render work bytes left
	exhausted bool
}

func (r *tsRenderer) render(schema any) string {
	if r.exhausted {
		return "unknown"
	}
	m, isMap := schema.(*omap)
	nested := false
	if isMap && !samePtr(schema, r.root) && m.has("$id") {
		nested = true
		r.nestedIDs++
	}
	var out string
	switch t := schema.(type) {
	case bool:
		if t {
			out = "unknown"
		} else {
			out = "never"
		}
	case *omap:
		out = r.renderMap(t)
	default:
		out = "unknown"
	}
	if nested {
		r.nestedIDs--
	}
	if r.consume(len(out)) {
		return out
	}
	return "unknown"
}

func samePtr(a, b any) bool {
	am, ok1 := a.(*omap)
	bm, ok2 := b.(*omap)
	return ok1 && ok2 && am == bm
}

func (r *tsRenderer) consume(n int) bool {
	if n > r.work {
		r.exhausted = true
		return false
	}
	r.work -= n
	return true
}

// tsLines is a rendering's lines written as they are pushed, sep
// between them.
type tsLines struct {
	b   strings.Builder
	n   int
	sep string
}

// pushLine appends the line made of parts, paid for from the work budget
// (its length); false when the budget is exhausted.
func (r *tsRenderer) pushLine(l *tsLines, parts ...string) bool {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if !r.consume(n) {
		return false
	}
	if l.n > 0 {
		l.b.WriteString(l.sep)
	}
	for _, p := range parts {
		l.b.WriteString(p)
	}
	l.n++
	return true
}

func (r *tsRenderer) renderMap(m *omap) string {
	if r.exhausted {
		return "unknown"
	}
	if m.has("$ref") {
		return r.renderRef(m)
	}
	if c, ok := m.get("const"); ok {
		return r.renderLiteral(c)
	}
	if e, ok := m.get("enum"); ok {
		if arr, ok := e.([]any); ok {
			var parts []string
			for _, v := range arr {
				lit := r.renderLiteral(v)
				if r.exhausted || !r.consume(len(lit)) {
					return "unknown"
				}
				parts = append(parts, lit)
			}
			if len(parts) > 0 {
				return strings.Join(parts, " | ")
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if v, ok := m.get(k); ok {
			if arr, ok := v.([]any); ok {
				var parts []string
				for _, variant := range arr {
					if r.exhausted {
						return "unknown"
					}
					parts = append(parts, r.render(variant))
				}
				if len(parts) > 0 {
					return strings.Join(parts, " | ")
				}
			}
		}
	}
	if v, ok := m.get("allOf"); ok {
		if arr, ok := v.([]any); ok {
			var parts []string
			for _, variant := range arr {
				if r.exhausted {
					return "unknown"
				}
				s := r.render(variant)
				if strings.Contains(s, " | ") {
					s = "(" + s + ")"
				}
				parts = append(parts, s)
			}
			if len(parts) > 0 {
				return strings.Join(parts, " & ")
			}
		}
	}
	if tv, ok := m.get("type"); ok {
		if arr, ok := tv.([]any); ok {
			var parts []string
			for _, e := range arr {
				s, ok := e.(string)
				if !ok {
					continue
				}
				if r.exhausted {
					return "unknown"
				}
				parts = append(parts, r.renderTypeKeyword(m, s))
			}
			if len(parts) > 0 {
				return strings.Join(parts, " | ")
			}
		}
		if s, ok := tv.(string); ok {
			return r.renderTypeKeyword(m, s)
		}
	}
	if m.has("properties") || m.has("additionalProperties") || m.has("required") {
		return r.renderObject(m)
	}
	if m.has("items") || m.has("prefixItems") {
		return r.renderArray(m)
	}
	return "unknown"
}

func (r *tsRenderer) renderRef(m *omap) string {
	referenced := "unknown"
	if r.nestedIDs == 0 {
		if rv, ok := m.get("$ref"); ok {
			if s, ok := rv.(string); ok {
				if ptr, ok := localJSONPointer(s); ok {
					referenced = r.expandRef(ptr)
				}
			}
		}
	}
	if r.exhausted {
		return "unknown"
	}
	siblings := newOmap()
	for i, k := range m.keys {
		if k == "$ref" || k == "$defs" || k == "definitions" {
			continue
		}
		siblings.set(k, m.vals[i])
	}
	if !hasRenderableKeywords(siblings) {
		return referenced
	}
	sib := r.renderMap(siblings)
	switch {
	case referenced == "unknown":
		return sib
	case sib == "unknown":
		return referenced
	}
	return "(" + referenced + ") & (" + sib + ")"
}

func (r *tsRenderer) expandRef(ptr string) string {
	n := r.active[ptr]
	if n >= maxLocalRefExpansionsPerPath || r.remaining == 0 {
		return "unknown"
	}
	target, ok := resolvePointer(r.root, ptr)
	if !ok {
		return "unknown"
	}
	r.remaining--
	if r.active == nil {
		r.active = map[string]int{}
	}
	r.active[ptr] = n + 1
	out := r.render(target)
	if n == 0 {
		delete(r.active, ptr)
	} else {
		r.active[ptr] = n
	}
	return out
}

// localJSONPointer takes "#…", percent-decodes the fragment and accepts ""
// or "/…".
func localJSONPointer(ref string) (string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", false
	}
	var b []byte
	for i := 0; i < len(frag); i++ {
		if frag[i] == '%' {
			if i+2 >= len(frag) {
				return "", false
			}
			h, ok1 := unhex(frag[i+1])
			l, ok2 := unhex(frag[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			b = append(b, h<<4|l)
			i += 2
			continue
		}
		b = append(b, frag[i])
	}
	p := string(b)
	if !utf8.ValidString(p) {
		return "", false
	}
	if p == "" || p[0] == '/' {
		return p, true
	}
	return "", false
}

// resolvePointer is serde_json's Value::pointer: "" is the root; tokens
// unescape ~1 and ~0; array indexes are plain decimal without leading zeros.
func resolvePointer(root any, ptr string) (any, bool) {
	if ptr == "" {
		return root, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	cur := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := cur.(type) {
		case *omap:
			v, ok := t.get(tok)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			if tok == "" || strings.HasPrefix(tok, "+") || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			i, err := strconv.ParseUint(tok, 10, 64)
			if err != nil || i >= uint64(len(t)) {
				return nil, false
			}
			cur = t[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func hasRenderableKeywords(m *omap) bool {
	for _, k := range []string{"const", "enum", "anyOf", "oneOf", "allOf", "type", "properties",
		"additionalProperties", "required", "items", "prefixItems"} {
		if m.has(k) {
			return true
		}
	}
	return false
}

func (r *tsRenderer) renderTypeKeyword(m *omap, t string) string {
	switch t {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		return r.renderArray(m)
	case "object":
		return r.renderObject(m)
	}
	return "unknown"
}

func (r *tsRenderer) renderArray(m *omap) string {
	if items, ok := m.get("items"); ok {
		it := r.render(items)
		if r.exhausted {
			return "unknown"
		}
		return "Array<" + it + ">"
	}
	if pi, ok := m.get("prefixItems"); ok {
		if arr, ok := pi.([]any); ok {
			var parts []string
			for _, e := range arr {
				if r.exhausted {
					return "unknown"
				}
				parts = append(parts, r.render(e))
			}
			if len(parts) > 0 {
				return "[" + strings.Join(parts, ", ") + "]"
			}
		}
	}
	return "unknown[]"
}

func (r *tsRenderer) additionalLine(lines *tsLines, m *omap, props *omap, prefix string) bool {
	if ap, ok := m.get("additionalProperties"); ok {
		var t string
		switch v := ap.(type) {
		case bool:
			if !v {
				return true
			}
			t = "unknown"
		default:
			t = r.render(ap)
		}
		return r.pushLine(lines, prefix, "[key: string]: ", t, ";")
	}
	if props.len() == 0 {
		return r.pushLine(lines, prefix, "[key: string]: unknown;")
	}
	return true
}

// renderProperty renders one property as its name (JSON-quoted unless an
// identifier), "?" unless required, and its type; ok is false when the
// work budget ran out.
func (r *tsRenderer) renderProperty(name string, value any, required []string) (pname, opt, typ string, ok bool) {
	if len(name) > r.work {
		r.exhausted = true
		return "", "", "", false
	}
	opt = "?"
	for _, q := range required {
		if q == name {
			opt = ""
			break
		}
	}
	pname = name
	if !isIdentifier(name) {
		var b strings.Builder
		serdeString(&b, name)
		pname = b.String()
	}
	typ = r.render(value)
	return pname, opt, typ, !r.exhausted
}

func propertyDescription(v any) (string, bool) {
	m, ok := v.(*omap)
	if !ok {
		return "", false
	}
	d, ok := m.get("description")
	if !ok {
		return "", false
	}
	s, ok := d.(string)
	return s, ok
}

func (r *tsRenderer) renderObject(m *omap) string {
	var required []string
	if rq, ok := m.get("required"); ok {
		if arr, ok := rq.([]any); ok {
			for _, e := range arr {
				if s, ok := e.(string); ok {
					required = append(required, s)
				}
			}
		}
	}
	props := newOmap()
	if p, ok := m.get("properties"); ok {
		if pm, ok := p.(*omap); ok {
			props = pm
		}
	}
	names := append([]string(nil), props.keys...)
	sort.Strings(names)
	multi := false
	for _, n := range names {
		if d, ok := propertyDescription(props.value(n)); ok && d != "" {
			multi = true
			break
		}
	}
	if multi {
		lines := tsLines{sep: "\n"}
		if !r.pushLine(&lines, "{") {
			return "unknown"
		}
		for _, n := range names {
			v := props.value(n)
			if d, ok := propertyDescription(v); ok {
				// Rust's str::lines, each trimmed, blank ones left out.
				for rest := d; rest != ""; {
					var line string
					line, rest, _ = strings.Cut(rest, "\n")
					line = strings.TrimSpace(line)
					if line == "" {
						continue
					}
					if len(line)+5 > r.work || !r.pushLine(&lines, "  // ", line) {
						return "unknown"
					}
				}
			}
			pname, opt, typ, ok := r.renderProperty(n, v, required)
			if !ok || !r.pushLine(&lines, "  ", pname, opt, ": ", typ, ";") {
				return "unknown"
			}
		}
		if !r.additionalLine(&lines, m, props, "  ") || !r.pushLine(&lines, "}") {
			return "unknown"
		}
		return lines.b.String()
	}
	lines := tsLines{sep: " "}
	lines.b.WriteString("{ ") // not a line: the budget pays for lines only
	for _, n := range names {
		pname, opt, typ, ok := r.renderProperty(n, props.value(n), required)
		if !ok || !r.pushLine(&lines, pname, opt, ": ", typ, ";") {
			return "unknown"
		}
	}
	if !r.additionalLine(&lines, m, props, "") {
		return "unknown"
	}
	if lines.n == 0 {
		return "{}"
	}
	lines.b.WriteString(" }")
	return lines.b.String()
}

func (r *tsRenderer) renderLiteral(v any) string {
	if literalUpperBound(v) > r.work {
		r.exhausted = true
		return "unknown"
	}
	return serdeText(v)
}

// literalUpperBound bounds a literal's serialized size before it is built.
func literalUpperBound(v any) int {
	switch t := v.(type) {
	case nil:
		return 4
	case bool:
		if t {
			return 4
		}
		return 5
	case jnum:
		return len(t)
	case string:
		return len(t)*6 + 2
	case []any:
		n := 2
		for _, e := range t {
			n += 1 + literalUpperBound(e)
		}
		return n
	case *omap:
		n := 2
		for i, k := range t.keys {
			n += 4 + len(k)*6 + literalUpperBound(t.vals[i])
		}
		return n
	}
	return 0
}

// normalizeIdentifier is Codex's JS identifier normalisation (§1.3b): per
// character, the first kept if _, $ or an ASCII letter, later ones if _, $
// or ASCII alphanumeric, anything else replaced by one _; empty → _.
func normalizeIdentifier(s string) string {
	if isIdentifier(s) {
		return s
	}
	var b strings.Builder
	i := 0
	for _, c := range s {
		ok := c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(i > 0 && c >= '0' && c <= '9')
		if ok {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
		i++
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// isIdentifier reports whether normalizeIdentifier(s) == s: s is not
// empty, starts with _, $ or an ASCII letter, and goes on with _, $ or
// ASCII alphanumerics.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}
