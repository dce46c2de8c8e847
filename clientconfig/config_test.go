package clientconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// summary is one line per server: key, field, transport, what starts it,
// and what the client changes.
func summary(c *Config) string {
	var b strings.Builder
	for _, s := range c.Servers {
		fmt.Fprintf(&b, "%s @%s %s", s.Key, s.Field, s.Transport)
		if s.Transport == Stdio {
			fmt.Fprintf(&b, " %q", append([]string{s.Command}, s.Args...))
			if s.Dir != "" {
				fmt.Fprintf(&b, " dir=%s", s.Dir)
			}
			for _, kv := range s.Env {
				fmt.Fprintf(&b, " env:%s=%s", kv.Key, kv.Value)
			}
		} else {
			fmt.Fprintf(&b, " %s", s.URL)
			for _, kv := range s.Headers {
				fmt.Fprintf(&b, " h:%s=%s", kv.Key, kv.Value)
			}
		}
		if s.Disabled {
			fmt.Fprintf(&b, " off(%s)", s.Why)
		}
		if s.Tools.Active() {
			fmt.Fprintf(&b, " include=%q exclude=%q", s.Tools.Include, s.Tools.Exclude)
		}
		if s.Trust {
			b.WriteString(" trust")
		}
		if len(s.Missing) > 0 {
			fmt.Fprintf(&b, " missing=%q", s.Missing)
		}
		b.WriteByte('\n')
	}
	if len(c.Blocked) > 0 {
		fmt.Fprintf(&b, "blocked %q\n", c.Blocked)
	}
	return b.String()
}

var testEnv = map[string]string{"TOKEN": "t0k3n-abc", "HOME_BIN": "/opt/bin", "EMPTY": "", "TOOLFIND_INPUT_API_KEY": "k-123456"}

func testOptions() Options {
	return Options{
		LookupEnv: func(k string) (string, bool) { v, ok := testEnv[k]; return v, ok },
		Project:   "/src/app", Home: "/home/u",
		ReadFile: func(p string) ([]byte, error) {
			if p == "/cfg/secret.txt" {
				return []byte("from-file\n"), nil
			}
			return nil, os.ErrNotExist
		},
	}
}

