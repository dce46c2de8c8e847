package corpus

// The catalog parser as it was before the single-pass rewrite (two passes:
// a syntax check of the whole file, then each tool decoded), kept as the
// reference the fast one must match exactly: same servers, tools, values,
// diagnostics and errors (TestParseMatchesReference, FuzzParseMatchesReference).

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolfind/toolfind/ojson"
)

var refBOM = []byte("\xef\xbb\xbf")

// span is one member's value in a catalog file: the bytes from its first
// to its last character, and the file offset where it starts.
type refSpan struct {
	off  int
	data []byte
	kind ojson.Kind
}

// present reports whether the member was given and not null (null reads
// as absent, as it always has).
func (s refSpan) present() bool { return s.data != nil && s.kind != ojson.Null }

// refFields are the members a catalog object (or a servers[] entry)
// may have; the last of a repeated key wins.
type refFields struct {
	server, name, instructions, tools, servers refSpan
}

// parser reads one catalog file in a single pass over its bytes: the
// top-level members are checked and located, then each tool is decoded
// once into an ojson.Value, its raw bytes a sub-slice of the file.
type refParser struct {
	file     string
	data     []byte
	progress func(off int) // called every progressEvery tools with a file offset; may be nil
	tools    int
}

// ParseCatalog parses one catalog file's bytes. file names the source in
// errors and diagnostics and, for a bare tools/list result, gives the server
// its name (the base name without extension). Tools that cannot be used at
// all (not an object, no string name) are left out and reported.
//
// A leading UTF-8 byte-order mark is skipped (editors on Windows write one);
// line and column numbers in errors count from after it.
//
// The servers returned share no memory with data (it is copied once).
func refParseCatalog(file string, data []byte) ([]*Server, []Diagnostic, error) {
	return refParseOwned(file, bytes.Clone(data))
}

// refParseOwned is ParseCatalog over bytes nobody else holds: the tools' raw
// JSON and their strings point into data.
func refParseOwned(file string, data []byte) ([]*Server, []Diagnostic, error) {
	return (&refParser{file: file, data: data}).parse()
}

