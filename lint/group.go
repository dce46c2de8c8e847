package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/lazyre"
	"github.com/toolfind/toolfind/search"
)

// raw is one diagnostic (the catalog's or a client's) placed at its cause.
type raw struct {
	d     corpus.Diagnostic
	rule  string
	scope scope
	at    where // where the diagnostic itself points
	cause where // where its cause is written
	key   string
	// wide marks a cause of the whole catalog (a diagnostic naming no
	// server, such as a tool count): its location is Location.Catalog.
	wide bool
}

// defs lists, per server and tool name, the definitions in order.
type defs map[*corpus.Server]map[string][]*corpus.Tool

func definitions(cat *corpus.Catalog) defs {
	out := defs{}
	for _, s := range cat.Servers {
		m := map[string][]*corpus.Tool{}
		for _, t := range s.Tools {
			m[t.Name] = append(m[t.Name], t)
		}
		out[s] = m
	}
	return out
}

// def returns the n-th (1-based) definition of name and its definition
// number (0 when the name is defined once).
func (d defs) def(s *corpus.Server, name string, n int) (*corpus.Tool, int) {
	list := d[s][name]
	if len(list) == 0 {
		return nil, 0
	}
	if n < 1 || n > len(list) {
		n = 1
	}
	if len(list) == 1 {
		return list[0], 0
	}
	return list[n-1], n
}

// defNumber is t's definition number (0 when its name is defined once).
func defNumber(dd defs, s *corpus.Server, t *corpus.Tool) int {
	list := dd[s][t.Name]
	if len(list) < 2 {
		return 0
	}
	for i, x := range list {
		if x == t {
			return i + 1
		}
	}
	return 0
}

// uniqueCount is the number of distinct tool names of a server.
func (d defs) uniqueCount(s *corpus.Server) int { return len(d[s]) }

// dupCodes report the second and later definitions of a repeated name.
var dupCodes = map[string]bool{corpus.CodeDuplicateTool: true, "claude-duplicate": true, "grok-duplicate": true, "codex-duplicate": true}

var grokServerOK = lazyre.New(`^[a-zA-Z_][a-zA-Z0-9_-]*$`)

// serverNameCause reports whether client's rename or rejection of a tool
// comes from the server's name rather than the tool's: the server name
// alone already breaks the client's rule.
func serverNameCause(client, server string) bool {
	switch search.ParseClientID(client).Name {
	case "grok": // grok.md B.4: ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ and exactly one "__"
		return !grokServerOK.Re().MatchString(server) || strings.Contains(server, "__") || strings.HasSuffix(server, "_")
	case "codex", "codex-search": // codex.md §1.3: [A-Za-z0-9_] kept
		for i := 0; i < len(server); i++ {
			if c := server[i]; !(c == '_' || search.IsWordByte(c)) {
				return true
			}
		}
		return false
	}
	return search.SanitizeName(server) != server // claude.md §2, opencode.md C.1
}