// TestParse: each format's fields, expansion and switches, as the
// client reads them.
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name, path, text, want string
	}{
		{"claude-code .mcp.json: ${VAR}, ${VAR:-default}, unset kept, $VAR never; cwd is the project folder",
			"/cfg/.mcp.json", `{"mcpServers": {
  "a": {"command": "${HOME_BIN}/srv", "args": ["--t", "${TOKEN}", "${NOPE}", "$TOKEN", "${NOPE:-dflt}", "${EMPTY:-e}"], "env": {"K": "${TOKEN}"}},
  "b": {"type": "http", "url": "https://h/${NOPE:-mcp}", "headers": {"Authorization": "Bearer ${TOKEN}"}},
  "c": {"type": "sse", "url": "https://h/sse"}}}`,
			`a @mcpServers.a stdio ["/opt/bin/srv" "--t" "t0k3n-abc" "${NOPE}" "$TOKEN" "dflt" "e"] dir=/cfg env:K=t0k3n-abc
b @mcpServers.b http https://h/mcp h:Authorization=Bearer t0k3n-abc
c @mcpServers.c sse https://h/sse
`},
		{"claude-code ~/.claude.json: user scope, then the project's local scope replaces a server of the same name; disabledMcpServers",
			"/home/u/.claude.json", `{"mcpServers": {"u": {"command": "u1"}, "same": {"command": "user"}},
 "projects": {"/src/app": {"mcpServers": {"same": {"command": "local"}, "off": {"command": "x"}}, "disabledMcpServers": ["off"]},
              "/elsewhere": {"mcpServers": {"z": {"command": "z"}}}}}`,
			`u @mcpServers.u stdio ["u1"]
same @projects["/src/app"].mcpServers.same stdio ["local"] dir=/src/app
off @projects["/src/app"].mcpServers.off stdio ["x"] dir=/src/app off(listed in disabledMcpServers)
`},
		{"claude-desktop: nothing expanded",
			"/cfg/claude_desktop_config.json", `{"mcpServers": {"d": {"command": "npx", "args": ["-y", "${TOKEN}"], "env": {"N": 5}}}, "globalShortcut": "x"}`,
			`d @mcpServers.d stdio ["npx" "-y" "${TOKEN}"] env:N=5
`},
		{"codex: env_vars, bearer_token_env_var, env_http_headers, enabled, enabled_tools then disabled_tools, no expansion",
			"/cfg/config.toml", `model = "o3"
[mcp_servers.everything]
command = "node"
args = ["e.js", "${TOKEN}"]
env = { B = "2", A = "1" }
env_vars = ["TOKEN", "UNSET"]
cwd = "work"
enabled_tools = ["echo", "get-sum"]
disabled_tools = ["get-sum"]
[mcp_servers.remote]
url = "https://h/mcp"
bearer_token_env_var = "TOKEN"
http_headers = { X-Team = "a" }
env_http_headers = { X-Key = "TOKEN" }
[mcp_servers.off]
command = "x"
enabled = false
[mcp_servers.off.tools.y]
approval_mode = "approve"
`,
			`everything @mcp_servers.everything stdio ["node" "e.js" "${TOKEN}"] dir=/cfg/work env:A=1 env:B=2 env:TOKEN=t0k3n-abc include=["echo" "get-sum"] exclude=["get-sum"]
off @mcp_servers.off stdio ["x"] off(enabled = false)
remote @mcp_servers.remote http https://h/mcp h:X-Team=a h:X-Key=t0k3n-abc h:Authorization=Bearer t0k3n-abc
`},
		{"gemini: $VAR and ${VAR}, httpUrl, url is SSE, trust, includeTools/excludeTools, mcp.excluded and mcp.allowed block",
			"/cfg/.gemini/settings.json", `{"mcpServers": {
  "g": {"command": "$HOME_BIN/g", "args": ["${TOKEN}", "$NOPE"], "cwd": "/w", "trust": true, "includeTools": ["t0", "t3(x)"], "excludeTools": ["t1"]},
  "h": {"httpUrl": "https://h/mcp", "headers": {"K": "$TOKEN"}},
  "s": {"url": "https://h/sse"},
  "x": {"command": "x"}},
 "mcp": {"allowed": ["g", "h", "s"], "excluded": ["h"]}}`,
			`g @mcpServers.g stdio ["/opt/bin/g" "t0k3n-abc" "$NOPE"] dir=/w include=["t0" "t3(x)"] exclude=["t1"] trust
h @mcpServers.h http https://h/mcp h:K=t0k3n-abc
s @mcpServers.s sse https://h/sse
x @mcpServers.x stdio ["x"]
blocked ["h" "x"]
`},
		{"vscode: comments and trailing commas, ${env:}, ${input:} from TOOLFIND_INPUT_, ${workspaceFolder}, unknown variables missing",
			"/src/app/.vscode/mcp.json", `{
  // inputs
  "inputs": [{"type": "promptString", "id": "api-key", "password": true}],
  "servers": {
    "v": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/s.js", "${env:TOKEN}", "${env:NOPE}"], "env": {"K": "${input:api-key}"},},
    "w": {"url": "https://h/mcp", "headers": {"A": "${input:other}"}}, /* no type: http */
    "z": {"command": "z", "args": ["${config:x}"]},
  },
}`,
			`v @servers.v stdio ["node" "/src/app/s.js" "t0k3n-abc" ""] dir=/src/app env:K=k-123456
w @servers.w http https://h/mcp h:A=${input:other} missing=["${input:other} (set TOOLFIND_INPUT_OTHER)"]
z @servers.z stdio ["z" "${config:x}"] dir=/src/app missing=["${config:x} (toolfind has no value for it)"]
`},
		{"vscode settings.json: mcp.servers",
			"/home/u/.config/Code/User/settings.json", `{"editor.fontSize": 12, "mcp": {"servers": {"v": {"command": "v"}}}}`,
			`v @mcp.servers.v stdio ["v"] dir=/home/u/.config/Code/User
`},
		{"copilot: type local, tools [\"*\"] keeps all, a list filters, ${VAR}",
			"/home/u/.copilot/mcp-config.json", `{"mcpServers": {
  "all": {"type": "local", "command": "a", "args": ["${TOKEN}"], "tools": ["*"]},
  "some": {"type": "http", "url": "https://h/mcp", "tools": ["echo"]}}}`,
			`all @mcpServers.all stdio ["a" "t0k3n-abc"]
some @mcpServers.some http https://h/mcp include=["echo"] exclude=[]
`},
		{"opencode 1.x: command array, environment, enabled false, {env:} and {file:}",
			"/cfg/opencode.json", `{"$schema": "https://opencode.ai/config.json", "mcp": {
  "l": {"type": "local", "command": ["npx", "-y", "{env:TOKEN}"], "environment": {"S": "{file:secret.txt}"}},
  "r": {"type": "remote", "url": "https://h/mcp", "headers": {"A": "{env:NOPE}"}, "enabled": false}}}`,
			`l @mcp.l stdio ["npx" "-y" "t0k3n-abc"] env:S=from-file
r @mcp.r http https://h/mcp h:A= off("enabled": false)
`},
		{"opencode 2: mcp.servers, disabled",
			"/cfg/opencode.jsonc", `{"mcp": {"servers": {"s": {"type": "local", "command": ["s"], "disabled": true,},},},}`,
			`s @mcp.servers.s stdio ["s"] off("disabled": true)
`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.path, []byte(tt.text), testOptions())
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(c); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestDetect: by name first, then by content.
func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		path, text string
		want       Format
	}{
		{"x/config.toml", "", Codex},
		{"a/.mcp.json", "{}", ClaudeCode},
		{"/h/.claude.json", "{}", ClaudeCode},
		{"claude_desktop_config.json", "{}", ClaudeDesktop},
		{"mcp-config.json", "{}", Copilot},
		{"opencode.jsonc", "{}", OpenCode},
		{".vscode/mcp.json", `{"servers": {}}`, VSCode},
		{"settings.json", `{"mcpServers": {}}`, Gemini},
		{"settings.json", `{"mcp": {"servers": {}}}`, VSCode},
		{"mine.json", `{"mcp": {"a": {"type": "local"}}}`, OpenCode},
		{"mine.json", `{"mcpServers": {"a": {"command": "x", "excludeTools": []}}}`, Gemini},
		{"mine.json", `{"mcpServers": {"a": {"command": "x", "tools": ["*"]}}}`, Copilot},
		{"mine.json", `{"mcpServers": {"a": {"command": "x"}}}`, ClaudeCode},
		{"mine.conf", "[mcp_servers.a]\ncommand = \"x\"\n", Codex},
	} {
		got, err := Detect(tt.path, []byte(tt.text))
		if err != nil || got != tt.want {
			t.Errorf("Detect(%s, %s) = %s, %v; want %s", tt.path, tt.text, got, err, tt.want)
		}
	}
	if _, err := Detect("mine.json", []byte(`{"permissions": {}}`)); err == nil || !strings.Contains(err.Error(), "not a client configuration with MCP servers") {
		t.Errorf("a Claude settings file: %v", err)
	}
}

