// Package corpus is toolfind's data model: the tool catalogs that MCP servers
// publish and the labelled query sets used to evaluate findability.
//
// A Catalog holds Servers in load order; a Server holds its Tools exactly in
// the order its tools/list answer gave them, duplicates included, because
// clients differ in how they treat a repeated name (Claude Code keeps the
// first, a JavaScript object keeps the last). Every Tool keeps its raw JSON
// object byte for byte next to the parsed fields, so a simulator can look at
// anything a real client would, hostile fields included.
//
// Loading never panics and never silently drops a tool: what a client would
// reject is still loaded, and Validate reports it as a Diagnostic naming the
// file, server, tool and field.
//
// Catalog file shapes (unknown keys are ignored):
//
//	{"server": "NAME", "instructions": "...", "tools": [...]}
//	{"servers": [{"name": "NAME", "instructions": "...", "tools": [...]}, ...]}
//	{"tools": [...]}   // a bare tools/list result; the server is named after the file
//
// Query files are JSON Lines, one object per line:
//
//	{"query": "...", "expect": ["server/tool", ...], "category": "..."}
//
// An expect entry may be written server/tool, server__tool,
// mcp__server__tool (with '-' and '.' possibly sanitised to '_') or as a
// bare tool name that is unique in the catalog. The text may be given as
// "prompt" instead of "query" (a prompts file); a line with both must give
// the same text. Other keys become tags.
// A query file is read whole and the queries' strings are cut from that
// copy; the usual line is read by a scanner of its own,
// any other by encoding/json, with the same result (FuzzQueryLine).
package corpus

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolfind/toolfind/ojson"
)

// ToolID is the canonical identity of a tool: "server/tool", with the
// server and tool names exactly as the server published them.
type ToolID string

// NewToolID joins a server and a tool name.
func NewToolID(server, tool string) ToolID { return ToolID(server + "/" + tool) }

// Server returns the server part of the id (up to the first '/'). Server
// and tool names may both hold '/', so the id alone cannot always say
// where one ends: Catalog.Tool, which knows the servers, can.
func (id ToolID) Server() string {
	s, _, _ := strings.Cut(string(id), "/")
	return s
}

// Tool returns the tool part of the id (after the first '/').
func (id ToolID) Tool() string {
	_, t, _ := strings.Cut(string(id), "/")
	return t
}

func (id ToolID) String() string { return string(id) }

// Catalog is a set of MCP servers and their tools, as loaded from files or
// live servers, with the diagnostics found while loading and validating.
type Catalog struct {
	Servers []*Server
	// Diagnostics are the problems found while parsing, then Validate's.
	Diagnostics []Diagnostic

	parsed []Diagnostic // the parse-time part of Diagnostics (see Revalidate)

	byName atomic.Pointer[serverIndex] // see Server
}

// indexMu serialises the building of server indexes (Catalog.Server).
var indexMu sync.Mutex

// serverIndex maps server names to their first position in Servers, as
// Servers was when it was built: of length n, its first element at base.
type serverIndex struct {
	n    int
	base **Server
	pos  map[string]int
}

// Server is one MCP server: its name, the instructions from its initialize
// result, and its tools in tools/list order.
type Server struct {
	Name         string
	Instructions string
	Source       string // the file (or live source) it came from
	Tools        []*Tool
	// FirstPage is the number of tools on the server's first tools/list
	// page when it listed them in several pages ("x_first_page" in a
	// catalog file, set by a live snapshot); 0 when one page holds them
	// all or it is not known. Clients that read the first page only
	// (Gemini CLI) never see the rest.
	FirstPage int
}

// Tool is one entry of a tools/list answer.
type Tool struct {
	Server      string
	Name        string
	Title       string // the top-level "title" field; see also Annotations.Title
	Description string
	// HasDescription is false when the "description" key is absent or not
	// a string.
	HasDescription bool

	// InputSchema and OutputSchema are the parsed values (Kind Invalid when
	// absent); their raw bytes are in InputSchemaRaw and OutputSchemaRaw.
	InputSchema     ojson.Value
	InputSchemaRaw  json.RawMessage
	OutputSchema    ojson.Value
	OutputSchemaRaw json.RawMessage

	Annotations Annotations
	// Meta is the tool's "_meta" object (Kind Invalid when absent).
	Meta ojson.Value

	// Raw is the tool's whole JSON object as the server sent it, and Value
	// the same parsed with member order kept.
	Raw   json.RawMessage
	Value ojson.Value

	// Index is the tool's position in its server's tools/list answer.
	Index int
}

// Annotations are the MCP tool annotations. Hints are nil when absent.
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// ID returns the tool's canonical id.
func (t *Tool) ID() ToolID { return NewToolID(t.Server, t.Name) }

// MetaString returns _meta[key] when it is a string.
func (t *Tool) MetaString(key string) (string, bool) {
	v, ok := t.Meta.Get(key)
	if !ok || v.Kind != ojson.String {
		return "", false
	}
	return v.Str(), true
}

// MetaBool returns _meta[key] when it is a boolean.
func (t *Tool) MetaBool(key string) (value, ok bool) {
	v, ok := t.Meta.Get(key)
	if !ok || v.Kind != ojson.Bool {
		return false, false
	}
	return v.Bool, true
}

