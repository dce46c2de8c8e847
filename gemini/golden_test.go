package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/golden"
	"github.com/toolfind/toolfind/search"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// describe writes what one request declares: every declaration (the MCP
// ones in full when full, else by length, tokens and SHA-256, so that no
// third-party text is copied), then the tools not declared and why.
func describe(b *strings.Builder, cat *corpus.Catalog, cfg Config, full bool) {
	d := Declare(cat, cfg)
	mcp, builtin, total := d.Tokens()
	fmt.Fprintf(b, "%d declarations (%d MCP ≈%d tokens, %d built-in ≈%d tokens), tools array %d characters ≈%d tokens, sha256 %s\n",
		d.Count(), len(d.MCP), mcp, d.Count()-len(d.MCP), builtin, search.UTF16Len(d.JSON()), total, sum(d.JSON()))
	fmt.Fprintf(b, "built-ins: %s\n", strings.Join(d.BuiltinNames(), " "))
	for _, e := range d.MCP {
		if full {
			fmt.Fprintf(b, "%s\n", e.Text)
		} else {
			fmt.Fprintf(b, "%-64s %6d chars %5d tokens %s\n", e.Name, search.UTF16Len(e.Text), e.Tokens, sum(e.Text)[:16])
		}
	}
	var not []string
	for _, e := range d.All {
		if !e.Declared {
			not = append(not, fmt.Sprintf("not declared: %s (%s) %s", e.Tool.ID(), e.Name, e.Why))
		}
	}
	sort.Strings(not)
	for _, n := range not {
		b.WriteString(n + "\n")
	}
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// The declarations of our own edge catalog, headless and under YOLO, in
// full: what the real Gemini CLI 0.61.0 sent for it (checked with the
// oracle; see the package doc).
func TestGoldenEdge(t *testing.T) {
	cat := loadEdge(t)
	var b strings.Builder
	b.WriteString("# headless, every server trusted\n")
	describe(&b, cat, Config{AllTrusted: true}, true)
	b.WriteString("\n# --yolo\n")
	describe(&b, cat, Config{YOLO: true}, true)
	b.WriteString("\n# instructions\n" + Instructions(cat) + "\n")
	golden.Compare(t, "testdata/edge.golden", []byte(b.String()), *update)
}

// The declarations of every shared catalog (../shared/catalogs), by
// length, tokens and hash (their texts are not ours to copy).
func TestGoldenShared(t *testing.T) {
	files, _ := filepath.Glob("../../shared/catalogs/*.json")
	if len(files) == 0 {
		t.Skip("../../shared/catalogs is absent: the shared catalogs' declarations are not checked")
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		cat, err := corpus.Load(f)
		require.NoError(t, err, f)
		fmt.Fprintf(&b, "# %s\n", filepath.Base(f))
		describe(&b, cat, Config{AllTrusted: true}, false)
		b.WriteString("\n")
	}
	golden.Compare(t, "testdata/shared.golden", []byte(b.String()), *update)
}
