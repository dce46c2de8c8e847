package clientconfig

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fuzzParse checks what every parser promises: no panic, an *Error on
// bad input, a server for every success, each with what starts it.
func fuzzParse(t *testing.T, path string, f Format, data []byte) {
	c, err := Parse(path, data, Options{Format: f, LookupEnv: func(string) (string, bool) { return "v4lue", true },
		Project: "/p", Home: "/h", ReadFile: func(string) ([]byte, error) { return nil, errors.New("no") }})
	if err != nil {
		var ce *Error
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is not an *Error", err)
		}
		return
	}
	if len(c.Servers) == 0 {
		t.Fatal("success without servers")
	}
	for _, s := range c.Servers {
		if s.Transport == Stdio && s.Command == "" || s.Transport != Stdio && s.URL == "" {
			t.Fatalf("server %s (%s) has nothing to start", s.Key, s.Transport)
		}
		_ = s.Source()
		_ = s.Label().Label()
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers": {"a": {"command": "x", "args": ["${A:-b}"], "env": {"K": "${T}"}}}}`,
		`{"mcpServers": {"a": {"httpUrl": "https://h", "trust": true, "includeTools": ["t(x)"]}}, "mcp": {"allowed": ["a"]}}`,
		`{"servers": {"v": {"command": "x", "args": ["${input:k}", "${env:A}"]}}, // c
		}`,
		`{"mcpServers": {"c": {"type": "local", "command": "x", "tools": ["a"]}}}`,
		`{"mcp": {"o": {"type": "local", "command": ["x", "{env:A}", "{file:f}"]}, "servers": {"type": "x"}}}`,
		`{"mcp": {"servers": {"s": {"type": "remote", "url": "https://h", "disabled": true}}}}`,
		`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}, "disabledMcpServers": ["a"]}}}`,
	} {
		for i := range 7 {
			f.Add(uint8(i), []byte(s))
		}
	}
	formats := []Format{ClaudeCode, ClaudeDesktop, Gemini, VSCode, Copilot, OpenCode}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fuzzParse(t, "/p/cfg.json", formats[int(which)%len(formats)], data)
	})
}

func FuzzParseCodex(f *testing.F) {
	for _, s := range []string{
		"[mcp_servers.a]\ncommand = \"x\"\nargs = [\"y\"]\nenv = { K = \"v\" }\nenabled_tools = [\"t\"]\n",
		"[mcp_servers.\"b c\"]\nurl = \"https://h\"\nbearer_token_env_var = \"T\"\nenv_http_headers = { X = \"T\" }\n",
		"mcp_servers = 3\n",
		"[mcp_servers.a]\nenabled = \"no\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "/p/config.toml", Codex, data) })
}

// FuzzDetect: any bytes under any name get a format or an *Error.
func FuzzDetect(f *testing.F) {
	f.Add("settings.json", []byte(`{"mcp": {"servers": {}}}`))
	f.Add("x.json", []byte(`{"mcpServers": {"a": {"tools": []}}}`))
	f.Add("x", []byte("[mcp_servers"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		got, err := Detect(name, data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if _, err := ParseFormat(string(got)); err != nil {
			t.Fatalf("Detect gave %q: %v", got, err)
		}
	})
}

// FuzzStripJSONC: the length and the line breaks stay; valid JSON
// without comments or commas before a closing bracket is left as it is.
func FuzzStripJSONC(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2,], // x` + "\n" + `"b": "/*"} /* y */`))
	f.Add([]byte(`{"k": "v\"//"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := stripJSONC(data)
		if len(out) != len(data) || strings.Count(string(out), "\n") != strings.Count(string(data), "\n") {
			t.Fatalf("length or lines changed: %q → %q", data, out)
		}
		if json.Valid(data) && !strings.Contains(string(data), "/") && !strings.Contains(string(data), ",") && string(out) != string(data) {
			t.Fatalf("valid JSON changed: %q → %q", data, out)
		}
	})
}
