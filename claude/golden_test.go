package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// rankJSON is the shape of `toolfind rank --format json`.
type rankJSON struct {
	Query   string          `json:"query"`
	Results []search.Result `json:"results"`
}

// TestGoldenDemo pins the rank JSON of every demo query for the three
// profiles: testdata/demo/NN.json. Run with -update to rewrite.
func TestGoldenDemo(t *testing.T) {
	cat := corpus.Demo()
	qs, err := corpus.DemoQueries(cat)
	if err != nil {
		t.Fatal(err)
	}
	sims := []*Simulator{
		New(cat, V2_1_328, DefaultOptions()),
		New(cat, V2_1_283, DefaultOptions()),
		New(cat, V2_1_88, DefaultOptions()),
	}
	for i, q := range qs.Queries {
		out := rankJSON{Query: q.Text}
		for _, s := range sims {
			r, err := s.Search(context.Background(), search.Query{Text: q.Text})
			if err != nil {
				t.Fatal(err)
			}
			out.Results = append(out.Results, r.All()...)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "demo", fmt.Sprintf("%02d-%s.json", i+1, slug(q.Text)))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from the golden file; run go test -update and review the diff\n got:\n%s", path, buf.Bytes())
		}
	}
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
