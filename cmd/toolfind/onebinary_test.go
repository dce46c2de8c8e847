package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneBinary: the toolfind binary alone, with no other program of
// toolfind's on PATH, has every feature: live servers (a real npm server
// when .ci/install-npm.sh installed it, else the fixture), --codex-engine
// goja, a model-written Codex script (the model an API stub) and verify
// (the fake Claude Code).
func TestOneBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the toolfind binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "toolfind")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	path := dir + string(os.PathListSeparator) + "/usr/bin" + string(os.PathListSeparator) + "/bin"
	if node, err := exec.LookPath("node"); err == nil {
		path += string(os.PathListSeparator) + filepath.Dir(node)
	}
	toolfind := func(t *testing.T, env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append([]string{"PATH=" + path, "HOME=" + t.TempDir()}, env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), "toolfind %q\n%s", args, stderr.String())
		return stdout.String()
	}

	t.Run("server", func(t *testing.T) {
		server := buildFixture(t) + " ok"
		if entry := npmEverything(t); entry != "" {
			server = "node " + entry + " stdio"
		}
		out := toolfind(t, nil, "rank", "--server", server, "--query", "echo", "--client", "claude", "--format", "json")
		var rep struct {
			Results []struct {
				Hits []struct{ Tool string }
			}
		}
		require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
		require.Len(t, rep.Results, 1)
		require.NotEmpty(t, rep.Results[0].Hits, out)
		assert.True(t, strings.HasSuffix(rep.Results[0].Hits[0].Tool, "/echo"), out)
	})
	t.Run("codex-engine goja", func(t *testing.T) {
		out := toolfind(t, nil, "rank", "--client", "codex", "--codex-engine", "goja", "-q", "send an invoice", "--format", "json")
		assert.Contains(t, out, `"strategy": "any-term"`)
		assert.Contains(t, out, `"tool": "billing/invoice_lookup"`)
	})
	t.Run("model-written codex script", func(t *testing.T) {
		st := newAPIStub(t, codexScriptAnswer)
		q := writeFile(t, "q.jsonl", twoPrompts)
		out := toolfind(t, []string{"OPENAI_API_KEY=" + stubKey}, "bench", "--writer", "model", "--model-url", st.srv.URL, "--model", "m",
			"--no-cache", "--client", "codex", "--queries", q, "--format", "json")
		assert.Contains(t, out, `"found_at_limit": 0.5,`)
		assert.Contains(t, out, `"writer": "model"`)
		assert.Equal(t, int64(2), st.n.Load())
	})
	t.Run("verify", func(t *testing.T) {
		fake := fakeClaude(t, "2.1.332")
		out := toolfind(t, nil, "verify", "--client", "claude", "--binary", fake, "--query", "invoice")
		assert.Contains(t, out, "claude 2.1.332: 1/1 match")
	})
}

// npmEverything is the entry point of the npm server-everything that
// .ci/install-npm.sh installs ($TOOLFIND_NPM_DIR, default .ci/npm at the
// module root), or "" when it or node is missing.
func npmEverything(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TOOLFIND_NPM_DIR")
	if dir == "" {
		dir = ".ci/npm"
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", "..", dir)
	}
	pkg := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything")
	data, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if _, nerr := exec.LookPath("node"); err != nil || nerr != nil {
		t.Logf("npm server-everything or node not installed (%v, %v): the fixture server stands in", err, nerr)
		return ""
	}
	var meta struct {
		Bin map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.Bin["mcp-server-everything"] == "" {
		t.Fatalf("%s: no mcp-server-everything entry: %v", pkg, err)
	}
	abs, err := filepath.Abs(filepath.Join(pkg, filepath.FromSlash(meta.Bin["mcp-server-everything"])))
	require.NoError(t, err)
	return abs
}
