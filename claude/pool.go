package claude

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// BuiltinServer is the server part of the ToolIDs this package gives
// Claude Code's own tools: "builtin/WebFetch", "builtin/Read".
const BuiltinServer = "builtin"

// maxNameLen is the longest full name mcp__server__tool that Claude Code
// 2.1.328 keeps; longer tools are skipped (spec §2; probed: 128 kept, 129
// skipped).
const maxNameLen = 128

// entry is one tool of Claude Code's tool pool, with everything the search
// needs precomputed.
type entry struct {
	name  string // the name the model sees: mcp__server__tool or WebFetch
	lower string // jsLower(name)
	id    corpus.ToolID
	tool  *corpus.Tool   // nil for Claude Code's own tools
	srv   *corpus.Server // nil for Claude Code's own tools
	bi    *builtin       // deferred built-in facts; nil otherwise
	mcp   bool
	// deferred: in the search pool (not always-loaded, not a core tool).
	deferred bool
	hasHint  bool
	descCut  bool // the listed description was cut
	// descFold: desc is ASCII and kept in its own case; the lowercase text
	// spec §1 searches is read through ASCII case folding (searchDesc).
	descFold bool
	// bareAt is where the sanitised tool name starts in name (see bare).
	bareAt uint32

	// Search fields (spec §1), all lowercase; full (the parts joined with
	// spaces) is derived on demand by fullName.
	parts, coarse []string
	desc          string // listed description (or built-in token text); see descFold
	hint          string

	// What the model reads once the tool is loaded (spec §3): the
	// description, and in def, made on first use only, the token estimate
	// and the rendered definition (rendering every tool's schema up front
	// cost more than a whole search; bench reads only the estimate, and a
	// rank only its hits').
	loadedDesc string
	def        atomic.Pointer[loadedDef]
}

// loadedDef is what an entry computes on first use: the token estimate
// (sized; it needs only the schema's length), and the schema as
// JSON.stringify prints it with the <function> line (lined).
type loadedDef struct {
	sized, lined         sync.Once
	tokenCount           int
	schemaText, lineText string
}

// loaded returns the entry's loadedDef, made on first use.
func (e *entry) loaded() *loadedDef {
	if d := e.def.Load(); d != nil {
		return d
	}
	e.def.CompareAndSwap(nil, &loadedDef{}) // one of racing callers wins
	return e.def.Load()
}

// size computes the token estimate once.
func (e *entry) size() *loadedDef {
	d := e.loaded()
	d.sized.Do(func() {
		if e.tool == nil {
			// Built-in texts are Claude Code's own and not kept; the size
			// estimate uses the description length only (spec §3 formula).
			if e.bi != nil {
				d.tokenCount = search.CeilDiv(2*e.bi.DescChars, 5)
			}
			return
		}
		schema := 0
		if e.tool.InputSchema.Kind != ojson.Invalid {
			schema = e.tool.InputSchema.JSLen()
		}
		// spec §3: ceil((UTF-8 bytes of schema JSON + description) / 2.5).
		d.tokenCount = search.CeilDiv(2*(schema+len(e.loadedDesc)), 5)
	})
	return d
}

// render renders the schema and the <function> line once.
func (e *entry) render() *loadedDef {
	d := e.loaded()
	d.lined.Do(func() {
		if e.tool != nil && e.tool.InputSchema.Kind != ojson.Invalid {
			d.schemaText = e.tool.InputSchema.JS("")
		}
		d.lineText = functionLine(e, d.schemaText)
	})
	return d
}

// bare reports whether q is the MCP tool's bare name, as published or
// sanitised, for select: (spec §1); never for a built-in.
func (e *entry) bare(q string) bool {
	return e.tool != nil && (e.tool.Name == q || e.name[e.bareAt:] == q)
}

// fullName is spec §1's full: the parts joined with spaces. It is only
// needed for a term with white space (never one from a query, see
// directFlags), so it is not kept.
func (e *entry) fullName() string { return strings.Join(e.parts, " ") }

