package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query is one labelled query: the text a user (or model) would search for
// and the tools it should reach.
type Query struct {
	Text      string
	Expect    []ToolID          // resolved, in file order, duplicates removed
	ExpectRaw []string          // as written in the file
	Tags      map[string]string // every other key; non-string values as compact JSON
	File      string
	Line      int
}

// QuerySet is the queries of one file, in file order.
type QuerySet struct {
	Source  string
	Queries []Query
}

// LoadQueries reads a JSON Lines query file and resolves every expect entry
// against cat.
func LoadQueries(path string, cat *Catalog) (*QuerySet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &LoadError{File: path, Err: err}
	}
	defer f.Close()
	return ParseQueries(path, f, cat)
}

// MaxQueryLine bounds one line of a query file (10 MiB, the newline not
// counted); a longer line is an error naming the line and the limit.
const MaxQueryLine = 10 << 20

// ParseQueries reads JSON Lines from r. A leading UTF-8 byte-order mark is
// skipped; blank lines and lines starting with '#' or "//" are skipped.
// Every other line must be a JSON object of at most MaxQueryLine bytes.
// Every error names file, line and field.
func ParseQueries(file string, r io.Reader, cat *Catalog) (*QuerySet, error) {
	res := NewResolver(cat)
	qs := &QuerySet{Source: file}
	sc := bufio.NewScanner(r)
	// The scanner's limit is the line plus its "\r\n".
	sc.Buffer(make([]byte, 64<<10), MaxQueryLine+2)
	line := 0
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if line == 1 {
			raw = bytes.TrimPrefix(raw, utf8BOM)
		}
		if len(bytes.TrimSuffix(raw, []byte("\r"))) > MaxQueryLine {
			return nil, tooLong(file, line)
		}
		text := bytes.TrimSpace(raw)
		if len(text) == 0 || text[0] == '#' || bytes.HasPrefix(text, []byte("//")) {
			continue
		}
		indent := len(raw) - len(bytes.TrimLeftFunc(raw, unicode.IsSpace))
		q, err := parseQueryLine(file, line, indent, text, res)
		if err != nil {
			return nil, err
		}
		qs.Queries = append(qs.Queries, q)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, tooLong(file, line+1)
		}
		return nil, &LoadError{File: file, Line: line + 1, Err: err}
	}
	return qs, nil
}

func tooLong(file string, line int) error {
	return &LoadError{File: file, Line: line,
		Err: fmt.Errorf("line is longer than %d bytes (%d MiB), the limit for one query line", MaxQueryLine, MaxQueryLine>>20)}
}

// parseQueryLine parses one line's text, which starts at byte indent of the
// line (for the column of a syntax error).
func parseQueryLine(file string, line, indent int, text []byte, res *Resolver) (Query, error) {
	bad := func(field string, err error) error {
		return &LoadError{File: file, Line: line, Field: field, Err: err}
	}
	q := Query{File: file, Line: line}
	if !fastQueryFields(text, &q) {
		if err := queryFields(file, line, indent, text, &q); err != nil {
			return Query{}, err
		}
	}
	if strings.TrimSpace(q.Text) == "" {
		return Query{}, bad("query", errors.New("is empty"))
	}
	for i, e := range q.ExpectRaw {
		id, err := res.Resolve(e)
		if err != nil {
			return Query{}, bad(fmt.Sprintf("expect[%d]", i), err)
		}
		if !slices.Contains(q.Expect, id) { // a handful: no map
			q.Expect = append(q.Expect, id)
		}
	}
	return q, nil
}

// queryFields reads a line's query, expect and tags with encoding/json
// (any line; the errors name the field).
func queryFields(file string, line, indent int, text []byte, q *Query) error {
	bad := func(field string, err error) error {
		return &LoadError{File: file, Line: line, Field: field, Err: err}
	}
	var obj map[string]json.RawMessage
	err := json.Unmarshal(text, &obj)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return &LoadError{File: file, Line: line, Column: indent + int(se.Offset),
			Err: fmt.Errorf("invalid JSON: %v", se)}
	case text[0] != '{':
		return bad("", fmt.Errorf("the line is %s, not a JSON object like {\"query\": \"...\", \"expect\": [\"server/tool\"]}", jsonKind(text)))
	case err != nil:
		return bad("", fmt.Errorf("not a JSON object: %v", err))
	}
	raw, ok := obj["query"]
	if !ok {
		return bad("query", errors.New("missing"))
	}
	if err := json.Unmarshal(raw, &q.Text); err != nil {
		return bad("query", errors.New("must be a string"))
	}
	if strings.TrimSpace(q.Text) == "" {
		return bad("query", errors.New("is empty"))
	}
	if raw, ok := obj["expect"]; ok {
		if err := json.Unmarshal(raw, &q.ExpectRaw); err != nil {
			return bad("expect", errors.New("must be an array of strings"))
		}
	}
	for k, v := range obj {
		if k == "query" || k == "expect" {
			continue
		}
		if q.Tags == nil {
			q.Tags = map[string]string{}
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			q.Tags[k] = s
			continue
		}
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil {
			q.Tags[k] = buf.String()
		} else {
			q.Tags[k] = string(v)
		}
	}
	return nil
}

