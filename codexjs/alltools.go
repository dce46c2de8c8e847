package codexjs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// Entry is one element of the ALL_TOOLS global (§1.4): Name is the JS
// identifier, Description the augmented text. Tool is nil for Codex's own
// entries, whose Description is a stand-in with the real line sizes (§0).
type Entry struct {
	Name        string
	Description string
	Tool        *corpus.Tool
	// CodeModeName is the pre-normalisation name the list is sorted by.
	CodeModeName string
	// Builtin marks Codex's own tools; Runs are the lowercase word runs of
	// the real description (codex-builtins-0.171.0.json).
	Builtin bool
	Runs    []string
	// Namespace and ToolName are the model-visible MCP names (§1.3a),
	// NamespaceDescription the server instructions as placed on the
	// namespace (§3); MCP entries only.
	Namespace            string
	ToolName             string
	NamespaceDescription string
	ToolDescription      string // the MCP description (cut for Agent Plugins)
}

// JSON returns the entry as JSON.stringify({name, description}) prints it.
func (e Entry) JSON() string {
	var b strings.Builder
	e.appendJSON(&b)
	return b.String()
}

func (e Entry) appendJSON(b *strings.Builder) {
	b.WriteString(`{"name":`)
	ojson.AppendJSString(b, e.Name)
	b.WriteString(`,"description":`)
	ojson.AppendJSString(b, e.Description)
	b.WriteString(`}`)
}

// AllTools is ALL_TOOLS for one catalog plus what was dropped on the way.
type AllTools struct {
	Entries  []Entry
	byTool   map[corpus.ToolID]int
	problems []corpus.Diagnostic
}

// Options that change ALL_TOOLS.
type buildOptions struct {
	plugin bool // servers installed as Agent Plugins (§3)
	// search builds ALL_TOOLS for tool_search, which reads the names, the
	// MCP descriptions and the normalised schemas but never the exec
	// declarations: entries get no Description (the TypeScript rendering
	// is skipped), and the schemas are normalised when a search shows
	// them (searchParams).
	search bool
}

const (
	execDeclHeader = "\n\nexec tool declaration:\n```ts\n" // §1.5 layout
	execDeclFooter = "\n```"
	// §3 Agent Plugin limits.
	maxPluginDescriptionBytes = 1000
	maxPluginSpecBytes        = 8000
	maxPluginTotalBytes       = 64000
	// §3: the namespace description of every MCP server is capped at 512 KiB.
	maxNamespaceDescriptionBytes = 512 * 1024
)

// BuildAllTools builds ALL_TOOLS for a catalog as Codex 0.171.0 does (§0,
// §1.2–1.5, §3, §4).
func BuildAllTools(cat *corpus.Catalog, plugin bool) *AllTools {
	return buildAllTools(cat, buildOptions{plugin: plugin})
}