// line is the tool's <function> line once loaded (spec §3).
func (e *entry) line() string { return e.render().lineText }

// tokens is the token estimate of the loaded definition (spec §3).
func (e *entry) tokens() int { return e.size().tokenCount }

// schemaJSON is the input schema as JSON.stringify prints it ("" when
// absent).
func (e *entry) schemaJSON() string { return e.render().schemaText }

// problem is one thing Claude Code does to a catalog's tool or server that
// its author should know (turned into a corpus.Diagnostic by New).
type problem struct {
	sev     corpus.Severity
	code    string
	server  *corpus.Server
	tool    string
	field   string
	message string
}

// Diagnostic codes reported by Problems (search.Reporter). They are stable.
const (
	CodeServerDropped   = "claude-server-dropped"         // error: the whole server contributes nothing (§2)
	CodeToolSkipped     = "claude-tool-skipped"           // error: this tool is left out (§2)
	CodeHidden          = "claude-hidden"                 // warning: _meta.ui.visibility hides it (§2)
	CodeDuplicate       = "claude-duplicate"              // warning: repeated name, the first definition wins (§2)
	CodeNameCollision   = "claude-name-collision"         // warning: two tools sanitise to one name, the first in pool order wins
	CodeDescriptionCut  = "claude-description-cut"        // warning: the listed (searched) description is cut (§3)
	CodeDescriptionLoad = "claude-description-cut-loaded" // warning: cut even once loaded (§3)
	CodeRenamed         = "claude-renamed"                // info: the model sees a sanitised name (§2)
	CodeAlwaysLoaded    = "claude-always-loaded"          // info: loaded up front, not searchable (§2)
)

