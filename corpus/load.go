package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/toolfind/toolfind/internal/jsonpos"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/ojson"
)

// LoadError is a catalog or query file that cannot be read at all. It names
// the file and, where known, the line, column and field.
type LoadError struct {
	File   string
	Line   int // 1-based; 0 when unknown
	Column int // 1-based; 0 when unknown
	Field  string
	Err    error
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": %s", e.Field)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *LoadError) Unwrap() error { return e.Err }

// Load reads catalogs from files and folders (a folder contributes its
// *.json files, sorted by name, not recursively; symbolic links to files
// count as the files, and a link that cannot be followed is an error), merges them and validates
// the result. Two sources defining the same server name are an error naming
// both files.
func Load(paths ...string) (*Catalog, error) {
	return LoadWith(LoadOptions{}, paths...)
}

// LoadOptions tune Load.
type LoadOptions struct {
	// Progress, when set, is called now and then while the files are
	// parsed with the bytes done so far and the total size of the files
	// (from the same goroutine as LoadWith).
	Progress func(done, total int64)
}

// LoadWith is Load with options.
func LoadWith(opts LoadOptions, paths ...string) (*Catalog, error) {
	var files []string
	var total int64
	for _, p := range paths {
		fs, size, err := expand(p)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
		total += size
	}
	return loadFiles(readCatalogFile, files, total, opts.Progress)
}

// LoadFS is Load over a file system (used for the embedded demo).
func LoadFS(fsys fs.FS, names ...string) (*Catalog, error) {
	return loadFiles(func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) }, names, 0, nil)
}

// loadFiles parses each file, merges the servers and validates once.
func loadFiles(read func(string) ([]byte, error), files []string, total int64, progress func(done, total int64)) (*Catalog, error) {
	cat := &Catalog{}
	var done int64
	// One decoder and one tool slab serve every file: the values of all
	// the files are cut from the same slabs, so only the last file leaves
	// the end of a slab unused, not each.
	var shared parser
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, &LoadError{File: f, Err: unwrapPathError(err)}
		}
		p := &parser{file: f, data: data, dec: shared.dec, slab: shared.slab, scratch: shared.scratch}
		if progress != nil {
			base := done
			p.progress = func(off int) { progress(base+int64(off), total) }
		}
		servers, diags, err := p.parse()
		if err != nil {
			return nil, err
		}
		shared = *p
		done += int64(len(data))
		if progress != nil {
			progress(done, total)
		}
		if err := cat.AddParsed(servers, diags); err != nil {
			return nil, err
		}
	}
	cat.Revalidate()
	return cat, nil
}

// Add appends servers to the catalog; a name already present is an error.
// It does not validate; call Revalidate once all servers are in.
func (c *Catalog) Add(servers ...*Server) error {
	for _, s := range servers {
		if prev := c.Server(s.Name); prev != nil {
			return &LoadError{File: s.Source, Field: "server",
				Err: fmt.Errorf("server name %q is already defined by %s", s.Name, prev.Source)}
		}
		c.Servers = append(c.Servers, s)
	}
	return nil
}

// AddParsed appends servers with the diagnostics ParseCatalog (or a live
// snapshot) found while reading them.
func (c *Catalog) AddParsed(servers []*Server, diags []Diagnostic) error {
	if err := c.Add(servers...); err != nil {
		return err
	}
	c.parsed = append(c.parsed, diags...)
	return nil
}

// Merge appends another catalog's servers and its parse diagnostics (not
// its validation results: call Revalidate on the merged catalog).
func (c *Catalog) Merge(other *Catalog) error {
	return c.AddParsed(other.Servers, other.parsed)
}

// Revalidate sets Diagnostics to the parse diagnostics followed by
// Validate's findings over the whole catalog as it is now.
func (c *Catalog) Revalidate() {
	c.Diagnostics = append(append([]Diagnostic(nil), c.parsed...), Validate(c)...)
}

