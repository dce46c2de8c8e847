package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSamePathRefused: every command with an output flag refuses, before
// any work (exit 2, nothing written, no temporary file), an output that is
// one of its inputs or another output — by the same path, a cleaned or
// absolute spelling of it, a symbolic or a hard link, or a catalog file of
// a --catalog folder — naming both flags and the path.
func TestSamePathRefused(t *testing.T) {
	demo, err := os.ReadFile("../../corpus/demo/catalog.json")
	require.NoError(t, err)
	queries, err := os.ReadFile("../../corpus/demo/queries.jsonl")
	require.NoError(t, err)
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string][]byte{
		"demo.json": demo, "q.jsonl": queries, "cfg.json": []byte(`{"mcpServers":{}}`),
		"cats/a.json": demo, "logs/p/s.jsonl": []byte("{}\n"), "b.json": []byte(`{}`),
		"s.json": []byte(`{}`),
	}
	require.NoError(t, os.MkdirAll("cats", 0o755))
	require.NoError(t, os.MkdirAll("logs/p", 0o755))
	for name, data := range files {
		require.NoError(t, os.WriteFile(name, data, 0o644))
	}
	require.NoError(t, os.Symlink("q.jsonl", "q-link.jsonl"))
	require.NoError(t, os.Link("demo.json", "demo-hard.json"))
	abs := func(p string) string { return filepath.Join(dir, p) }

	bench := []string{"bench", "--catalog", "demo.json", "--queries", "q.jsonl"}
	tests := []struct {
		name string
		args []string
		want string // the whole error line
	}{
		{"suggest --write-catalog over --catalog", []string{"suggest", "--catalog", "demo.json", "--queries", "q.jsonl", "--write-catalog", "demo.json"},
			"--write-catalog demo.json and --catalog demo.json are the same file: toolfind would overwrite an input it reads; give --write-catalog another path"},
		{"suggest --patch over --catalog", []string{"suggest", "--catalog", "demo.json", "--queries", "q.jsonl", "--patch", "./demo.json"},
			"--patch ./demo.json and --catalog demo.json are the same file: toolfind would overwrite an input it reads; give --patch another path"},
		{"suggest --out and --write-catalog", []string{"suggest", "--catalog", "demo.json", "--queries", "q.jsonl", "--out", "new.json", "--write-catalog", abs("new.json")},
			"--out new.json and --write-catalog " + abs("new.json") + " are the same file: one would overwrite the other; give each output its own path"},
		{"bench --out over --queries", append(bench, "--out", "q.jsonl"),
			"--out q.jsonl and --queries q.jsonl are the same file: toolfind would overwrite an input it reads; give --out another path"},
		{"bench --out over a link to --queries", append(bench, "--out", "q-link.jsonl"),
			"--out q-link.jsonl and --queries q.jsonl are the same file: toolfind would overwrite an input it reads; give --out another path"},
		{"bench --out over a hard link to --catalog", append(bench, "--out", "demo-hard.json"),
			"--out demo-hard.json and --catalog demo.json are the same file: toolfind would overwrite an input it reads; give --out another path"},
		{"bench --out over a catalog of a --catalog folder", []string{"bench", "--catalog", "cats", "--queries", "q.jsonl", "--out", "cats/a.json"},
			"--out cats/a.json is a catalog file of the folder --catalog cats: toolfind would overwrite an input it reads; give --out another path"},
		{"bench --cache over --queries", append(bench, "--writer", "model", "--model", "m", "--model-url", "http://127.0.0.1:1/v1", "--cache", "q.jsonl"),
			"--cache q.jsonl and --queries q.jsonl are the same file: toolfind would overwrite an input it reads; give --cache another path"},
		{"bench --out over --surface-file", append(bench, "--writer", "model", "--model", "m", "--model-url", "http://127.0.0.1:1/v1", "--surface-file", "s.json", "--out", "s.json"),
			"--out s.json and --surface-file s.json are the same file: toolfind would overwrite an input it reads; give --out another path"},
		{"check --out and --save-baseline", []string{"check", "--catalog", "demo.json", "--queries", "q.jsonl", "--min-mrr", "0.1", "--out", "r.json", "--save-baseline", "./r.json"},
			"--out r.json and --save-baseline ./r.json are the same file: one would overwrite the other; give each output its own path"},
		{"check --save-baseline over --baseline", []string{"check", "--catalog", "demo.json", "--queries", "q.jsonl", "--baseline", "b.json", "--save-baseline", "b.json"},
			"--save-baseline b.json and --baseline b.json are the same file: toolfind would overwrite an input it reads; give --save-baseline another path"},
		{"write --out over --catalog", []string{"write", "--catalog", "demo.json", "--queries", "q.jsonl", "--out", abs("demo.json")},
			"--out " + abs("demo.json") + " and --catalog demo.json are the same file: toolfind would overwrite an input it reads; give --out another path"},
		{"snapshot --out over --config", []string{"snapshot", "--config", "cfg.json", "--out", "cfg.json"},
			"--out cfg.json and --config cfg.json are the same file: toolfind would overwrite an input it reads; give --out another path"},
		{"queries import --out over a log", []string{"queries", "import", "logs", "--out", "logs/p/s.jsonl"},
			"--out logs/p/s.jsonl is a log in the folder the argument logs: toolfind would overwrite an input it reads; give --out another path"},
		{"queries import --out over a file argument", []string{"queries", "import", "logs/p/s.jsonl", "--out", "logs/p/../p/s.jsonl"},
			"--out logs/p/../p/s.jsonl and the argument logs/p/s.jsonl are the same file: toolfind would overwrite an input it reads; give --out another path"},
	}
	before := snapshotDir(t, dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			assert.Equal(t, exitBadInput, code, errOut)
			assert.Equal(t, "toolfind: "+tt.want+"\n", errOut)
			assert.Empty(t, out)
			assert.Equal(t, before, snapshotDir(t, dir), "files changed")
		})
	}

	// Not the same file: a new report in a catalog folder, an output
	// beside its input.
	_, errOut, code := run(t, "bench", "--catalog", "cats", "--queries", "q.jsonl", "--out", "cats/report.md", "--format", "markdown")
	require.Equal(t, 0, code, errOut)
	_, errOut, code = run(t, "bench", "--catalog", "demo.json", "--queries", "q.jsonl", "--out", "q2.jsonl")
	require.Equal(t, 0, code, errOut)
}

// snapshotDir maps every file under dir (links as links) to its content.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			m[p] = "-> " + target
			return nil
		}
		data, err := os.ReadFile(p)
		m[p] = string(data)
		return err
	}))
	return m
}
