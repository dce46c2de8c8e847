package clientconfig

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// parseCodex reads Codex's config.toml: every [mcp_servers.NAME] table
// (Codex docs/config.md "MCP servers"), keys in sorted order (a TOML table
// has no order Codex keeps). Codex expands nothing in the file: the
// environment comes in through env_vars, bearer_token_env_var and
// env_http_headers.
func parseCodex(c *Config, data []byte, opts *Options) error {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return &Error{Path: c.Path, Line: row, Msg: "not valid TOML: " + de.Error()}
		}
		return &Error{Path: c.Path, Msg: "not valid TOML: " + err.Error()}
	}
	raw, ok := doc["mcp_servers"]
	if !ok {
		return nil
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		return &Error{Path: c.Path, Line: tomlLine(data, "mcp_servers"), Field: "mcp_servers", Msg: "want a table of servers by name"}
	}
	keys := make([]string, 0, len(servers))
	for k := range servers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	dir, _ := filepath.Abs(filepath.Dir(c.Path))
	for _, k := range keys {
		t := &tomlServer{c: c, data: data, key: k, field: field("mcp_servers", k)}
		tbl, ok := servers[k].(map[string]any)
		if !ok {
			return t.errorf("", "want a table (a server definition)")
		}
		t.t = tbl
		s, err := t.read(opts, dir)
		if err != nil {
			return err
		}
		c.Servers = append(c.Servers, s)
	}
	return nil
}

// tomlLine is the line of the first table header or key that names
// dotted (a best effort for messages: the TOML decoder keeps no
// positions).
func tomlLine(data []byte, dotted string) int {
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "["+dotted+"]") || strings.HasPrefix(l, "[["+dotted) || strings.HasPrefix(l, dotted+" ") || strings.HasPrefix(l, dotted+"=") {
			return i + 1
		}
	}
	return 0
}

type tomlServer struct {
	c          *Config
	data       []byte
	key, field string
	t          map[string]any
}

func (t *tomlServer) errorf(key, format string, args ...any) error {
	f := t.field
	if key != "" {
		f = field(t.field, key)
	}
	line := tomlLine(t.data, "mcp_servers."+t.key)
	if line == 0 {
		line = tomlLine(t.data, `mcp_servers."`+t.key+`"`)
	}
	return &Error{Path: t.c.Path, Line: line, Field: f, Msg: fmt.Sprintf(format, args...)}
}

func (t *tomlServer) str(key string) (string, error) {
	v, ok := t.t[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", t.errorf(key, "want a string, not %s", tomlKind(v))
	}
	return s, nil
}

func (t *tomlServer) strs(key string) ([]string, bool, error) {
	v, ok := t.t[key]
	if !ok {
		return nil, false, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, true, t.errorf(key, "want an array of strings, not %s", tomlKind(v))
	}
	out := []string{}
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			return nil, true, t.errorf(key, "element %d: want a string, not %s", i, tomlKind(e))
		}
		out = append(out, s)
	}
	return out, true, nil
}

func (t *tomlServer) table(key string) ([]KV, error) {
	v, ok := t.t[key]
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, t.errorf(key, "want a table of strings, not %s", tomlKind(v))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []KV
	for _, k := range keys {
		s, ok := m[k].(string)
		if !ok {
			return nil, t.errorf(key, "%q: want a string, not %s", k, tomlKind(m[k]))
		}
		out = append(out, KV{k, s})
	}
	return out, nil
}

func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

func (t *tomlServer) read(opts *Options, dir string) (*Server, error) {
	s := &Server{Key: t.key, Field: t.field}
	command, err := t.str("command")
	if err != nil {
		return nil, err
	}
	url, err := t.str("url")
	if err != nil {
		return nil, err
	}
	switch {
	case command != "" && url != "":
		return nil, t.errorf("", "has both command and url; Codex refuses that")
	case command != "":
		s.Transport, s.Command = Stdio, command
		if s.Args, _, err = t.strs("args"); err != nil {
			return nil, err
		}
		s.RawCommand = append([]string{command}, s.Args...)
		if s.Env, err = t.table("env"); err != nil {
			return nil, err
		}
		names, _, err := t.strs("env_vars")
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if v, ok := opts.LookupEnv(n); ok {
				s.Env = append(s.Env, KV{n, v})
			}
		}
		cwd, err := t.str("cwd")
		if err != nil {
			return nil, err
		}
		s.Dir = resolveDir(cwd, dir)
	case url != "":
		s.Transport, s.URL, s.RawURL = HTTP, url, url
		if s.Headers, err = t.table("http_headers"); err != nil {
			return nil, err
		}
		fromEnv, err := t.table("env_http_headers")
		if err != nil {
			return nil, err
		}
		for _, kv := range fromEnv {
			if v, ok := opts.LookupEnv(kv.Value); ok && v != "" {
				s.Headers = append(s.Headers, KV{kv.Key, v})
			}
		}
		bearer, err := t.str("bearer_token_env_var")
		if err != nil {
			return nil, err
		}
		if bearer != "" {
			v, ok := opts.LookupEnv(bearer)
			if !ok || v == "" {
				s.Missing = append(s.Missing, "$"+bearer+" (bearer_token_env_var)")
			} else {
				s.Headers = append(s.Headers, KV{"Authorization", "Bearer " + v})
			}
		}
	default:
		return nil, t.errorf("", "neither command nor url: nothing to start")
	}
	if v, ok := t.t["enabled"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return nil, t.errorf("enabled", "want true or false, not %s", tomlKind(v))
		}
		if !b {
			s.Disabled, s.Why = true, "enabled = false"
		}
	}
	inc, hasInc, err := t.strs("enabled_tools")
	if err != nil {
		return nil, err
	}
	exc, _, err := t.strs("disabled_tools")
	if err != nil {
		return nil, err
	}
	if !hasInc {
		inc = nil
	}
	s.Tools = Filter{Include: inc, Exclude: exc, Field: "enabled_tools/disabled_tools"}
	return s, nil
}
