package lint

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/jsonpos"
)

// Location is where a finding's cause is written: a file, line and column
// pointing at the JSON member (the key of "description", of a property, of
// the server's "name"), or, for a live server, the server and tool.
type Location struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`   // 1-based; 0 when unknown
	Column int    `json:"column,omitempty"` // 1-based, in Unicode code points
	// Pointer is the member's JSON Pointer in the file (RFC 6901).
	Pointer string `json:"pointer,omitempty"`
	Server  string `json:"server,omitempty"`
	Tool    string `json:"tool,omitempty"`
	// Definition numbers the definitions of a repeated tool name from 1;
	// 0 when the name is defined once.
	Definition int    `json:"definition,omitempty"`
	Field      string `json:"field,omitempty"`
	// Catalog marks a cause of the whole catalog (its tool count), not of
	// one file: String is "catalog". File is then the first catalog file,
	// only for SARIF, whose results need a file.
	Catalog bool `json:"catalog,omitempty"`
}

// String is "file:line:col" for a file, else "server/tool" (a live server
// or a source that cannot be read back), or "catalog" for the whole
// catalog.
func (l Location) String() string {
	if l.Catalog {
		return "catalog"
	}
	if l.File != "" && l.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
	}
	name := l.Server
	if l.Tool != "" {
		name += "/" + l.Tool
		if l.Definition > 1 {
			name += fmt.Sprintf("#%d", l.Definition)
		}
	}
	if l.File != "" && !isLive(l.File) {
		return l.File + ": " + name
	}
	return name
}

// isLive tells a live server's source label (corpus/live: "stdio:CMD" or a
// URL) from a file name.
func isLive(src string) bool { return strings.HasPrefix(src, "stdio:") || strings.Contains(src, "://") }

// locator turns (server, tool definition, field) into Locations, reading
// each catalog file once and indexing it with jsonpos only when a finding
// needs a position there.
type locator struct {
	read  func(string) ([]byte, error)
	files map[string]*fileIndex
}

type fileIndex struct {
	ix      *jsonpos.Index    // nil when the file cannot be read or parsed
	servers map[string]string // server name -> its entry's pointer (first entry of the name)
	// listed is set once servers holds every entry; oneServer when the
	// file has no "servers" list.
	listed, oneServer bool
	tools             map[string][]string // server pointer -> tool pointer per parsed tool index
}

func newLocator(read func(string) ([]byte, error)) *locator {
	return &locator{read: read, files: map[string]*fileIndex{}}
}

func (l *locator) file(name string) *fileIndex {
	if f, ok := l.files[name]; ok {
		return f
	}
	f := &fileIndex{servers: map[string]string{}, tools: map[string][]string{}}
	l.files[name] = f
	if l.read == nil || name == "" || isLive(name) {
		return f
	}
	data, err := l.read(name)
	if err != nil {
		return f
	}
	if ix, err := jsonpos.Build(data); err == nil {
		f.ix = ix
	}
	return f
}

// serverPointer finds the server's object in its file: "" for a one-server
// file, "/servers/N" for the first entry whose name is the server's. The
// entries are read once, on the first call, into f.servers (a lookup per
// server, not a scan: 100,000 servers in one file).
func (f *fileIndex) serverPointer(name string) (string, bool) {
	if !f.listed {
		f.listed = true
		list, _, ok := f.ix.LookupFold("/servers")
		if !ok {
			f.oneServer = true
		}
		for i := 0; ok; i++ {
			p := list + "/" + strconv.Itoa(i)
			if _, ok := f.ix.Lookup(p); !ok {
				break
			}
			key, _, ok := f.ix.LookupFold(p + "/name") // "name" wins over "server" (corpus.ParseCatalog)
			if !ok {
				key, _, _ = f.ix.LookupFold(p + "/server")
			}
			if s, ok := f.str(key); ok {
				if _, seen := f.servers[s]; !seen {
					f.servers[s] = p
				}
			}
		}
	}
	if f.oneServer {
		return "", true
	}
	p, ok := f.servers[name]
	return p, ok
}

func (f *fileIndex) str(ptr string) (string, bool) {
	raw, ok := f.ix.Raw(ptr)
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// toolPointer maps a corpus.Tool (Index counts only the entries the corpus
// kept: objects with a string name) to its element of the tools array.
func (f *fileIndex) toolPointer(srv string, index int) (string, bool) {
	list, ok := f.tools[srv]
	if !ok {
		tools, _, _ := f.ix.LookupFold(srv + "/tools")
		for i := 0; tools != ""; i++ {
			p := tools + "/" + strconv.Itoa(i)
			raw, ok := f.ix.Raw(p)
			if !ok {
				break
			}
			if len(raw) > 0 && raw[0] == '{' {
				if name, _, ok := f.ix.LookupFold(p + "/name"); ok {
					if _, ok := f.str(name); ok {
						list = append(list, p)
					}
				}
			}
		}
		f.tools[srv] = list
	}
	if index < 0 || index >= len(list) {
		return "", false
	}
	return list[index], true
}

// where is what a location names before it is resolved.
type where struct {
	server *corpus.Server
	tool   *corpus.Tool // nil for the server itself
	def    int          // definition number of a repeated name (0: only one)
	path   []string     // member path inside the tool (or server); nil: the tool element
}

// locate resolves w into a Location; a member that is not in the file
// (a field the client reports but the file lacks) falls back to its
// nearest written parent.
func (l *locator) locate(w where) Location {
	var loc Location
	if w.server == nil {
		return loc
	}
	loc.Server, loc.File = w.server.Name, w.server.Source
	if w.tool != nil {
		loc.Tool, loc.Definition = w.tool.Name, w.def
	}
	loc.Field = fieldName(w.path)
	if isLive(loc.File) {
		loc.File = ""
		return loc
	}
	f := l.file(w.server.Source)
	if f.ix == nil {
		return loc
	}
	base, ok := f.serverPointer(w.server.Name)
	if !ok {
		return loc
	}
	if w.tool != nil {
		tp, ok := f.toolPointer(base, w.tool.Index)
		if !ok {
			return loc
		}
		base = tp
	}
	path := w.path
	if w.tool == nil && base == "" && len(path) == 1 && path[0] == "name" {
		path = []string{"server"} // {"server": NAME, "tools": [...]}
		loc.Field = "server"
	}
	ptr := base + jsonpos.Pointer(path...)
	for {
		if found, p, ok := f.ix.LookupFold(ptr); ok {
			loc.Pointer = found
			loc.Line, loc.Column = f.ix.LineCol(p.Start())
			return loc
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 || len(ptr) <= len(base) {
			return loc
		}
		ptr = ptr[:i]
	}
}

// fieldName writes a member path the way corpus diagnostics do:
// inputSchema.properties.body.description, inputSchema.required[0].
func fieldName(path []string) string { return jsonpos.FieldName(path) }

// fieldPath splits a corpus diagnostic's Field ("inputSchema.required[0]",
// "_meta.ui.visibility") into member names. Keys with dots cannot be told
// apart from nesting; locate falls back to the nearest parent then.
func fieldPath(field string) []string {
	if field == "" {
		return nil
	}
	var out []string
	for _, part := range strings.Split(field, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				out = append(out, part[i:])
				break
			}
			out = append(out, part[i+1:i+j])
			part = part[i+j+1:]
		}
	}
	return out
}
