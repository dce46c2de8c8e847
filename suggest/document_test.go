package suggest

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
)

// mergePatch applies an RFC 7386 merge patch (§2's pseudo-code) to a
// decoded JSON value.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
		} else {
			t[k] = mergePatch(t[k], v)
		}
	}
	return t
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	return v
}

// editOf makes the ToolEdit of one change to the tool at (server, index)
// of a document.
func editOf(t *testing.T, file string, doc []byte, server string, index int, c Change) ToolEdit {
	t.Helper()
	servers, _, err := corpus.ParseCatalog(file, doc)
	require.NoError(t, err)
	for _, s := range servers {
		if s.Name == server {
			tool := s.Tools[index]
			ed, err := editTool(tool, []Change{c})
			require.NoError(t, err)
			return ToolEdit{Tool: tool.ID(), Changes: []Change{c}, original: tool, edited: ed}
		}
	}
	t.Fatalf("no server %s", server)
	return ToolEdit{}
}

func TestEditDocumentShapes(t *testing.T) {
	tests := []struct {
		name, file, doc, server string
		index                   int
		wantPatchKeys           []string
	}{
		// The edited copy is written under another name: it gains the
		// "server" member the file's name gave.
		{"bare tools/list result named after the file", "dir/notes.json",
			`{"tools": [ {"name":"a","description":"A."},  {"name":"b", "description":"B."} ], "nextCursor": null}`, "notes", 1, []string{"server", "tools"}},
		{"server and tools", "x.json",
			`{"server":"notes","instructions":"I.","tools":[{"name":"a","description":"A."},{"name":"b","description":"B."}]}`, "notes", 0, []string{"tools"}},
		{"servers", "x.json",
			`{"servers":[{"name":"other","tools":[{"name":"a"}]},{"server":"notes","extra":{"k":1},"tools":[{"name":"a","description":"A."},{"name":"a","description":"dup"}]}]}`, "notes", 1, []string{"servers"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := []byte(tt.doc)
			e := editOf(t, tt.file, doc, tt.server, tt.index, Change{Field: Description, After: "Stash. New."})
			edited, patch, err := EditDocument(tt.file, doc, []ToolEdit{e})
			require.NoError(t, err)
			// The edited document, written under another name, reads back
			// with the change and nothing else changed.
			servers, _, err := corpus.ParseCatalog("elsewhere/edited.json", edited)
			require.NoError(t, err)
			var found *corpus.Tool
			for _, s := range servers {
				if s.Name == tt.server {
					found = s.Tools[tt.index]
				}
			}
			require.NotNil(t, found)
			assert.Equal(t, "Stash. New.", found.Description)
			// Applying the patch to the input gives the edited document.
			p := decode(t, patch).(map[string]any)
			keys := []string{}
			for k := range p {
				keys = append(keys, k)
			}
			assert.ElementsMatch(t, tt.wantPatchKeys, keys, "the patch holds only the member with the tools (and the server's name)")
			assert.Equal(t, decode(t, edited), mergePatch(decode(t, doc), p))
		})
	}
}

