package main

import "testing"

// BenchmarkBenchClaudeAzure is `toolfind bench --client claude` over the
// Azure catalog (235 tools) and its 739 end-to-end prompts, in-process:
// the bench command of issue 18's per-prompt goal minus the process start.
func BenchmarkBenchClaudeAzure(b *testing.B) {
	cat := sharedDir(b, "catalogs", "azure.json")
	qs := sharedDir(b, "corpora", "azure-e2e", "queries.jsonl")
	benchMain(b, "bench", "--client", "claude", "--catalog", cat, "--queries", qs, "--quiet")
}
