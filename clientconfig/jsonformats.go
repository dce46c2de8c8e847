package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/internal/jsonpos"
	"github.com/toolfind/toolfind/ojson"
)

// Detect tells a file's format from its name, then its content:
// .toml → codex; .mcp.json and .claude.json → claude-code;
// claude_desktop_config.json → claude-desktop; mcp-config.json →
// copilot; opencode.json(c) → opencode; settings.json → gemini with
// "mcpServers", vscode with "mcp"."servers". Any other name goes by the
// content: "servers" → vscode; "mcpServers" whose entries use includeTools,
// excludeTools, trust or httpUrl → gemini, with a "tools" array → copilot,
// else claude-code; "mcp" alone → opencode.
func Detect(path string, data []byte) (Format, error) {
	base := strings.ToLower(filepath.Base(path))
	switch {
	case strings.HasSuffix(base, ".toml"):
		return Codex, nil
	case base == ".mcp.json" || base == ".claude.json":
		return ClaudeCode, nil
	case base == "claude_desktop_config.json":
		return ClaudeDesktop, nil
	case base == "mcp-config.json":
		return Copilot, nil
	case base == "opencode.json" || base == "opencode.jsonc":
		return OpenCode, nil
	}
	v, err := ojson.Parse(stripJSONC(data))
	if err != nil || v.Kind != ojson.Object {
		if bytes.Contains(data, []byte("[mcp_servers")) {
			return Codex, nil
		}
		return "", &Error{Path: path, Msg: "cannot tell which client's configuration this is (not JSON with MCP servers, not a TOML file); name the format with --config-format"}
	}
	_, hasServers := v.Get("servers")
	mcp, hasMCP := v.Get("mcp")
	_, mcpServers := mcp.Get("servers")
	servers, hasMCPServers := v.Get("mcpServers")
	switch {
	case base == "settings.json" && hasMCP && mcpServers && !hasMCPServers:
		return VSCode, nil
	case base == "settings.json" && hasMCPServers:
		return Gemini, nil
	case hasServers:
		return VSCode, nil
	case !hasMCPServers && hasMCP:
		return OpenCode, nil
	case !hasMCPServers:
		if _, ok := v.Get("projects"); ok {
			return ClaudeCode, nil
		}
		return "", &Error{Path: path, Msg: `no "mcpServers", "servers", "mcp" or [mcp_servers] in it: not a client configuration with MCP servers (--config-format names the format)`}
	}
	for _, m := range servers.Members() {
		for _, k := range []string{"includeTools", "excludeTools", "trust", "httpUrl"} {
			if _, ok := m.Value.Get(k); ok {
				return Gemini, nil
			}
		}
		if t, ok := m.Value.Get("tools"); ok && t.Kind == ojson.Array {
			return Copilot, nil
		}
	}
	return ClaudeCode, nil
}

// reader reads one JSON configuration.
type reader struct {
	c    *Config
	data []byte
	ix   *jsonpos.Index
	opts *Options
	exp  expander
	dir  string // the config's folder
}

// line is the line of the value at ptr, 0 when unknown.
func (r *reader) line(ptr []string) int {
	if r.ix == nil {
		ix, err := jsonpos.Build(r.data)
		if err != nil {
			return 0
		}
		r.ix = ix
	}
	p, ok := r.ix.Lookup(jsonpos.Pointer(ptr...))
	if !ok {
		return 0
	}
	l, _ := r.ix.LineCol(p.Start())
	return l
}

func (r *reader) errorf(ptr []string, field, format string, args ...any) error {
	return &Error{Path: r.c.Path, Line: r.line(ptr), Field: field, Msg: fmt.Sprintf(format, args...)}
}

