package suggest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// span is a byte range of a document.
type span struct{ start, end int }

// toolSpans finds every tool of a catalog document (the shapes package
// corpus reads: {"servers": [...]}, {"server", "tools"} or a bare
// {"tools"}), keyed by server name and position as the catalog parser
// numbers them (Tool.Index counts only the entries it keeps: objects with
// a string name), and the document's layout.
func toolSpans(file string, doc []byte) (spans map[toolRef]span, l *layout, err error) {
	if l, err = readLayout(file, doc); err != nil {
		return nil, nil, err
	}
	servers, _, err := corpus.ParseCatalog(file, doc)
	if err != nil {
		return nil, nil, err
	}
	spans = map[toolRef]span{}
	for _, srv := range servers {
		// The kept tools are a subsequence of the entries, in order.
		es := l.entries[srv.Name]
		j := 0
		for _, t := range srv.Tools {
			for j < len(es) && !sameJSON(doc[es[j].start:es[j].end], t.Raw) {
				j++
			}
			if j == len(es) {
				return nil, nil, fmt.Errorf("%s: tool %s not found in the document", file, t.ID())
			}
			spans[refOf(t)] = es[j]
			j++
		}
	}
	return spans, l, nil
}

// utf8BOM is the byte-order mark the catalog parser skips at the start of
// a file (package corpus); spans count from the file's first byte.
var utf8BOM = []byte("\xef\xbb\xbf")

// layout is where a catalog document keeps its tools.
type layout struct {
	// holder is the member whose value holds every tool ("servers" or
	// "tools"), value that value.
	holder string
	value  span
	// arrays are each server's tools array and entries its elements, by
	// server name.
	arrays  map[string]span
	entries map[string][]span
	// fileNamed is set for a bare {"tools"} document, whose one server is
	// named after the file (server); open is the offset of its "{", and
	// nullServer the value of a last "server" member that is null.
	fileNamed  bool
	server     string
	open       int
	nullServer *span
}