// TestEditDocumentReadsLikeTheParser: the document walk reads what the
// catalog parser reads (package corpus): past a byte-order mark, a null
// "servers" as absent, the last of a repeated name member. Each edit
// lands on its tool and the merge patch gives the edited document.
func TestEditDocumentReadsLikeTheParser(t *testing.T) {
	tests := []struct {
		name, doc, server string
		index             int
		wantEdited        string
	}{
		{"byte-order mark", "\ufeff{\"server\":\"notes\",\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"}]}", "notes", 1,
			"\ufeff{\"server\":\"notes\",\"tools\":[{\"name\":\"a\"},{\"name\":\"b\",\"description\":\"New.\"}]}"},
		{"null servers reads as absent", `{"servers":null,"server":"notes","tools":[{"name":"a"}]}`, "notes", 0,
			`{"servers":null,"server":"notes","tools":[{"name":"a","description":"New."}]}`},
		{"the last name counts", `{"servers":[{"name":"x","name":null,"server":"notes","tools":[{"name":"a"}]}]}`, "notes", 0,
			`{"servers":[{"name":"x","name":null,"server":"notes","tools":[{"name":"a","description":"New."}]}]}`},
		// A null "server" reads as absent (the file names the server): the
		// written copy names it there, since a member put first would be
		// overridden by the null.
		{"null server", `{"server":"x","tools":[{"name":"a"}],"server":null}`, "notes", 0,
			`{"server":"x","tools":[{"name":"a","description":"New."}],"server":"notes"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := []byte(tt.doc)
			e := editOf(t, "notes.json", doc, tt.server, tt.index, Change{Field: Description, After: "New."})
			edited, patch, err := EditDocument("notes.json", doc, []ToolEdit{e})
			require.NoError(t, err)
			assert.Equal(t, tt.wantEdited, string(edited))
			servers, _, err := corpus.ParseCatalog("elsewhere/edited.json", edited)
			require.NoError(t, err)
			require.Len(t, servers, 1)
			assert.Equal(t, tt.server, servers[0].Name)
			assert.Equal(t, "New.", servers[0].Tools[tt.index].Description)
			noBOM := func(b []byte) []byte { return bytes.TrimPrefix(b, utf8BOM) }
			assert.Equal(t, decode(t, noBOM(edited)), mergePatch(decode(t, noBOM(doc)), decode(t, patch)))
		})
	}
}

func TestEditDocumentKeepsOtherBytes(t *testing.T) {
	doc := []byte("{\n  \"server\": \"notes\",\n  \"tools\": [\n    {\"name\": \"a\", \"description\": \"A.\"},\n    {\"name\": \"b\", \"description\": \"B \\u0026 c\", \"n\": 1.50}\n  ]\n}\n")
	e := editOf(t, "x.json", doc, "notes", 0, Change{Field: Title, After: "Alpha"})
	edited, _, err := EditDocument("x.json", doc, []ToolEdit{e})
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"server\": \"notes\",\n  \"tools\": [\n    {\"name\": \"a\", \"description\": \"A.\",\"title\":\"Alpha\"},\n    {\"name\": \"b\", \"description\": \"B \\u0026 c\", \"n\": 1.50}\n  ]\n}\n", string(edited))
	// No edits: the same bytes and an empty patch.
	same, patch, err := EditDocument("x.json", doc, nil)
	require.NoError(t, err)
	assert.Equal(t, string(doc), string(same))
	assert.Equal(t, "{}\n", string(patch))
	// A bare tools/list result gains the server's name, in its layout.
	same, patch, err = EditDocument("dir/notes.json", []byte("{\n  \"tools\": []\n}\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"server\": \"notes\",\n  \"tools\": []\n}\n", string(same))
	assert.Equal(t, "{\n  \"server\": \"notes\"\n}\n", string(patch))
}

func TestEditDocumentErrors(t *testing.T) {
	doc := []byte(`{"server":"notes","tools":[{"name":"a"}]}`)
	e := editOf(t, "x.json", doc, "notes", 0, Change{Field: Title, After: "A"})
	_, _, err := EditDocument("y.json", []byte(`{"server":"notes","tools":[{"name":"b"}]}`), []ToolEdit{e})
	assert.EqualError(t, err, "y.json: tool notes/a differs from the catalog the edits were made for")
	_, _, err = EditDocument("y.json", []byte(`{"server":"other","tools":[{"name":"a"}]}`), []ToolEdit{e})
	assert.EqualError(t, err, "y.json: tool notes/a (position 0 of server notes) is not in the file")
	_, _, err = EditDocument("y.json", []byte(`[1]`), []ToolEdit{e})
	assert.EqualError(t, err, "y.json: not a catalog object")
	_, _, err = EditDocument("y.json", []byte(`{"x":1}`), nil)
	assert.EqualError(t, err, `y.json: a catalog needs "tools" or "servers"`)
}

func TestCatalogDocumentReadsBack(t *testing.T) {
	a, _, err := corpus.ParseCatalog("a.json", []byte(`{"server":"a","instructions":"Use <a>.","tools":[{"name":"x","description":"X.","n":1.50}]}`))
	require.NoError(t, err)
	b, _, err := corpus.ParseCatalog("b.json", []byte(`{"tools":[{"name":"y"},{"name":"y"}]}`))
	require.NoError(t, err)
	cat := &corpus.Catalog{Servers: append(a, b...)}
	doc := CatalogDocument(cat, nil)
	servers, _, err := corpus.ParseCatalog("all.json", doc)
	require.NoError(t, err)
	require.Len(t, servers, 2)
	assert.Equal(t, "Use <a>.", servers[0].Instructions)
	assert.JSONEq(t, `{"name":"x","description":"X.","n":1.50}`, string(servers[0].Tools[0].Raw))
	assert.Equal(t, "b", servers[1].Name)
	assert.Len(t, servers[1].Tools, 2, "duplicates are kept")
}

// FuzzEditDocument: any document either fails with an error or, with no
// edits, comes back unchanged (but for the "server" member a bare
// {"tools"} gains: it reads back under any name as the same servers);
// never a panic.
func FuzzEditDocument(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a"}]}`))
	f.Add([]byte(`{"servers":[{"name":"s","tools":[{"name":"a"},{"name":"b"}]},null,{"server":1}]}`))
	f.Add([]byte(`{"server":"x","tools":"nope"}`))
	f.Add([]byte(`{"servers":[{"tools":[`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		edited, patch, err := EditDocument("f.json", doc, nil)
		if err != nil {
			return
		}
		servers, _, perr := corpus.ParseCatalog("f.json", doc)
		if string(edited) != string(doc) || string(patch) != "{}\n" {
			again, _, err := corpus.ParseCatalog("g.json", edited)
			if perr != nil || err != nil || len(again) != 1 || len(servers) != 1 || again[0].Name != servers[0].Name || len(again[0].Tools) != len(servers[0].Tools) {
				t.Fatalf("no edits changed the document: %q → %q", doc, edited)
			}
		}
		// Every tool the parser reads is found by the span walk.
		if perr != nil {
			return
		}
		spans, _, err := toolSpans("f.json", doc)
		if err != nil {
			t.Fatalf("parsed but not walked: %v", err)
		}
		for _, s := range servers {
			for _, tool := range s.Tools {
				sp, ok := spans[refOf(tool)]
				if !ok {
					t.Fatalf("tool %s at %d not found", tool.ID(), tool.Index)
				}
				if string(doc[sp.start:sp.end]) != string(tool.Raw) {
					t.Fatalf("span of %s is %q, raw %q", tool.ID(), doc[sp.start:sp.end], tool.Raw)
				}
			}
		}
	})
}