func (p *refParser) parse() ([]*Server, []Diagnostic, error) {
	p.data = bytes.TrimPrefix(p.data, refBOM)
	file, data := p.file, p.data
	d := ojson.NewSharedDecoder(data)
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
	top, err := p.fields(d, 0)
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
		sd := ojson.NewSharedDecoder(top.servers.data)
		err := sd.Array(func(i int) error {
			field := fmt.Sprintf("servers[%d]", i)
			var entry refFields
			switch sd.Peek() {
			case ojson.Object:
				var err error
				if entry, err = p.fields(sd, top.servers.off); err != nil {
					return err
				}
			case ojson.Null: // reads as an empty entry
				if err := sd.Skip(); err != nil {
					return err
				}
			default:
				return &LoadError{File: file, Field: field, Err: errors.New("must be an object")}
			}
			nameSpan := entry.name
			if !nameSpan.present() {
				nameSpan = entry.server
			}
			name, err := p.stringField(field+".name", nameSpan, true)
			if err != nil {
				return err
			}
			s, dg, err := p.server(field, name, entry)
			if err != nil {
				return err
			}
			servers = append(servers, s)
			diags = append(diags, dg...)
			return nil
		})
		if err != nil {
			return nil, nil, p.syntax(err)
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
// checking the syntax of everything.
func (p *refParser) fields(d *ojson.Decoder, base int) (refFields, error) {
	var f refFields
	if d.Peek() == ojson.Null {
		return f, p.syntax(d.Skip())
	}
	err := d.Object(func(key string) error {
		var dst *refSpan
		switch key {
		case "server":
			dst = &f.server
		case "name":
			dst = &f.name
		case "instructions":
			dst = &f.instructions
		case "tools":
			dst = &f.tools
		case "servers":
			dst = &f.servers
		default:
			return d.Skip()
		}
		kind := d.Peek()
		start := d.Start()
		if err := d.Skip(); err != nil {
			return err
		}
		*dst = refSpan{off: base + start, data: d.Data()[start:d.Offset()], kind: kind}
		return nil
	})
	return f, p.syntax(err)
}

// syntax turns a decoder error into a LoadError with line and column.
func (p *refParser) syntax(err error) error {
	var se *ojson.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	// Every value is checked by the file-level pass before any
	// sub-slice is decoded, so a syntax error's offset is the file's.
	line, col := position(p.data, int64(se.Offset))
	if se.Msg == "exceeded max depth" {
		return &LoadError{File: p.file, Line: line, Column: col,
			Err: fmt.Errorf("JSON nested deeper than %d levels, the limit for catalog files (MaxJSONDepth)", MaxJSONDepth)}
	}
	return &LoadError{File: p.file, Line: line, Column: col, Err: fmt.Errorf("invalid JSON: %v", se)}
}

func (p *refParser) stringField(field string, s refSpan, required bool) (string, error) {
	if !s.present() {
		if required {
			return "", &LoadError{File: p.file, Field: field, Err: errors.New("missing")}
		}
		return "", nil
	}
	if s.kind != ojson.String {
		return "", &LoadError{File: p.file, Field: field, Err: errors.New("must be a string")}
	}
	v, err := ojson.NewSharedDecoder(s.data).Value()
	if err != nil {
		return "", p.syntax(err)
	}
	return v.Str(), nil
}

func (p *refParser) server(field, name string, f refFields) (*Server, []Diagnostic, error) {
	prefix := field
	if prefix != "" {
		prefix += "."
	}
	instr, err := p.stringField(prefix+"instructions", f.instructions, false)
	if err != nil {
		return nil, nil, err
	}
	s := &Server{Name: name, Instructions: instr, Source: p.file}
	if !f.tools.present() {
		return nil, nil, &LoadError{File: p.file, Field: prefix + "tools", Err: errors.New("missing")}
	}
	if f.tools.kind != ojson.Array {
		return nil, nil, &LoadError{File: p.file, Field: prefix + "tools", Err: errors.New("must be an array of tool objects")}
	}
	var diags []Diagnostic
	d := ojson.NewSharedDecoder(f.tools.data)
	err = d.Array(func(i int) error {
		if p.tools++; p.progress != nil && p.tools%progressEvery == 0 {
			p.progress(f.tools.off + d.Start())
		}
		t, dg, err := p.tool(d, name, i)
		if err != nil {
			return err
		}
		diags = append(diags, dg...)
		if t != nil {
			t.Index = len(s.Tools)
			s.Tools = append(s.Tools, t)
		}
		return nil
	})
	if err != nil {
		return nil, nil, p.syntax(err)
	}
	return s, diags, nil
}

// tool decodes one tools/list entry, keeping its raw bytes and those of
// its schemas. It returns a nil Tool (and an error diagnostic) only when
// the entry has no usable name.
func (p *refParser) tool(d *ojson.Decoder, server string, i int) (*Tool, []Diagnostic, error) {
	field := fmt.Sprintf("tools[%d]", i)
	if d.Peek() != ojson.Object {
		return nil, []Diagnostic{{Severity: Error, Code: CodeToolNotObject, File: p.file, Server: server, Field: field,
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

	nameV, ok := v.Get("name")
	if !ok || nameV.Kind != ojson.String {
		return nil, []Diagnostic{{Severity: Error, Code: CodeNameMissing, File: p.file, Server: server, Field: field + ".name",
			Message: "tool has no string name; skipped"}}, nil
	}
	if d, deep := tooDeep(p.file, server, nameV.Str(), v); deep {
		return nil, []Diagnostic{d}, nil
	}
	t := &Tool{Server: server, Name: nameV.Str(), Raw: raw, Value: v, InputSchemaRaw: inRaw, OutputSchemaRaw: outRaw}
	var diags []Diagnostic
	if d, ok := v.Get("description"); ok {
		if d.Kind == ojson.String {
			t.Description, t.HasDescription = d.Str(), true
		} else if d.Kind != ojson.Null {
			diags = append(diags, Diagnostic{Severity: Warning, Code: CodeDescriptionType, File: p.file, Server: server, Tool: t.Name,
				Field: "description", Message: fmt.Sprintf("description is a %s, not a string; treated as absent", d.Kind)})
		}
	}
	if tv, ok := v.Get("title"); ok && tv.Kind == ojson.String {
		t.Title = tv.Str()
	}
	t.InputSchema, _ = v.Get("inputSchema")
	t.OutputSchema, _ = v.Get("outputSchema")
	if m, ok := v.Get("_meta"); ok {
		t.Meta = m
	}
	if a, ok := v.Get("annotations"); ok && a.Kind == ojson.Object {
		t.Annotations = parseAnnotations(a)
	}
	return t, diags, nil
}
