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
// a string name), and the member whose value holds them all ("servers" or
// "tools").
func toolSpans(file string, doc []byte) (spans map[toolRef]span, holder string, value span, err error) {
	elems := map[string][]span{}
	holder, value, err = elementSpans(file, doc, elems)
	if err != nil {
		return nil, "", span{}, err
	}
	servers, _, err := corpus.ParseCatalog(file, doc)
	if err != nil {
		return nil, "", span{}, err
	}
	spans = map[toolRef]span{}
	for _, srv := range servers {
		// The kept tools are a subsequence of the entries, in order.
		es := elems[srv.Name]
		j := 0
		for _, t := range srv.Tools {
			for j < len(es) && !sameJSON(doc[es[j].start:es[j].end], t.Raw) {
				j++
			}
			if j == len(es) {
				return nil, "", span{}, fmt.Errorf("%s: tool %s not found in the document", file, t.ID())
			}
			spans[refOf(t)] = es[j]
			j++
		}
	}
	return spans, holder, value, nil
}

// elementSpans records the entries of every tools array by server name.
func elementSpans(file string, doc []byte, elems map[string][]span) (holder string, value span, err error) {
	d := ojson.NewDecoder(doc)
	if d.Peek() != ojson.Object {
		return "", span{}, fmt.Errorf("%s: not a catalog object", file)
	}
	var servers, tools span
	serverName := ""
	hasServers, hasTools := false, false
	err = d.Object(func(k string) error {
		s := d.Start()
		switch k {
		case "servers":
			if err := d.Skip(); err != nil {
				return err
			}
			servers, hasServers = span{s, d.Offset()}, true
		case "tools":
			if err := d.Skip(); err != nil {
				return err
			}
			tools, hasTools = span{s, d.Offset()}, true
		case "server":
			v, err := d.Value()
			if err != nil {
				return err
			}
			if v.Kind == ojson.String {
				serverName = v.Str
			}
		default:
			return d.Skip()
		}
		return nil
	})
	if err != nil {
		return "", span{}, fmt.Errorf("%s: %w", file, err)
	}
	// toolsOf records the entries of one tools array.
	toolsOf := func(name string, arr span) error {
		sub := ojson.NewDecoder(doc[arr.start:arr.end])
		if sub.Peek() != ojson.Array {
			return nil
		}
		return sub.Array(func(i int) error {
			s := sub.Start()
			if err := sub.Skip(); err != nil {
				return err
			}
			elems[name] = append(elems[name], span{arr.start + s, arr.start + sub.Offset()})
			return nil
		})
	}
	switch {
	case hasServers:
		sd := ojson.NewDecoder(doc[servers.start:servers.end])
		if sd.Peek() != ojson.Array {
			return "", span{}, fmt.Errorf("%s: servers is not an array", file)
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
					if v.Kind == ojson.String {
						if k == "name" {
							name = v.Str
						} else {
							nameAlt = v.Str
						}
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
		return "servers", servers, err
	case hasTools:
		if serverName == "" {
			base := filepath.Base(file)
			serverName = strings.TrimSuffix(base, filepath.Ext(base))
		}
		return "tools", tools, toolsOf(serverName, tools)
	}
	return "", span{}, fmt.Errorf("%s: a catalog needs \"tools\" or \"servers\"", file)
}

// EditDocument applies the edits to a catalog document (file names it,
// and names the server of a bare {"tools": [...]} file): each edited
// tool's object is replaced by the edited one, every other byte kept. It
// also returns the JSON Merge Patch (RFC 7386) that turns doc into the
// edited document. JSON arrays cannot be patched element by element
// (RFC 7386 §2: an array is replaced whole), so the patch replaces the
// member holding the tools ("servers" or "tools") with its edited value;
// with no edits it is {}.
func EditDocument(file string, doc []byte, edits []ToolEdit) (edited, patch []byte, err error) {
	spans, holder, value, err := toolSpans(file, doc)
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
	// The holder's value moved by the size changes before its end.
	shift := 0
	for _, r := range rs {
		shift += len(r.raw) - (r.at.end - r.at.start)
	}
	newEnd := value.end + shift
	var p bytes.Buffer
	p.WriteString("{")
	k, _ := json.Marshal(holder)
	p.Write(k)
	p.WriteString(":")
	p.Write(edited[value.start:newEnd])
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
// each tool's JSON kept byte for byte, for catalogs read from several
// files (corpus reads it back to the same servers and tools).
func CatalogDocument(cat *corpus.Catalog) []byte {
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
		b.WriteString(`,"tools":[`)
		for j, t := range s.Tools {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(t.Raw)
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return b.Bytes()
	}
	out.WriteByte('\n')
	return out.Bytes()
}
