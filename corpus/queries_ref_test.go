package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode"
)

// refScanLines is bufio.ScanLines with a lone '\r' ending a line too
// (old Mac files), as jsonpos counts lines.
func refScanLines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		switch {
		case data[i] == '\n':
			return i + 1, data[:i], nil
		case i+1 < len(data) && data[i+1] == '\n':
			return i + 2, data[:i], nil
		case i+1 < len(data) || atEOF:
			return i + 1, data[:i], nil
		}
		return 0, nil, nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// refParseQueries is ParseQueries as it was before it read its input
// whole: a bufio.Scanner over lines (ending with "\n", "\r\n" or a lone
// "\r"), every line read by encoding/json
// (queryFields) and resolved by refResolver. ParseQueries must give the
// same queries and the same errors.
func refParseQueries(file string, r io.Reader, cat *Catalog) (*QuerySet, error) {
	res := newRefResolver(cat)
	qs := &QuerySet{Source: file}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxQueryLine+2)
	sc.Split(refScanLines)
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
		q := Query{File: file, Line: line}
		var err error
		if q.Text, q.ExpectRaw, q.Tags, err = queryFields(file, line, indent, text); err != nil {
			return nil, err
		}
		for i, e := range q.ExpectRaw {
			id, err := res.Resolve(e)
			if err != nil {
				return nil, &LoadError{File: file, Line: line, Field: fmt.Sprintf("expect[%d]", i), Err: err}
			}
			if !slices.Contains(q.Expect, id) {
				q.Expect = append(q.Expect, id)
			}
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

// refResolver is Resolver as it was: four maps.
type refResolver struct {
	cat                            *Catalog
	byJoin, byNorm, byName, byBare map[string][]ToolID
}

func newRefResolver(cat *Catalog) *refResolver {
	r := &refResolver{cat: cat, byJoin: map[string][]ToolID{}, byNorm: map[string][]ToolID{},
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

func (r *refResolver) Resolve(entry string) (ToolID, error) {
	if id, err, ok := resolveOnServer(r.cat, entry); ok {
		return id, err
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

// sameQueries fails t unless ParseQueries and refParseQueries read data
// alike (r wraps the reader of data, e.g. to fail a read).
func sameQueries(t *testing.T, data []byte, cat *Catalog, r func(io.Reader) io.Reader) {
	t.Helper()
	got, gerr := ParseQueries("q.jsonl", r(bytes.NewReader(data)), cat)
	want, werr := refParseQueries("q.jsonl", r(bytes.NewReader(data)), cat)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%q: error\n%v\nreference\n%v", data, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: queries\n%#v\nreference\n%#v", data, got, want)
	}
}

func plainReader(r io.Reader) io.Reader { return r }

// failAfter fails the read once n bytes are read.
func failAfter(n int64) func(io.Reader) io.Reader {
	return func(r io.Reader) io.Reader {
		return io.MultiReader(io.LimitReader(r, n), iotest.ErrReader(errors.New("disk on fire")))
	}
}

// refQueryFiles are inputs of every kind: comments, blank lines, BOM, CR,
// errors of every kind, escapes, tags shared or not.
var refQueryFiles = []string{
	"",
	"\n\n",
	"\xef\xbb\xbf{\"query\":\"bom\"}\r\n# c\r\n// d\r\n  \t\n{\"query\":\"x\",\"expect\":[\"weather/get_alerts\"]}",
	`{"query":"a","expect":["weather__get_alerts","weather/get_alerts","get_alerts"],"k":"v","t":["x", "y"]}` + "\n" +
		`{"query":"b","k":"v","t":["x","y"]}` + "\n" + `{"query":"c","k":"v","t":["x","y"]}` + "\n" + `{"query":"d","k":"w"}` + "\n" +
		`{"query":"e \"q\" \u00e9","k":"v\n","n":1,"o":{"a" : [1, 2]}}`,
	`{"query":"a","expect":[]}` + "\n" + `{"query":"b","expect":["nope"]}`,
	`{"query":"a"}` + "\n  [1,2]",
	`{"query":"a"}` + "\n\t{\"query\": 1}}",
	`{"query":"a"}` + "\n{\"query\":\" \"}",
	`{"query":"a","expect":"x"}`,
	`{"expect":["x"]}`,
	"{\"query\":\"\\ud83d\\ude00 \\udc00 \xff\"}\r\r\n",
	`{"query":"a","expect":["mcp__weather__get_alerts","mcp__weather__get-alerts",""]}`,
	"{\"query\":\"a\"}\r",
}

func TestParseQueriesAsReference(t *testing.T) {
	cat := Demo()
	for _, f := range refQueryFiles {
		sameQueries(t, []byte(f), cat, plainReader)
		sameQueries(t, []byte(f), nil, plainReader)
		for _, n := range []int64{0, 1, int64(len(f) / 2), int64(len(f))} {
			sameQueries(t, []byte(f), cat, failAfter(n))
		}
		sameQueries(t, []byte(f), cat, iotest.OneByteReader)
	}
}

// TestParseQueriesLongLines: the line limit falls where it fell with the
// line scanner (the line, '\r' and '\n' within MaxQueryLine+2 bytes), with
// and without '\r', a byte-order mark or a final '\n'.
func TestParseQueriesLongLines(t *testing.T) {
	if testing.Short() {
		t.Skip("1 MiB lines")
	}
	for _, n := range []int{MaxQueryLine - 2, MaxQueryLine - 1, MaxQueryLine + 1, MaxQueryLine + 2} {
		for _, pre := range []string{"", "\xef\xbb\xbf"} {
			for _, end := range []string{"", "\n", "\r\n", "\r\r\n"} {
				// A comment: only the limit is at stake.
				body := "#" + strings.Repeat("a", n-1)
				sameQueries(t, []byte(pre+body+end), nil, plainReader)
			}
		}
	}
}

// TestParseQueriesSharedCorpora: every shared corpus reads as the
// reference reads it.
func TestParseQueriesSharedCorpora(t *testing.T) {
	for _, c := range []struct{ queries, catalog string }{
		{"azure-e2e/queries.jsonl", "../../shared/catalogs/azure.json"},
		{"metatool/queries.jsonl", "../../shared/corpora/metatool/metatool.json"},
		{"mongodb-accuracy/queries.jsonl", "../../shared/catalogs/mongodb.json"},
		{"livemcpbench/queries.jsonl", "../../shared/corpora/livemcpbench/catalogs"},
	} {
		data, err := os.ReadFile("../../shared/corpora/" + c.queries)
		if err != nil {
			t.Skipf("shared corpora absent (%v): skipping", err)
		}
		cat, err := Load(c.catalog)
		if err != nil {
			t.Fatal(err)
		}
		sameQueries(t, data, cat, plainReader)
		// Loaded from the file, it reads the same.
		want, werr := refParseQueries("../../shared/corpora/"+c.queries, bytes.NewReader(data), cat)
		for _, opts := range []LoadOptions{{}} {
			got, gerr := LoadQueriesWith(opts, "../../shared/corpora/"+c.queries, cat)
			if gerr != nil || werr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %+v: LoadQueriesWith differs from the reference (%v, %v)", c.queries, opts, gerr, werr)
			}
		}
	}
}

func FuzzParseQueriesAsReference(f *testing.F) {
	for _, s := range refQueryFiles {
		f.Add([]byte(s), uint16(0xffff))
	}
	cat := Demo()
	f.Fuzz(func(t *testing.T, data []byte, failAt uint16) {
		r := plainReader
		if int(failAt) < len(data) {
			r = failAfter(int64(failAt))
		}
		sameQueries(t, data, cat, r)
	})
}

var didYouMeanRE = regexp.MustCompile(` \(did you mean "[^"]*"\?\)`)

// TestResolverAsReference: every way to write every tool of the demo and
// shared catalogs resolves as with the reference's maps.
func TestResolverAsReference(t *testing.T) {
	cats := []*Catalog{Demo(), {Servers: []*Server{
		{Name: "a", Tools: []*Tool{{Server: "a", Name: "b__c"}, {Server: "a", Name: "x.y"}, {Server: "a", Name: "x-y"}, {Server: "a", Name: "b__c"}}},
		{Name: "a__b", Tools: []*Tool{{Server: "a__b", Name: "c"}, {Server: "a__b", Name: "x_y"}}},
	}}}
	if cat, err := Load("../../shared/catalogs"); err == nil {
		cats = append(cats, cat)
	}
	for _, cat := range cats {
		r, ref := NewResolver(cat), newRefResolver(cat)
		var entries []string
		for _, tl := range cat.Tools() {
			for _, e := range []string{string(tl.ID()), tl.Server + "__" + tl.Name, "mcp__" + tl.Server + "__" + tl.Name, tl.Name, sanitize(tl.Name),
				strings.ToUpper(tl.Name), sanitize(tl.Server + "__" + tl.Name), tl.Server + "/nope", "", "nope"} {
				entries = append(entries, e)
			}
		}
		for _, e := range entries {
			gid, gerr := r.Resolve(e)
			wid, werr := ref.Resolve(e)
			// The reference has no "did you mean" (TestResolveDidYouMean):
			// a NoToolError is compared without it.
			var msg string
			if ne := (*NoToolError)(nil); errors.As(gerr, &ne) {
				msg = (&NoToolError{Entry: ne.Entry}).Error()
			} else {
				msg = fmt.Sprint(gerr)
			}
			if gid != wid || didYouMeanRE.ReplaceAllString(msg, "") != fmt.Sprint(werr) {
				t.Fatalf("Resolve(%q) = %q, %v; reference %q, %v", e, gid, gerr, wid, werr)
			}
		}
	}
}

// TestUniqueTools: the first tool of each name per server, as a map of
// the names seen finds them, in servers of a few and of many tools.
func TestUniqueTools(t *testing.T) {
	var many []*Tool
	for i := 0; i < 40; i++ {
		many = append(many, &Tool{Server: "m", Name: fmt.Sprintf("t%d", i%13), Description: fmt.Sprint(i)})
	}
	cats := []*Catalog{Demo(), {}, {Servers: []*Server{
		{Name: "a", Tools: []*Tool{{Name: "x"}, {Name: "y"}, {Name: "x", Description: "2"}, {Name: ""}, {Name: ""}}},
		{Name: "m", Tools: many},
		{Name: "b", Tools: []*Tool{{Name: "x"}}},
	}}}
	if cat, err := Load("../../shared/catalogs"); err == nil {
		cats = append(cats, cat)
	}
	for _, cat := range cats {
		var want []*Tool
		for _, s := range cat.Servers {
			seen := map[string]bool{}
			for _, tl := range s.Tools {
				if !seen[tl.Name] {
					seen[tl.Name] = true
					want = append(want, tl)
				}
			}
		}
		got := cat.UniqueTools()
		if len(got) != len(want) {
			t.Fatalf("%d unique tools, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("tool %d: %s %q, want %s %q", i, got[i].Name, got[i].Description, want[i].Name, want[i].Description)
			}
		}
	}
}
