package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/toolfind/toolfind/internal/didyoumean"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/ojson"
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
	return LoadQueriesWith(LoadOptions{}, path, cat)
}

// LoadQueriesWith is LoadQueries with options (Progress is not used). The
// file is read into memory of its own, which the queries' strings are cut
// from, so it may change or go once read; a file that changed while it
// was read is an error (as for catalog files).
func LoadQueriesWith(opts LoadOptions, path string, cat *Catalog) (*QuerySet, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, &LoadError{File: path, Err: err}
	}
	defer f.Close()
	size := 0
	fi, err := f.Stat()
	if err == nil && fi.Mode().IsRegular() && fi.Size() < math.MaxInt32 {
		size = int(fi.Size())
	}
	data, err := readAll(f, size)
	if err == nil {
		if err := changedWhileRead(f, fi, len(data)); err != nil {
			return nil, &LoadError{File: path, Err: err}
		}
	}
	return parseQueries(path, data, err, cat)
}

// MaxQueryLine bounds one line of a query file (1 MiB, the newline not
// counted); a longer line is an error naming the file, the line and the
// limit. A prompt is a few sentences; a line of megabytes is hostile, and
// what each client's writer and search make of one costs about a hundred
// bytes of memory per byte of it (a 9 MB line took 900 MB).
const MaxQueryLine = 1 << 20

// ParseQueries reads JSON Lines from r. A leading UTF-8 byte-order mark is
// skipped; blank lines and lines starting with '#' or "//" are skipped.
// Every other line must be a JSON object of at most MaxQueryLine bytes.
// Every error names file, line and field.
//
// The whole input is read into one string that the queries' texts, tags
// and expect entries are cut from (only a string with a JSON escape is a
// copy), and queries with the same tags as the query before them share
// its Tags map: treat a Query's fields as read-only.
func ParseQueries(file string, r io.Reader, cat *Catalog) (*QuerySet, error) {
	size := 0
	if l, ok := r.(interface{ Len() int }); ok { // bytes.Reader, strings.Reader, bytes.Buffer
		size = l.Len()
	}
	data, err := readAll(r, size)
	return parseQueries(file, data, err, cat)
}

// readAll reads r to its end, into one buffer of size+1 bytes when r has
// size bytes, else doubling it as it fills; err is the error that stopped
// it, if not io.EOF, with the bytes read until then.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, max(size+1, 512))
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(make([]byte, 0, 2*cap(b)), b...)
		}
	}
}

// parseQueries parses data, the input read until readErr (a failed read
// is reported after the lines read, on the line after them).
func parseQueries(file string, data []byte, readErr error, cat *Catalog) (*QuerySet, error) {
	// The strings of the queries are cut from text, which owns data.
	text := unsafe.String(unsafe.SliceData(data), len(data))
	lines := strings.Count(text, "\n") + 1
	p := queryParser{file: file, res: NewResolver(cat)}
	// A query usually expects one tool: the first slabs hold one per line.
	p.raws.next, p.ids.next = min(lines, 1<<14), min(lines, 1<<14)
	qs := &QuerySet{Source: file, Queries: make([]Query, 0, lines)}
	line := 0
	for rest := text; len(rest) > 0; {
		// A line ends with "\n", "\r\n" or a lone "\r" (old Mac files;
		// a raw CR cannot be inside a JSON string), as jsonpos counts
		// lines; the last line needs no line end.
		raw, full := rest, len(rest)
		if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
			raw, full, rest = rest[:i], i, rest[i+1:]
			if text[len(text)-len(rest)-1] == '\r' && (strings.HasPrefix(rest, "\n") || rest != "") {
				// "\r\n", or a lone '\r' and the byte after it that tells
				// it from "\r\n": the line limit falls where the line
				// scanner's did.
				full++
				if rest[0] == '\n' {
					rest = rest[1:]
				}
			}
		} else {
			rest = ""
		}
		line++
		if line == 1 {
			raw = strings.TrimPrefix(raw, "\xef\xbb\xbf") // utf8BOM
		}
		// A line of more than MaxQueryLine+1 bytes before its '\n' did not
		// fit in the line buffer of earlier versions (the line, '\r' and
		// '\n'), whatever it held: the same error.
		if full > MaxQueryLine+1 || len(strings.TrimSuffix(raw, "\r")) > MaxQueryLine {
			return nil, tooLong(file, line)
		}
		t := strings.TrimSpace(raw)
		if len(t) == 0 || t[0] == '#' || strings.HasPrefix(t, "//") {
			continue
		}
		indent := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
		q, err := p.line(line, indent, t)
		if err != nil {
			return nil, err
		}
		qs.Queries = append(qs.Queries, q)
	}
	if readErr != nil {
		return nil, &LoadError{File: file, Line: line + 1, Err: readErr}
	}
	if len(qs.Queries) == 0 {
		qs.Queries = nil
	}
	return qs, nil
}