// buildPool turns a catalog into Claude Code's tool pool (spec §2): whole
// servers dropped when one tool fails the MCP SDK's tools/list validation,
// tools skipped, hidden or deduplicated, names sanitised, then sorted
// built-ins first, each group by localeCompare (spec §1 "Pool and tie
// order").
func buildPool(cat *corpus.Catalog, prof Profile, opts Options) (pool []*entry, problems []problem) {
	listCap, loadCap, hintCap := prof.ListCap, prof.LoadCap, prof.HintCap
	if opts.MaxDescription > 0 {
		listCap, loadCap = opts.MaxDescription, opts.MaxDescription
	}

	// Tools the corpus could not parse at all (not an object, no string
	// name) fail the SDK's validation just the same: their server is gone.
	unparsable := map[*corpus.Server]string{}
	for _, d := range cat.Diagnostics {
		if d.Code != corpus.CodeToolNotObject && d.Code != corpus.CodeNameMissing {
			continue
		}
		for _, s := range cat.Servers {
			if s.Name == d.Server && s.Source == d.File {
				if _, ok := unparsable[s]; !ok {
					unparsable[s] = d.Field + ": " + d.Message
				}
			}
		}
	}

	// The pool is one slice: the built-ins, then the MCP tools (mcps, in
	// the same array after them, never past its capacity).
	ntools := 0
	for _, s := range cat.Servers {
		ntools += len(s.Tools)
	}
	var bis []builtin
	if opts.Builtins {
		bis = deferredBuiltins()
	}
	builtins := make([]*entry, 0, len(bis)+len(coreTools)+ntools)
	if opts.Builtins {
		for i := range bis {
			b := &bis[i]
			if slices.Contains(prof.NoBuiltins, b.Name) {
				continue
			}
			e := newBuiltinEntry(b.Name, prof)
			e.bi, e.deferred = b, true
			e.desc, e.hint, e.hasHint = b.Desc, b.Hint, b.HasHint
			builtins = append(builtins, e)
		}
	}
	for _, name := range coreTools {
		builtins = append(builtins, newBuiltinEntry(name, prof))
	}

	mcps := builtins[len(builtins):len(builtins):cap(builtins)]
	// The MCP tools' entries, cut from one slice: at most ntools, so it
	// never grows and the pointers into it stay valid.
	slab := make([]entry, 0, ntools)
	most := 0
	for _, s := range cat.Servers {
		most = max(most, len(s.Tools))
	}
	seen := make(map[string]bool, most) // tool names of one server
	for _, s := range cat.Servers {
		if why, ok := unparsable[s]; ok {
			problems = append(problems, problem{corpus.Error, CodeServerDropped, s, "", "tools",
				"Claude Code drops every tool of this server: its tools/list answer fails validation (" + why + ")"})
			continue
		}
		if t, field, why := serverFailure(s); t != nil {
			problems = append(problems, problem{corpus.Error, CodeServerDropped, s, t.Name, field,
				fmt.Sprintf("Claude Code drops every tool of this server: tool %q fails tools/list validation (%s)", t.Name, why)})
			continue
		}
		srv := serverNames{wire: sanitize(s.Name)}
		if prof.Coarse {
			srv.lower = jsLower(s.Name)
			srv.parts = splitCoarse(srv.lower)
		}
		clear(seen)
		for _, t := range s.Tools {
			if seen[t.Name] {
				problems = append(problems, problem{corpus.Warning, CodeDuplicate, s, t.Name, "name",
					"tool name repeated in this server; Claude Code keeps the first definition"})
				continue
			}
			seen[t.Name] = true
			wire := "mcp__" + srv.wire + "__" + sanitize(t.Name)
			if field, why := toolFailure(t, wire); why != "" {
				problems = append(problems, problem{corpus.Error, CodeToolSkipped, s, t.Name, field, "Claude Code skips this tool: " + why})
				continue
			}
			if hidden, why := hiddenFromModel(t); hidden {
				problems = append(problems, problem{corpus.Warning, CodeHidden, s, t.Name, "_meta.ui.visibility",
					"hidden from the model: " + why})
				continue
			}
			// The wire name differs from "mcp__"+s.Name+"__"+t.Name exactly
			// when a name was sanitised (its output is all [A-Za-z0-9_-]).
			if srv.wire != s.Name || sanitize(t.Name) != t.Name {
				problems = append(problems, problem{corpus.Info, CodeRenamed, s, t.Name, "name",
					fmt.Sprintf("the model sees it as %s (characters outside [A-Za-z0-9_-] become _)", wire)})
			}
			descLen := search.UTF16Len(t.Description)
			slab = slab[:len(slab)+1]
			e := &slab[len(slab)-1]
			newMCPEntry(e, s, &srv, t, wire, prof, descLen, listCap, loadCap, hintCap)
			if e.descCut {
				problems = append(problems, problem{corpus.Warning, CodeDescriptionCut, s, t.Name, "description",
					fmt.Sprintf("description has %d characters; Claude Code lists only the first %d and searches only those", descLen, listCap)})
			}
			if descLen > loadCap && loadCap != listCap {
				problems = append(problems, problem{corpus.Warning, CodeDescriptionLoad, s, t.Name, "description",
					fmt.Sprintf("description is cut to %d characters even once the tool is loaded", loadCap)})
			}
			if !e.deferred {
				problems = append(problems, problem{corpus.Info, CodeAlwaysLoaded, s, t.Name, "_meta.anthropic/alwaysLoad",
					"always loaded: sent to the model up front, never returned by keyword search (select: still finds it)"})
			}
			mcps = append(mcps, e)
		}
	}

	lowerDescriptions(mcps)
	sortEntries(builtins)
	sortEntries(mcps)
	// Same wire name twice (e.g. "a.b" and "a_b"): the pool keeps the
	// first in pool order (assembleToolPool's uniqBy, background §3). The
	// MCP tools are sorted by name and collation tells two distinct wire
	// names apart (they are all [A-Za-z0-9_-]), so the tools sharing a
	// name are next to each other.
	kept := mcps[:0]
	for _, e := range mcps {
		if len(kept) > 0 && kept[len(kept)-1].name == e.name {
			first := kept[len(kept)-1]
			problems = append(problems, problem{corpus.Warning, CodeNameCollision, e.srv, e.tool.Name, "name",
				fmt.Sprintf("sanitised name %s collides with %s; Claude Code keeps only the first", e.name, first.id)})
			continue
		}
		kept = append(kept, e)
	}
	return builtins[:len(builtins)+len(kept)], problems // kept is right after builtins
}