func buildAllTools(cat *corpus.Catalog, opt buildOptions) *AllTools {
	at := &AllTools{byTool: map[corpus.ToolID]int{}}
	diag := func(sev corpus.Severity, code string, t *corpus.Tool, server, field, msg string) {
		d := corpus.Diagnostic{Severity: sev, Code: code, Server: server, Field: field, Message: msg}
		if t != nil {
			d.Server, d.Tool = t.Server, t.Name
		}
		at.problems = append(at.problems, d)
	}
	type regTool struct {
		t   *corpus.Tool
		srv *corpus.Server
	}
	var reg []regTool
	for _, s := range cat.Servers {
		if !validServerName(s.Name) {
			diag(corpus.Error, "codex-server-name", nil, s.Name, "name",
				"Codex 0.171.0 does not register a server whose name has characters outside [A-Za-z0-9_.:/@-]; none of its tools are seen")
			continue
		}
		if bad, field, why := brokenTool(s); bad != nil {
			diag(corpus.Error, "codex-server-tools-list", bad, "", field,
				"Codex cannot read this tool ("+why+"), so the whole tools/list of the server fails and none of its tools are seen")
			continue
		}
		// App-only tools still take part in naming (observed: a hidden
		// "a-b" made the visible "a_b" collide and get hashed); they are
		// left out after it.
		for _, t := range s.Tools {
			reg = append(reg, regTool{t, s})
		}
	}
	servers := make([]string, len(reg))
	names := make([]string, len(reg))
	for i, r := range reg {
		servers[i], names[i] = r.t.Server, r.t.Name
	}
	quals := qualifyNames(servers, names)
	named := make([]bool, len(reg))
	for _, q := range quals {
		named[q.idx] = true
	}
	for i, r := range reg {
		if !named[i] {
			diag(corpus.Warning, "codex-duplicate", r.t, "", "name",
				"an earlier tool of this server has the same name; Codex keeps the first")
		}
	}
	// Registration order: Codex's own tools first, then MCP tools in
	// raw-identity order (§1.2.1); the first of a JS identifier wins.
	builtins := builtinEntries()
	list := make([]Entry, len(builtins)+len(quals))
	copy(list, builtins)
	mcp := list[len(builtins):]
	// The per-tool work (schema, TypeScript, text) is independent from
	// tool to tool and runs on every core; the diagnostics and the Agent
	// Plugin running total follow, in order.
	preps := make([]toolPrep, len(quals))
	parallelChunks(len(quals), func() func(from, to int) {
		var arena textArena
		return func(from, to int) {
			for k := from; k < to; k++ {
				r := reg[quals[k].idx]
				if r.t.HiddenFromModel() {
					preps[k].hidden = true
					continue
				}
				preps[k].prepare(&mcp[k], &arena, quals[k], r.t, r.srv, opt)
			}
		}
	})
	pluginTotal := 0
	n := 0
	for k, q := range quals {
		t, p := reg[q.idx].t, &preps[k]
		if p.hidden {
			diag(corpus.Info, "codex-app-only", t, "", "_meta.ui.visibility",
				`left out of ALL_TOOLS: _meta.ui.visibility lacks "model"`)
			continue
		}
		if q.namespace+nameDelimiter+q.name != mcpPrefix+t.Server+nameDelimiter+t.Name {
			msg := fmt.Sprintf("model-visible name is %s%s%s", q.namespace, nameDelimiter, q.name)
			if q.hashed != "" {
				msg += " (hashed: " + q.hashed + ")"
			} else {
				msg += " (characters outside [A-Za-z0-9_] become _)"
			}
			diag(corpus.Info, "codex-renamed", t, "", "name", msg)
		}
		if p.noSchema {
			continue // brokenTool already dropped the server
		}
		if p.err != nil {
			diag(corpus.Error, "codex-schema-rejected", t, "", "inputSchema",
				"Codex skips the tool: its input schema does not fit Codex's schema subset ("+p.err.Error()+")")
			continue
		}
		if opt.plugin {
			if p.rawDescLen != len(mcp[k].ToolDescription) {
				diag(corpus.Warning, "codex-plugin-description-cut", t, "", "description",
					fmt.Sprintf("Agent Plugin description cut from %d to %d bytes", p.rawDescLen, len(mcp[k].ToolDescription)))
			}
			size := p.pluginSize
			if size > maxPluginSpecBytes || pluginTotal+size > maxPluginTotalBytes {
				diag(corpus.Error, "codex-plugin-budget", t, "", "",
					fmt.Sprintf("Agent Plugin tool hidden: spec %d bytes (limit %d), running total %d (limit %d)",
						size, maxPluginSpecBytes, pluginTotal+size, maxPluginTotalBytes))
				continue
			}
			pluginTotal += size
		}
		mcp[n] = mcp[k] // in place: n ≤ k
		n++
	}
	clear(mcp[n:])
	list = list[:len(builtins)+n]
	seen := make(map[string]bool, len(list))
	entries := list[:0] // filtered in place
	for _, e := range list {
		if seen[e.Name] {
			if e.Tool != nil {
				diag(corpus.Warning, "codex-identifier-collision", e.Tool, "", "name",
					"another tool registered earlier has the same code-mode identifier "+e.Name+"; Codex keeps the first")
			}
			continue
		}
		seen[e.Name] = true
		entries = append(entries, e)
	}
	// §1.4: sorted by code-mode name, byte order; adjacent equal names
	// removed.
	sort.SliceStable(entries, func(a, b int) bool { return entries[a].CodeModeName < entries[b].CodeModeName })
	out := entries[:0]
	for i, e := range entries {
		if i > 0 && e.CodeModeName == entries[i-1].CodeModeName {
			continue
		}
		out = append(out, e)
	}
	at.Entries = out
	for i, e := range at.Entries {
		if e.Tool != nil {
			at.byTool[e.Tool.ID()] = i
		}
	}
	return at
}

