// Package claudecode runs the user's installed Claude Code against a
// catalog, one ToolSearch call per query, for `toolfind verify`.
//
// Each query is one fresh `claude -p` process (tools found earlier in a
// conversation would leave later searches' pool), set up so that nothing
// of the user's own configuration is read or changed:
//
//  1. A throwaway folder holds HOME, CLAUDE_CONFIG_DIR (onboarding done,
//     the work folder trusted), TMPDIR, the XDG folders and an empty work
//     folder. Of the caller's environment only PATH is passed on (plus
//     Runner.Env).
//  2. Every catalog server is a stdio entry of an MCP config
//     (--mcp-config FILE --strict-mcp-config) whose command is a stub MCP
//     server (package verify/mcpstub) serving that server's tools byte for
//     byte.
//  3. ANTHROPIC_BASE_URL points at an emulated Messages API on
//     127.0.0.1 (a dummy key), served in this process (package
//     verify/claudecode/messagesapi); the first request that offers ToolSearch is
//     answered with a call {"query": Q, "max_results": N} (max_results left
//     out when the query has no limit); the request that carries the call's
//     tool_result is the answer. ENABLE_TOOL_SEARCH=true keeps tool search
//     on with a non-Anthropic base URL (specs/claude.md background §4);
//     telemetry, error reporting, the auto-updater and non-essential
//     traffic are turned off.
//  4. The command is `claude -p go --mcp-config CFG --strict-mcp-config
//     --output-format json` plus Runner.Args, with MCP_TIMEOUT=60000 (a
//     minute for each server to connect). Each stub creates a marker file
//     as it answers tools/list (before the answer goes out); a search
//     made before every marker exists is an error, not an answer (the
//     client would have searched part of the catalog).
//  5. The process group (the client and the stubs it started) is killed
//     once the answer is in (after a grace period to exit by itself), on
//     timeout and on cancellation; the throwaway folder is removed.
//
// In -p mode Claude Code connects its stdio servers before its first model
// request, so the search runs over the whole catalog, unless a server
// misses MCP_TIMEOUT: seen on a machine with a load of 25, where the
// 235-tool azure catalog's stub was left out of some runs over all fifteen
// shared catalogs. The markers turn that into an error.
package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// Runner is the real Claude Code bound to one catalog (verify.Client).
type Runner struct {
	// Binary is the claude executable.
	Binary string
	// Servers are the catalog's servers as the stubs serve them.
	Servers []mcpstub.Server
	// StubCommand starts one stub: the stub file's path is appended
	// (e.g. ["/usr/local/bin/toolfind", "mcp-stub"]).
	StubCommand []string
	// StubEnv is added to each stub's environment.
	StubEnv map[string]string
	// Env adds KEY=VALUE pairs to the client's environment.
	Env []string
	// Args are extra client arguments (e.g. --disallowedTools A,B).
	Args []string
	// Grace is how long the client may take to exit once the answer is in
	// (default 10s); then its process group is killed.
	Grace time.Duration
	// Keep leaves each run's throwaway folder in place (debugging).
	Keep bool
}

var _ verify.Client = (*Runner)(nil)

// FindBinary returns the claude executable on PATH.
func FindBinary() (string, error) {
	p, err := exec.LookPath("claude")
	if err != nil {
		return "", fmt.Errorf("no claude on PATH (give --binary): %w", err)
	}
	return p, nil
}

// ResolveBinary turns the client executable a user names into the path
// that Version and Runner run. Every run starts the client in a throwaway
// working folder, where a relative path names nothing, so a path with a
// separator ("../x/claude", "bin/claude") is made absolute against the
// current folder, as the user meant it; a bare name ("claude") is looked
// up in PATH, as a shell would; "" is claude on PATH (FindBinary).
func ResolveBinary(path string) (string, error) {
	switch {
	case path == "":
		return FindBinary()
	case !strings.ContainsRune(path, filepath.Separator) && !strings.ContainsRune(path, '/'):
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("no %s on PATH: %w", path, err)
		}
		return filepath.Abs(p)
	}
	return filepath.Abs(path)
}

