package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notesFixture is suggest's own fixture catalog and query set.
var (
	notesCatalog = filepath.Join("..", "..", "suggest", "testdata", "notes.json")
	notesQueries = filepath.Join("..", "..", "suggest", "testdata", "notes.jsonl")
)

// suggestJSON is the part of suggest's JSON report the tests read.
type suggestJSON struct {
	Clients []struct {
		Client        string
		Before, After float64
	}
	Edits []struct {
		Tool    string
		Changes []struct{ Field, Before, After string }
		Fixes   []struct{ Client string }
	}
	Regressions []json.RawMessage
	Holdout     *struct {
		Learn   int `json:"learn_queries"`
		Held    int `json:"held_queries"`
		Clients []struct {
			Client                string
			HeldBefore, HeldAfter float64 `json:"-"`
			Note                  string
		}
	}
}

func TestSuggestDemo(t *testing.T) {
	out, errOut, code := run(t, "suggest", "--quiet")
	require.Equal(t, 0, code, errOut)
	golden(t, "suggest-demo.txt", out)
}

// The honesty check on the fixture: the report's "after" equals a
// fresh bench on --write-catalog's file, and --patch applied to the input
// gives that file.
func TestSuggestWriteCatalogAndPatch(t *testing.T) {
	dir := t.TempDir()
	edited, patch, report := filepath.Join(dir, "edited.json"), filepath.Join(dir, "patch.json"), filepath.Join(dir, "report.json")
	_, errOut, code := run(t, "suggest", "--quiet", "--catalog", notesCatalog, "--queries", notesQueries, "--writer", "heuristic",
		"--write-catalog", edited, "--patch", patch, "--format", "json", "--out", report)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "edited.json: the ../../suggest/testdata/notes.json with 1 tool edited\n")
	assert.Contains(t, errOut, "patch.json: JSON Merge Patch (RFC 7386) against ../../suggest/testdata/notes.json\n")
	var rep suggestJSON
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	require.Len(t, rep.Edits, 1)
	assert.Empty(t, rep.Regressions)

	out, errOut, code := run(t, "bench", "--quiet", "--catalog", edited, "--queries", notesQueries, "--writer", "heuristic", "--format", "json")
	require.Equal(t, 0, code, errOut)
	after := benchFound(t, out)
	want := map[string]float64{}
	for _, c := range rep.Clients {
		want[c.Client] = c.After
	}
	assert.Equal(t, want, after, "bench on the written catalog reports exactly the after figures")

	// The merge patch turns the input into the written catalog.
	in, err := os.ReadFile(notesCatalog)
	require.NoError(t, err)
	p, err := os.ReadFile(patch)
	require.NoError(t, err)
	w, err := os.ReadFile(edited)
	require.NoError(t, err)
	var inV, pV, wV map[string]any
	require.NoError(t, json.Unmarshal(in, &inV))
	require.NoError(t, json.Unmarshal(p, &pV))
	require.NoError(t, json.Unmarshal(w, &wV))
	for k, v := range pV { // RFC 7386 §2, one level (the patch's members are whole values)
		inV[k] = v
	}
	assert.Equal(t, wV, inV)
}

func TestSuggestMarkdownAndHoldout(t *testing.T) {
	out, errOut, code := run(t, "suggest", "--quiet", "--catalog", notesCatalog, "--queries", notesQueries, "--client", "claude,grok",
		"--holdout", "0.5", "--seed", "3", "--format", "markdown")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "### toolfind suggest\n"), out)
	assert.Contains(t, out, "**Held out:** 5 of 10 queries (share 0.50, seed 3); edits learned on the other 5.")
	assert.Contains(t, out, "| client | learned on | held out | note |")
}