// toolPrep is what the parallel part of buildAllTools learns about one
// MCP tool for the ordered part.
type toolPrep struct {
	hidden     bool  // _meta.ui.visibility lacks "model"
	noSchema   bool  // no inputSchema object
	err        error // the schema does not fit Codex's subset
	rawDescLen int   // the description's length before the Agent Plugin cut
	pluginSize int   // pluginSpecSize, Agent Plugins only
}

// prepare fills e, the tool's ALL_TOOLS entry, with its text written into
// arena (or, for a search build, its normalised parameters).
func (p *toolPrep) prepare(e *Entry, arena *textArena, q qualified, t *corpus.Tool, srv *corpus.Server, opt buildOptions) {
	in, ok := t.Value.Get("inputSchema")
	if !ok || in.Kind != ojson.Object {
		p.noSchema = true
		return
	}
	var norm *omap
	// A search build prints the normalised schema of the tools a search
	// shows only (searchParams); it needs the pipeline's verdict alone.
	if !opt.search || opt.plugin || !inputSchemaFits(in) {
		n, err := normalizeOwned(fromOJSON(in).(*omap)) // a fresh tree
		if err != nil {
			p.err = err
			return
		}
		norm = n
	}
	desc := ""
	if t.HasDescription {
		desc = t.Description
	}
	p.rawDescLen = len(desc)
	instr := namespaceDescription(srv.Instructions, opt.plugin)
	if opt.plugin {
		desc = takeBytes(desc, maxPluginDescriptionBytes)
		p.pluginSize = pluginSpecSize(q, instr, desc, norm)
	}
	cm := codeModeName(q.namespace, q.name)
	ident := normalizeIdentifier(cm)
	*e = Entry{Name: ident, Tool: t, CodeModeName: cm,
		Namespace: q.namespace, ToolName: q.name, NamespaceDescription: instr, ToolDescription: desc}
	if opt.search {
		return
	}
	inType := renderTypeScript(norm)
	outType := outputType(t)
	s := strings.TrimSpace(instr)
	const declStart, declArgs, declPromise, declEnd = "declare const tools: { ", "(args: ", "): Promise<", ">; };"
	n := len(desc) + len(execDeclHeader) + len(declStart) + len(ident) + len(declArgs) + len(inType) +
		len(declPromise) + len(outType) + len(declEnd) + len(execDeclFooter)
	if s != "" {
		n += 2 + len(s)
	}
	b := arena.take(n)
	b.WriteString(desc)
	if s != "" {
		// §0: description, a blank line, the trimmed instructions.
		b.WriteString("\n\n")
		b.WriteString(s)
	}
	b.WriteString(execDeclHeader)
	b.WriteString(declStart)
	b.WriteString(ident)
	b.WriteString(declArgs)
	b.WriteString(inType)
	b.WriteString(declPromise)
	b.WriteString(outType)
	b.WriteString(declEnd)
	b.WriteString(execDeclFooter)
	e.Description = arena.done()
}

// namespaceDescription is the server-instructions text Codex puts on the
// namespace (§3): cut to 1,000 bytes for Agent Plugins, empty when blank,
// capped at 512 KiB.
func namespaceDescription(instr string, plugin bool) string {
	if plugin {
		instr = takeBytes(instr, maxPluginDescriptionBytes)
	}
	if strings.TrimSpace(instr) == "" {
		return ""
	}
	return takeBytes(instr, maxNamespaceDescriptionBytes)
}

// pluginSpecSize estimates the serialized namespace spec of one tool
// (§3) as {"type":"namespace","name","description","tools":[{"type":
// "function","name","description","strict":false,"parameters"}]}. The
// exact serialization Codex measures was not traced [inf].
func pluginSpecSize(q qualified, instr, desc string, params *omap) int {
	var b strings.Builder
	b.WriteString(`{"type":"namespace","name":`)
	serdeString(&b, q.namespace)
	b.WriteString(`,"description":`)
	serdeString(&b, strings.TrimSpace(instr))
	b.WriteString(`,"tools":[{"type":"function","name":`)
	serdeString(&b, q.name)
	b.WriteString(`,"description":`)
	serdeString(&b, desc)
	b.WriteString(`,"strict":false,"parameters":`)
	serdeJSON(&b, params)
	b.WriteString(`}]}`)
	return b.Len()
}

// takeBytes is take_bytes_at_char_boundary: the longest prefix of at most
// n bytes that ends on a character boundary.
func takeBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