// place classifies diagnostics and finds their causes. Diagnostics are
// taken in order, so the n-th duplicate report of a name is its (n+1)-th
// definition.
func place(cat *corpus.Catalog, ds []corpus.Diagnostic, dd defs, explicit map[int]*corpus.Tool) []raw {
	var out []raw
	dupSeen := map[string]int{}
	// The tool that made each client drop each server.
	dropCause := map[string]string{}
	for _, d := range ds {
		if serverDrop[d.Code] && d.Field != "" {
			k := d.Client + "\x00" + d.Code + "\x00" + d.Server
			if _, ok := dropCause[k]; !ok {
				dropCause[k] = d.Tool
			}
		}
	}
	servers := newServerIndex(cat)
	for i, d := range ds {
		if suppressed[d.Code] {
			continue
		}
		cr, ok := codeRule[d.Code]
		if !ok {
			cr.rule, cr.scope = RuleOther, perTool
		}
		srv := servers.of(d)
		wide := false
		if srv == nil && cr.scope == perCatalog && len(cat.Servers) > 0 {
			srv, wide = cat.Servers[0], true // SARIF's file; the text says "catalog"
		}
		r := raw{d: d, rule: cr.rule, scope: cr.scope, wide: wide}
		if d.Code == "claude-tool-skipped" && d.Field == "name" {
			r.rule = RuleToolName // a name over Claude Code's limit (claude.md §2)
		}
		n := 1
		if dupCodes[d.Code] {
			k := d.Client + "\x00" + d.Code + "\x00" + d.Server + "\x00" + d.Tool
			dupSeen[k]++
			n = dupSeen[k] + 1
		}
		if d.Code == "opencode-key-collision" && strings.Contains(d.Message, "("+d.Server+"/"+d.Tool+")") || d.Code == "gemini-duplicate" || d.Code == "copilot-duplicate" {
			r.rule = RuleDuplicate // the later definition of the same name replaces this one
			k := d.Client + "\x00" + d.Code + "\x00" + d.Server + "\x00" + d.Tool
			dupSeen[k]++
			n = dupSeen[k]
		}
		var t *corpus.Tool
		var def int
		if srv != nil && d.Tool != "" {
			t, def = dd.def(srv, d.Tool, n)
		}
		if et := explicit[i]; et != nil {
			t, def = et, defNumber(dd, srv, et)
		}
		r.at = where{server: srv, tool: t, def: def, path: fieldPath(d.Field)}
		if t != nil && len(r.at.path) == 0 {
			r.at.path = []string{"name"} // a report on the whole tool points at its name
		}
		r.cause = r.at
		switch {
		case serverDrop[d.Code]:
			causeTool := dropCause[d.Client+"\x00"+d.Code+"\x00"+d.Server]
			if ct, cdef := dd.def(srv, causeTool, 1); ct != nil {
				r.cause = where{server: srv, tool: ct, def: cdef}
				if d.Field != "" && d.Tool == causeTool {
					r.cause.path = fieldPath(d.Field)
				}
			}
		case r.rule == RuleToolName && d.Client != "" && serverNameCause(d.Client, d.Server):
			r.rule, r.scope = RuleServerName, perServer
		case r.rule == RuleServerName:
			r.scope = perServer
		}
		if r.rule == RuleDuplicate && srv != nil {
			first, fdef := dd.def(srv, d.Tool, 1)
			r.cause = where{server: srv, tool: first, def: fdef, path: []string{"name"}}
		}
		if r.rule == RuleSchema && r.cause.tool != nil && len(r.cause.path) == 0 {
			r.cause.path = []string{"inputSchema"}
		}
		r.key = groupKey(r)
		out = append(out, r)
	}
	return out
}

// serverIndex finds a diagnostic's server by name (and file) in constant
// time: place looks one up per diagnostic, and a scan of the catalog each
// time was quadratic in the servers.
type serverIndex struct {
	cat    *corpus.Catalog
	first  map[string]*corpus.Server // by name: the first in catalog order
	byFile map[[2]string]*corpus.Server
}

func newServerIndex(cat *corpus.Catalog) *serverIndex {
	x := &serverIndex{cat: cat, first: map[string]*corpus.Server{}, byFile: map[[2]string]*corpus.Server{}}
	for _, s := range cat.Servers {
		if _, ok := x.first[s.Name]; !ok {
			x.first[s.Name] = s
		}
		if k := [2]string{s.Name, s.Source}; x.byFile[k] == nil {
			x.byFile[k] = s
		}
	}
	return x
}

// of is the first server named d.Server from d.File (any file when d.File
// is empty), else cat.Server(d.Server).
func (x *serverIndex) of(d corpus.Diagnostic) *corpus.Server {
	if d.File == "" {
		if s := x.first[d.Server]; s != nil {
			return s
		}
	} else if s := x.byFile[[2]string{d.Server, d.File}]; s != nil {
		return s
	}
	return x.cat.Server(d.Server)
}