// fastQueryFields reads the usual line without encoding/json: one object
// whose values are strings or arrays of strings, every key and string
// plain (valid UTF-8, no escape, no control character), no key repeated,
// a "query" string and "expect", if present, an array. It fills q exactly
// as queryFields would (an array tag is its compact JSON) and reports
// whether the line had that shape; any other line is left to queryFields,
// which also words every error. FuzzQueryLine compares the two.
func fastQueryFields(text []byte, q *Query) bool {
	// Every string read is cut from one copy of the line.
	p := qscan{b: text, s: string(text)}
	if !p.byte('{') {
		return false
	}
	var keys []string
	var tags map[string]string
	hasQuery := false
	for {
		key, ok := p.str()
		if !ok || !p.byte(':') || slices.Contains(keys, key) {
			return false
		}
		keys = append(keys, key)
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '[' {
			p.i++
			arr := []string{}
			if !p.byte(']') {
				for {
					s, ok := p.str()
					if !ok {
						return false
					}
					arr = append(arr, s)
					if p.byte(']') {
						break
					}
					if !p.byte(',') {
						return false
					}
				}
			}
			switch key {
			case "query":
				return false
			case "expect":
				q.ExpectRaw = arr
			default:
				if tags == nil {
					tags = map[string]string{}
				}
				tags[key] = compactStrings(arr)
			}
		} else {
			s, ok := p.str()
			switch {
			case !ok || key == "expect":
				return false
			case key == "query":
				q.Text, hasQuery = s, true
			default:
				if tags == nil {
					tags = map[string]string{}
				}
				tags[key] = s
			}
		}
		if p.byte('}') {
			break
		}
		if !p.byte(',') {
			return false
		}
	}
	p.space()
	if p.i != len(p.b) || !hasQuery {
		return false
	}
	q.Tags = tags
	return true
}

// compactStrings is json.Compact of an array of plain strings.
func compactStrings(arr []string) string {
	n := 2
	for _, s := range arr {
		n += len(s) + 3
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, s := range arr {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, s...)
		b = append(b, '"')
	}
	return string(append(b, ']'))
}

// qscan is fastQueryFields' cursor over b, whose copy s the strings read
// are cut from.
type qscan struct {
	b []byte
	s string
	i int
}

// space skips JSON white space.
func (p *qscan) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// byte skips white space and c, reporting whether c was there.
func (p *qscan) byte(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a plain string (white space first): no escape, no control
// character, valid UTF-8.
func (p *qscan) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			if !utf8.ValidString(s) {
				return "", false
			}
			return s, true
		case c == '\\' || c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// jsonKind names the kind of a valid JSON value for messages.
func jsonKind(raw []byte) string {
	switch raw[0] {
	case '[':
		return "a JSON array"
	case '"':
		return "a JSON string"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "JSON null"
	}
	return "a JSON number"
}

// Resolver turns the ways people write a tool's name into its ToolID.
type Resolver struct {
	cat    *Catalog
	byJoin map[string][]ToolID // server__tool, exact
	byNorm map[string][]ToolID // server__tool, sanitised
	byName map[string][]ToolID // bare tool name, exact
	byBare map[string][]ToolID // bare tool name, sanitised
}

// NewResolver indexes the first definition of every tool in cat.
func NewResolver(cat *Catalog) *Resolver {
	r := &Resolver{cat: cat, byJoin: map[string][]ToolID{}, byNorm: map[string][]ToolID{},
		byName: map[string][]ToolID{}, byBare: map[string][]ToolID{}}
	if cat == nil {
		return r
	}
	for _, t := range cat.UniqueTools() {
		id := t.ID()
		join := t.Server + "__" + t.Name
		r.byJoin[join] = append(r.byJoin[join], id)
		r.byNorm[sanitize(join)] = append(r.byNorm[sanitize(join)], id)
		r.byName[t.Name] = append(r.byName[t.Name], id)
		r.byBare[sanitize(t.Name)] = append(r.byBare[sanitize(t.Name)], id)
	}
	return r
}

// sanitize maps every character outside [A-Za-z0-9_] to '_', the strictest
// of the clients' name rules (Codex), so names written with '-' or '.' as
// '_' (Claude Code keeps '-', Codex does not) still match.
func sanitize(s string) string {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r < utf8.RuneSelf && (r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			out = append(out, byte(r))
		} else {
			out = append(out, '_')
		}
	}
	return string(out)
}

// Resolve finds the tool an expect entry names: "server/tool",
// "server__tool", "mcp__server__tool" (exactly, or with '-' and '.'
// written as '_'), or a bare tool name unique in the catalog. An unknown or
// ambiguous entry is an error that says which.
func (r *Resolver) Resolve(entry string) (ToolID, error) {
	if entry == "" {
		return "", errors.New("empty tool name")
	}
	if srv, tool, ok := strings.Cut(entry, "/"); ok && r.cat != nil {
		if s := r.cat.Server(srv); s != nil {
			for _, t := range s.Tools {
				if t.Name == tool {
					return t.ID(), nil
				}
			}
			return "", fmt.Errorf("%q: server %q has no tool %q", entry, srv, tool)
		}
	}
	try := func(ids []ToolID) (ToolID, error, bool) {
		switch len(ids) {
		case 0:
			return "", nil, false
		case 1:
			return ids[0], nil, true
		}
		return "", fmt.Errorf("%q is ambiguous: it may be %s", entry, joinIDs(ids)), true
	}
	body := strings.TrimPrefix(entry, "mcp__")
	for _, cand := range []string{entry, body} {
		if id, err, ok := try(r.byJoin[cand]); ok {
			return id, err
		}
	}
	for _, cand := range []string{entry, body} {
		if id, err, ok := try(r.byNorm[sanitize(cand)]); ok {
			return id, err
		}
	}
	if id, err, ok := try(r.byName[entry]); ok {
		return id, err
	}
	if id, err, ok := try(r.byBare[sanitize(entry)]); ok {
		return id, err
	}
	return "", fmt.Errorf("%q matches no tool in the catalog (write server/tool, server__tool, mcp__server__tool or a unique tool name)", entry)
}

func joinIDs(ids []ToolID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}