// --holdout alternate learns on lines 1, 3, 5, … and checks on 2, 4, 6, …:
// the notes fixture's 10 lines split 5 and 5.
func TestSuggestHoldoutAlternate(t *testing.T) {
	out, errOut, code := run(t, "suggest", "--quiet", "--catalog", notesCatalog, "--queries", notesQueries, "--client", "claude,grok",
		"--holdout", "alternate", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Holdout struct {
			Split string `json:"split"`
			Learn int    `json:"learn_queries"`
			Held  int    `json:"held_queries"`
		} `json:"holdout"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, "lines 2, 4, 6, … held out", rep.Holdout.Split)
	assert.Equal(t, 5, rep.Holdout.Learn)
	assert.Equal(t, 5, rep.Holdout.Held)
}

func TestSuggestUsageErrors(t *testing.T) {
	two := []string{"--catalog", notesCatalog, "--catalog", filepath.Join("..", "..", "corpus", "demo", "catalog.json")}
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"--holdout", "1"}, "--holdout 1: want a share of the queries, at least 0 and below 1, or \"alternate\""},
		{[]string{"--holdout", "odd"}, "--holdout odd: want a share of the queries, at least 0 and below 1, or \"alternate\""},
		{[]string{"--format", "html"}, `--format "html": want text, json or markdown`},
		{[]string{"--written", "w.jsonl", "--queries", "q.jsonl"}, "--written and --queries: give one"},
		{[]string{"--written", "w.jsonl", "--writer", "heuristic"}, "--written and --writer: the calls of a written file are already written"},
		{[]string{"--description-budget", "0"}, "--description-budget 0: must be 1 or more"},
		{append(append([]string{}, two...), "--queries", notesQueries, "--patch", "p.json"), "--patch needs one catalog file or live servers only"},
		{[]string{"--catalog", filepath.Dir(notesCatalog), "--queries", notesQueries, "--patch", "p.json"}, "--patch needs one catalog file or live servers only"},
		// A missing catalog is named, not taken for a folder.
		{[]string{"--catalog", "missing.json", "--queries", notesQueries, "--patch", "p.json"}, "toolfind: missing.json: stat missing.json: no such file or directory\n"},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, append([]string{"suggest", "--quiet"}, tt.args...)...)
		assert.Equal(t, 2, code, tt.args)
		assert.Contains(t, errOut, tt.msg, tt.args)
	}
}

// On a live server the edits are made against its snapshot.
func TestSuggestLiveEverything(t *testing.T) {
	srv := everythingServer(t)
	q := writeFile(t, "q.jsonl", `{"query": "repeat my words back to me", "expect": ["echo"]}
{"query": "add two numbers together", "expect": ["get-sum"]}
{"query": "show a small picture", "expect": ["get-tiny-image"]}
`)
	dir := t.TempDir()
	patch, edited := filepath.Join(dir, "p.json"), filepath.Join(dir, "e.json")
	out, errOut, code := run(t, "suggest", "--quiet", "--server", srv, "--queries", q, "--client", "grok,claude", "--writer", "heuristic",
		"--patch", patch, "--write-catalog", edited, "--format", "json")
	require.Equal(t, 0, code, errOut)
	var rep suggestJSON
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Contains(t, errOut, "JSON Merge Patch (RFC 7386) against snapshot\n")
	require.NotEmpty(t, rep.Edits)
	// The written catalog is the snapshot with the edits: bench on it
	// reports the after figures.
	out, errOut, code = run(t, "bench", "--quiet", "--catalog", edited, "--queries", q, "--client", "grok,claude", "--writer", "heuristic", "--format", "json")
	require.Equal(t, 0, code, errOut)
	for _, c := range rep.Clients {
		assert.Contains(t, out, `"client": "`+c.Client+`"`)
	}
}

// suggestThenBench runs suggest with args and --write-catalog, then bench
// on the written catalog with benchArgs, and returns the report's "after"
// figures and bench's, per primary row, and the written catalog.
func suggestThenBench(t *testing.T, args, benchArgs []string) (after, bench map[string]float64, edited []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "edited.json")
	out, errOut, code := run(t, append([]string{"suggest", "--quiet", "--format", "json", "--write-catalog", path}, args...)...)
	require.Equal(t, 0, code, errOut)
	var rep suggestJSON
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	after = map[string]float64{}
	for _, c := range rep.Clients {
		after[c.Client] = c.After
	}
	out, errOut, code = run(t, append([]string{"bench", "--quiet", "--format", "json", "--catalog", path}, benchArgs...)...)
	require.Equal(t, 0, code, errOut)
	edited, err := os.ReadFile(path)
	require.NoError(t, err)
	return after, benchFound(t, out), edited
}

// benchFound reads each primary row's found@limit from bench's JSON.
func benchFound(t *testing.T, out string) map[string]float64 {
	t.Helper()
	var b struct {
		Clients []struct {
			Client       string
			Variant      bool
			FoundAtLimit float64 `json:"found_at_limit"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &b))
	found := map[string]float64{}
	for _, c := range b.Clients {
		if !c.Variant {
			found[c.Client] = c.FoundAtLimit
		}
	}
	return found
}