func newBuiltinEntry(name string, prof Profile) *entry {
	e := &entry{name: name, lower: jsLower(name), id: corpus.NewToolID(BuiltinServer, name)}
	// Built-in names (spec §1): camelCase split; coarse = the whole name.
	e.parts = splitBuiltinName(name)
	if prof.Coarse {
		e.coarse = []string{e.lower}
	}
	return e
}

// serverNames are a server's names as its tools' entries need them:
// sanitised for the wire name, and (2.1.156+) lowercased and split into
// parts (spec §1), computed once per server.
type serverNames struct {
	wire, lower string
	parts       []string
}

// newMCPEntry makes a tool's entry in e, a zero entry; descLen is the
// UTF-16 length of its description.
func newMCPEntry(e *entry, s *corpus.Server, srv *serverNames, t *corpus.Tool, wire string, prof Profile, descLen, listCap, loadCap, hintCap int) {
	e.name, e.lower, e.id, e.tool, e.srv, e.mcp = wire, jsLower(wire), t.ID(), t, s, true
	e.bareAt = uint32(len(wire) - len(sanitize(t.Name))) // wire ends with it
	if v, ok := t.MetaBool("anthropic/alwaysLoad"); !ok || !v {
		e.deferred = true // spec §2: only === true loads it up front
	}
	if prof.Coarse {
		// spec §1: coarse = [lower(server), lower(tool)], empty ones
		// dropped; parts = each split on [\s_.]+.
		tool := jsLower(t.Name)
		e.coarse = make([]string, 0, 2)
		e.parts = make([]string, 0, len(srv.parts)+countCoarseParts(tool))
		if srv.lower != "" {
			e.coarse = append(e.coarse, srv.lower)
			e.parts = append(e.parts, srv.parts...)
		}
		if tool != "" {
			e.coarse = append(e.coarse, tool)
			e.parts = appendCoarseParts(e.parts, tool)
		}
	} else {
		e.parts = splitLegacy(wire)
	}
	// e.desc is lowercased by lowerDescriptions, all tools at once.
	e.desc, e.descCut = capTextLen(t.Description, descLen, listCap)
	if h, ok := t.MetaString("anthropic/searchHint"); ok {
		e.hint, e.hasHint = normalizeHint(h, hintCap)
	}
	e.loadedDesc, _ = capTextLen(t.Description, descLen, loadCap)
}

// lowerDescriptions makes the listed descriptions searchable in lowercase
// (spec §1: the description searched is lowercased). An ASCII one is kept
// as it is, in its own case, and read through ASCII case folding
// (descFold; copying every description in lowercase was a tenth of the
// memory a whole rank run touched); the others are lowercased as jsLower
// does, all into one buffer of the exact size.
func lowerDescriptions(es []*entry) {
	size := 0
	for _, e := range es {
		if ascii.Is(e.desc) {
			e.descFold = e.desc != ""
			continue
		}
		size += jsLowerLen(e.desc)
	}
	buf := make([]byte, 0, size)
	for _, e := range es {
		if e.descFold || e.desc == "" {
			continue
		}
		start := len(buf)
		buf = appendJSLower(buf, e.desc)
		// buf never grows past size, so earlier strings stay valid; it is
		// not written again.
		e.desc = unsafe.String(&buf[start], len(buf)-start)
	}
}

// searchDesc reports whether \bterm\b matches the lowercased listed
// description (term lowercase, as every query term is).
func (e *entry) searchDesc(term string) bool {
	if e.descFold {
		return containsWordFold(e.desc, term)
	}
	return search.ContainsWord(e.desc, term)
}