func groupKey(r raw) string {
	srv := ""
	if r.cause.server != nil {
		srv = r.cause.server.Name + "\x00" + r.cause.server.Source
	}
	switch {
	case r.scope == perCatalog:
		return r.rule
	case r.scope == perServer || r.cause.tool == nil:
		return r.rule + "\x00" + srv
	case r.rule == RuleDuplicate:
		return r.rule + "\x00" + srv + "\x00" + r.cause.tool.Name
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d", r.rule, srv, r.cause.tool.Name, r.cause.def)
}

// group turns placed diagnostics into one finding per cause, in order of
// first appearance.
func group(rs []raw, dd defs, loc *locator, cat *corpus.Catalog) []*Finding {
	nm := &namer{cat: cat}
	var order []string
	byKey := map[string][]raw{}
	for _, r := range rs {
		if _, ok := byKey[r.key]; !ok {
			order = append(order, r.key)
		}
		byKey[r.key] = append(byKey[r.key], r)
	}
	var out []*Finding
	for _, k := range order {
		out = append(out, assemble(byKey[k], dd, loc, nm))
	}
	return out
}

func assemble(rs []raw, dd defs, loc *locator, nm *namer) *Finding {
	first := rs[0]
	f := &Finding{Rule: first.rule, Severity: corpus.Info}
	cause := first.cause
	for _, r := range rs {
		if r.d.Client == "" { // the catalog's own diagnostic says the cause
			cause = r.cause
			break
		}
	}
	if first.scope == perServer && cause.server != nil {
		cause = where{server: cause.server, path: []string{"name"}}
		if first.rule != RuleServerName {
			cause = first.cause
		}
	}
	if first.scope == perCatalog {
		cause = first.cause
	}
	// A catalog-wide cause (a tool count over all files) is at no line of
	// any one file.
	at := func(w where, wide bool) Location {
		l := loc.locate(w)
		if wide {
			l = Location{File: l.File, Catalog: true}
		}
		return l
	}
	f.Location = at(cause, first.wide)
	var causes []string
	seenCause := map[string]bool{}
	for _, r := range rs {
		if r.d.Severity > f.Severity {
			f.Severity = r.d.Severity
		}
		f.Occurrences = append(f.Occurrences, Occurrence{Location: at(r.at, r.wide), Client: r.d.Client, Code: r.d.Code, Message: r.d.Message})
		if r.d.Client == "" {
			c, _, _ := strings.Cut(r.d.Message, "; ")
			if r.d.Field != "" && r.d.Field != "name" && r.d.Field != "description" {
				c = r.d.Field + ": " + c
			}
			if !seenCause[c] {
				seenCause[c] = true
				causes = append(causes, c)
			}
		}
	}
	if unsimulated[first.rule] {
		// The rules of clients not simulated say cause and client at once.
		f.Cause = first.d.Message
		if t := first.cause.tool; t != nil {
			f.Cause = t.Server + "/" + displayName(t.Name) + ": " + f.Cause
		}
		f.Location = at(cause, first.wide)
		return f
	}
	f.Consequences = consequences(rs, dd)
	f.Cause = causeText(first, causes, dd)
	f.Fix = fixText(first, nm)
	return f
}

// causeText says what is wrong, once.
func causeText(first raw, catalog []string, dd defs) string {
	srv, tool := "", ""
	if first.cause.server != nil {
		srv = first.cause.server.Name
	}
	if first.cause.tool != nil {
		tool = first.cause.tool.Name
	}
	subject := srv
	if first.cause.tool != nil {
		subject += "/" + displayName(tool)
	}
	if first.cause.def > 0 {
		subject += fmt.Sprintf(" (definition %d)", first.cause.def)
	}
	switch first.rule {
	case RuleServerName:
		return fmt.Sprintf("server name %q has %s", srv, badChars(srv))
	case RuleDuplicate:
		n := 0
		if first.cause.server != nil && first.cause.tool != nil {
			n = len(dd[first.cause.server][tool])
		}
		return fmt.Sprintf("tool name %q is defined %d times in server %q", tool, n, srv)
	case RuleNotInCatalog:
		return "the catalog is larger than OpenCode code mode's catalog budget"
	case RuleCatalogLineCut:
		return fmt.Sprintf("server %q: descriptions whose first line is longer than OpenCode code mode's catalog line", srv)
	case RuleAlwaysLoaded:
		return fmt.Sprintf("server %q: tools marked _meta[\"anthropic/alwaysLoad\"]", srv)
	case RuleNamespace:
		return fmt.Sprintf("server %q: its tools' keys start with another server's name", srv)
	case RuleOutputSchema:
		return fmt.Sprintf("server %q: an output schema the MCP SDK refuses", srv)
	case RuleHidden:
		return fmt.Sprintf("%s: _meta.ui.visibility lacks \"model\"", subject)
	case RuleGeminiToolLimit, RuleVSCodeToolCount:
		return first.d.Message
	}
	if len(catalog) > 0 {
		return subject + ": " + strings.Join(catalog, "; ")
	}
	switch first.rule {
	case RuleToolName:
		return fmt.Sprintf("tool name %q has %s", tool, badChars(tool))
	case RuleDescriptionCut:
		return subject + ": description is longer than a client keeps"
	case RuleSchema:
		field := fieldName(first.cause.path)
		return fmt.Sprintf("%s: %s is not what clients accept", subject, field)
	}
	return subject + ": " + first.d.Message
}

// displayName shows an empty tool name as "" so a message never ends in
// a bare slash or space.
// Names over 60 characters are clipped with "…".
func displayName(name string) string {
	if name == "" {
		return `""`
	}
	return clipText(name, 60)
}

// badChars lists the characters of a name outside [A-Za-z0-9_]
// (the set every simulated client keeps), or its length problem.
func badChars(name string) string {
	var bad []string
	seen := map[rune]bool{}
	for _, r := range name {
		if r < 0x80 && (r == '_' || search.IsWordByte(byte(r))) {
			continue
		}
		if !seen[r] {
			seen[r] = true
			bad = append(bad, fmt.Sprintf("%q", r))
		}
	}
	if len(bad) == 0 {
		if len(name) == 0 {
			return "no characters"
		}
		return fmt.Sprintf("%d characters", len([]rune(name)))
	}
	return strings.Join(bad, ", ")
}

// fixText proposes the edit for rules with an obvious one.
func fixText(first raw, nm *namer) string {
	switch first.rule {
	case RuleServerName:
		if first.cause.server != nil {
			return renameText("server", nm.server(first.cause.server))
		}
	case RuleToolName:
		if t := first.cause.tool; t != nil && badChars(t.Name) != fmt.Sprintf("%d characters", len([]rune(t.Name))) {
			return renameText("tool", nm.tool(first.cause.server, t))
		}
	case RuleDuplicate:
		return "keep one definition of the name"
	}
	return ""
}

// renameText words a rename, or says that no safe name was found.
func renameText(what, name string) string {
	if name == "" {
		return fmt.Sprintf("rename the %s to a name of A-Za-z0-9_ that no other %s has (no safe name was found: each toolfind tried is taken)", what, what)
	}
	return fmt.Sprintf("rename the %s to %q", what, name)
}

// namer picks the names fixText proposes so that none is taken: a tool's
// is unique among its server's tools, a server's among the catalog's
// servers. Taken are the names as they are and as a client rewrites them
// (safeName stands for every client's rewriting: [A-Za-z0-9_], which each
// keeps unchanged), compared without case, and the names already proposed
// to the tools (servers) before it in catalog order. The first free of
// safeName(name), then safeName(name)+"_2", "_3" … "_99" is proposed; ""
// when all are taken. Example: tools "get.user", "get_user" and "get user"
// get "get_user_2" and "get_user_3" (get_user is taken).
type namer struct {
	cat     *corpus.Catalog
	tools   map[*corpus.Server]map[*corpus.Tool]string
	servers map[*corpus.Server]string
}

// pick assigns a proposal to each of names (in order) that needs one,
// given all names of the scope.
func pick(names []string) []string {
	// taken counts, per lowercased name, the names and rewritten names
	// that hold it; a name's own forms do not take its proposal.
	taken := make(map[string]int, 2*len(names))
	forms := func(n string) []string {
		a, b := strings.ToLower(n), strings.ToLower(safeName(n))
		if a == b {
			return []string{a}
		}
		return []string{a, b}
	}
	for _, n := range names {
		for _, f := range forms(n) {
			taken[f]++
		}
	}
	out := make([]string, len(names))
	for i, n := range names {
		base := safeName(n)
		if base == n {
			continue
		}
		for _, f := range forms(n) {
			taken[f]--
		}
		for k := 1; k < 100; k++ {
			c := base
			if k > 1 {
				c = fmt.Sprintf("%s_%d", base, k)
			}
			if taken[strings.ToLower(c)] == 0 {
				out[i] = c
				break
			}
		}
		for _, f := range forms(n) {
			taken[f]++
		}
		if out[i] != "" {
			taken[strings.ToLower(out[i])]++
		}
	}
	return out
}

func (nm *namer) tool(srv *corpus.Server, t *corpus.Tool) string {
	if srv == nil {
		return safeName(t.Name)
	}
	if nm.tools == nil {
		nm.tools = map[*corpus.Server]map[*corpus.Tool]string{}
	}
	m, ok := nm.tools[srv]
	if !ok {
		names := make([]string, len(srv.Tools))
		for i, x := range srv.Tools {
			names[i] = x.Name
		}
		m = map[*corpus.Tool]string{}
		for i, p := range pick(names) {
			m[srv.Tools[i]] = p
		}
		nm.tools[srv] = m
	}
	return m[t]
}

func (nm *namer) server(srv *corpus.Server) string {
	if nm.servers == nil {
		nm.servers = map[*corpus.Server]string{}
		var names []string
		var list []*corpus.Server
		if nm.cat != nil {
			list = nm.cat.Servers
		}
		for _, s := range list {
			names = append(names, s.Name)
		}
		for i, p := range pick(names) {
			nm.servers[list[i]] = p
		}
	}
	if p, ok := nm.servers[srv]; ok {
		return p
	}
	return safeName(srv.Name)
}

// safeName keeps [A-Za-z0-9_] and turns every other character into "_",
// which every simulated client accepts unchanged (codex.md §1.3 is the
// strictest); "__" runs are squeezed for Grok's single "__" boundary
// (grok.md B.4).
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && (r == '_' || search.IsWordByte(byte(r))) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	for strings.Contains(out, "__") {
		out = strings.ReplaceAll(out, "__", "_")
	}
	out = strings.Trim(out, "_")
	if out == "" {
		return "tool"
	}
	if out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// consequences groups the client diagnostics of one cause by what each
// client does, merging clients that do the same to the same tools.
func consequences(rs []raw, dd defs) []Consequence {
	type acc struct {
		client string
		code   string
		msgs   []string
		tools  []corpus.ToolID
		seen   map[corpus.ToolID]bool // tools, to add each once in constant time
		srv    *corpus.Server
		worst  corpus.Severity
	}
	// One entry per client and code: a client may do two things for one
	// cause (OpenCode: the type is too large, so the input shows as
	// unknown).
	var order []*acc
	per := map[string]*acc{}
	for _, r := range rs {
		if r.d.Client == "" {
			continue
		}
		k := r.d.Client + "\x00" + r.d.Code
		a, ok := per[k]
		if !ok {
			a = &acc{client: r.d.Client, code: r.d.Code, srv: r.at.server}
			per[k] = a
			order = append(order, a)
		}
		a.msgs = append(a.msgs, r.d.Message)
		if r.d.Severity > a.worst {
			a.worst = r.d.Severity
		}
		if r.d.Tool != "" {
			id := corpus.NewToolID(r.d.Server, r.d.Tool)
			if !a.seen[id] {
				if a.seen == nil {
					a.seen = map[corpus.ToolID]bool{}
				}
				a.seen[id] = true
				a.tools = append(a.tools, id)
			}
		}
	}
	// The gravest consequence first (a rejection before a rename).
	sort.SliceStable(order, func(i, j int) bool { return order[i].worst > order[j].worst })
	var out []Consequence
	index := map[string]int{}
	for _, a := range order {
		var effect string
		var tools []corpus.ToolID
		if verb, ok := effects[a.code]; ok {
			tools = a.tools
			if (serverDrop[a.code] || a.code == "codex-server-name") && a.srv != nil {
				tools = allTools(a.srv)
			}
			effect = verb + " " + toolsPhrase(tools, a.srv, dd)
		} else if len(a.msgs) == 1 {
			effect, tools = a.msgs[0], a.tools
		} else {
			tools = a.tools
			effect = a.msgs[0] + " (" + toolsPhrase(tools, a.srv, dd) + ")"
		}
		if i, ok := index[effect]; ok {
			if !slices.Contains(out[i].Clients, a.client) {
				out[i].Clients = append(out[i].Clients, a.client)
			}
			continue
		}
		index[effect] = len(out)
		out = append(out, Consequence{Clients: []string{a.client}, Effect: effect, Tools: tools})
	}
	return out
}

func allTools(s *corpus.Server) []corpus.ToolID {
	var out []corpus.ToolID
	seen := map[string]bool{}
	for _, t := range s.Tools {
		if !seen[t.Name] {
			seen[t.Name] = true
			out = append(out, t.ID())
		}
	}
	return out
}

// toolsPhrase counts and lists tools compactly: "all 16 tools of
// hostile.server", "3 tools (a, b, c)", "12 tools (a, b, c, … +9)".
func toolsPhrase(tools []corpus.ToolID, srv *corpus.Server, dd defs) string {
	n := len(tools)
	if n == 0 {
		if srv != nil {
			return "server " + srv.Name
		}
		return "the catalog"
	}
	sameServer := srv != nil
	for _, id := range tools {
		if srv == nil || !strings.HasPrefix(string(id), srv.Name+"/") {
			sameServer = false
		}
	}
	name := func(id corpus.ToolID) string {
		if sameServer {
			return displayName(string(id)[len(srv.Name)+1:])
		}
		return id.Server() + "/" + displayName(id.Tool())
	}
	if sameServer && dd != nil && n == dd.uniqueCount(srv) && n > 1 {
		return fmt.Sprintf("all %d tools of %s", n, srv.Name)
	}
	if n == 1 {
		return "tool " + name(tools[0])
	}
	const show = 3
	var names []string
	for i, id := range tools {
		if i == show {
			break
		}
		names = append(names, name(id))
	}
	list := strings.Join(names, ", ")
	if n > show {
		list += fmt.Sprintf(", … +%d", n-show)
	}
	return fmt.Sprintf("%d tools (%s)", n, list)
}

func sortFindings(fs []*Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Location.File != b.Location.File {
			return a.Location.File < b.Location.File
		}
		if a.Location.Line != b.Location.Line {
			return a.Location.Line < b.Location.Line
		}
		if a.Location.Column != b.Location.Column {
			return a.Location.Column < b.Location.Column
		}
		return a.Rule < b.Rule
	})
}