// Version runs `BINARY --version` in a throwaway environment and returns
// the release it prints first ("2.1.332 (Claude Code)" → "2.1.332").
func Version(ctx context.Context, binary string) (string, error) {
	tmp, err := os.MkdirTemp("", "toolfind-verify-version-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := makeDirs(tmp); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if binary, err = ResolveBinary(binary); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, binary, "--version")
	cmd.Env = append(baseEnv(tmp), "CLAUDE_CONFIG_DIR="+filepath.Join(tmp, "home", ".claude"))
	cmd.Dir = filepath.Join(tmp, "work")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s --version: %w%s", binary, err, tail("; stderr: ", errOut.String()))
	}
	fields := strings.Fields(out.String())
	if len(fields) == 0 {
		return "", fmt.Errorf("%s --version printed nothing", binary)
	}
	if _, err := search.ParseRelease(fields[0]); err != nil {
		return "", fmt.Errorf("%s --version: %q does not start with a release number", binary, strings.TrimSpace(out.String()))
	}
	return fields[0], nil
}

// SearchTool is the name of Claude Code's search tool (specs/claude.md
// background §1).
const SearchTool = messagesapi.SearchTool

// answer turns the captured tool_result into a verify.Answer: the
// tool_reference names in order; with none, the result's text followed by
// the texts of the other blocks of the same turn (Claude Code's
// reminders), each after a blank line.
func answer(c *messagesapi.Capture) (verify.Answer, error) {
	a := verify.Answer{Tools: []string{}}
	var text []string
	for _, raw := range messagesapi.Blocks(c.Content) {
		var b messagesapi.Block
		if err := json.Unmarshal(raw, &b); err != nil {
			return a, fmt.Errorf("tool_result content: %w", err)
		}
		switch b.Type {
		case "tool_reference":
			a.Tools = append(a.Tools, b.ToolName)
		case "text":
			text = append(text, b.Text)
		}
	}
	if c.IsError {
		return a, fmt.Errorf("the client reported a tool error: %s", strings.Join(text, " "))
	}
	if len(a.Tools) > 0 {
		return a, nil
	}
	for _, raw := range c.Extra {
		var b messagesapi.Block
		if json.Unmarshal(raw, &b) == nil && b.Type == "text" {
			text = append(text, b.Text)
		}
	}
	a.Text = strings.Join(text, "\n\n")
	return a, nil
}

// Input is the ToolSearch input for a query: {"query": Q} with
// "max_results" when the query has a limit.
func Input(q verify.Query) []byte {
	m := map[string]any{"query": q.Text}
	if q.Limit > 0 {
		m["max_results"] = q.Limit
	}
	b, _ := json.Marshal(m)
	return b
}

