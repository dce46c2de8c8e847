package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/gencat"
)

// TestLoadOwnsItsData: once Load and LoadQueries return, the files may
// change or go: a catalog's and a query set's values are the same after
// the files were truncated and rewritten with other bytes as before.
// (With the files mapped into memory, as toolfind once read them, reading
// the values after a truncation killed the process with SIGBUS, and
// rewritten pages showed the new bytes.)
func TestLoadOwnsItsData(t *testing.T) {
	dir := t.TempDir()
	if err := gencat.WriteDir(dir, 300, 3); err != nil {
		t.Fatal(err)
	}
	qpath := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(qpath, []byte(`{"query":"refund an invoice","expect":["billing/invoice_lookup"],"category":"billing"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQueries(qpath, Demo())
	if err != nil {
		t.Fatal(err)
	}
	// What the values are, in copies of their own.
	type toolCopy struct{ name, desc, raw string }
	var want []toolCopy
	for _, tool := range cat.Tools() {
		want = append(want, toolCopy{strings.Clone(tool.Name), strings.Clone(tool.Description), string(tool.Raw)})
	}
	wantQuery := strings.Clone(qs.Queries[0].Text) + "|" + strings.Clone(qs.Queries[0].Tags["category"])

	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range append(files, qpath) {
		size := fileSize(t, f)
		if err := os.Truncate(f, 0); err != nil {
			t.Fatal(err)
		}
		// Half the old size, of other bytes: a mapping would show them
		// in the first half and fault in the second.
		if err := os.WriteFile(f, []byte(strings.Repeat("#", int(size/2))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, tool := range cat.Tools() {
		if got := (toolCopy{tool.Name, tool.Description, string(tool.Raw)}); got != want[i] {
			t.Fatalf("tool %d changed with its file:\n got %+v\nwant %+v", i, got, want[i])
		}
	}
	if got := qs.Queries[0].Text + "|" + qs.Queries[0].Tags["category"]; got != wantQuery {
		t.Errorf("query changed with its file: %q, want %q", got, wantQuery)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestFileChangedWhileRead: a catalog or query file that another program
// truncates or appends to while it is read (here, between the read and
// the check, by the test hook) is an error naming the file, not a
// catalog cut from half of it.
func TestFileChangedWhileRead(t *testing.T) {
	dir := t.TempDir()
	catPath := filepath.Join(dir, "cat.json")
	catData := `{"server":"s","tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
	qPath := filepath.Join(dir, "q.jsonl")
	qData := `{"query":"refund an invoice"}` + "\n"
	for _, change := range []struct {
		name string
		do   func(path string) error
	}{
		{"truncated", func(path string) error { return os.Truncate(path, 3) }},
		{"appended to", func(path string) error {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("\n ")
			return err
		}},
	} {
		t.Run(change.name, func(t *testing.T) {
			if err := os.WriteFile(catPath, []byte(catData), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(qPath, []byte(qData), 0o644); err != nil {
				t.Fatal(err)
			}
			testHookRead = func(path string) {
				if err := change.do(path); err != nil {
					t.Error(err)
				}
			}
			defer func() { testHookRead = nil }()
			_, cerr := Load(catPath)
			_, qerr := LoadQueries(qPath, Demo())
			for _, tt := range []struct {
				err  error
				file string
			}{{cerr, catPath}, {qerr, qPath}} {
				var le *LoadError
				if !errors.As(tt.err, &le) || le.File != tt.file {
					t.Fatalf("%s: error %v, want a LoadError naming the file", tt.file, tt.err)
				}
				const want = "the file changed while toolfind read it ("
				if !strings.Contains(tt.err.Error(), want) || !strings.Contains(tt.err.Error(), "; run again once it is written") {
					t.Errorf("error %v\nwants %q", tt.err, want)
				}
			}
		})
	}
	// Unchanged, the same files load.
	if err := os.WriteFile(catPath, []byte(catData), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := Load(catPath)
	if err != nil || cat.Len() != 1 || cat.Servers[0].Name != "s" {
		t.Fatalf("unchanged: %v", err)
	}
}
