package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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
	var obj map[string]json.RawMessage
	err := json.Unmarshal(text, &obj)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return Query{}, &LoadError{File: file, Line: line, Column: indent + int(se.Offset),
			Err: fmt.Errorf("invalid JSON: %v", se)}
	case text[0] != '{':
		return Query{}, bad("", fmt.Errorf("the line is %s, not a JSON object like {\"query\": \"...\", \"expect\": [\"server/tool\"]}", jsonKind(text)))
	case err != nil:
		return Query{}, bad("", fmt.Errorf("not a JSON object: %v", err))
	}
	q := Query{File: file, Line: line}
	raw, ok := obj["query"]
	if !ok {
		return Query{}, bad("query", errors.New("missing"))
	}
	if err := json.Unmarshal(raw, &q.Text); err != nil {
		return Query{}, bad("query", errors.New("must be a string"))
	}
	if strings.TrimSpace(q.Text) == "" {
		return Query{}, bad("query", errors.New("is empty"))
	}
	if raw, ok := obj["expect"]; ok {
		if err := json.Unmarshal(raw, &q.ExpectRaw); err != nil {
			return Query{}, bad("expect", errors.New("must be an array of strings"))
		}
	}
	seen := map[ToolID]bool{}
	for i, e := range q.ExpectRaw {
		id, err := res.Resolve(e)
		if err != nil {
			return Query{}, bad(fmt.Sprintf("expect[%d]", i), err)
		}
		if !seen[id] {
			seen[id] = true
			q.Expect = append(q.Expect, id)
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
	return q, nil
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
