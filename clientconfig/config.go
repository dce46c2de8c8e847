package clientconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/userfile"
)

// Format is a client configuration's format.
type Format string

// The formats (see the package doc).
const (
	ClaudeCode    Format = "claude-code"
	ClaudeDesktop Format = "claude-desktop"
	Codex         Format = "codex"
	Gemini        Format = "gemini"
	VSCode        Format = "vscode"
	Copilot       Format = "copilot"
	OpenCode      Format = "opencode"
)

// Formats lists every format, in the order of the package doc.
func Formats() []Format {
	return []Format{ClaudeCode, ClaudeDesktop, Codex, Gemini, VSCode, Copilot, OpenCode}
}

// ParseFormat reads a format name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == strings.ToLower(strings.TrimSpace(s)) {
			return f, nil
		}
	}
	names := make([]string, 0, 7)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown config format %q: want one of %s", s, strings.Join(names, ", "))
}

// clients are the toolfind clients a format configures.
var clients = map[Format][]string{
	ClaudeCode: {"claude"},
	Codex:      {"codex", "codex-search"},
	Gemini:     {"gemini"},
	VSCode:     {"vscode"},
	Copilot:    {"copilot"},
	OpenCode:   {"opencode", "opencode-codemode"},
}

// Transport is how a server is reached.
type Transport string

// The transports.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http" // streamable HTTP
	SSE   Transport = "sse"  // the older HTTP+SSE transport: not started
)

// KV is one env entry or header, in file order.
type KV struct{ Key, Value string }

// Filter is a server's tool filter in its client: nil Include keeps every
// tool; Exclude is applied after Include.
type Filter struct {
	Include []string
	Exclude []string
	// Call makes an Include entry "t(args)" select tool t, as Gemini CLI's
	// includeTools does (gemini.md §1 "Filters that do exist").
	Call bool
	// Field names the setting ("enabled_tools", "includeTools", "tools").
	Field string
}

// Active reports whether the filter removes anything at all.
func (f Filter) Active() bool { return f.Include != nil || len(f.Exclude) > 0 }

// Keeps reports whether the client keeps tool.
func (f Filter) Keeps(tool string) bool {
	if slices.Contains(f.Exclude, tool) {
		return false
	}
	if f.Include == nil {
		return true
	}
	for _, in := range f.Include {
		if in == tool || f.Call && strings.HasPrefix(in, tool+"(") {
			return true
		}
	}
	return false
}

// Server is one server definition.
type Server struct {
	// Key is the server's key in the file, the server name its client
	// uses (and toolfind's).
	Key string
	// Field is where it is written: "mcpServers.everything",
	// `projects["/src/app"].mcpServers.everything`, "mcp_servers.everything".
	Field     string
	Transport Transport
	// Command and Args (stdio), after expansion; RawCommand the same as
	// written (Label shows it).
	Command    string
	Args       []string
	RawCommand []string
	Env        []KV
	Dir        string
	URL        string
	RawURL     string
	Headers    []KV
	// Disabled says the file switches the server off; Why says how.
	Disabled bool
	Why      string
	// Tools is the client's tool filter for the server.
	Tools Filter
	// Trust is Gemini CLI's "trust": true.
	Trust bool
	// Missing are the placeholders without a value ("${input:token}
	// (set TOOLFIND_INPUT_TOKEN)").
	Missing []string
}

// Config is one configuration file's servers.
type Config struct {
	Path    string
	Format  Format
	Servers []*Server
	// Notes say what was read but is not applied, or needs attention.
	Notes []string
	// Blocked are servers the client does not connect (Gemini CLI
	// mcp.excluded, or not in mcp.allowed): their tools are removed from
	// that client's view only.
	Blocked []string
	// allowed are Gemini CLI's mcp.allowed entries (trusted servers).
	allowed []string
	secrets []string
}

// Clients are the toolfind client names the file configures (none for
// Claude Desktop, which toolfind does not simulate).
func (c *Config) Clients() []string { return clients[c.Format] }

// Options say how to read a file.
type Options struct {
	// Format forces the format; "" detects it (Detect).
	Format Format
	// LookupEnv reads the environment (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// Project is the folder whose ~/.claude.json projects entry applies
	// (default: the working directory).
	Project string
	// Home is the user's home folder (default os.UserHomeDir).
	Home string
	// ReadFile reads OpenCode's {file:PATH} (default os.ReadFile).
	ReadFile func(string) ([]byte, error)
}

func (o *Options) defaults() {
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.Project == "" {
		o.Project, _ = os.Getwd()
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.ReadFile == nil {
		o.ReadFile = os.ReadFile
	}
}

// Load reads and parses a configuration file.
func Load(path string, opts Options) (*Config, error) {
	data, err := userfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts)
}

