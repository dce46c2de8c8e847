package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/cputime"
)

// sharedDir returns ../shared/<sub> beside the repository, or skips.
func sharedDir(tb testing.TB, sub ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{"..", "..", "..", "shared"}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared data %s not found (it sits beside the repository): %v", p, err)
	}
	return p
}

// BenchmarkRankClaudeShared is one `toolfind rank --client claude --query
// invoice` over every shared catalog, in-process (the CLI minus the
// process start).
func BenchmarkRankClaudeShared(b *testing.B) {
	dir := sharedDir(b, "catalogs")
	benchMain(b, "rank", "--client", "claude", "--query", "invoice", "--catalog", dir)
}

// benchMain runs the CLI in-process per iteration and reports CPU time
// per run next to wall time (on a shared machine wall time mostly measures
// waiting for a core).
func benchMain(b *testing.B, args ...string) {
	b.ReportAllocs()
	cpu0 := cputime.Used()
	for b.Loop() {
		if code := Main(args, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
}

// TestNodeReferenceAgrees runs bench/node/toolsearch.mjs, the Node
// yardstick of the start-up comparison, and checks that it is the same
// algorithm: the same tools in the same order with the same scores and
// token estimates as `toolfind rank --client claude`, over every shared
// catalog.
func TestNodeReferenceAgrees(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := sharedDir(t, "catalogs")
	builtins := sharedDir(t, "specs", "claude-builtins-2.1.328.json")
	queries := []string{"create pull request", "+github issue", "select:get_me,Read", "mcp__github__get", "read",
		"web fetch", "list pods in namespace", "+azure storage account", "search documentation", "okta user"}
	args := []string{filepath.Join("..", "..", "bench", "node", "toolsearch.mjs"), "--catalog", dir, "--builtins", builtins}
	for _, q := range queries {
		args = append(args, "--query", q)
	}
	out, err := exec.Command(node, args...).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(queries) {
		t.Fatalf("node printed %d lines for %d queries", len(lines), len(queries))
	}
	for i, q := range queries {
		var js struct {
			Hits   [][2]any `json:"hits"`
			Tokens int      `json:"tokens"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &js); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, h := range js.Hits {
			want = append(want, fmt.Sprintf("%s %v", h[0], h[1]))
		}
		stdout, _, code := run(t, "rank", "--client", "claude", "--catalog", dir, "--query", q, "--format", "json")
		if code != 0 {
			t.Fatalf("rank %q: exit %d", q, code)
		}
		var got rankOutput
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		var have []string
		for _, h := range got.Results[0].Hits {
			have = append(have, fmt.Sprintf("%s %v", h.Name, h.Score))
		}
		if strings.Join(have, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q:\ntoolfind %q\nnode     %q", q, have, want)
		}
		if len(have) > 0 && got.Results[0].ShownTokens != js.Tokens {
			t.Errorf("%q: toolfind estimates %d tokens, node %d", q, got.Results[0].ShownTokens, js.Tokens)
		}
	}
}
