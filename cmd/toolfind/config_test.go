package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stubTools is a server like server-everything, served by toolfind's own
// mcp-stub.
const stubTools = `{"name": "everything", "tools": [
 {"name": "echo", "description": "Echoes back the input message", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}},
 {"name": "get-sum", "description": "Returns the sum of two numbers", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}},
 {"name": "get-env", "description": "Returns all environment variables of the server process", "inputSchema": {"type": "object"}}]}`

// configDir writes the stub server's file and a client config into one
// folder and returns the config's path.
func configDir(t *testing.T, name, config string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "everything.json"), []byte(stubTools), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	config = strings.ReplaceAll(config, "SELF", self)
	config = strings.ReplaceAll(config, "DIR", dir)
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rankHits runs rank --format json and returns each client's tools.
func rankHits(t *testing.T, args ...string) (map[string][]string, string) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"rank", "--format", "json", "--quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var doc struct {
		Results []struct {
			Client string `json:"client"`
			Hits   []struct {
				Tool string `json:"tool"`
			} `json:"hits"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	hits := map[string][]string{}
	for _, r := range doc.Results {
		name, _, _ := strings.Cut(r.Client, "@")
		hits[name] = []string{}
		for _, h := range r.Hits {
			hits[name] = append(hits[name], h.Tool)
		}
	}
	return hits, errOut
}

// TestConfigClaudeCode: a .mcp.json server starts in the file's folder
// (the stub's file is named relatively) with its ${VAR} expanded.
func TestConfigClaudeCode(t *testing.T) {
	t.Setenv("TOOLFIND_TEST_STUB", "everything.json")
	path := configDir(t, ".mcp.json", `{"mcpServers": {"everything": {"command": "SELF", "args": ["mcp-stub", "${TOOLFIND_TEST_STUB}"]}}}`)
	hits, _ := rankHits(t, "--config", path, "--query", "sum of two numbers", "--client", "claude")
	if len(hits["claude"]) == 0 || hits["claude"][0] != "everything/get-sum" {
		t.Errorf("claude: %v, want everything/get-sum first", hits["claude"])
	}
}

// TestConfigCodexFilter: enabled_tools then disabled_tools remove tools
// from the Codex clients only.
func TestConfigCodexFilter(t *testing.T) {
	path := configDir(t, "config.toml", `
[mcp_servers.everything]
command = "SELF"
args = ["mcp-stub", "DIR/everything.json"]
enabled_tools = ["echo", "get-sum", "get-env"]
disabled_tools = ["get-env"]
`)
	hits, _ := rankHits(t, "--config", path, "--query", "environment variables", "--client", "codex-search,claude")
	if slices.Contains(hits["codex-search"], "everything/get-env") {
		t.Errorf("codex-search found get-env, which disabled_tools removes: %v", hits["codex-search"])
	}
	if !slices.Contains(hits["claude"], "everything/get-env") {
		t.Errorf("claude did not find get-env (the Codex config does not filter Claude Code): %v", hits["claude"])
	}
	hits, _ = rankHits(t, "--config", path, "--query", "echo message", "--client", "codex-search")
	if len(hits["codex-search"]) == 0 || hits["codex-search"][0] != "everything/echo" {
		t.Errorf("codex-search: %v, want everything/echo first", hits["codex-search"])
	}
}

// TestConfigGemini: a server without "trust" declares nothing in a
// headless run; a trusted one loses its excludeTools; --gemini-trusted
// overrides the file.
func TestConfigGemini(t *testing.T) {
	path := configDir(t, "settings.json", `{"mcpServers": {
 "trusted": {"command": "SELF", "args": ["mcp-stub", "DIR/everything.json"], "trust": true, "excludeTools": ["echo"]},
 "other": {"command": "SELF", "args": ["mcp-stub", "DIR/everything.json"]}}}`)
	hits, _ := rankHits(t, "--config", path, "--query", "echo", "--client", "gemini")
	want := []string{"trusted/get-sum", "trusted/get-env"}
	if !slices.Equal(hits["gemini"], want) {
		t.Errorf("gemini: %v, want %v", hits["gemini"], want)
	}
	hits, _ = rankHits(t, "--config", path, "--query", "echo", "--client", "gemini", "--gemini-trusted", "all")
	want = []string{"other/echo", "other/get-sum", "other/get-env", "trusted/get-sum", "trusted/get-env"}
	if !slices.Equal(hits["gemini"], want) {
		t.Errorf("gemini --gemini-trusted all: %v, want %v", hits["gemini"], want)
	}
}

// TestConfigCopilotAndOpenCode: Copilot CLI's "tools" list; an OpenCode
// server with "enabled": false is not started (its command does not
// exist) and says so.
func TestConfigCopilotAndOpenCode(t *testing.T) {
	cop := configDir(t, "mcp-config.json", `{"mcpServers": {"everything": {"type": "local", "command": "SELF", "args": ["mcp-stub", "DIR/everything.json"], "tools": ["get-sum"]}}}`)
	hits, _ := rankHits(t, "--config", cop, "--query", "echo message", "--client", "copilot,claude")
	if slices.Contains(hits["copilot"], "everything/echo") || !slices.Contains(hits["claude"], "everything/echo") {
		t.Errorf("copilot %v (echo is not in tools), claude %v (has it)", hits["copilot"], hits["claude"])
	}
	oc := configDir(t, "opencode.json", `{"mcp": {
 "everything": {"type": "local", "command": ["SELF", "mcp-stub", "DIR/everything.json"]},
 "gone": {"type": "local", "command": ["/nonexistent/server"], "enabled": false}}}`)
	hits, errOut := rankHits(t, "--config", oc, "--query", "echo message", "--client", "opencode")
	if !slices.Contains(hits["opencode"], "everything/echo") {
		t.Errorf("opencode: %v", hits["opencode"])
	}
	if want := oc + `: mcp.gone: not started ("enabled": false)`; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
}

// TestConfigVSCodeInput: ${input:id} takes $TOOLFIND_INPUT_<ID>; without
// it the command stops before starting anything, saying what to set.
func TestConfigVSCodeInput(t *testing.T) {
	path := configDir(t, ".vscode/mcp.json", `{
  // a comment, as VS Code allows
  "inputs": [{"type": "promptString", "id": "api-key", "password": true}],
  "servers": {"everything": {"command": "SELF", "args": ["mcp-stub", "DIR/everything.json"], "env": {"KEY": "${input:api-key}"},},},
}`)
	_, errOut, code := run(t, "rank", "--config", path, "--query", "echo", "--client", "claude")
	if want := "toolfind: --config: " + path + ": servers.everything: needs a value for ${input:api-key} (set TOOLFIND_INPUT_API_KEY)\n"; code != 2 || errOut != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, errOut, want)
	}
	t.Setenv("TOOLFIND_INPUT_API_KEY", "k-0123456")
	hits, _ := rankHits(t, "--config", path, "--query", "echo message", "--client", "claude")
	if len(hits["claude"]) == 0 || hits["claude"][0] != "everything/echo" {
		t.Errorf("claude: %v", hits["claude"])
	}
}

// TestConfigFailure: a server that fails names the file, the server and
// the phase (exit 3); its env value does not show, even where the server
// printed it.
func TestConfigFailure(t *testing.T) {
	t.Setenv("TOOLFIND_TEST_SECRET", "s3cr3t-value")
	path := configDir(t, ".mcp.json", `{"mcpServers": {"broken": {"command": "sh", "args": ["-c", "echo token $API_TOKEN >&2; exit 3"], "env": {"API_TOKEN": "${TOOLFIND_TEST_SECRET}"}}}}`)
	for _, cmd := range []string{"rank", "show", "lint", "snapshot"} {
		args := []string{cmd, "--config", path, "--quiet"}
		if cmd == "rank" {
			args = append(args, "--query", "x")
		}
		_, errOut, code := run(t, args...)
		if code != 3 || !strings.Contains(errOut, path+": mcpServers.broken: the server failed in the start phase:") || !strings.Contains(errOut, "| token [redacted]") {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, errOut)
		}
		if strings.Contains(errOut, "s3cr3t") {
			t.Errorf("%s: the secret is on stderr: %q", cmd, errOut)
		}
	}
}

// TestConfigHTTP: a streamable-HTTP server with its headers, ${VAR}
// expanded; show names the server as written, without the token.
func TestConfigHTTP(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "add_note", Description: "Add a note to the notebook",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t0k-98765" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	t.Setenv("TOOLFIND_TEST_TOKEN", "t0k-98765")
	path := configDir(t, ".mcp.json", `{"mcpServers": {"notes": {"type": "http", "url": "`+ts.URL+`", "headers": {"Authorization": "Bearer ${TOOLFIND_TEST_TOKEN}"}}}}`)
	hits, _ := rankHits(t, "--config", path, "--query", "add a note", "--client", "claude")
	if len(hits["claude"]) == 0 || hits["claude"][0] != "notes/add_note" {
		t.Errorf("claude: %v", hits["claude"])
	}
	out, errOut, code := run(t, "snapshot", "--config", path)
	if code != 0 || !strings.Contains(out, `"add_note"`) || strings.Contains(out+errOut, "t0k-98765") {
		t.Errorf("snapshot: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestConfigLintYAML: lint --config with a YAML file is the lint
// configuration, as before --config read client configurations.
func TestConfigLintYAML(t *testing.T) {
	cfg := writeFile(t, "lint.yaml", "lint:\n  fail-on: none\n")
	if _, errOut, code := run(t, "lint", "--config", cfg, "--quiet"); code != 0 {
		t.Errorf("exit %d: %s", code, errOut)
	}
	bad := writeFile(t, "bad.yaml", "lint: [\n")
	if _, errOut, code := run(t, "lint", "--config", bad); code != 2 || !strings.Contains(errOut, "bad.yaml") {
		t.Errorf("a broken lint.yaml: exit %d, %s", code, errOut)
	}
}
