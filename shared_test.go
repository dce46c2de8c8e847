package toolfind_test

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedSkips is how many tests of the whole repository skip when
// ../shared is absent (counted with `go test -v ./... | grep -c -- '--- SKIP'`
// on a copy of the repository without it; the README gives the same
// number). Update both when a test starts or stops reading ../shared.
const sharedSkips = 104

// TestSharedData says, when ../shared is missing, how much of the test
// suite that leaves out, so a green run without it is not mistaken for a
// full one.
func TestSharedData(t *testing.T) {
	dir := filepath.Join("..", "shared")
	if _, err := os.Stat(filepath.Join(dir, "catalogs")); err != nil {
		t.Skipf("%s is absent: %d tests across the repository skip without it (README, \"Shared data and the tests\")", dir, sharedSkips)
	}
	t.Logf("%s is present: the %d tests that read it run", dir, sharedSkips)
}