// sortEntries sorts by localeCompare of the name, stably (spec §1). Names
// of [A-Za-z0-9_.-] (every wire name is sanitised to [A-Za-z0-9_-], and
// so are the built-ins') are compared in place by ASCIILocaleCompare,
// with no collation keys to allocate.
func sortEntries(es []*entry) {
	if !slices.ContainsFunc(es, func(e *entry) bool { return !search.ASCIICollatable(e.name) }) {
		slices.SortStableFunc(es, func(a, b *entry) int { return search.ASCIILocaleCompare(a.name, b.name) })
		return
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.name
	}
	keys := search.LocaleKeys(names)
	idx := make([]int, len(es))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	sorted := make([]*entry, len(es))
	for i, j := range idx {
		sorted[i] = es[j]
	}
	copy(es, sorted)
}

// serverFailure finds the first tool whose definition fails the MCP SDK's
// tools/list validation, which makes Claude Code drop the whole server
// (spec §2 table; further cases probed on 2.1.328 with the oracle: a
// non-string or null description or title, an inputSchema whose "type" is
// not "object", non-string "required" entries, a non-object outputSchema,
// _meta or annotations, a non-boolean annotation hint, non-array icons).
func serverFailure(s *corpus.Server) (t *corpus.Tool, field, why string) {
	for _, t := range s.Tools {
		if f, w := toolSchemaFailure(t.Value); w != "" {
			return t, f, w
		}
	}
	return nil, "", ""
}

// The members toolSchemaFailure checks, of a tool and of its inputSchema.
var (
	toolKeys   = [...]string{"title", "description", "inputSchema", "outputSchema", "_meta", "annotations", "icons"}
	schemaKeys = [...]string{"type", "properties", "required"}
)

// lastValues sets vals[k] to obj's value of keys[k], the last one when the
// key repeats (ojson.Value.Get, JSON.parse), in one pass over the members,
// last first; a missing key leaves vals[k] Invalid.
func lastValues(obj ojson.Value, keys []string, vals []ojson.Value) {
	ms := obj.Members()
	for i := len(ms) - 1; i >= 0; i-- {
		for k, key := range keys {
			if ms[i].Key == key && vals[k].Kind == ojson.Invalid {
				vals[k] = ms[i].Value
			}
		}
	}
}

func toolSchemaFailure(v ojson.Value) (field, why string) {
	var top [7]ojson.Value
	lastValues(v, toolKeys[:], top[:])
	title, desc, in, out, meta, ann, icons := top[0], top[1], top[2], top[3], top[4], top[5], top[6]
	notString := func(key string, k ojson.Kind) (string, string) {
		return key, fmt.Sprintf("%s is a %s, not a string", key, k)
	}
	if title.Kind != ojson.Invalid && title.Kind != ojson.String {
		return notString("title", title.Kind)
	}
	if desc.Kind != ojson.Invalid && desc.Kind != ojson.String {
		return notString("description", desc.Kind)
	}
	switch in.Kind {
	case ojson.Invalid:
		return "inputSchema", "inputSchema is missing"
	case ojson.Object:
	default:
		return "inputSchema", fmt.Sprintf("inputSchema is a %s, not an object", in.Kind)
	}
	var schema [3]ojson.Value
	lastValues(in, schemaKeys[:], schema[:])
	ty, props, req := schema[0], schema[1], schema[2]
	if ty.Kind != ojson.String || ty.Str() != "object" {
		return "inputSchema.type", `inputSchema.type is not "object"`
	}
	if props.Kind != ojson.Invalid && props.Kind != ojson.Object {
		return "inputSchema.properties", fmt.Sprintf("properties is a %s, not an object", props.Kind)
	}
	if req.Kind != ojson.Invalid {
		if req.Kind != ojson.Array {
			return "inputSchema.required", fmt.Sprintf("required is a %s, not an array", req.Kind)
		}
		for i, e := range req.Array() {
			if e.Kind != ojson.String {
				return fmt.Sprintf("inputSchema.required[%d]", i), fmt.Sprintf("required entry is a %s, not a string", e.Kind)
			}
		}
	}
	for i, k := range [...]ojson.Kind{out.Kind, meta.Kind, ann.Kind} {
		if k != ojson.Invalid && k != ojson.Object {
			key := [...]string{"outputSchema", "_meta", "annotations"}[i]
			return key, fmt.Sprintf("%s is a %s, not an object", key, k)
		}
	}
	if ann.Kind == ojson.Object {
		if x, ok := ann.Get("title"); ok && x.Kind != ojson.String {
			return "annotations.title", fmt.Sprintf("annotations.title is a %s, not a string", x.Kind)
		}
		for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if x, ok := ann.Get(k); ok && x.Kind != ojson.Bool {
				return "annotations." + k, fmt.Sprintf("annotations.%s is a %s, not a boolean", k, x.Kind)
			}
		}
	}
	if icons.Kind != ojson.Invalid && icons.Kind != ojson.Array {
		return "icons", fmt.Sprintf("icons is a %s, not an array", icons.Kind)
	}
	return "", ""
}