// A bare tools/list result takes its server's name from its file: the
// written catalog (another file name) carries the name in a "server"
// member, so its queries still resolve and bench reports "after".
func TestSuggestBareToolsHonest(t *testing.T) {
	in, err := os.ReadFile(notesCatalog)
	require.NoError(t, err)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(in, &doc))
	bare := writeFile(t, "notes.json", `{"tools": `+string(doc["tools"])+"}\n")
	args := []string{"--queries", notesQueries, "--client", "grok,codex-search"}
	after, bench, edited := suggestThenBench(t, append([]string{"--catalog", bare}, args...), args)
	assert.Equal(t, map[string]float64{"grok@1.0.0": 1, "codex-search@0.171.0": 1}, after)
	assert.Equal(t, after, bench, "bench on the written catalog reports exactly the after figures")
	assert.True(t, strings.HasPrefix(string(edited), `{"server":"notes","tools": [`), "%.60s", edited)
}

// A folder of catalogs is written as one document; an entry the parser
// leaves out (here 42) is copied too, since Claude Code drops the whole
// server for it (specs/claude.md §2): bench on the written catalog then
// reports exactly "after" (it found the zz tools when the entry was lost).
func TestSuggestFolderKeepsSkippedEntries(t *testing.T) {
	dir := t.TempDir()
	in, err := os.ReadFile(notesCatalog)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.json"), in, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zz.json"), []byte(`{"server":"zz","tools":[42,
{"name":"frob","description":"Frobnicate a widget.","inputSchema":{"type":"object"}},
{"name":"zap","description":"Zap a gizmo.","inputSchema":{"type":"object"}}]}`), 0o644))
	qs, err := os.ReadFile(notesQueries)
	require.NoError(t, err)
	q := writeFile(t, "q.jsonl", string(qs)+`{"query":"frobnicate the widget","expect":["zz/frob"]}
{"query":"zap the gizmo","expect":["zz/zap"]}
`)
	args := []string{"--queries", q, "--client", "claude"}
	after, bench, edited := suggestThenBench(t, append([]string{"--catalog", dir}, args...), args)
	assert.Equal(t, map[string]float64{"claude@2.1.332": 0.833333}, after, "zz's two prompts stay missed: its server is dropped")
	assert.Equal(t, after, bench, "bench on the written catalog reports exactly the after figures")
	assert.Contains(t, string(edited), "\n        42,\n")
}

// A rename is written with a note: the written catalog answers to the new
// name, which the query set must then expect.
func TestSuggestRenameNote(t *testing.T) {
	edited := filepath.Join(t.TempDir(), "e.json")
	_, errOut, code := run(t, "suggest", "--quiet", "--catalog", notesCatalog, "--queries", notesQueries, "--client", "grok",
		"--description-budget", "1", "--rename", "--write-catalog", edited)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "e.json: renamed (breaking) notes/archive_note → notes/archive_note_memo_away; a query set run on it must expect the new names\n")
}

// A catalog read from a pipe (a shell's <(...)) cannot be read twice: it
// is written from the catalog loaded, not read again as the document.
func TestSuggestCatalogFromPipe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/dev/fd paths of a pipe are Linux's")
	}
	in, err := os.ReadFile(notesCatalog)
	require.NoError(t, err)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	go func() {
		_, _ = w.Write(in)
		w.Close()
	}()
	pipe := fmt.Sprintf("/dev/fd/%d", r.Fd())
	after, bench, _ := suggestThenBench(t, []string{"--catalog", pipe, "--queries", notesQueries, "--client", "grok"},
		[]string{"--queries", notesQueries, "--client", "grok"})
	assert.Equal(t, map[string]float64{"grok@1.0.0": 1}, after)
	assert.Equal(t, after, bench)
}