func tooLong(file string, line int) error {
	return &LoadError{File: file, Line: line,
		Err: fmt.Errorf("line is longer than %d bytes (%d MiB), the limit for one query line", MaxQueryLine, MaxQueryLine>>20)}
}

// queryParser is ParseQueries' state: the expect lists of all queries are
// carved from shared slabs, and the last query's tags are kept to share
// its map with the next query when it has the same tags.
type queryParser struct {
	file     string
	res      *Resolver
	fields   queryFieldsBuf
	raws     slab[string]
	ids      slab[ToolID]
	found    []ToolID // one query's resolved expect entries
	lastTags map[string]string
}

// line parses one line's text, which starts at byte indent of the line
// (for the column of a syntax error).
func (p *queryParser) line(line, indent int, text string) (Query, error) {
	bad := func(field string, err error) error {
		return &LoadError{File: p.file, Line: line, Field: field, Err: err}
	}
	q := Query{File: p.file, Line: line}
	// A blank text is worded by queryFields, which names its field.
	if !p.fast(text, &q) || strings.TrimSpace(q.Text) == "" {
		var err error
		if q.Text, q.ExpectRaw, q.Tags, err = queryFields(p.file, line, indent, []byte(text)); err != nil {
			return Query{}, err
		}
		p.lastTags = nil
	}
	if strings.TrimSpace(q.Text) == "" {
		return Query{}, bad("query", errors.New("is empty"))
	}
	p.found = p.found[:0]
	for i, e := range q.ExpectRaw {
		id, err := p.res.Resolve(e)
		if err != nil {
			return Query{}, bad(fmt.Sprintf("expect[%d]", i), err)
		}
		if !slices.Contains(p.found, id) { // a handful: no map
			p.found = append(p.found, id)
		}
	}
	if len(p.found) > 0 {
		q.Expect = p.ids.carve(p.found)
	}
	return q, nil
}

// fast reads a line by fastQueryFields into q, reporting whether it could.
func (p *queryParser) fast(text string, q *Query) bool {
	f := &p.fields
	if !fastQueryFields(text, f) {
		return false
	}
	q.Text = f.text
	if f.hasExpect {
		q.ExpectRaw = p.raws.carve(f.expect)
	}
	q.Tags = p.tagMap(f.tags)
	return true
}

// tagMap returns the map of tags, the last query's when it holds the same.
func (p *queryParser) tagMap(tags []tag) map[string]string {
	if len(tags) == 0 {
		return nil
	}
	if m := p.lastTags; len(m) == len(tags) {
		same := true
		for _, t := range tags {
			if v, ok := m[t.key]; !ok || v != t.value {
				same = false
				break
			}
		}
		if same {
			return m
		}
	}
	m := make(map[string]string, len(tags))
	for _, t := range tags {
		m[t.key] = t.value
	}
	p.lastTags = m
	return m
}

// slab hands out exact-size slices of a shared array, so that thousands of
// short lists cost a few allocations.
type slab[T any] struct {
	free []T
	next int // size of the next array (at least 64), doubled after each
}

// carve returns a copy of items (non-nil, of capacity len(items)).
func (s *slab[T]) carve(items []T) []T {
	if len(items) == 0 {
		return []T{}
	}
	if cap(s.free)-len(s.free) < len(items) {
		s.next = max(s.next, 64)
		s.free = make([]T, 0, max(s.next, len(items)))
		s.next = min(2*s.next, 1<<14)
	}
	start := len(s.free)
	s.free = append(s.free, items...)
	return s.free[start:len(s.free):len(s.free)]
}