// toolFailure reports why Claude Code skips one tool while keeping the rest
// of its server (spec §2; probed on 2.1.328): a top-level property key
// failing ^[a-zA-Z0-9_.-]{1,64}$, a property schema (at any depth of
// "properties") that is neither an object nor a boolean, or a full name
// longer than 128 characters.
func toolFailure(t *corpus.Tool, wire string) (field, why string) {
	if n := len(wire); n > maxNameLen {
		return "name", fmt.Sprintf("full name %s… has %d characters, over Claude Code's limit of %d", wire[:40], n, maxNameLen)
	}
	props, ok := t.InputSchema.Get("properties")
	if !ok || props.Kind != ojson.Object {
		return "", ""
	}
	for _, m := range props.Members() { // every key, repeated ones included
		if !corpus.ValidPropertyKey(m.Key) { // spec §2, §3
			return "inputSchema.properties", fmt.Sprintf("property key %q fails ^[a-zA-Z0-9_.-]{1,64}$", clip(m.Key, 60))
		}
	}
	if bad := badPropertySchema(props, 0); bad != nil {
		path := "inputSchema.properties." + strings.Join(bad, ".properties.")
		return path, "property schema " + path + " is neither an object nor a boolean"
	}
	return "", ""
}

// badPropertySchema returns the keys leading to the first property schema
// that is neither an object nor a boolean (nil when there is none); the
// path is only spelled out for a failure.
func badPropertySchema(props ojson.Value, depth int) []string {
	if depth > 200 {
		return nil
	}
	for _, m := range props.Members() {
		switch m.Value.Kind {
		case ojson.Bool:
		case ojson.Object:
			if sub, ok := m.Value.Get("properties"); ok && sub.Kind == ojson.Object {
				if bad := badPropertySchema(sub, depth+1); bad != nil {
					return append([]string{m.Key}, bad...)
				}
			}
		default:
			return []string{m.Key}
		}
	}
	return nil
}

// hiddenFromModel is the MCP Apps rule as 2.1.328 applies it (spec §2;
// probed): _meta.ui.visibility present and not including "model". An array
// needs the element "model"; a string is tested with String.includes, so
// "app" hides the tool.
func hiddenFromModel(t *corpus.Tool) (bool, string) {
	v := t.Meta.Lookup("ui", "visibility")
	switch v.Kind {
	case ojson.Array:
		for _, e := range v.Array() {
			if e.Kind == ojson.String && e.Str() == "model" {
				return false, ""
			}
		}
		return true, `visibility ` + v.JS("") + ` does not include "model"`
	case ojson.String:
		if strings.Contains(v.Str(), "model") {
			return false, ""
		}
		return true, `visibility ` + v.JS("") + ` does not include "model"`
	}
	return false, ""
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