// expand lists the catalog files of a path (a file, or a folder's *.json
// files sorted by name) and their total size.
func expand(p string) ([]string, int64, error) {
	st, err := userfile.Stat(p)
	if err != nil {
		return nil, 0, &LoadError{File: p, Err: err}
	}
	if !st.IsDir() {
		return []string{p}, st.Size(), nil
	}
	var files []string
	var size int64
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, 0, &LoadError{File: p, Err: err}
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		full := filepath.Join(p, e.Name())
		info, err := e.Info()
		if e.Type()&fs.ModeSymlink != 0 {
			// A link to a catalog file counts as the file; a link to a
			// folder is a folder (not walked); one that cannot be
			// followed is an error naming it.
			if info, err = userfile.Stat(full); err != nil {
				return nil, 0, &LoadError{File: full, Err: unwrapPathError(err)}
			}
		}
		if err != nil || info.IsDir() {
			continue
		}
		if !info.Mode().IsRegular() {
			// A FIFO or device named *.json would block or never end.
			return nil, 0, &LoadError{File: full, Err: &userfile.NotRegularError{Mode: info.Mode()}}
		}
		files = append(files, full)
		size += info.Size()
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, 0, &LoadError{File: p, Err: errors.New("folder has no .json catalog files")}
	}
	return files, size, nil
}

// utf8BOM is the UTF-8 encoding of U+FEFF, which some editors write at the
// start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// span is one member's value in a catalog file: the bytes from its first
// to its last character.
type span struct {
	data []byte
	kind ojson.Kind
	str  string // the decoded string, when kind is String
}

// present reports whether the member was given and not null (null reads
// as absent, as it always has).
func (s span) present() bool { return s.data != nil && s.kind != ojson.Null }

// catalogFields are the members a catalog object (or a servers[] entry)
// may have; the last of a repeated key wins.
type catalogFields struct {
	server, name, instructions, tools, servers, firstPage span
	// list is what the tools member held when it was an array, decoded
	// in the same pass as the syntax check (nil otherwise).
	list *toolList
	// entries are the servers[] entries, when servers is an array of a
	// catalog object (never of an entry).
	entries []catalogEntry
}

// toolList is a tools array decoded before its server's name is known:
// the tools and their diagnostics get it when the server is made.
type toolList struct {
	tools []*Tool
	diags []Diagnostic
}

// catalogEntry is one servers[] entry: its members when it is an object.
type catalogEntry struct {
	kind   ojson.Kind
	fields catalogFields
}

// parser reads one catalog file in a single pass over its bytes: the
// syntax of everything is checked while the catalog members are located
// and each tool is decoded into an ojson.Value, its raw bytes a sub-slice
// of the file. Errors about the catalog's shape (a missing name, tools
// that are not an array...) are reported once the pass is over, so that a
// syntax error anywhere in the file comes first.
type parser struct {
	file     string
	data     []byte
	progress func(off int) // called every progressEvery tools with a file offset; may be nil
	tools    int
	slab     []Tool // Tool structs are cut from here, several per allocation
	// dec, when set, is reset to read data (a decoder of earlier files,
	// whose slabs this file's values share); scratch gathers a tools
	// array's tools before they are copied into a slice of the exact size.
	dec     *ojson.Decoder
	scratch []*Tool
}

// progressEvery is how many tools pass between progress reports.
const progressEvery = 1000

// ParseCatalog parses one catalog file's bytes. file names the source in
// errors and diagnostics and, for a bare tools/list result, gives the server
// its name (the base name without extension). Tools that cannot be used at
// all (not an object, no string name) are left out and reported.
//
// A leading UTF-8 byte-order mark is skipped (editors on Windows write one);
// line and column numbers in errors count from after it.
//
// The servers returned share no memory with data (it is copied once).
func ParseCatalog(file string, data []byte) ([]*Server, []Diagnostic, error) {
	return parseOwned(file, bytes.Clone(data))
}

// parseOwned is ParseCatalog over bytes nobody else holds: the tools' raw
// JSON and their strings point into data.
func parseOwned(file string, data []byte) ([]*Server, []Diagnostic, error) {
	return (&parser{file: file, data: data}).parse()
}

