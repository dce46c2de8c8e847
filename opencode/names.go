package opencode

import (
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Sanitize is OpenCode's MCP name sanitiser (§0, §C.1; the MCP catalog module's
// `sanitize`): every UTF-16 code unit outside [a-zA-Z0-9_-] becomes "_".
// A character outside the Basic Multilingual Plane is two code units in
// JavaScript and so becomes "__".
func Sanitize(s string) string { return search.SanitizeName(s) }

// ToolKey is the name OpenCode gives an MCP tool, `{server}_{tool}` with
// both parts sanitised (§C.1). It is the eager tool name and the key code
// mode splits into a path.
func ToolKey(server, tool string) string { return Sanitize(server) + "_" + Sanitize(tool) }

// entry is one MCP tool as OpenCode keeps it: its key, the code mode
// path {namespace}.{local} and the tool whose definition won the key.
type entry struct {
	key       string
	namespace string
	local     string
	path      string // namespace + "." + local, unrendered
	tool      *corpus.Tool
	// shadowed are the earlier tools whose key this one took over.
	shadowed []*corpus.Tool
	// keyRank is the key's place in localeCompare order.
	keyRank int32
}

// buildEntries reproduces how OpenCode 1.18.33 turns its MCP tools into
// code mode entries (§0; read from the 1.18.33 build, where the execute
// tool groups the MCP tools by server this way, and checked with
// opencode-oracle):
//
//  1. Every tool gets the key ToolKey(server, tool). The tools live in one
//     JavaScript object keyed by that string, so a repeated key keeps the
//     LAST tool's definition (s/t twice, or s/t.x then s/t_x: the later
//     one is shown).
//  2. Keys are visited in localeCompare order.
//  3. A key's namespace is the LONGEST sanitised server name s such that
//     the key starts with s + "_"; failing that, the key up to its first
//     "_" (or the whole key). The rest after namespace + "_" is the local
//     tool name. So a tool "admin_reset" of server "svc" lands in namespace
//     "svc_admin" as "reset" when a server "svc_admin" is connected.
//
// The result is in path order: namespaces by first appearance in key
// order, keys in order inside each (JavaScript object order, with
// array-index-like names first as ECMAScript orders them).
//
// Servers whose tools/list the MCP SDK refuses (rejected) contribute no
// tool and no server name.
func buildEntries(cat *corpus.Catalog, rejected map[string]*rejection) []*entry {
	byKey := make(map[string]*entry, cat.Len())
	var keys []string
	var servers []string
	seenServer := map[string]bool{}
	for _, s := range cat.Servers {
		if rejected[s.Name] != nil {
			continue
		}
		sn := Sanitize(s.Name)
		if !seenServer[sn] {
			seenServer[sn] = true
			servers = append(servers, sn)
		}
		for _, t := range s.Tools {
			k := ToolKey(s.Name, t.Name)
			if e, ok := byKey[k]; ok {
				e.shadowed = append(e.shadowed, e.tool)
				e.tool = t
				continue
			}
			byKey[k] = &entry{key: k, tool: t}
			keys = append(keys, k)
		}
	}
	// localeCompare order, stable (search.SortLocale), with each key's
	// place kept for the eager request's order.
	order, ranks := localeOrder(keys)
	sorted := make([]string, len(keys))
	for k, i := range order {
		sorted[k] = keys[i]
		byKey[keys[i]].keyRank = ranks[i]
	}
	keys = sorted
	// Longest server names first; stable, so equal lengths keep
	// connection order (Array.prototype.sort is stable).
	longest := append([]string(nil), servers...)
	sort.SliceStable(longest, func(i, j int) bool { return search.UTF16Len(longest[i]) > search.UTF16Len(longest[j]) })
	// The first server in that order that k starts with, then "_": of the
	// prefixes of k that end before a "_", the one placed first (a scan of
	// every server per key was quadratic in the servers).
	place := make(map[string]int, len(longest))
	for i, s := range longest {
		if _, ok := place[s]; !ok {
			place[s] = i
		}
	}
	groups := map[string][]*entry{}
	var nsOrder []string
	for _, k := range keys {
		ns, best := "", len(longest)
		for i := 0; i < len(k); i++ {
			if k[i] != '_' {
				continue
			}
			if p, ok := place[k[:i]]; ok && p < best {
				ns, best = k[:i], p
			}
		}
		if ns == "" {
			if i := strings.IndexByte(k, '_'); i >= 0 {
				ns = k[:i]
			} else {
				ns = k
			}
		}
		local := k
		if hasPrefixUnderscore(k, ns) {
			local = k[len(ns)+1:]
		}
		e := byKey[k]
		e.namespace, e.local, e.path = ns, local, ns+"."+local
		if _, ok := groups[ns]; !ok {
			nsOrder = append(nsOrder, ns)
		}
		groups[ns] = append(groups[ns], e)
	}
	// The tools object is built namespace by namespace and tool by tool;
	// ECMAScript enumerates array-index keys first, ascending.
	nsOrder = jsKeyOrder(nsOrder)
	var out []*entry
	for _, ns := range nsOrder {
		g := groups[ns]
		locals := make([]string, len(g))
		byLocal := make(map[string]*entry, len(g))
		for i, e := range g {
			locals[i] = e.local
			byLocal[e.local] = e
		}
		for _, l := range jsKeyOrder(locals) {
			out = append(out, byLocal[l])
		}
	}
	return out
}

// hasPrefixUnderscore is strings.HasPrefix(k, prefix+"_") without building
// the string.
func hasPrefixUnderscore(k, prefix string) bool {
	return len(k) > len(prefix) && k[len(prefix)] == '_' && strings.HasPrefix(k, prefix)
}

// jsKeyOrder orders distinct property names as ECMAScript enumerates an
// object built by inserting them in the given order: array indices
// (canonical integers below 2^32-1) ascending first, then the rest in
// insertion order.
func jsKeyOrder(keys []string) []string {
	var idx, rest []string
	for _, k := range keys {
		if _, ok := arrayIndex(k); ok {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return keys
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, _ := arrayIndex(idx[i])
		b, _ := arrayIndex(idx[j])
		return a < b
	})
	return append(idx, rest...)
}

// arrayIndex parses a canonical array index: digits without a leading
// zero (except "0"), below 2^32-1.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, n < 1<<32-1
}

// isIdent is OpenCode's identifier test /^[A-Za-z_$][A-Za-z0-9_$]*$/.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// RenderPath renders a code mode path ("github.create_issue") the way the
// model is told to call it (§C.2, §0): "tools" followed by ".segment" for
// identifier segments and `["segment"]` (JSON-quoted) for the others, e.g.
// tools["chrome-devtools"].list_pages.
func RenderPath(path string) string {
	var b strings.Builder
	b.WriteString("tools")
	for _, seg := range strings.Split(path, ".") {
		if isIdent(seg) {
			b.WriteByte('.')
			b.WriteString(seg)
		} else {
			b.WriteByte('[')
			b.WriteString(jsonString(seg))
			b.WriteByte(']')
		}
	}
	return b.String()
}
