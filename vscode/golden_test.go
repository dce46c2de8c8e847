package vscode

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The arrangement of the shared GitHub catalog (117 tools) for the
// default gpt-4.1 (virtual tools) and for claude-sonnet-4.5 (tool
// search): the outline `toolfind show` prints, then every stub's
// definition.
func TestGoldenGitHub(t *testing.T) {
	path := "../../shared/catalogs/github.json"
	cat, err := corpus.Load(path)
	if err != nil {
		t.Skipf("%s is absent (%v): the GitHub catalog's layout is not checked", path, err)
	}
	for _, c := range []struct {
		file string
		opts Options
	}{
		{"github.golden", Options{}},
		{"github-fallback-names.golden", Options{GroupNames: FallbackNames, Embeddings: RegistrationFallback}},
		{"github-claude.golden", Options{Model: "claude-sonnet-4.5"}},
	} {
		s, err := New(cat, c.opts)
		require.NoError(t, err)
		var b strings.Builder
		for _, l := range s.Outline() {
			b.WriteString(l + "\n")
		}
		for _, g := range s.Layout().Groups {
			b.WriteString(g.JSON + "\n")
		}
		golden.Compare(t, filepath.Join("testdata", c.file), []byte(b.String()), *update)
	}
}
