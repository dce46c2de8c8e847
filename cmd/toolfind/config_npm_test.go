package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// everythingEntry is server-everything's entry point as .ci/install-npm.sh
// installs it into $TOOLFIND_NPM_DIR (default .ci/npm at the module
// root), or skips saying how to install it.
func everythingEntry(t *testing.T) (node, entry string) {
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
	if err != nil {
		t.Skipf("@modelcontextprotocol/server-everything is not installed in %s (run .ci/install-npm.sh, or set TOOLFIND_NPM_DIR): %v", dir, err)
	}
	var meta struct {
		Bin map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.Bin["mcp-server-everything"] == "" {
		t.Fatalf("%s/package.json: no bin mcp-server-everything (%v)", pkg, err)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not in PATH: %v", err)
	}
	entry, err = filepath.Abs(filepath.Join(pkg, filepath.FromSlash(meta.Bin["mcp-server-everything"])))
	if err != nil {
		t.Fatal(err)
	}
	return node, entry
}

// TestConfigNPMEverything is the check: rank --config on a Claude
// Code .mcp.json, a Codex config.toml with a tool filter and a VS Code
// mcp.json, each starting the real server-everything, ranks its tools and
// applies the filter.
func TestConfigNPMEverything(t *testing.T) {
	node, entry := everythingEntry(t)
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	dir := t.TempDir()
	files := map[string]string{
		".mcp.json":        `{"mcpServers": {"everything": {"command": ` + q(node) + `, "args": [` + q(entry) + `, "stdio"]}}}`,
		"config.toml":      "[mcp_servers.everything]\ncommand = " + q(node) + "\nargs = [" + q(entry) + ", \"stdio\"]\nenabled_tools = [\"echo\", \"get-sum\"]\n",
		".vscode/mcp.json": `{"servers": {"everything": {"type": "stdio", "command": ` + q(node) + `, "args": [` + q(entry) + `, "stdio"],},}, // VS Code` + "\n}",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		file, query, client string
		want                string // a tool the client returns
		absent              string // a tool the client must not return
	}{
		{".mcp.json", "add two numbers", "claude", "everything/get-sum", ""},
		{".mcp.json", "print environment variables", "claude", "everything/get-env", ""},
		{"config.toml", "add two numbers", "codex-search", "everything/get-sum", ""},
		// enabled_tools keeps echo and get-sum: get-env is gone for Codex …
		{"config.toml", "print environment variables", "codex-search", "", "everything/get-env"},
		// … and only for Codex.
		{"config.toml", "print environment variables", "claude", "everything/get-env", ""},
		{".vscode/mcp.json", "echo a message back", "claude", "everything/echo", ""},
	} {
		hits, _ := rankHits(t, "--config", filepath.Join(dir, tt.file), "--query", tt.query, "--client", tt.client, "--timeout", "2m")
		got := hits[tt.client]
		if tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("%s %q %s: %v, want %s among them", tt.file, tt.query, tt.client, got, tt.want)
		}
		if tt.absent != "" && slices.Contains(got, tt.absent) {
			t.Errorf("%s %q %s: %v has %s, which the config filters out", tt.file, tt.query, tt.client, got, tt.absent)
		}
		for _, h := range got {
			if strings.HasPrefix(h, "everything/") {
				continue
			}
			if !strings.HasPrefix(h, "builtin/") {
				t.Errorf("%s: hit %s is neither the server's nor a built-in", tt.file, h)
			}
		}
	}
}