func (p *parser) parse() ([]*Server, []Diagnostic, error) {
	p.data = bytes.TrimPrefix(p.data, utf8BOM)
	file, data := p.file, p.data
	d := p.dec
	if d == nil {
		d = ojson.NewSharedDecoder(data)
		p.dec = d
	} else {
		d.Reset(data)
	}
	kind := d.Peek()
	if kind != ojson.Object && kind != ojson.Null {
		// Syntax errors anywhere come first, then the type.
		start := d.Start()
		if err := d.Skip(); err != nil {
			return nil, nil, p.syntax(err)
		}
		if err := d.End(); err != nil {
			return nil, nil, p.syntax(err)
		}
		line, col := position(data, int64(start))
		return nil, nil, &LoadError{File: file, Line: line, Column: col, Err: fmt.Errorf("must be a JSON object, not %s", kind)}
	}
	top, err := p.fields(d, true)
	if err != nil {
		return nil, nil, err
	}
	if err := d.End(); err != nil {
		return nil, nil, p.syntax(err)
	}
	if top.servers.present() {
		if top.servers.kind != ojson.Array {
			return nil, nil, &LoadError{File: file, Field: "servers", Err: errors.New("must be an array of server objects")}
		}
		var servers []*Server
		var diags []Diagnostic
		for i, e := range top.entries {
			field := fmt.Sprintf("servers[%d]", i)
			var entry catalogFields
			switch e.kind {
			case ojson.Object:
				entry = e.fields
			case ojson.Null: // reads as an empty entry
			default:
				return nil, nil, &LoadError{File: file, Field: field, Err: errors.New("must be an object")}
			}
			nameSpan := entry.name
			if !nameSpan.present() {
				nameSpan = entry.server
			}
			name, err := p.stringField(field+".name", nameSpan, true)
			if err != nil {
				return nil, nil, err
			}
			s, dg, err := p.server(field, name, entry)
			if err != nil {
				return nil, nil, err
			}
			servers = append(servers, s)
			diags = append(diags, dg...)
		}
		return servers, diags, nil
	}
	var name string
	if top.server.present() {
		n, err := p.stringField("server", top.server, true)
		if err != nil {
			return nil, nil, err
		}
		name = n
	} else {
		base := filepath.Base(file)
		name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if !top.tools.present() {
		return nil, nil, &LoadError{File: file, Field: "tools", Err: errors.New(`missing: a catalog needs "tools" or "servers"`)}
	}
	s, dg, err := p.server("", name, top)
	if err != nil {
		return nil, nil, err
	}
	return []*Server{s}, dg, nil
}

// fields reads an object (or null), locating the catalog members and
// checking the syntax of everything; a tools array is decoded on the way,
// and so are the entries of a catalog object's (top) servers array.
func (p *parser) fields(d *ojson.Decoder, top bool) (catalogFields, error) {
	var f catalogFields
	if d.Peek() == ojson.Null {
		return f, p.syntax(d.Skip())
	}
	err := d.Object(func(key string) error {
		var dst *span
		switch key {
		case "server":
			dst = &f.server
		case "name":
			dst = &f.name
		case "instructions":
			dst = &f.instructions
		case "x_first_page":
			dst = &f.firstPage
		case "tools":
			dst = &f.tools
		case "servers":
			dst = &f.servers
		default:
			return d.Skip()
		}
		kind := d.Peek()
		start := d.Start()
		var err error
		var str string
		switch {
		case key == "tools":
			f.list = nil
			if kind == ojson.Array {
				f.list, err = p.toolList(d)
			} else {
				err = d.Skip()
			}
		case key == "servers" && top:
			f.entries = nil
			if kind == ojson.Array {
				f.entries, err = p.entries(d)
			} else {
				err = d.Skip()
			}
		case kind == ojson.String:
			// Decoded now, with this decoder: the string is read later
			// only if it is a field the catalog's shape uses.
			var v ojson.Value
			v, err = d.Value()
			str = v.Str()
		default:
			err = d.Skip()
		}
		if err != nil {
			return err
		}
		*dst = span{data: d.Data()[start:d.Offset()], kind: kind, str: str}
		return nil
	})
	return f, p.syntax(err)
}

// entries reads a servers array.
func (p *parser) entries(d *ojson.Decoder) ([]catalogEntry, error) {
	var out []catalogEntry
	err := d.Array(func(int) error {
		e := catalogEntry{kind: d.Peek()}
		var err error
		if e.kind == ojson.Object {
			e.fields, err = p.fields(d, false)
		} else {
			err = d.Skip()
		}
		out = append(out, e)
		return err
	})
	return out, err
}

// syntax turns a decoder error into a LoadError with line and column.
func (p *parser) syntax(err error) error {
	var se *ojson.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	// Every decoder reads the whole file, so a syntax error's offset is
	// the file's.
	line, col := position(p.data, int64(se.Offset))
	if se.Msg == "exceeded max depth" {
		return &LoadError{File: p.file, Line: line, Column: col,
			Err: fmt.Errorf("JSON nested deeper than %d levels, the limit for catalog files (MaxJSONDepth)", MaxJSONDepth)}
	}
	return &LoadError{File: p.file, Line: line, Column: col, Err: fmt.Errorf("invalid JSON: %v", se)}
}

func (p *parser) stringField(field string, s span, required bool) (string, error) {
	if !s.present() {
		if required {
			return "", &LoadError{File: p.file, Field: field, Err: errors.New("missing")}
		}
		return "", nil
	}
	if s.kind != ojson.String {
		return "", &LoadError{File: p.file, Field: field, Err: errors.New("must be a string")}
	}
	return s.str, nil
}

// server makes the server of a catalog object or servers[] entry (field
// names it in errors), giving its tools and their diagnostics its name.
func (p *parser) server(field, name string, f catalogFields) (*Server, []Diagnostic, error) {
	prefix := field
	if prefix != "" {
		prefix += "."
	}
	instr, err := p.stringField(prefix+"instructions", f.instructions, false)
	if err != nil {
		return nil, nil, err
	}
	s := &Server{Name: name, Instructions: instr, Source: p.file}
	if f.firstPage.present() {
		n, err := strconv.Atoi(string(f.firstPage.data))
		if f.firstPage.kind != ojson.Number || err != nil || n < 0 {
			return nil, nil, &LoadError{File: p.file, Field: prefix + "x_first_page", Err: errors.New("must be a whole number ≥ 0 (the tools on the first tools/list page)")}
		}
		s.FirstPage = n
	}
	if !f.tools.present() {
		return nil, nil, &LoadError{File: p.file, Field: prefix + "tools", Err: errors.New("missing")}
	}
	if f.tools.kind != ojson.Array {
		return nil, nil, &LoadError{File: p.file, Field: prefix + "tools", Err: errors.New("must be an array of tool objects")}
	}
	s.Tools = f.list.tools
	for _, t := range s.Tools {
		t.Server = name
	}
	for i := range f.list.diags {
		f.list.diags[i].Server = name
	}
	return s, f.list.diags, nil
}

// toolList decodes a tools array (its server not yet known).
func (p *parser) toolList(d *ojson.Decoder) (*toolList, error) {
	l := &toolList{}
	base := len(p.scratch) // a servers[] entry's tools inside another's: never, but safe
	err := d.Array(func(i int) error {
		if p.tools++; p.progress != nil && p.tools%progressEvery == 0 {
			p.progress(d.Start())
		}
		t, dg, err := p.tool(d, i)
		if err != nil {
			return err
		}
		l.diags = append(l.diags, dg...)
		if t != nil {
			t.Index = len(p.scratch) - base
			p.scratch = append(p.scratch, t)
		}
		return nil
	})
	if n := len(p.scratch) - base; n > 0 {
		l.tools = append(make([]*Tool, 0, n), p.scratch[base:]...)
	}
	clear(p.scratch[base:])
	p.scratch = p.scratch[:base]
	return l, err
}

// newTool returns a zero Tool cut from the parser's slab; more is the
// number of bytes left in the file (a tool takes at least 12: {"name":""}).
func (p *parser) newTool(more int) *Tool {
	if len(p.slab) == cap(p.slab) {
		// As many as fit 8 KiB, one of the allocator's size classes:
		// nothing is rounded up past them (31 of 264 bytes).
		p.slab = make([]Tool, 0, min(8<<10/int(unsafe.Sizeof(Tool{})), 1+more/12))
	}
	p.slab = p.slab[:len(p.slab)+1]
	return &p.slab[len(p.slab)-1]
}

// tool decodes one tools/list entry, keeping its raw bytes and those of
// its schemas. It returns a nil Tool (and an error diagnostic) only when
// the entry has no usable name. The tool's and the diagnostics' Server
// are set later, by server.
func (p *parser) tool(d *ojson.Decoder, i int) (*Tool, []Diagnostic, error) {
	if d.Peek() != ojson.Object {
		return nil, []Diagnostic{{Severity: Error, Code: CodeToolNotObject, File: p.file, Field: fmt.Sprintf("tools[%d]", i),
			Message: "tool entry is not a JSON object; skipped"}}, d.Skip()
	}
	start := d.Start()
	var inRaw, outRaw []byte
	v, err := d.ObjectValue(func(key string, raw []byte) {
		// The raw bytes of the schemas: the last of a repeated key, as
		// Get returns.
		switch key {
		case "inputSchema":
			inRaw = raw
		case "outputSchema":
			outRaw = raw
		}
	})
	if err != nil {
		return nil, nil, err
	}
	raw := d.Data()[start:d.Offset():d.Offset()]

	// The members the Tool's fields come from, in one pass from the end:
	// the last of a repeated key, as Get gives (a parsed value is never
	// Invalid, so Invalid means absent).
	var nameV, desc, title, in, out, meta, ann ojson.Value
	ms := v.Members()
	for i := len(ms) - 1; i >= 0; i-- {
		var dst *ojson.Value
		switch ms[i].Key {
		case "name":
			dst = &nameV
		case "description":
			dst = &desc
		case "title":
			dst = &title
		case "inputSchema":
			dst = &in
		case "outputSchema":
			dst = &out
		case "_meta":
			dst = &meta
		case "annotations":
			dst = &ann
		default:
			continue
		}
		if dst.Kind == ojson.Invalid {
			*dst = ms[i].Value
		}
	}
	if nameV.Kind != ojson.String {
		return nil, []Diagnostic{{Severity: Error, Code: CodeNameMissing, File: p.file, Field: fmt.Sprintf("tools[%d].name", i),
			Message: "tool has no string name; skipped"}}, nil
	}
	if d, deep := tooDeep(p.file, "", nameV.Str(), v); deep {
		return nil, []Diagnostic{d}, nil
	}
	t := p.newTool(len(d.Data()) - d.Offset())
	*t = Tool{Name: nameV.Str(), Raw: raw, Value: v, InputSchemaRaw: inRaw, OutputSchemaRaw: outRaw,
		InputSchema: in, OutputSchema: out, Meta: meta}
	var diags []Diagnostic
	switch desc.Kind {
	case ojson.String:
		t.Description, t.HasDescription = desc.Str(), true
	case ojson.Invalid, ojson.Null:
	default:
		diags = append(diags, Diagnostic{Severity: Warning, Code: CodeDescriptionType, File: p.file, Tool: t.Name,
			Field: "description", Message: fmt.Sprintf("description is a %s, not a string; treated as absent", desc.Kind)})
	}
	if title.Kind == ojson.String {
		t.Title = title.Str()
	}
	if ann.Kind == ojson.Object {
		t.Annotations = parseAnnotations(ann)
	}
	return t, diags, nil
}

func parseAnnotations(a ojson.Value) Annotations {
	var out Annotations
	if t, ok := a.Get("title"); ok && t.Kind == ojson.String {
		out.Title = t.Str()
	}
	hint := func(k string) *bool {
		h, ok := a.Get(k)
		if !ok || h.Kind != ojson.Bool {
			return nil
		}
		b := h.Bool
		return &b
	}
	out.ReadOnlyHint = hint("readOnlyHint")
	out.DestructiveHint = hint("destructiveHint")
	out.IdempotentHint = hint("idempotentHint")
	out.OpenWorldHint = hint("openWorldHint")
	return out
}

// position converts a byte offset into a 1-based line and column (in
// bytes); "\n", "\r\n" and a lone "\r" end a line.
func position(data []byte, off int64) (line, col int) {
	o := int(min(max(off, 0), int64(len(data))))
	line, start := jsonpos.LineOf(data, o)
	return line, o - start + 1
}
