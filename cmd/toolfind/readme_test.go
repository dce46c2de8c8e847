package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's ten-line query set runs as it is on the embedded demo
// catalog: every line parses (a "prompt" line too), every expected tool
// resolves, and bench scores all ten.
func TestREADMEQuerySet(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "Ten lines for the embedded demo catalog")
	if !ok {
		t.Fatal("README has no ten-line query set")
	}
	_, rest, _ = strings.Cut(rest, "```json\n")
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("README: the query set's block is not closed")
	}
	if n := strings.Count(block, "\n"); n != 10 {
		t.Fatalf("README query set has %d lines, want 10", n)
	}
	qs := filepath.Join(t.TempDir(), "queries.jsonl")
	if err := os.WriteFile(qs, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "bench", "--queries", qs, "--by", "category")
	if code != 0 || !strings.HasPrefix(out, "10 queries (") {
		t.Fatalf("bench: exit %d\n%s\n%s", code, out, errOut)
	}
}