// Error is a problem of the file: at Line (0 when not known), in Field.
type Error struct {
	Path  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// ErrNoServers is returned (wrapped) for a file with no server definitions.
var ErrNoServers = errors.New("no MCP server definitions")

// Parse reads a configuration file's bytes; path names it and locates
// relative paths.
func Parse(path string, data []byte, opts Options) (*Config, error) {
	opts.defaults()
	f := opts.Format
	if f == "" {
		var err error
		if f, err = Detect(path, data); err != nil {
			return nil, err
		}
	}
	c := &Config{Path: path, Format: f}
	var err error
	if f == Codex {
		err = parseCodex(c, data, &opts)
	} else {
		err = parseJSON(c, data, &opts)
	}
	if err != nil {
		return nil, err
	}
	if len(c.Servers) == 0 {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("%v for %s (is it the right file? --config-format sets the format)", ErrNoServers, f)}
	}
	for _, s := range c.Servers {
		for _, kv := range s.Env {
			c.addSecret(kv.Value)
		}
		for _, kv := range s.Headers {
			c.addSecret(kv.Value)
			if _, tok, ok := strings.Cut(kv.Value, " "); ok {
				c.addSecret(tok)
			}
		}
	}
	sort.Slice(c.secrets, func(i, j int) bool { return len(c.secrets[i]) > len(c.secrets[j]) })
	return c, nil
}

func (c *Config) addSecret(v string) {
	// Short values ("1", "dev") are settings, not secrets, and would
	// garble every message they appear in.
	if len(strings.TrimSpace(v)) >= 4 && !slices.Contains(c.secrets, v) {
		c.secrets = append(c.secrets, v)
	}
}

// Redact replaces every env and header value of the file's servers in
// text with "[redacted]".
func (c *Config) Redact(text string) string {
	for _, s := range c.secrets {
		text = strings.ReplaceAll(text, s, "[redacted]")
	}
	return text
}

// Start returns the servers to start, in file order, and notes on those
// that are not started (switched off, SSE). A server that needs a value
// (Missing) is an error.
func (c *Config) Start() ([]*Server, []string, error) {
	var out []*Server
	var notes []string
	for _, s := range c.Servers {
		switch {
		case s.Disabled:
			notes = append(notes, fmt.Sprintf("%s: %s: not started (%s)", c.Path, s.Field, s.Why))
		case s.Transport == SSE:
			notes = append(notes, fmt.Sprintf("%s: %s: not started: it uses the SSE transport, and toolfind speaks stdio and streamable HTTP", c.Path, s.Field))
		case len(s.Missing) > 0:
			return nil, nil, &Error{Path: c.Path, Field: s.Field, Msg: "needs a value for " + strings.Join(s.Missing, ", ")}
		default:
			out = append(out, s)
		}
	}
	return out, notes, nil
}

// Source is the live source that starts the server: named by its key,
// with its env and headers.
func (s *Server) Source() snap.Source {
	src := snap.Source{Name: s.Key, Dir: s.Dir}
	if s.Transport == Stdio {
		src.Command = append([]string{s.Command}, s.Args...)
		for _, kv := range s.Env {
			src.Env = append(src.Env, kv.Key+"="+kv.Value)
		}
		return src
	}
	src.URL = s.URL
	if len(s.Headers) > 0 {
		src.Header = snap.Header{}
		for _, kv := range s.Headers {
			src.Header.Add(kv.Key, kv.Value)
		}
	}
	return src
}

// Label is the source as written in the file (before expansion, so that
// no value from the environment shows): what Source's Label would be.
func (s *Server) Label() snap.Source {
	if s.Transport == Stdio {
		return snap.Source{Name: s.Key, Command: s.RawCommand}
	}
	return snap.Source{Name: s.Key, URL: s.RawURL}
}

// View is the catalog as client sees it under this file: the tools its
// filters remove and the servers it blocks left out. cat is not modified;
// without anything to remove for client, View returns cat itself.
func (c *Config) View(client string, cat *corpus.Catalog) *corpus.Catalog {
	if !slices.Contains(c.Clients(), client) {
		return cat
	}
	filters := map[string]Filter{}
	for _, s := range c.Servers {
		if s.Tools.Active() {
			filters[s.Key] = s.Tools
		}
	}
	if len(filters) == 0 && len(c.Blocked) == 0 {
		return cat
	}
	out := &corpus.Catalog{Diagnostics: cat.Diagnostics}
	for _, srv := range cat.Servers {
		if slices.Contains(c.Blocked, srv.Name) {
			continue
		}
		f, ok := filters[srv.Name]
		if !ok {
			out.Servers = append(out.Servers, srv)
			continue
		}
		cp := *srv
		cp.Tools = nil
		for _, t := range srv.Tools {
			if f.Keeps(t.Name) {
				cp.Tools = append(cp.Tools, t)
			}
		}
		out.Servers = append(out.Servers, &cp)
	}
	return out
}

// ClientOptions are the client options the file sets, by client name:
// Gemini CLI's trusted servers ("trust": true, mcp.allowed) as the gemini
// client's "trusted" option. others are the catalog's servers that do not
// come from the file: they stay trusted, the file saying nothing of them.
func (c *Config) ClientOptions(others []string) map[string]map[string]string {
	if c.Format != Gemini {
		return nil
	}
	var trusted []string
	for _, s := range c.Servers {
		if s.Trust || slices.Contains(c.allowed, s.Key) || slices.Contains(c.allowed, "*") {
			trusted = append(trusted, s.Key)
		}
	}
	trusted = append(trusted, others...)
	v := strings.Join(trusted, ",")
	if v == "" {
		v = "none"
	}
	return map[string]map[string]string{"gemini": {"trusted": v}}
}

// resolveDir makes a server's cwd absolute against base.
func resolveDir(dir, base string) string {
	if dir == "" || filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(base, dir)
}