// FuzzApplyChange: any tool object takes any change and reads back with
// the new value.
func FuzzApplyChange(f *testing.F) {
	f.Add([]byte(`{"name":"a","_meta":{"x":1}}`), "desc", uint8(0))
	f.Add([]byte(`{"name":"a","name":"b","_meta":null}`), "t", uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, value string, which uint8) {
		fields := []Field{Hint, Description, Title}
		c := Change{Field: fields[int(which)%len(fields)], After: value}
		if _, err := reparse("s", 0, raw); err != nil || !utf8.ValidString(value) {
			return // only tools a catalog holds are edited, with words
		}
		out, err := applyChange(raw, c)
		if err != nil {
			return
		}
		var v map[string]any
		if json.Unmarshal(raw, &v) != nil {
			return // duplicate-key or invalid input: only no panic is asked
		}
		tool, err := reparse("s", 0, out)
		if err != nil {
			t.Fatalf("edited object does not read back: %v\n%s", err, out)
		}
		if got := currentValue(tool, c.Field); got != value && tool.Name != "" {
			t.Fatalf("%s = %q, want %q", c.Field, got, value)
		}
	})
}

// TestCatalogDocumentKeepsSkippedEntries: with the source documents, a
// server's tools array is copied whole, the entries the parser left out
// included; without them (or when a document no longer holds the tools)
// the tools' raw JSON is used.
func TestCatalogDocumentKeepsSkippedEntries(t *testing.T) {
	src := []byte("\ufeff{\"servers\":[{\"name\":\"a\",\"tools\":[null,{\"name\":\"x\"},{\"nameless\":1}]}]}")
	a, _, err := corpus.ParseCatalog("a.json", src)
	require.NoError(t, err)
	cat := &corpus.Catalog{Servers: a}
	tools := func(doc []byte) string {
		var v struct {
			Servers []struct{ Tools json.RawMessage }
		}
		require.NoError(t, json.Unmarshal(doc, &v))
		var c bytes.Buffer
		require.NoError(t, json.Compact(&c, v.Servers[0].Tools))
		return c.String()
	}
	assert.Equal(t, `[null,{"name":"x"},{"nameless":1}]`, tools(CatalogDocument(cat, map[string][]byte{"a.json": src})))
	assert.Equal(t, `[{"name":"x"}]`, tools(CatalogDocument(cat, nil)))
	changed := []byte(`{"servers":[{"name":"a","tools":[null,{"name":"y"}]}]}`)
	assert.Equal(t, `[{"name":"x"}]`, tools(CatalogDocument(cat, map[string][]byte{"a.json": changed})))
}
