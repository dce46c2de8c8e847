package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/internal/gencat"
)

// BenchmarkLoad loads whole catalog folders as the CLI does (read, parse,
// merge, Validate): "shared" is ../shared/catalogs (15 files, 2 MB, 1,111
// tools), "gen10k" a gencat folder of 10,000 tools in 10 files (9 MB).
// Allocated bytes per op are the figure to watch as much as the time: the
// loaded catalog lives for the whole run.
func BenchmarkLoad(b *testing.B) {
	b.Run("shared", func(b *testing.B) {
		dir := filepath.Join("..", "..", "shared", "catalogs")
		if _, err := os.Stat(dir); err != nil {
			dir = filepath.Join("..", "shared", "catalogs")
		}
		if _, err := os.Stat(dir); err != nil {
			b.Skipf("shared catalogs not found (%v); run from a worktree next to ../shared", err)
		}
		benchLoad(b, dir)
	})
	gen := b.TempDir()
	if err := gencat.WriteDir(gen, 10_000, 1); err != nil {
		b.Fatal(err)
	}
	b.Run("gen10k", func(b *testing.B) { benchLoad(b, gen) })
}

func benchLoad(b *testing.B, dir string) {
	files, size, err := expand(dir)
	if err != nil {
		b.Fatal(err)
	}
	_ = files
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