// Run makes one ToolSearch call through a fresh Claude Code process.
func (r *Runner) Run(ctx context.Context, q verify.Query) (verify.Answer, error) {
	if len(r.StubCommand) == 0 {
		return verify.Answer{}, errors.New("claudecode: no stub command")
	}
	tmp, err := os.MkdirTemp("", "toolfind-verify-run-")
	if err != nil {
		return verify.Answer{}, err
	}
	if !r.Keep {
		defer os.RemoveAll(tmp)
	}
	if err := makeDirs(tmp); err != nil {
		return verify.Answer{}, err
	}
	cfgDir, work := filepath.Join(tmp, "home", ".claude"), filepath.Join(tmp, "work")
	if err := writeClientConfig(cfgDir, work); err != nil {
		return verify.Answer{}, err
	}
	mcpPath, err := r.writeMCPConfig(tmp)
	if err != nil {
		return verify.Answer{}, err
	}
	api, err := messagesapi.Start(Input(q), func() []string { return r.unlisted(tmp) })
	if err != nil {
		return verify.Answer{}, err
	}

	args := append([]string{"-p", "go", "--mcp-config", mcpPath, "--strict-mcp-config", "--output-format", "json"}, r.Args...)
	binary, err := ResolveBinary(r.Binary)
	if err != nil {
		api.Close()
		return verify.Answer{}, err
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir = work
	cmd.Env = append(append(baseEnv(tmp),
		"CLAUDE_CONFIG_DIR="+cfgDir,
		"ANTHROPIC_BASE_URL="+api.URL(),
		"ANTHROPIC_API_KEY=sk-ant-toolfind-verify-dummy",
		"ENABLE_TOOL_SEARCH=true",
		// Wait up to a minute for each server to connect (Claude Code's
		// documented MCP_TIMEOUT): on a busy machine a stub can be slow.
		"MCP_TIMEOUT=60000",
	), r.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	newProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		api.Close()
		return verify.Answer{}, fmt.Errorf("starting %s: %w", r.Binary, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	grace := r.Grace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-api.Done():
		select {
		case waitErr = <-exited:
		case <-time.After(grace):
			killGroup(cmd)
			<-exited
		case <-ctx.Done():
			killGroup(cmd)
			<-exited
		}
	case <-ctx.Done():
		killGroup(cmd)
		<-exited
	}
	killGroup(cmd) // whatever the client left running (its stub servers)

	st := api.Close()
	got, called, offered, required, unlisted := st.Captured, st.Called, st.Offered, st.Required, st.Unlisted
	if len(unlisted) > 0 {
		return verify.Answer{}, fmt.Errorf("Claude Code searched before these servers had listed their tools: %s (slow to start; the answer would cover part of the catalog; run fewer at a time with --parallel)",
			strings.Join(unlisted, ", "))
	}
	if got != nil {
		a, err := answer(got)
		a.SearchRequired = required
		return a, err
	}
	var msg string
	switch {
	case ctx.Err() != nil:
		msg = ctx.Err().Error()
	case called:
		msg = "claude exited without sending the ToolSearch result"
	case offered != nil:
		msg = "no model request offered ToolSearch (tool search off?); tools offered: " + strings.Join(offered, ", ")
	default:
		msg = "claude made no model request"
	}
	if waitErr != nil && ctx.Err() == nil {
		msg += "; claude: " + waitErr.Error()
	}
	msg += tail("; stdout: ", stdout.String()) + tail("; stderr: ", stderr.String())
	return verify.Answer{}, errors.New(msg)
}

func makeDirs(tmp string) error {
	home := filepath.Join(tmp, "home")
	for _, d := range []string{filepath.Join(home, ".claude"), filepath.Join(home, ".config"), filepath.Join(home, ".cache"),
		filepath.Join(home, ".local", "share"), filepath.Join(home, ".local", "state"),
		filepath.Join(tmp, "tmp"), filepath.Join(tmp, "work"), filepath.Join(tmp, "servers")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// writeClientConfig marks onboarding done and the work folder trusted, so
// nothing interactive can be pending.
func writeClientConfig(cfgDir, work string) error {
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"numStartups":            1,
		"autoUpdates":            false,
		"projects": map[string]any{work: map[string]any{
			"hasTrustDialogAccepted":        true,
			"hasCompletedProjectOnboarding": true,
			"allowedTools":                  []string{},
		}},
	}
	b, _ := json.Marshal(cfg)
	return os.WriteFile(filepath.Join(cfgDir, ".claude.json"), b, 0o600)
}

// writeMCPConfig writes one stub file per server and the MCP config that
// starts them.
func (r *Runner) writeMCPConfig(tmp string) (string, error) {
	servers := map[string]any{}
	for i, s := range r.Servers {
		data, err := s.Marshal()
		if err != nil {
			return "", fmt.Errorf("server %q: %w", s.Name, err)
		}
		f := filepath.Join(tmp, "servers", fmt.Sprintf("%03d.json", i))
		if err := os.WriteFile(f, data, 0o600); err != nil {
			return "", err
		}
		env := map[string]string{}
		for k, v := range r.StubEnv {
			env[k] = v
		}
		servers[s.Name] = map[string]any{"type": "stdio", "command": r.StubCommand[0],
			"args": append(append([]string{}, r.StubCommand[1:]...), f, markerPath(tmp, i)), "env": env}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		return "", err
	}
	p := filepath.Join(tmp, "mcp.json")
	return p, os.WriteFile(p, b, 0o600)
}

// markerPath is the file the i-th stub creates as it answers
// tools/list.
func markerPath(tmp string, i int) string {
	return filepath.Join(tmp, "servers", fmt.Sprintf("%03d.listed", i))
}

// unlisted names the servers whose stub has not answered tools/list yet.
func (r *Runner) unlisted(tmp string) []string {
	var out []string
	for i, s := range r.Servers {
		if _, err := os.Stat(markerPath(tmp, i)); err != nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// baseEnv is a clean environment under the run's throwaway folder: only
// PATH comes from the caller.
func baseEnv(tmp string) []string {
	home := filepath.Join(tmp, "home")
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"USER=toolfind",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=" + filepath.Join(tmp, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
}

// tail is label + the last 300 bytes of s, or "" when s is blank.
func tail(label, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return label + s
}
