package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseCatalog parses the largest shared catalog (azure.json);
// "depth-check" is the MaxSchemaDepth check alone over its tools, the cost
// the budget adds to loading.
func BenchmarkParseCatalog(b *testing.B) {
	path := filepath.Join("..", "..", "shared", "catalogs", "azure.json")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("..", "shared", "catalogs", "azure.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("shared catalogs not found (%v); run from a worktree next to ../shared", err)
	}
	servers, _, err := ParseCatalog("azure.json", data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, err := ParseCatalog("azure.json", data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("depth-check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, s := range servers {
				for _, t := range s.Tools {
					if _, deep := tooDeep("azure.json", s.Name, t.Name, t.Value); deep {
						b.Fatal("a real tool over the budget")
					}
				}
			}
		}
	})
}
