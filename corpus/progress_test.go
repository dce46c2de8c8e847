package corpus_test

// An external test package: internal/gencat imports corpus, so corpus's
// own tests cannot import gencat.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/gencat"
)

func TestLoadProgress(t *testing.T) {
	var buf bytes.Buffer
	if err := gencat.Write(&buf, 2500, 1); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls [][2]int64
	cat, err := corpus.LoadWith(corpus.LoadOptions{Progress: func(done, total int64) { calls = append(calls, [2]int64{done, total}) }}, path)
	if err != nil {
		t.Fatal(err)
	}
	if cat.Len() != 2500 || len(cat.Servers) != 3 {
		t.Fatalf("%d tools in %d servers, want 2500 in 3", cat.Len(), len(cat.Servers))
	}
	// One call per 1,000 tools (at the 1,000th and 2,000th), then the end.
	size := int64(buf.Len())
	if len(calls) != 3 || calls[2] != [2]int64{size, size} {
		t.Fatalf("progress calls %v, want 3 ending at %d", calls, size)
	}
	// The 1,000th tool is the last of the first server: the report is
	// where that tool starts in the file.
	if want := int64(bytes.Index(buf.Bytes(), []byte(`{"name":"`+cat.Servers[0].Tools[999].Name+`"`))); calls[0][0] != want {
		t.Errorf("first report at %d, want %d", calls[0][0], want)
	}
	if !(calls[0][0] < calls[1][0] && calls[1][0] < calls[2][0]) {
		t.Errorf("progress not increasing: %v", calls)
	}
}
