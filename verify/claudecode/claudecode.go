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
//  5. The client's whole process tree (the stubs it started, and on
//     Linux any descendant that left its process group) is killed once
//     the answer is in (after a grace period to exit by itself), on
//     timeout and on cancellation, without waiting for output a
//     descendant still holds (verify/clientproc); the throwaway folder is
//     removed on every way out.
//
// In -p mode Claude Code connects its stdio servers before its first model
// request, so the search runs over the whole catalog, unless a server
// misses MCP_TIMEOUT: seen on a machine with a load of 25, where the
// 235-tool azure catalog's stub was left out of some runs over all fifteen
// shared catalogs. The markers turn that into an error.
package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
	"github.com/toolfind/toolfind/verify/clientproc"
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

// ResolveBinary turns the client executable a user names into the path
// that Version and Runner run (clientproc.ResolveBinary): "" is claude on
// PATH.
func ResolveBinary(path string) (string, error) {
	return clientproc.ResolveBinary("claude", path, "give --binary")
}

// Version runs `BINARY --version` in a throwaway environment and returns
// the release it prints first ("2.1.332 (Claude Code)" → "2.1.332").
func Version(ctx context.Context, binary string) (string, error) {
	binary, err := ResolveBinary(binary)
	if err != nil {
		return "", err
	}
	out, err := clientproc.VersionOutput(ctx, binary, time.Minute, func(d *clientproc.Dir) []string {
		return append(claudeEnv(), "CLAUDE_CONFIG_DIR="+d.Join("home", ".claude"))
	}, claudeDirs...)
	if err != nil {
		return "", err
	}
	return clientproc.FirstRelease(binary, out)
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
	binary, err := ResolveBinary(r.Binary)
	if err != nil {
		return verify.Answer{}, err
	}
	d, err := clientproc.NewDir("toolfind-verify-run-", claudeDirs...)
	if err != nil {
		return verify.Answer{}, err
	}
	if !r.Keep {
		defer d.Remove()
	}
	cfgDir := d.Join("home", ".claude")
	if err := writeClientConfig(cfgDir, d.Work()); err != nil {
		return verify.Answer{}, err
	}
	mcpPath, err := r.writeMCPConfig(d)
	if err != nil {
		return verify.Answer{}, err
	}
	api, err := messagesapi.Start(Input(q), func() []string { return r.unlisted(d) })
	if err != nil {
		return verify.Answer{}, err
	}
	env := append(append(append(d.Env(), claudeEnv()...),
		"CLAUDE_CONFIG_DIR="+cfgDir,
		"ANTHROPIC_BASE_URL="+api.URL(),
		"ANTHROPIC_API_KEY=sk-ant-toolfind-verify-dummy",
		"ENABLE_TOOL_SEARCH=true",
		// Wait up to a minute for each server to connect (Claude Code's
		// documented MCP_TIMEOUT): on a busy machine a stub can be slow.
		"MCP_TIMEOUT=60000",
	), r.Env...)
	x, err := clientproc.Run(ctx, clientproc.Cmd{Binary: binary,
		Args: append([]string{"-p", "go", "--mcp-config", mcpPath, "--strict-mcp-config", "--output-format", "json"}, r.Args...),
		Dir:  d.Work(), Env: env, Done: api.Done(), Grace: r.Grace})
	st := api.Close()
	if err != nil {
		return verify.Answer{}, err
	}
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
	if x.Err != nil && ctx.Err() == nil {
		msg += "; claude: " + x.Err.Error()
	}
	return verify.Answer{}, errors.New(msg + x.Output())
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
func (r *Runner) writeMCPConfig(d *clientproc.Dir) (string, error) {
	files, err := d.WriteStubs(r.Servers)
	if err != nil {
		return "", err
	}
	servers := map[string]any{}
	for i, s := range r.Servers {
		env := map[string]string{}
		for k, v := range r.StubEnv {
			env[k] = v
		}
		servers[s.Name] = map[string]any{"type": "stdio", "command": r.StubCommand[0],
			"args": clientproc.StubArgs(r.StubCommand, files[i], markerPath(d, i)), "env": env}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		return "", err
	}
	p := d.Join("mcp.json")
	return p, os.WriteFile(p, b, 0o600)
}

// markerPath is the file the i-th stub creates as it answers
// tools/list.
func markerPath(d *clientproc.Dir, i int) string {
	return d.Join("servers", fmt.Sprintf("%03d.listed", i))
}

// unlisted names the servers whose stub has not answered tools/list yet.
func (r *Runner) unlisted(d *clientproc.Dir) []string {
	var out []string
	for i, s := range r.Servers {
		if _, err := os.Stat(markerPath(d, i)); err != nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// claudeDirs are the folders made in the throwaway HOME: the config
// folder and the XDG folders.
var claudeDirs = []string{"home/.claude", "home/.config", "home/.cache", "home/.local/share", "home/.local/state"}

// claudeEnv turns off Claude Code's telemetry, error reporting,
// auto-updater and other non-essential traffic.
func claudeEnv() []string {
	return []string{
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
}
