package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
// *.json files, sorted by name, not recursively), merges them and validates
// the result. Two sources defining the same server name are an error naming
// both files.
func Load(paths ...string) (*Catalog, error) {
	var files []string
	for _, p := range paths {
		fs, err := expand(p)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	return loadFiles(readCatalogFile, files)
}

// LoadFS is Load over a file system (used for the embedded demo).
func LoadFS(fsys fs.FS, names ...string) (*Catalog, error) {
	return loadFiles(func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) }, names)
}

// loadFiles parses each file, merges the servers and validates once.
func loadFiles(read func(string) ([]byte, error), files []string) (*Catalog, error) {
	cat := &Catalog{}
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, &LoadError{File: f, Err: unwrapPathError(err)}
		}
		servers, diags, err := ParseCatalog(f, data)
		if err != nil {
			return nil, err
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

func expand(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, &LoadError{File: p, Err: err}
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	var files []string
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, &LoadError{File: p, Err: err}
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, filepath.Join(p, e.Name()))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, &LoadError{File: p, Err: errors.New("folder has no .json catalog files")}
	}
	return files, nil
}

// utf8BOM is the UTF-8 encoding of U+FEFF, which some editors write at the
// start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

type catalogFile struct {
	Server       *json.RawMessage `json:"server"`
	Name         *json.RawMessage `json:"name"`
	Instructions *json.RawMessage `json:"instructions"`
	Tools        *json.RawMessage `json:"tools"`
	Servers      *json.RawMessage `json:"servers"`
}

