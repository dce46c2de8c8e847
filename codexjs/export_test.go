package codexjs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestExportForNode writes ALL_TOOLS of the merged shared catalogs and the
// built-in strategies for testdata/node/bench.mjs (only when
// TOOLFIND_NODE_EXPORT names a folder).
func TestExportForNode(t *testing.T) {
	dir := os.Getenv("TOOLFIND_NODE_EXPORT")
	if dir == "" {
		t.Skip("set TOOLFIND_NODE_EXPORT=DIR to export for testdata/node/bench.mjs")
	}
	cat := loadShared(t, ".")
	at := BuildAllTools(cat, false)
	if err := os.WriteFile(filepath.Join(dir, "alltools.json"), []byte(at.JSON()), 0o644); err != nil {
		t.Fatal(err)
	}
	type src struct {
		Name   string `json:"name"`
		Source string `json:"source"`
	}
	var ss []src
	for _, s := range builtinStrategies {
		ss = append(ss, src{s.Name, s.Source})
	}
	data, _ := json.Marshal(map[string]any{"query": benchQuery, "terms": Terms(benchQuery), "strategies": ss})
	if err := os.WriteFile(filepath.Join(dir, "strategies.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