// queryFields reads a line's query, expect and tags with encoding/json
// (any line; the errors name the field).
func queryFields(file string, line, indent int, text []byte) (query string, expect []string, tags map[string]string, err error) {
	bad := func(field string, err error) error {
		return &LoadError{File: file, Line: line, Field: field, Err: err}
	}
	var obj map[string]json.RawMessage
	err = json.Unmarshal(text, &obj)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return "", nil, nil, &LoadError{File: file, Line: line, Column: indent + int(se.Offset),
			Err: fmt.Errorf("invalid JSON: %v", se)}
	case text[0] != '{':
		return "", nil, nil, bad("", fmt.Errorf("the line is %s, not a JSON object like {\"query\": \"...\", \"expect\": [\"server/tool\"]}", jsonKind(text)))
	case err != nil:
		return "", nil, nil, bad("", fmt.Errorf("not a JSON object: %v", err))
	}
	// The text is "query" or "prompt" (a prompts.jsonl file): both are
	// the text the writer or the search starts from.
	rawQ, hasQ := obj["query"]
	rawP, hasP := obj["prompt"]
	if _, call := obj["call"]; call && hasP && !hasQ {
		return "", nil, nil, bad("call", errors.New(`this line is a written call ("prompt" and "call"): give the file with --written, not as a query file`))
	}
	switch {
	case !hasQ && !hasP:
		return "", nil, nil, bad("query", errors.New(`missing (each line needs "query" or "prompt", the text)`))
	case hasQ:
		if err := json.Unmarshal(rawQ, &query); err != nil {
			return "", nil, nil, bad("query", errors.New("must be a string"))
		}
	}
	if hasP {
		var prompt string
		if err := json.Unmarshal(rawP, &prompt); err != nil {
			return "", nil, nil, bad("prompt", errors.New("must be a string"))
		}
		if hasQ && prompt != query {
			return "", nil, nil, bad("prompt", errors.New(`differs from "query" on the same line: give one of them`))
		}
		query = prompt
	}
	field := "query"
	if !hasQ {
		field = "prompt"
	}
	if strings.TrimSpace(query) == "" {
		return "", nil, nil, bad(field, errors.New("is empty"))
	}
	if raw, ok := obj["expect"]; ok {
		if err := json.Unmarshal(raw, &expect); err != nil {
			return "", nil, nil, bad("expect", errors.New("must be an array of strings"))
		}
	}
	for k, v := range obj {
		if k == "query" || k == "prompt" || k == "expect" {
			continue
		}
		if tags == nil {
			tags = map[string]string{}
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			tags[k] = s
			continue
		}
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil {
			tags[k] = buf.String()
		} else {
			tags[k] = string(v)
		}
	}
	return query, expect, tags, nil
}

// queryFieldsBuf is what fastQueryFields reads from a line, in buffers
// reused line after line.
type queryFieldsBuf struct {
	text      string
	expect    []string
	hasExpect bool
	tags      []tag
	keys      []string
}

// tag is one tag of a query line.
type tag struct{ key, value string }