// readLayout walks a catalog document reading its members as the catalog
// parser does: the last member of a name counts, null reads as absent, a
// leading byte-order mark is skipped.
func readLayout(file string, doc []byte) (*layout, error) {
	base := 0
	if bytes.HasPrefix(doc, utf8BOM) {
		base = len(utf8BOM)
	}
	l := &layout{arrays: map[string]span{}, entries: map[string][]span{}}
	d := ojson.NewDecoder(doc[base:])
	if d.Peek() != ojson.Object {
		return nil, fmt.Errorf("%s: not a catalog object", file)
	}
	l.open = base + d.Start()
	var servers, tools span
	serverName := ""
	hasServers, hasTools := false, false
	err := d.Object(func(k string) error {
		s := d.Start()
		switch k {
		case "servers", "tools":
			null := d.Peek() == ojson.Null
			if err := d.Skip(); err != nil {
				return err
			}
			sp := span{base + s, base + d.Offset()}
			if k == "servers" {
				servers, hasServers = sp, !null
			} else {
				tools, hasTools = sp, !null
			}
		case "server":
			v, err := d.Value()
			if err != nil {
				return err
			}
			serverName, l.nullServer = "", nil
			if v.Kind == ojson.String {
				serverName = v.Str()
			} else if v.Kind == ojson.Null {
				l.nullServer = &span{base + s, base + d.Offset()}
			}
		default:
			return d.Skip()
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	// toolsOf records the entries of one tools array.
	toolsOf := func(name string, arr span) error {
		sub := ojson.NewDecoder(doc[arr.start:arr.end])
		if sub.Peek() != ojson.Array {
			return nil
		}
		l.arrays[name] = arr
		return sub.Array(func(i int) error {
			s := sub.Start()
			if err := sub.Skip(); err != nil {
				return err
			}
			l.entries[name] = append(l.entries[name], span{arr.start + s, arr.start + sub.Offset()})
			return nil
		})
	}
	switch {
	case hasServers:
		l.holder, l.value = "servers", servers
		sd := ojson.NewDecoder(doc[servers.start:servers.end])
		if sd.Peek() != ojson.Array {
			return nil, fmt.Errorf("%s: servers is not an array", file)
		}
		err = sd.Array(func(i int) error {
			if sd.Peek() != ojson.Object {
				return sd.Skip()
			}
			name, nameAlt := "", ""
			var ts span
			have := false
			err := sd.Object(func(k string) error {
				s := sd.Start()
				switch k {
				case "name", "server":
					v, err := sd.Value()
					if err != nil {
						return err
					}
					str := ""
					if v.Kind == ojson.String {
						str = v.Str()
					}
					if k == "name" {
						name = str
					} else {
						nameAlt = str
					}
				case "tools":
					if err := sd.Skip(); err != nil {
						return err
					}
					ts, have = span{servers.start + s, servers.start + sd.Offset()}, true
				default:
					return sd.Skip()
				}
				return nil
			})
			if err != nil {
				return err
			}
			if name == "" {
				name = nameAlt
			}
			if have {
				return toolsOf(name, ts)
			}
			return nil
		})
		return l, err
	case hasTools:
		if serverName == "" {
			base := filepath.Base(file)
			serverName = strings.TrimSuffix(base, filepath.Ext(base))
			l.fileNamed, l.server = true, serverName
		}
		l.holder, l.value = "tools", tools
		return l, toolsOf(serverName, tools)
	}
	return nil, fmt.Errorf("%s: a catalog needs \"tools\" or \"servers\"", file)
}

// EditDocument applies the edits to a catalog document (file names it,
// and names the server of a bare {"tools": [...]} file): each edited
// tool's object is replaced by the edited one, every other byte kept. A
// bare {"tools"} document without a "server" member also gains one naming
// its server as file does: the edited copy is written under another name,
// which would otherwise rename the server (and unresolve every query).
// It also returns the JSON Merge Patch (RFC 7386) that turns doc into the
// edited document. JSON arrays cannot be patched element by element
// (RFC 7386 §2: an array is replaced whole), so the patch replaces the
// member holding the tools ("servers" or "tools") with its edited value,
// and sets "server" when the edited document gains it; with nothing to
// change it is {}.
func EditDocument(file string, doc []byte, edits []ToolEdit) (edited, patch []byte, err error) {
	spans, l, err := toolSpans(file, doc)
	if err != nil {
		return nil, nil, err
	}
	type repl struct {
		at  span
		raw []byte
	}
	var rs []repl
	for _, e := range edits {
		ref := refOf(e.original)
		sp, ok := spans[ref]
		if !ok {
			return nil, nil, fmt.Errorf("%s: tool %s (position %d of server %s) is not in the file", file, e.Tool, ref.index, ref.server)
		}
		if !sameJSON(doc[sp.start:sp.end], e.original.Raw) {
			return nil, nil, fmt.Errorf("%s: tool %s differs from the catalog the edits were made for", file, e.Tool)
		}
		rs = append(rs, repl{sp, e.edited.Raw})
	}
	toolEdits := len(rs) > 0
	switch {
	case l.fileNamed && l.nullServer != nil:
		// "server": null counts as absent: it gets the name.
		rs = append(rs, repl{*l.nullServer, jsonString(l.server)})
	case l.fileNamed:
		// "server" first, spaced as the document's first member is.
		in := l.open + 1
		ws := doc[in : len(doc)-len(bytes.TrimLeft(doc[in:], " \t\r\n"))]
		var m bytes.Buffer
		m.Write(ws)
		m.WriteString(`"server":`)
		if len(ws) > 0 {
			m.WriteByte(' ')
		}
		m.Write(jsonString(l.server))
		m.WriteByte(',')
		rs = append(rs, repl{span{in, in}, m.Bytes()})
	}
	if len(rs) == 0 {
		return append([]byte(nil), doc...), []byte("{}\n"), nil
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].at.start < rs[j].at.start })
	var b bytes.Buffer
	last := 0
	for _, r := range rs {
		b.Write(doc[last:r.at.start])
		b.Write(r.raw)
		last = r.at.end
	}
	b.Write(doc[last:])
	edited = b.Bytes()
	// The holder's value moved by the size changes before it.
	start, end := l.value.start, l.value.end
	for _, r := range rs {
		d := len(r.raw) - (r.at.end - r.at.start)
		if r.at.end <= l.value.start {
			start += d
		}
		if r.at.end <= l.value.end {
			end += d
		}
	}
	var p bytes.Buffer
	p.WriteString("{")
	if l.fileNamed {
		p.WriteString(`"server":`)
		p.Write(jsonString(l.server))
	}
	if toolEdits {
		if l.fileNamed {
			p.WriteString(",")
		}
		k, _ := json.Marshal(l.holder)
		p.Write(k)
		p.WriteString(":")
		p.Write(edited[start:end])
	}
	p.WriteString("}")
	var out bytes.Buffer
	if err := json.Indent(&out, p.Bytes(), "", "  "); err != nil {
		return nil, nil, fmt.Errorf("%s: assembling the patch: %w", file, err)
	}
	out.WriteByte('\n')
	return edited, out.Bytes(), nil
}

// sameJSON reports whether two JSON texts differ only in the white space
// between tokens (a snapshot file is indented; the tools read from the
// server are not).
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// CatalogDocument writes a catalog as one {"servers": [...]} document,
// for catalogs read from several files (corpus reads it back to the same
// servers and tools). docs maps a server's Source to the document it was
// read from: such a server's tools array is copied from it byte for byte,
// with the entries the catalog parser left out (not an object, no string
// name), which still count (Claude Code drops the whole server,
// specs/claude.md §2). Any other server's tools are its tools' raw JSON.
func CatalogDocument(cat *corpus.Catalog, docs map[string][]byte) []byte {
	layouts := map[string]*layout{}
	var b bytes.Buffer
	b.WriteString(`{"servers":[`)
	for i, s := range cat.Servers {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":`)
		b.Write(jsonString(s.Name))
		if s.Instructions != "" {
			b.WriteString(`,"instructions":`)
			b.Write(jsonString(s.Instructions))
		}
		b.WriteString(`,"tools":`)
		if arr, ok := sourceArray(layouts, docs, s); ok {
			b.Write(arr)
		} else {
			b.WriteByte('[')
			for j, t := range s.Tools {
				if j > 0 {
					b.WriteByte(',')
				}
				b.Write(t.Raw)
			}
			b.WriteByte(']')
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return b.Bytes()
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// sourceArray is server s's tools array in the document it was read from,
// when docs has it (layouts caches each document's walk).
func sourceArray(layouts map[string]*layout, docs map[string][]byte, s *corpus.Server) ([]byte, bool) {
	doc, ok := docs[s.Source]
	if !ok {
		return nil, false
	}
	l, ok := layouts[s.Source]
	if !ok {
		l, _ = readLayout(s.Source, doc) // nil when unreadable: the raw JSON is used
		layouts[s.Source] = l
	}
	if l == nil {
		return nil, false
	}
	arr, ok := l.arrays[s.Name]
	if !ok {
		return nil, false
	}
	// The array must read back as the server's tools (the file may have
	// changed since it was loaded).
	var w bytes.Buffer
	w.WriteString(`{"server":`)
	w.Write(jsonString(s.Name))
	w.WriteString(`,"tools":`)
	w.Write(doc[arr.start:arr.end])
	w.WriteString("}")
	back, _, err := corpus.ParseCatalog(s.Source, w.Bytes())
	if err != nil || len(back) != 1 || len(back[0].Tools) != len(s.Tools) {
		return nil, false
	}
	for i, t := range back[0].Tools {
		if !bytes.Equal(t.Raw, s.Tools[i].Raw) {
			return nil, false
		}
	}
	return doc[arr.start:arr.end], true
}
