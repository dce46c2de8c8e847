package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestByteOrderMark: editors on Windows start files with U+FEFF; catalogs
// and query files load as without it, and positions count from after it.
func TestByteOrderMark(t *testing.T) {
	servers, _, err := ParseCatalog("bom.json", []byte("\xef\xbb\xbf{\"server\":\"a\",\"tools\":[{\"name\":\"t\"}]}"))
	if err != nil || len(servers) != 1 || servers[0].Name != "a" || len(servers[0].Tools) != 1 {
		t.Fatalf("catalog with a BOM: %v, %+v", err, servers)
	}
	_, _, err = ParseCatalog("bom.json", []byte("\xef\xbb\xbf{\n,}"))
	if want := "bom.json:2:1: invalid JSON: invalid character ',' looking for beginning of object key string"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
	qs, err := ParseQueries("q.jsonl", strings.NewReader("\xef\xbb\xbf{\"query\": \"invoice\"}\n{\"query\": \"two\"}\n"), resolverCatalog(t))
	if err != nil || len(qs.Queries) != 2 || qs.Queries[0].Text != "invoice" {
		t.Fatalf("query file with a BOM: %v, %+v", err, qs)
	}
	// A BOM anywhere but at the start is not skipped.
	_, err = ParseQueries("q.jsonl", strings.NewReader("{\"query\": \"invoice\"}\n\xef\xbb\xbf{\"query\": \"two\"}\n"), resolverCatalog(t))
	if want := "q.jsonl:2:1: invalid JSON: invalid character 'ï' looking for beginning of value"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestQueryLineNotObject: each kind of JSON value that is not an object
// says so with file and line; broken JSON gives the column.
func TestQueryLineNotObject(t *testing.T) {
	const example = `, not a JSON object like {"query": "...", "expect": ["server/tool"]}`
	tests := []struct{ in, want string }{
		{"[1,2]", "q.jsonl:1: the line is a JSON array" + example},
		{"\n\"invoice\"", "q.jsonl:2: the line is a JSON string" + example},
		{"42", "q.jsonl:1: the line is a JSON number" + example},
		{"true", "q.jsonl:1: the line is a JSON boolean" + example},
		{"null", "q.jsonl:1: the line is JSON null" + example},
		// '}' is byte 14 of the line, after two spaces of indent.
		{`  {"query": 1}}`, "q.jsonl:1:15: invalid JSON: invalid character '}' after top-level value"},
		{`{"query": "x"`, "q.jsonl:1:13: invalid JSON: unexpected end of JSON input"},
	}
	for _, tt := range tests {
		_, err := ParseQueries("q.jsonl", strings.NewReader(tt.in), resolverCatalog(t))
		if err == nil || err.Error() != tt.want {
			t.Errorf("input %q: error %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

// TestQueryLineTooLong: a line over MaxQueryLine is an error naming its
// line and the limit, whether or not a newline follows it; a line of
// exactly MaxQueryLine bytes loads.
func TestQueryLineTooLong(t *testing.T) {
	cat := resolverCatalog(t)
	fits := `{"query": "` + strings.Repeat("a", MaxQueryLine-len(`{"query": ""}`)) + `"}`
	qs, err := ParseQueries("q.jsonl", strings.NewReader("{\"query\": \"x\"}\n"+fits+"\r\n"), cat)
	if err != nil || len(qs.Queries) != 2 {
		t.Fatalf("a line of exactly %d bytes: %v", MaxQueryLine, err)
	}
	// 1 MiB = 1,048,576 bytes.
	const want = "q.jsonl:2: line is longer than 1048576 bytes (1 MiB), the limit for one query line"
	over := strings.Repeat("a", MaxQueryLine+1)
	huge := strings.Repeat("a", MaxQueryLine+100)
	for name, in := range map[string]string{
		"one byte over, newline":    "{\"query\": \"x\"}\n" + over + "\n{\"query\": \"y\"}\n",
		"one byte over, no newline": "{\"query\": \"x\"}\n" + over,
		"far over, newline":         "{\"query\": \"x\"}\n" + huge + "\n{\"query\": \"y\"}\n",
		"far over, no newline":      "{\"query\": \"x\"}\n" + huge,
	} {
		_, err := ParseQueries("q.jsonl", strings.NewReader(in), cat)
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v\nwant %s", name, err, want)
		}
	}
}

// TestSchemaDepthLimit: a tool nesting exactly MaxSchemaDepth levels
// loads; one level more is left out with an error diagnostic naming the
// limit, and the rest of the catalog loads.
func TestSchemaDepthLimit(t *testing.T) {
	nested := func(k int) string { return strings.Repeat("[", k) + strings.Repeat("]", k) }
	// The tool object is level 1, so inputSchema may nest 127 levels.
	catalog := func(k int) []byte {
		return []byte(`{"server":"d","tools":[{"name":"deep","inputSchema":` + nested(k) + `},{"name":"ok","inputSchema":{"type":"object"}}]}`)
	}
	servers, diags, err := ParseCatalog("d.json", catalog(MaxSchemaDepth-1))
	if err != nil || len(servers[0].Tools) != 2 || len(diags) != 0 {
		t.Fatalf("depth %d: %v, %d tools, %v", MaxSchemaDepth, err, len(servers[0].Tools), diags)
	}
	for _, k := range []int{MaxSchemaDepth, 9000} {
		servers, diags, err = ParseCatalog("d.json", catalog(k))
		if err != nil || len(servers[0].Tools) != 1 || servers[0].Tools[0].Name != "ok" {
			t.Fatalf("depth %d: %v, tools %v", k+1, err, servers[0].Tools)
		}
		want := Diagnostic{Severity: Error, Code: CodeSchemaTooDeep, File: "d.json", Server: "d", Tool: "deep", Field: "inputSchema",
			Message: `nests deeper than 128 levels of JSON arrays and objects, toolfind's limit (MaxSchemaDepth): tool "deep" is left out for every client; ` +
				"clients print schemas back to the model with one indent per level, and Rust clients using serde_json refuse JSON nested deeper than 128 levels"}
		if len(diags) != 1 || diags[0] != want {
			t.Errorf("depth %d: diagnostics %+v\nwant %+v", k+1, diags, want)
		}
	}
	// Over encoding/json's own limit the file is rejected, naming it: the
	// prefix is 49 bytes and 3 levels deep, so the 9,998th "[" (column
	// 49 + 9,998 = 10,047) is level 10,001.
	_, _, err = ParseCatalog("d.json", []byte(`{"server":"d","tools":[{"name":"x","inputSchema":`+nested(10001)+`}]}`))
	if want := "d.json:1:10047: JSON nested deeper than 10000 levels, the limit for catalog files (MaxJSONDepth)"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestCatalogFileSizeLimit: a file over MaxCatalogBytes is refused before
// it is parsed (a sparse file: nothing is written to disk).
func TestCatalogFileSizeLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxCatalogBytes + 1); err != nil {
		t.Skip("no sparse files:", err)
	}
	f.Close()
	_, err = Load(p)
	if want := p + ": the file is larger than 67108864 bytes (64 MiB), the limit for one catalog file"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
	_, err = Load(filepath.Join(t.TempDir(), "absent.json"))
	if err == nil || !strings.HasSuffix(err.Error(), "absent.json: stat: no such file or directory") && !strings.HasSuffix(err.Error(), "no such file or directory") {
		t.Errorf("absent file: %v", err)
	}
}

// TestCROnlyLineEnds: a file whose lines end with "\r" alone (classic Mac
// OS, some generators) has its errors on the right line, as with "\n" and
// "\r\n"; before, every error of such a file was on line 1.
func TestCROnlyLineEnds(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		doc := `{"server": "s",` + eol + `"tools": [` + eol + `{"name": "a", "description": 5,}]}`
		_, _, err := ParseCatalog("cr.json", []byte(doc))
		want := "cr.json:3:32: invalid JSON: invalid character '}' looking for beginning of object key string"
		if err == nil || err.Error() != want {
			t.Errorf("line end %q: error %v\nwant %s", eol, err, want)
		}
	}
}
