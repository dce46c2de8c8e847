package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/internal/gencat"
)

// BenchmarkLoad loads whole catalog folders as the CLI does (read, parse,
// merge, Validate): "shared" is ../shared/catalogs (15 files, 2 MB, 1,111
// tools; read into the heap, and mapped with LoadOptions.MapFiles as the
// CLI loads), "gen10k" a gencat folder of 10,000 tools in 10 files (9 MB),
// "gen10k-mapped" the same with LoadOptions.MapFiles (as the CLI loads).
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
		b.Run("plain", func(b *testing.B) { benchLoad(b, dir, false) })
		b.Run("mapped", func(b *testing.B) { benchLoad(b, dir, true) })
	})
	gen := b.TempDir()
	if err := gencat.WriteDir(gen, 10_000, 1); err != nil {
		b.Fatal(err)
	}
	b.Run("gen10k", func(b *testing.B) { benchLoad(b, gen, false) })
	b.Run("gen10k-mapped", func(b *testing.B) { benchLoad(b, gen, true) })
}

func benchLoad(b *testing.B, dir string, mapFiles bool) {
	files, size, err := expand(dir)
	if err != nil {
		b.Fatal(err)
	}
	_ = files
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadWith(LoadOptions{MapFiles: mapFiles}, dir); err != nil {
			b.Fatal(err)
		}
	}
}
