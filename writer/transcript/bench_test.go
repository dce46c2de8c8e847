package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// benchLog repeats a log n times: a history of n sessions' worth of lines.
func benchLog(b *testing.B, path string, n int) []byte {
	b.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	return bytes.Repeat(src, n)
}

// BenchmarkParseClaude: the real 2.1.328 transcript ×500 (8,000 lines,
// 4.7 MB) per op.
func BenchmarkParseClaude(b *testing.B) {
	data := benchLog(b, "testdata/claude/keyword-then-call.jsonl", 500)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var st Stats
		if _, err := ParseClaude("bench", bytes.NewReader(data), Options{}, &st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseCodex: the rollout fixture ×500 (9,500 lines) per op.
func BenchmarkParseCodex(b *testing.B) {
	matches, _ := filepath.Glob("testdata/codex/rollout-*.jsonl")
	if len(matches) == 0 {
		b.Skip("no rollout fixture")
	}
	data := benchLog(b, matches[0], 500)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var st Stats
		if _, err := ParseCodex("bench", bytes.NewReader(data), Options{}, &st); err != nil {
			b.Fatal(err)
		}
	}
}