// TestErrors: every error names the file, the line when known, and the
// field; no value of env or headers is in it.
func TestErrors(t *testing.T) {
	for _, tt := range []struct{ path, text, want string }{
		{"/c/.mcp.json", "{\n \"mcpServers\": {\n  \"a\": {\"command\": 3}}}", `/c/.mcp.json:3: mcpServers.a.command: want a string, not a number`},
		{"/c/.mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"K\": {\"v\": \"s3cr3t\"}}}}}", `/c/.mcp.json:1: mcpServers.a.env: "K": want a string, not an object`},
		{"/c/.mcp.json", "{\"mcpServers\": {\"a\": {\"args\": []}}}", `/c/.mcp.json:1: mcpServers.a: neither a command nor a url: nothing to start`},
		{"/c/.mcp.json", "{\"mcpServers\": {\"a\": {\"type\": \"ws\", \"url\": \"x\"}}}", `/c/.mcp.json:1: mcpServers.a.type: "ws": want stdio or http (or sse)`},
		{"/c/.mcp.json", "{\"mcpServers\": {}}", `/c/.mcp.json: no MCP server definitions for claude-code (is it the right file? --config-format sets the format)`},
		{"/c/.mcp.json", "{\"mcpServers\": {\n", `/c/.mcp.json:2: not valid JSON: `},
		{"/c/config.toml", "[mcp_servers.a]\ncommand = \"x\"\nargs = \"y\"\n", `/c/config.toml:1: mcp_servers.a.args: want an array of strings, not a string`},
		{"/c/config.toml", "x = \n", `/c/config.toml:1: not valid TOML: `},
		{"/c/config.toml", "[mcp_servers.a]\ncommand = \"x\"\nurl = \"y\"\n", `/c/config.toml:1: mcp_servers.a: has both command and url; Codex refuses that`},
		{"/c/opencode.json", `{"mcp": {"a": {"type": "local", "command": []}}}`, `/c/opencode.json:1: mcp.a.command: an empty array: no program to run`},
		{"/c/settings.json", `{"mcpServers": {"a": {"command": "x"}}, "mcp": {"allowed": "a"}}`, `/c/settings.json:1: mcp.allowed: want an array of server names`},
	} {
		_, err := Parse(tt.path, []byte(tt.text), testOptions())
		var ce *Error
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s %q:\n got %v\nwant %s…", tt.path, tt.text, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("a secret in %v", err)
		}
	}
}