// fastQueryFields reads the usual line without encoding/json: one object
// whose values are strings or arrays of strings, every key plain (valid
// UTF-8, no escape, no control character), every string valid UTF-8 with
// no control character (JSON escapes decoded as encoding/json does), no
// key repeated, a "query" string and "expect", if present, an array. It
// fills f with what queryFields would read (an array tag is its compact
// JSON; the strings are cut from text unless they hold an escape) and
// reports whether the line had that shape; any other line is left to
// queryFields, which also words every error. FuzzQueryLine compares the
// two.
func fastQueryFields(text string, f *queryFieldsBuf) bool {
	p := qscan{s: text}
	f.text, f.expect, f.hasExpect, f.tags, f.keys = "", f.expect[:0], false, f.tags[:0], f.keys[:0]
	if !p.byte('{') {
		return false
	}
	hasQuery := false
	for {
		key, ok := p.str(false)
		if !ok || !p.byte(':') || slices.Contains(f.keys, key) {
			return false
		}
		f.keys = append(f.keys, key)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '[' {
			start := p.i
			p.i++
			n := len(f.expect)
			if !p.byte(']') {
				for {
					s, ok := p.str(true)
					if !ok {
						return false
					}
					f.expect = append(f.expect, s)
					if p.byte(']') {
						break
					}
					if !p.byte(',') {
						return false
					}
				}
			}
			switch key {
			case "query", "prompt":
				return false
			case "expect":
				f.hasExpect = true
			default:
				f.expect = f.expect[:n] // read only to check them
				f.tags = append(f.tags, tag{key, compactArray(p.s[start:p.i])})
			}
		} else {
			s, ok := p.str(true)
			switch {
			case !ok || key == "expect":
				return false
			case key == "query" || key == "prompt":
				if hasQuery {
					return false // both: queryFields compares them
				}
				f.text, hasQuery = s, true
			default:
				f.tags = append(f.tags, tag{key, s})
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
	return p.i == len(p.s) && hasQuery
}

// compactArray is json.Compact of raw, an array of valid strings: raw
// itself when it has no white space between its tokens.
func compactArray(raw string) string {
	var b []byte // nil until some white space is dropped
	in := false  // inside a string
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if b == nil {
				b = append(make([]byte, 0, len(raw)), raw[:i]...)
			}
			continue
		}
		n := 1
		switch {
		case in && c == '\\':
			n = 2 // and the escaped byte
		case c == '"':
			in = !in
		}
		if b != nil {
			b = append(b, raw[i:i+n]...)
		}
		i += n - 1
	}
	if b == nil {
		return raw
	}
	return string(b)
}

// qscan is fastQueryFields' cursor over s.
type qscan struct {
	s string
	i int
}

// space skips JSON white space.
func (p *qscan) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
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
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string (white space first): valid UTF-8, no control
// character, and, when escapes is set, JSON escapes, decoded as
// encoding/json decodes them into a new string; without escapes, none.
func (p *qscan) str(escapes bool) (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.i
	escaped := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			if !utf8.ValidString(s) {
				return "", false
			}
			if escaped {
				return string(ojson.AppendUnquoted(make([]byte, 0, len(s)), s)), true
			}
			return s, true
		case c == '\\':
			n := escapeLen(p.s[p.i:])
			if !escapes || n == 0 {
				return "", false
			}
			escaped = true
			p.i += n
			continue
		case c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// escapeLen is the length of the JSON escape s starts with, 0 if none.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(s) < 6 {
			return 0
		}
		for _, h := range []byte(s[2:6]) {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
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

// Resolver turns the ways people write a tool's name into its ToolID. It
// is safe for concurrent use.
type Resolver struct {
	cat *Catalog
	ids []ToolID // of the first definition of every tool, in catalog order
	// The keys tools are found by, each list stably sorted by key (so a
	// key's tools are in catalog order); the last three are built on
	// first use (more).
	byJoin                 []rkey // server__tool, exact
	moreOnce               sync.Once
	byNorm, byName, byBare []rkey // server__tool sanitised, bare tool name exact and sanitised
	joins, names           []string
}

// rkey is one way to write ids[tool].
type rkey struct {
	key  string
	tool int32
}

// NewResolver indexes the first definition of every tool in cat.
func NewResolver(cat *Catalog) *Resolver {
	r := &Resolver{cat: cat}
	if cat == nil {
		return r
	}
	tools := cat.UniqueTools()
	// The ids and the server__tool joins, cut from one string.
	size := 0
	for _, t := range tools {
		size += 2*(len(t.Server)+len(t.Name)) + len("/__")
	}
	var b strings.Builder
	b.Grow(size)
	for _, t := range tools {
		b.WriteString(t.Server)
		b.WriteByte('/')
		b.WriteString(t.Name)
		b.WriteString(t.Server)
		b.WriteString("__")
		b.WriteString(t.Name)
	}
	all := b.String()
	r.ids = make([]ToolID, len(tools))
	r.joins = make([]string, len(tools))
	r.names = make([]string, len(tools))
	r.byJoin = make([]rkey, len(tools))
	at := 0
	for i, t := range tools {
		n := len(t.Server) + 1 + len(t.Name)
		r.ids[i] = ToolID(all[at : at+n])
		at += n
		n = len(t.Server) + 2 + len(t.Name)
		r.joins[i] = all[at : at+n]
		at += n
		r.names[i] = t.Name
		r.byJoin[i] = rkey{r.joins[i], int32(i)}
	}
	sortKeys(r.byJoin)
	return r
}

// more builds byNorm, byName and byBare once.
func (r *Resolver) more() {
	r.moreOnce.Do(func() {
		n := len(r.ids)
		keys := make([]rkey, 3*n)
		r.byNorm, r.byName, r.byBare = keys[:n:n], keys[n:2*n:2*n], keys[2*n:]
		for i := range r.ids {
			r.byNorm[i] = rkey{sanitize(r.joins[i]), int32(i)}
			r.byName[i] = rkey{r.names[i], int32(i)}
			r.byBare[i] = rkey{sanitize(r.names[i]), int32(i)}
		}
		sortKeys(r.byNorm)
		sortKeys(r.byName)
		sortKeys(r.byBare)
	})
}

func sortKeys(keys []rkey) {
	slices.SortStableFunc(keys, func(a, b rkey) int { return strings.Compare(a.key, b.key) })
}

// find returns the ids of the tools with key in keys, catalog order.
func (r *Resolver) find(keys []rkey, key string) []rkey {
	i, ok := slices.BinarySearchFunc(keys, key, func(k rkey, key string) int { return strings.Compare(k.key, key) })
	if !ok {
		return nil
	}
	j := i + 1
	for j < len(keys) && keys[j].key == key {
		j++
	}
	return keys[i:j]
}

// sanitize maps every character outside [A-Za-z0-9_] to '_', the strictest
// of the clients' name rules (Codex), so names written with '-' or '.' as
// '_' (Claude Code keeps '-', Codex does not) still match.
func sanitize(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	if clean {
		return s
	}
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

// resolveOnServer resolves the empty entry (an error) and "server/tool"
// when cat has that server; ok says whether it did.
func resolveOnServer(cat *Catalog, entry string) (id ToolID, err error, ok bool) {
	if entry == "" {
		return "", errors.New("empty tool name"), true
	}
	if cat == nil {
		return "", nil, false
	}
	// A server name may hold '/' itself ("acme/tools"): each '/' is tried
	// as the separator, the first first; the first server found decides.
	for i := 0; i < len(entry); i++ {
		if entry[i] != '/' {
			continue
		}
		srv, tool := entry[:i], entry[i+1:]
		if s := cat.Server(srv); s != nil {
			names := make([]string, 0, len(s.Tools))
			for _, t := range s.Tools {
				if t.Name == tool {
					return t.ID(), nil, true
				}
				names = append(names, t.Name)
			}
			return "", fmt.Errorf("%q: server %q has no tool %q%s", entry, srv, tool, didyoumean.Hint(tool, names)), true
		}
	}
	return "", nil, false
}

// Resolve finds the tool an expect entry names: "server/tool",
// "server__tool", "mcp__server__tool" (exactly, or with '-' and '.'
// written as '_'), or a bare tool name unique in the catalog. An unknown or
// ambiguous entry is an error that says which.
func (r *Resolver) Resolve(entry string) (ToolID, error) {
	if id, err, ok := resolveOnServer(r.cat, entry); ok {
		return id, err
	}
	try := func(keys []rkey) (ToolID, error, bool) {
		switch len(keys) {
		case 0:
			return "", nil, false
		case 1:
			return r.ids[keys[0].tool], nil, true
		}
		ids := make([]ToolID, len(keys))
		for i, k := range keys {
			ids[i] = r.ids[k.tool]
		}
		return "", fmt.Errorf("%q is ambiguous: it may be %s", entry, joinIDs(ids)), true
	}
	body := strings.TrimPrefix(entry, "mcp__")
	for _, cand := range [2]string{entry, body} {
		if id, err, ok := try(r.find(r.byJoin, cand)); ok {
			return id, err
		}
	}
	r.more()
	for _, cand := range [2]string{entry, body} {
		if id, err, ok := try(r.find(r.byNorm, sanitize(cand))); ok {
			return id, err
		}
	}
	if id, err, ok := try(r.find(r.byName, entry)); ok {
		return id, err
	}
	if id, err, ok := try(r.find(r.byBare, sanitize(entry))); ok {
		return id, err
	}
	return "", &NoToolError{Entry: entry, r: r}
}

// NoToolError is Resolve's error for an entry that matches no tool of the
// catalog. Its message names the nearest tool when the entry looks like a
// typo of it; that search runs over every tool, so only when the message
// is read.
type NoToolError struct {
	Entry string
	r     *Resolver
}

func (e *NoToolError) Error() string {
	return fmt.Sprintf("%q matches no tool in the catalog%s (write server/tool, server__tool, mcp__server__tool or a unique tool name)", e.Entry, e.Hint())
}

// Hint is " (did you mean …?)" for the tool nearest to the entry: by id
// ("billing/invoice_lookp"), else by bare name; "" when none is near.
func (e *NoToolError) Hint() string {
	if e.r == nil {
		return ""
	}
	ids := make([]string, len(e.r.ids))
	for i, id := range e.r.ids {
		ids[i] = string(id)
	}
	if h := didyoumean.Hint(e.Entry, ids); h != "" {
		return h
	}
	return didyoumean.Hint(e.Entry, e.r.names)
}

func joinIDs(ids []ToolID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}