// field is a dotted name of a member ("mcpServers.a b.args[2]" keeps the
// key as written; keys with dots or brackets are quoted).
func field(parent, key string) string {
	if strings.ContainsAny(key, ".[]\" /") || key == "" {
		key = "[" + strconv.Quote(key) + "]"
		if parent == "" {
			return key
		}
		return parent + key
	}
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func parseJSON(c *Config, raw []byte, opts *Options) error {
	data := raw
	if c.Format == VSCode || c.Format == OpenCode {
		data = stripJSONC(raw)
	}
	v, err := ojson.Parse(data)
	if err != nil {
		var se *ojson.SyntaxError
		if errors.As(err, &se) {
			ix := lineIndex(data, se.Offset)
			return &Error{Path: c.Path, Line: ix, Msg: "not valid JSON: " + se.Msg}
		}
		return &Error{Path: c.Path, Msg: "not valid JSON: " + err.Error()}
	}
	if v.Kind != ojson.Object {
		return &Error{Path: c.Path, Msg: "not a JSON object"}
	}
	v = v.Dedup()
	dir := filepath.Dir(c.Path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	r := &reader{c: c, data: data, opts: opts, dir: dir}
	switch c.Format {
	case ClaudeCode:
		r.exp = claudeExpand(opts.LookupEnv)
		return r.claudeCode(v)
	case ClaudeDesktop:
		r.exp = noExpand
		return r.servers(v.Lookup("mcpServers"), []string{"mcpServers"}, "mcpServers", "", nil)
	case Gemini:
		r.exp = geminiExpand(opts.LookupEnv)
		return r.gemini(v)
	case VSCode:
		ws := dir
		if filepath.Base(dir) == ".vscode" {
			ws = filepath.Dir(dir)
		}
		r.exp = vscodeExpand(opts.LookupEnv, ws, opts.Home)
		ptr, name := []string{"servers"}, "servers"
		if _, ok := v.Get("servers"); !ok {
			ptr, name = []string{"mcp", "servers"}, "mcp.servers"
		}
		return r.servers(v.Lookup(ptr...), ptr, name, ws, nil)
	case Copilot:
		r.exp = copilotExpand(opts.LookupEnv)
		return r.servers(v.Lookup("mcpServers"), []string{"mcpServers"}, "mcpServers", "", nil)
	case OpenCode:
		r.exp = opencodeExpand(opts.LookupEnv, opts.ReadFile, dir, opts.Home)
		mcp := v.Lookup("mcp")
		ptr, name := []string{"mcp"}, "mcp"
		// OpenCode 2 keeps servers under mcp.servers; in 1.x that would
		// be a server named "servers", which has a "type".
		if s, ok := mcp.Get("servers"); ok && s.Kind == ojson.Object {
			if _, typed := s.Get("type"); !typed {
				ptr, name, mcp = []string{"mcp", "servers"}, "mcp.servers", s
			}
		}
		if mcp.Kind == ojson.Invalid {
			return nil
		}
		return r.servers(mcp, ptr, name, "", nil)
	}
	return fmt.Errorf("clientconfig: format %q is not a JSON format", c.Format)
}

// lineIndex is the 1-based line of offset off ("\n", "\r\n" or a lone
// "\r" ends a line, as jsonpos counts them).
func lineIndex(data []byte, off int) int {
	line, _ := jsonpos.LineOf(data, off)
	return line
}

// claudeCode reads .mcp.json or ~/.claude.json: the top-level mcpServers,
// then those of the project Options.Project names, which replace a user
// server of the same name (local scope over user scope).
func (r *reader) claudeCode(v ojson.Value) error {
	if err := r.servers(v.Lookup("mcpServers"), []string{"mcpServers"}, "mcpServers", r.dir, nil); err != nil {
		return err
	}
	projects, ok := v.Get("projects")
	if !ok || projects.Kind != ojson.Object {
		return nil
	}
	// ~/.claude.json: user-scope servers run in the session's folder.
	for _, s := range r.c.Servers {
		if s.Dir == r.dir {
			s.Dir = ""
		}
	}
	project := filepath.Clean(r.opts.Project)
	others := 0
	for _, m := range projects.Members() {
		n := len(m.Value.Lookup("mcpServers").Members())
		if filepath.Clean(m.Key) != project {
			others += n
			continue
		}
		ptr := []string{"projects", m.Key, "mcpServers"}
		name := field(field("", "projects"), m.Key)
		// The local scope replaces a user-scope server of the same name.
		var disabled []string
		for _, d := range m.Value.Lookup("disabledMcpServers").Array() {
			disabled = append(disabled, d.Str())
		}
		if err := r.servers(m.Value.Lookup("mcpServers"), ptr, name+".mcpServers", m.Key, disabled); err != nil {
			return err
		}
	}
	if others > 0 {
		r.c.Notes = append(r.c.Notes, fmt.Sprintf("%s: %d servers of other projects are not read (run toolfind in the project's folder to read its servers)", r.c.Path, others))
	}
	return nil
}

// gemini reads settings.json: mcpServers, then mcp.allowed and
// mcp.excluded (gemini.md §1 item 3: a blocked server is never connected).
func (r *reader) gemini(v ojson.Value) error {
	if err := r.servers(v.Lookup("mcpServers"), []string{"mcpServers"}, "mcpServers", "", nil); err != nil {
		return err
	}
	mcp := v.Lookup("mcp")
	list := func(key string) ([]string, bool, error) {
		x, ok := mcp.Get(key)
		if !ok {
			return nil, false, nil
		}
		if x.Kind != ojson.Array {
			return nil, true, r.errorf([]string{"mcp", key}, "mcp."+key, "want an array of server names")
		}
		var out []string
		for _, e := range x.Array() {
			out = append(out, e.Str())
		}
		return out, true, nil
	}
	allowed, hasAllowed, err := list("allowed")
	if err != nil {
		return err
	}
	excluded, _, err := list("excluded")
	if err != nil {
		return err
	}
	r.c.allowed = allowed
	for _, s := range r.c.Servers {
		in := false
		for _, a := range allowed {
			in = in || a == s.Key || a == "*"
		}
		blocked := hasAllowed && !in
		for _, e := range excluded {
			blocked = blocked || e == s.Key
		}
		if blocked {
			r.c.Blocked = append(r.c.Blocked, s.Key)
		}
	}
	return nil
}

// servers reads obj, the object of servers by name at ptr: one Server per
// member.
// dir is the default working folder of stdio servers; disabled names
// servers switched off elsewhere in the file.
func (r *reader) servers(root ojson.Value, ptr []string, name, dir string, disabled []string) error {
	obj := root
	if obj.Kind == ojson.Invalid {
		return nil
	}
	if obj.Kind != ojson.Object {
		return r.errorf(ptr, name, "want an object of servers by name, not %s", kindName(obj))
	}
	for _, m := range obj.Members() {
		sp := append(append([]string{}, ptr...), m.Key)
		s, err := r.server(m.Value, sp, field(name, m.Key), m.Key, dir)
		if err != nil {
			return err
		}
		for _, d := range disabled {
			if d == m.Key {
				s.Disabled, s.Why = true, "listed in disabledMcpServers"
			}
		}
		// A later scope's server of the same name replaces the earlier.
		replaced := false
		for i, old := range r.c.Servers {
			if old.Key == s.Key {
				r.c.Servers[i], replaced = s, true
			}
		}
		if !replaced {
			r.c.Servers = append(r.c.Servers, s)
		}
	}
	return nil
}

func kindName(v ojson.Value) string {
	switch v.Kind {
	case ojson.Null:
		return "null"
	case ojson.Bool:
		return "a boolean"
	case ojson.Number:
		return "a number"
	case ojson.String:
		return "a string"
	case ojson.Array:
		return "an array"
	case ojson.Object:
		return "an object"
	}
	return "nothing"
}