// TestFilter: Codex's allow-list then deny-list; Gemini CLI's worked
// example (gemini.md §1): includeTools ["t0","t1","t2","t3(x)"] and
// excludeTools ["t1"] keep t0, t2 and t3.
func TestFilter(t *testing.T) {
	for _, tt := range []struct {
		f    Filter
		want string
	}{
		{Filter{Include: []string{"t0", "t1", "t2", "t3(x)"}, Exclude: []string{"t1"}, Call: true}, "t0 t2 t3"},
		{Filter{Include: []string{"t0", "t3(x)"}}, "t0"}, // Codex: exact names only
		{Filter{Exclude: []string{"t0"}}, "t1 t2 t3 t4"},
		{Filter{Include: []string{}}, ""}, // enabled_tools = []: nothing
		{Filter{}, "t0 t1 t2 t3 t4"},
	} {
		var kept []string
		for _, tool := range []string{"t0", "t1", "t2", "t3", "t4"} {
			if tt.f.Keeps(tool) {
				kept = append(kept, tool)
			}
		}
		if got := strings.Join(kept, " "); got != tt.want {
			t.Errorf("%+v keeps %q, want %q", tt.f, got, tt.want)
		}
	}
}

func testCatalog(t *testing.T) *corpus.Catalog {
	t.Helper()
	servers, _, err := corpus.ParseCatalog("cat.json", []byte(`{"servers": [
 {"name": "everything", "tools": [{"name": "echo", "inputSchema": {"type": "object"}}, {"name": "get-sum", "inputSchema": {"type": "object"}}, {"name": "get-env", "inputSchema": {"type": "object"}}]},
 {"name": "files", "tools": [{"name": "read", "inputSchema": {"type": "object"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return &corpus.Catalog{Servers: servers}
}

func toolNames(cat *corpus.Catalog) string {
	var out []string
	for _, tl := range cat.Tools() {
		out = append(out, string(tl.ID()))
	}
	return strings.Join(out, " ")
}

// TestView: a file's filters and blocks apply to its own clients only.
func TestView(t *testing.T) {
	cat := testCatalog(t)
	codex, err := Parse("/c/config.toml", []byte("[mcp_servers.everything]\ncommand = \"x\"\nenabled_tools = [\"echo\", \"get-sum\"]\ndisabled_tools = [\"get-sum\"]\n"), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	gemini, err := Parse("/c/settings.json", []byte(`{"mcpServers": {"everything": {"command": "x", "excludeTools": ["echo"]}, "files": {"command": "f"}}, "mcp": {"excluded": ["files"]}}`), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		c      *Config
		client string
		want   string
	}{
		{codex, "codex", "everything/echo files/read"},
		{codex, "codex-search", "everything/echo files/read"},
		{codex, "claude", "everything/echo everything/get-sum everything/get-env files/read"},
		{gemini, "gemini", "everything/get-sum everything/get-env"},
		{gemini, "codex", "everything/echo everything/get-sum everything/get-env files/read"},
	} {
		v := tt.c.View(tt.client, cat)
		if got := toolNames(v); got != tt.want {
			t.Errorf("%s view for %s: %s, want %s", tt.c.Format, tt.client, got, tt.want)
		}
	}
	if toolNames(cat) != "everything/echo everything/get-sum everything/get-env files/read" {
		t.Errorf("View changed the catalog: %s", toolNames(cat))
	}
	if v := codex.View("claude", cat); v != cat {
		t.Errorf("a view that removes nothing is not the catalog itself")
	}
}

// TestClientOptions: Gemini CLI's trust and mcp.allowed become the gemini
// client's trusted servers; servers from elsewhere stay trusted.
func TestClientOptions(t *testing.T) {
	for _, tt := range []struct {
		text   string
		others []string
		want   string
	}{
		{`{"mcpServers": {"a": {"command": "x", "trust": true}, "b": {"command": "y"}}}`, nil, "a"},
		{`{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}, "mcp": {"allowed": ["b"]}}`, []string{"file"}, "b,file"},
		{`{"mcpServers": {"a": {"command": "x"}}}`, nil, "none"},
		{`{"mcpServers": {"a": {"command": "x"}}, "mcp": {"allowed": ["*"]}}`, nil, "a"},
	} {
		c, err := Parse("/c/settings.json", []byte(tt.text), testOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got := c.ClientOptions(tt.others)["gemini"]["trusted"]; got != tt.want {
			t.Errorf("%s: trusted %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestStartAndRedact: switched-off and SSE servers are not started, with a
// note each; a missing value is an error; sources carry env and headers,
// labels show the file's text, and Redact hides every value.
func TestStartAndRedact(t *testing.T) {
	c, err := Parse("/c/.mcp.json", []byte(`{"mcpServers": {
 "a": {"command": "srv", "args": ["--key", "${TOKEN}"], "env": {"API_KEY": "${TOKEN}", "DEBUG": "1"}},
 "b": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer hdr-secret-1"}},
 "c": {"type": "sse", "url": "https://h/sse"}}}`), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	starts, notes, err := c.Start()
	if err != nil {
		t.Fatal(err)
	}
	if len(starts) != 2 || len(notes) != 1 || notes[0] != "/c/.mcp.json: mcpServers.c: not started: it uses the SSE transport, and toolfind speaks stdio and streamable HTTP" {
		t.Fatalf("starts %d, notes %q", len(starts), notes)
	}
	a, b := starts[0].Source(), starts[1].Source()
	if got := fmt.Sprintf("%s %q %q", a.Name, a.Command, a.Env); got != `a ["srv" "--key" "t0k3n-abc"] ["API_KEY=t0k3n-abc" "DEBUG=1"]` {
		t.Errorf("source a: %s", got)
	}
	if got := fmt.Sprintf("%s %s %q", b.Name, b.URL, b.Header["Authorization"]); got != `b https://h/mcp ["Bearer hdr-secret-1"]` {
		t.Errorf("source b: %s", got)
	}
	if got := starts[0].Label().Label(); got != "stdio:srv --key '${TOKEN}'" {
		t.Errorf("label %s", got)
	}
	// "1" is too short to be a secret; the token, the header and the
	// bearer token alone go.
	if got := c.Redact("argv srv --key t0k3n-abc, DEBUG=1, Bearer hdr-secret-1, hdr-secret-1"); got != "argv srv --key [redacted], DEBUG=1, [redacted], [redacted]" {
		t.Errorf("Redact: %s", got)
	}
	v, err := Parse("/c/.vscode/mcp.json", []byte(`{"servers": {"v": {"command": "x", "env": {"K": "${input:tok}"}}}}`), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := v.Start(); err == nil || err.Error() != "/c/.vscode/mcp.json: servers.v: needs a value for ${input:tok} (set TOOLFIND_INPUT_TOK)" {
		t.Errorf("missing input: %v", err)
	}
}

func TestInputEnv(t *testing.T) {
	for in, want := range map[string]string{"api-key": "TOOLFIND_INPUT_API_KEY", "GitHub.PAT": "TOOLFIND_INPUT_GITHUB_PAT", "é": "TOOLFIND_INPUT__"} {
		if got := InputEnv(in); got != want {
			t.Errorf("InputEnv(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestStripJSONC: comments and trailing commas become spaces; strings
// are untouched; the length and lines stay.
func TestStripJSONC(t *testing.T) {
	in := "{\"a//b\": \"/*x*/\", // c\n \"l\": [1, 2,], /* d\n */ \"o\": {\"k\": \"\\\"//\",},}"
	out := string(stripJSONC([]byte(in)))
	want := "{\"a//b\": \"/*x*/\",     \n \"l\": [1, 2 ],     \n    \"o\": {\"k\": \"\\\"//\" } }"
	if out != want {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
	if len(out) != len(in) {
		t.Errorf("length %d, want %d", len(out), len(in))
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, Options{Project: dir})
	if err != nil || c.Format != ClaudeCode || len(c.Servers) != 1 || c.Servers[0].Dir != dir {
		t.Errorf("Load: %+v %v", c, err)
	}
	if _, err := Load(filepath.Join(dir, "none.json"), Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
