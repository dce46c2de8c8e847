package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/gencat"
)

// TestMapFiles: a catalog loaded with mapped files is the one read into
// the heap, tool by tool, diagnostics and errors included (an empty file,
// a file over MaxCatalogBytes).
func TestMapFiles(t *testing.T) {
	dir := t.TempDir()
	if err := gencat.WriteDir(dir, 1500, 3); err != nil {
		t.Fatal(err)
	}
	read, err := LoadWith(LoadOptions{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := LoadWith(LoadOptions{MapFiles: true}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !sameServers(read.Servers, mapped.Servers) || !reflect.DeepEqual(read.Diagnostics, mapped.Diagnostics) {
		t.Fatal("mapped catalog differs from the one read")
	}
	for i, tool := range mapped.Tools() {
		if !bytes.Equal(tool.Raw, read.Tools()[i].Raw) {
			t.Fatalf("tool %d: raw JSON differs", i)
		}
	}

	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxCatalogBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	for _, path := range []string{empty, big} {
		_, rerr := LoadWith(LoadOptions{}, path)
		_, merr := LoadWith(LoadOptions{MapFiles: true}, path)
		if rerr == nil || merr == nil || rerr.Error() != merr.Error() {
			t.Errorf("%s: read error %v, mapped error %v", filepath.Base(path), rerr, merr)
		}
	}
	if _, err := LoadWith(LoadOptions{MapFiles: true}, big); err == nil || !strings.Contains(err.Error(), "the limit for one catalog file") {
		t.Errorf("big file: %v", err)
	}
}