// ParseCatalog parses one catalog file's bytes. file names the source in
// errors and diagnostics and, for a bare tools/list result, gives the server
// its name (the base name without extension). Tools that cannot be used at
// all (not an object, no string name) are left out and reported.
//
// A leading UTF-8 byte-order mark is skipped (editors on Windows write one);
// line and column numbers in errors count from after it.
func ParseCatalog(file string, data []byte) ([]*Server, []Diagnostic, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	var top catalogFile
	if err := unmarshalAt(file, data, &top); err != nil {
		return nil, nil, err
	}
	if top.Servers != nil {
		var list []json.RawMessage
		if err := json.Unmarshal(*top.Servers, &list); err != nil {
			return nil, nil, &LoadError{File: file, Field: "servers", Err: errors.New("must be an array of server objects")}
		}
		var servers []*Server
		var diags []Diagnostic
		for i, raw := range list {
			var entry catalogFile
			field := fmt.Sprintf("servers[%d]", i)
			if err := json.Unmarshal(raw, &entry); err != nil {
				return nil, nil, &LoadError{File: file, Field: field, Err: errors.New("must be an object")}
			}
			nameRaw := entry.Name
			if nameRaw == nil {
				nameRaw = entry.Server
			}
			name, err := stringField(file, field+".name", nameRaw, true)
			if err != nil {
				return nil, nil, err
			}
			s, d, err := parseServer(file, field, name, entry)
			if err != nil {
				return nil, nil, err
			}
			servers = append(servers, s)
			diags = append(diags, d...)
		}
		return servers, diags, nil
	}
	var name string
	if top.Server != nil {
		n, err := stringField(file, "server", top.Server, true)
		if err != nil {
			return nil, nil, err
		}
		name = n
	} else {
		base := filepath.Base(file)
		name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if top.Tools == nil {
		return nil, nil, &LoadError{File: file, Field: "tools", Err: errors.New(`missing: a catalog needs "tools" or "servers"`)}
	}
	s, d, err := parseServer(file, "", name, top)
	if err != nil {
		return nil, nil, err
	}
	return []*Server{s}, d, nil
}

func stringField(file, field string, raw *json.RawMessage, required bool) (string, error) {
	if raw == nil {
		if required {
			return "", &LoadError{File: file, Field: field, Err: errors.New("missing")}
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(*raw, &s); err != nil {
		if !required && bytes.Equal(bytes.TrimSpace(*raw), []byte("null")) {
			return "", nil
		}
		return "", &LoadError{File: file, Field: field, Err: errors.New("must be a string")}
	}
	return s, nil
}

func parseServer(file, field, name string, f catalogFile) (*Server, []Diagnostic, error) {
	prefix := field
	if prefix != "" {
		prefix += "."
	}
	instr, err := stringField(file, prefix+"instructions", f.Instructions, false)
	if err != nil {
		return nil, nil, err
	}
	s := &Server{Name: name, Instructions: instr, Source: file}
	if f.Tools == nil {
		return nil, nil, &LoadError{File: file, Field: prefix + "tools", Err: errors.New("missing")}
	}
	var list []json.RawMessage
	if err := json.Unmarshal(*f.Tools, &list); err != nil {
		return nil, nil, &LoadError{File: file, Field: prefix + "tools", Err: errors.New("must be an array of tool objects")}
	}
	var diags []Diagnostic
	for i, raw := range list {
		t, d := parseTool(file, name, i, raw)
		diags = append(diags, d...)
		if t != nil {
			t.Index = len(s.Tools)
			s.Tools = append(s.Tools, t)
		}
	}
	return s, diags, nil
}

// parseTool builds a Tool from one tools/list entry. It returns nil (and an
// error diagnostic) only when the entry has no usable name.
func parseTool(file, server string, i int, raw json.RawMessage) (*Tool, []Diagnostic) {
	field := fmt.Sprintf("tools[%d]", i)
	v, err := ojson.Parse(raw)
	if err != nil || v.Kind != ojson.Object {
		return nil, []Diagnostic{{Severity: Error, Code: CodeToolNotObject, File: file, Server: server, Field: field,
			Message: "tool entry is not a JSON object; skipped"}}
	}
	nameV, ok := v.Get("name")
	if !ok || nameV.Kind != ojson.String {
		return nil, []Diagnostic{{Severity: Error, Code: CodeNameMissing, File: file, Server: server, Field: field + ".name",
			Message: "tool has no string name; skipped"}}
	}
	if d, deep := tooDeep(file, server, nameV.Str, v); deep {
		return nil, []Diagnostic{d}
	}
	t := &Tool{Server: server, Name: nameV.Str, Raw: append(json.RawMessage(nil), raw...), Value: v}
	var diags []Diagnostic
	if d, ok := v.Get("description"); ok {
		if d.Kind == ojson.String {
			t.Description, t.HasDescription = d.Str, true
		} else if d.Kind != ojson.Null {
			diags = append(diags, Diagnostic{Severity: Warning, Code: CodeDescriptionType, File: file, Server: server, Tool: t.Name,
				Field: "description", Message: fmt.Sprintf("description is a %s, not a string; treated as absent", d.Kind)})
		}
	}
	if tv, ok := v.Get("title"); ok && tv.Kind == ojson.String {
		t.Title = tv.Str
	}
	// The raw bytes of the schemas, decoded once for both (the last of a
	// repeated key, as Get returns).
	var members map[string]json.RawMessage
	_ = json.Unmarshal(raw, &members) // raw parsed as an object above
	t.InputSchema, _ = v.Get("inputSchema")
	t.InputSchemaRaw = members["inputSchema"]
	t.OutputSchema, _ = v.Get("outputSchema")
	t.OutputSchemaRaw = members["outputSchema"]
	if m, ok := v.Get("_meta"); ok {
		t.Meta = m
	}
	if a, ok := v.Get("annotations"); ok && a.Kind == ojson.Object {
		t.Annotations = parseAnnotations(a)
	}
	return t, diags
}

func parseAnnotations(a ojson.Value) Annotations {
	var out Annotations
	if t, ok := a.Get("title"); ok && t.Kind == ojson.String {
		out.Title = t.Str
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

// unmarshalAt decodes JSON and turns syntax and type errors into a
// LoadError with the line and column.
func unmarshalAt(file string, data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		line, col := position(data, se.Offset-1)
		if strings.HasSuffix(se.Error(), "exceeded max depth") {
			return &LoadError{File: file, Line: line, Column: col,
				Err: fmt.Errorf("JSON nested deeper than %d levels, the limit for catalog files (MaxJSONDepth)", MaxJSONDepth)}
		}
		return &LoadError{File: file, Line: line, Column: col, Err: fmt.Errorf("invalid JSON: %v", se)}
	case errors.As(err, &te):
		line, col := position(data, te.Offset)
		field := te.Field
		if field == "" {
			return &LoadError{File: file, Line: line, Column: col, Err: fmt.Errorf("must be a JSON object, not %s", te.Value)}
		}
		return &LoadError{File: file, Line: line, Column: col, Field: field, Err: fmt.Errorf("wrong type %s", te.Value)}
	}
	return &LoadError{File: file, Err: err}
}

// position converts a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