// UIVisibility returns _meta.ui.visibility when it is an array, with its
// string entries (MCP Apps: "model", "app"). ok is false when it is absent
// or not an array, which clients read as "visible to the model".
func (t *Tool) UIVisibility() (vis []string, ok bool) {
	v := t.Meta.Lookup("ui", "visibility")
	if v.Kind != ojson.Array {
		return nil, false
	}
	vis = []string{}
	for _, e := range v.Array() {
		if e.Kind == ojson.String {
			vis = append(vis, e.Str())
		}
	}
	return vis, true
}

// HiddenFromModel reports whether _meta.ui.visibility is an array that does
// not contain "model" (an app-only tool).
func (t *Tool) HiddenFromModel() bool {
	vis, ok := t.UIVisibility()
	if !ok {
		return false
	}
	for _, v := range vis {
		if v == "model" {
			return false
		}
	}
	return true
}

// Server returns the first server with this exact name, or nil.
//
// The names are looked up in an index built on first use and rebuilt
// whenever Servers has grown, shrunk or moved since (so loading 100,000
// servers costs 100,000 lookups, not 100,000²/2 comparisons); a hit is
// checked against the entry now at its position. A server renamed in
// place to a name the index has not seen is not found: rename by
// replacing Servers.
func (c *Catalog) Server(name string) *Server {
	if len(c.Servers) < 8 {
		for _, s := range c.Servers {
			if s.Name == name {
				return s
			}
		}
		return nil
	}
	ix := c.byName.Load()
	if ix == nil || ix.n != len(c.Servers) || ix.base != &c.Servers[0] {
		ix = c.indexServers()
	}
	i, ok := ix.pos[name]
	if !ok {
		return nil
	}
	if s := c.Servers[i]; s.Name == name {
		return s
	}
	// Renamed in place since: the slow, always right answer.
	for _, s := range c.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// indexServers builds the index of Servers, extending old when Servers
// only grew at its end since (Add appends one file's servers at a time).
// Builders hold indexMu; a reader only reads an index that is current.
func (c *Catalog) indexServers() *serverIndex {
	indexMu.Lock()
	defer indexMu.Unlock()
	old := c.byName.Load()
	if old != nil && old.n == len(c.Servers) && old.base == &c.Servers[0] {
		return old // built by another caller meanwhile
	}
	ix := &serverIndex{n: len(c.Servers), base: &c.Servers[0]}
	from := 0
	if old != nil && old.n < len(c.Servers) && old.base == ix.base {
		ix.pos, from = old.pos, old.n // old is replaced, never read again
	} else {
		ix.pos = make(map[string]int, len(c.Servers))
	}
	for i, s := range c.Servers[from:] {
		if _, ok := ix.pos[s.Name]; !ok {
			ix.pos[s.Name] = from + i
		}
	}
	c.byName.Store(ix)
	return ix
}

// Tools returns every tool of every server in catalog order, duplicates
// included.
func (c *Catalog) Tools() []*Tool {
	var out []*Tool
	for _, s := range c.Servers {
		out = append(out, s.Tools...)
	}
	return out
}

// UniqueTools returns the tools in catalog order with, per server, only the
// first tool of each name (the usual first-wins rule). A server's repeated
// names are found by a scan when it has a few tools, else by a stable sort
// of its tools' positions by name (no map).
func (c *Catalog) UniqueTools() []*Tool {
	n := 0
	for _, s := range c.Servers {
		n += len(s.Tools)
	}
	if n == 0 {
		return nil
	}
	out := make([]*Tool, 0, n)
	var order []int32
	var dup []bool
	for _, s := range c.Servers {
		ts := s.Tools
		if len(ts) <= 16 {
		tools:
			for i, t := range ts {
				for _, u := range ts[:i] {
					if u.Name == t.Name {
						continue tools
					}
				}
				out = append(out, t)
			}
			continue
		}
		order = order[:0]
		for i := range ts {
			order = append(order, int32(i))
		}
		slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(ts[a].Name, ts[b].Name) })
		dup = append(dup[:0], make([]bool, len(ts))...)
		for k := 1; k < len(order); k++ {
			if ts[order[k]].Name == ts[order[k-1]].Name {
				dup[order[k]] = true
			}
		}
		for i, t := range ts {
			if !dup[i] {
				out = append(out, t)
			}
		}
	}
	return out
}

// Tool returns the first tool with this id, or nil. Both names may hold
// '/' ("@scope/pkg" servers, "ns/tool" tools): each '/' is tried as the
// end of the server's name, first to last.
func (c *Catalog) Tool(id ToolID) *Tool {
	for i := 0; i < len(id); i++ {
		if id[i] != '/' {
			continue
		}
		s := c.Server(string(id[:i]))
		if s == nil {
			continue
		}
		name := string(id[i+1:])
		for _, t := range s.Tools {
			if t.Name == name {
				return t
			}
		}
	}
	return nil
}

// Len returns the number of tools, duplicates included.
func (c *Catalog) Len() int {
	n := 0
	for _, s := range c.Servers {
		n += len(s.Tools)
	}
	return n
}