// outputType renders Promise's type argument for an MCP tool (§1.5): the
// raw outputSchema (or {}) as structuredContent of CallToolResult.
func outputType(t *corpus.Tool) string {
	var structured any = newOmap()
	if t.OutputSchema.Kind == ojson.Object {
		structured = fromOJSON(t.OutputSchema)
	}
	s := renderTypeScript(structured)
	if s == "unknown" {
		return "CallToolResult"
	}
	return "CallToolResult<" + s + ">"
}

// searchParams is the normalised input schema (§4) of a tool of a search
// build as serde_json prints it, for tool_search's output.
func searchParams(t *corpus.Tool) string {
	in, ok := inputSchemaObject(t)
	if !ok {
		return `{"type":"object","properties":{}}` // not in a search build
	}
	norm, err := normalizeOwned(in)
	if err != nil {
		return `{"type":"object","properties":{}}` // not in a search build
	}
	return serdeText(norm)
}

func inputSchemaObject(t *corpus.Tool) (*omap, bool) {
	v, ok := t.Value.Get("inputSchema")
	if !ok || v.Kind != ojson.Object {
		return nil, false
	}
	return fromOJSON(v).(*omap), true
}

// brokenTool returns the first tool of s that Codex's MCP client cannot
// deserialize, which fails the server's whole tools/list: observed on
// 0.171.0 for a tool without inputSchema (the rest of that server was
// missing too), a non-object inputSchema, outputSchema or _meta, a numeric
// title, a string readOnlyHint and a string icons value (all observed with
// the oracle). The checks follow the rmcp Tool type: name a string,
// description and title strings, outputSchema, annotations and _meta
// objects (null allowed where optional), annotation hints booleans, icons
// an array of objects with a string src [inf for the last].
func brokenTool(s *corpus.Server) (*corpus.Tool, string, string) {
	for _, t := range s.Tools {
		v := t.Value
		if v.Kind != ojson.Object {
			return t, "", "the tool is not a JSON object"
		}
		if n, ok := v.Get("name"); !ok || n.Kind != ojson.String {
			return t, "name", "name is missing or not a string"
		}
		if in, ok := v.Get("inputSchema"); !ok || in.Kind != ojson.Object {
			return t, "inputSchema", "inputSchema is missing or not an object"
		}
		for _, f := range []string{"description", "title"} {
			if x, ok := v.Get(f); ok && x.Kind != ojson.String && x.Kind != ojson.Null {
				return t, f, f + " is not a string"
			}
		}
		for _, f := range []string{"outputSchema", "annotations", "_meta"} {
			if x, ok := v.Get(f); ok && x.Kind != ojson.Object && x.Kind != ojson.Null {
				return t, f, f + " is not an object"
			}
		}
		if ic, ok := v.Get("icons"); ok && ic.Kind != ojson.Null {
			// observed: "icons": "x" fails the server.
			if ic.Kind != ojson.Array {
				return t, "icons", "icons is not an array"
			}
			for _, e := range ic.Array() {
				if src, ok := e.Get("src"); e.Kind != ojson.Object || !ok || src.Kind != ojson.String {
					return t, "icons", "an icon is not an object with a string src"
				}
			}
		}
		if a, ok := v.Get("annotations"); ok && a.Kind == ojson.Object {
			for _, m := range a.Members() {
				switch m.Key {
				case "title":
					if m.Value.Kind != ojson.String && m.Value.Kind != ojson.Null {
						return t, "annotations.title", "annotations.title is not a string"
					}
				case "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint":
					if m.Value.Kind != ojson.Bool && m.Value.Kind != ojson.Null {
						return t, "annotations." + m.Key, "annotations." + m.Key + " is not a boolean"
					}
				}
			}
		}
	}
	return nil, "", ""
}

// Entry returns the ALL_TOOLS entry of a catalog tool.
func (a *AllTools) Entry(id corpus.ToolID) (Entry, bool) {
	i, ok := a.byTool[id]
	if !ok {
		return Entry{}, false
	}
	return a.Entries[i], true
}

// Problems lists what Codex drops, hides or rewrites.
func (a *AllTools) Problems() []corpus.Diagnostic {
	return append([]corpus.Diagnostic(nil), a.problems...)
}

// JSON returns JSON.stringify(ALL_TOOLS).
func (a *AllTools) JSON() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range a.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e.JSON())
	}
	b.WriteByte(']')
	return b.String()
}

func jsString(s string) string { return ojson.JSString(s) }
