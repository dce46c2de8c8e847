package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/gencat"
)

// TestLoadSurvivesRewrittenFiles: the catalog files a command loaded, and
// its query file, may be truncated and rewritten during the run (an
// editor saving, "snapshot > cat.json", git checkout) without the command
// noticing: its values are its own. (Mapped into memory, as the command
// once read them, the first read of a truncated part killed it with
// SIGBUS.)
func TestLoadSurvivesRewrittenFiles(t *testing.T) {
	dir := t.TempDir()
	if err := gencat.WriteDir(dir, 200, 2); err != nil {
		t.Fatal(err)
	}
	var src sourceOptions
	cat, err := src.load(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	qpath := writeFile(t, "q.jsonl", `{"query":"`+cat.Tools()[0].Name+` please"}`+"\n")
	b := &benchOptions{global: &globalOptions{catalogs: []string{dir}}, queries: qpath}
	qs, err := b.loadQueries(cat)
	if err != nil {
		t.Fatal(err)
	}
	var before []string
	for _, tool := range cat.Tools() {
		before = append(before, strings.Clone(tool.Name)+"|"+strings.Clone(tool.Description)+"|"+string(tool.Raw))
	}
	query := strings.Clone(qs.Queries[0].Text)
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		path := dir + "/" + f.Name()
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Truncate(qpath, 0); err != nil {
		t.Fatal(err)
	}
	for i, tool := range cat.Tools() {
		if got := tool.Name + "|" + tool.Description + "|" + string(tool.Raw); got != before[i] {
			t.Fatalf("tool %d changed with its file", i)
		}
	}
	if qs.Queries[0].Text != query {
		t.Errorf("query %q, want %q", qs.Queries[0].Text, query)
	}
}
