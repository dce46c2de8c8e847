// Package copilotcli runs the user's installed GitHub Copilot CLI against
// a catalog, for `toolfind verify --client copilot`, as toolfind's own
// probes of the CLI did (copilot.md §2):
//
//  1. A throwaway folder holds HOME, COPILOT_HOME and an empty work
//     folder; nothing of the user's configuration is read or changed. The
//     CLI's unpacked package is cached in COPILOT_PKG_CACHE_HOME (the
//     caller's, else toolfind's user cache folder), so that runs after
//     the first do not unpack it again.
//  2. Every catalog server is an MCP server of --additional-mcp-config
//     whose command is a stub serving that server's tools byte for byte
//     (package verify/mcpstub).
//  3. The CLI runs offline (COPILOT_OFFLINE=true) against an emulated
//     model API on 127.0.0.1 (COPILOT_PROVIDER_BASE_URL, a dummy key), for
//     the model and wire asked for: chat completions, Anthropic Messages
//     or Responses. No GitHub account or network access is needed.
//  4. `copilot -p go --no-auto-update --allow-all-tools
//     --additional-mcp-config @FILE`. The first model request is captured
//     (its tools array: every tool entry and the deferral decision). For
//     a query, the first request that offers tool_search_tool is answered
//     with a call {"pattern", "limit"}; the request that carries its
//     result is the answer.
//  5. The process group is killed once the answer is in (after a grace
//     period to exit by itself), on timeout and on cancellation.
package copilotcli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/clientproc"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// Runner is the real Copilot CLI bound to one catalog (verify.Client).
type Runner struct {
	// Binary is the copilot executable.
	Binary string
	// Servers are the catalog's servers as the stubs serve them.
	Servers []mcpstub.Server
	// StubCommand starts one stub: the stub file's path is appended.
	StubCommand []string
	// Model and API are the model (COPILOT_MODEL) and the wire.
	Model string
	API   copilot.API
	// NeverDefer are servers given "deferTools": "never".
	NeverDefer []string
	// Env adds KEY=VALUE pairs to the client's environment.
	Env []string
	// Grace is how long the client may take to exit once the answer is in
	// (default 10s).
	Grace time.Duration
	// Keep leaves each run's throwaway folder in place (debugging).
	Keep bool
}

var _ verify.Client = (*Runner)(nil)

// ResolveBinary turns the executable a user names into an absolute path
// (a run starts in another folder; clientproc.ResolveBinary): "" is
// copilot on PATH.
func ResolveBinary(binary string) (string, error) {
	return clientproc.ResolveBinary("copilot", binary, "give --binary")
}

// Version runs `BINARY --version` and returns the release it names
// ("GitHub Copilot CLI 1.0.102." → "1.0.102").
func Version(ctx context.Context, binary string) (string, error) {
	binary, err := ResolveBinary(binary)
	if err != nil {
		return "", err
	}
	out, err := clientproc.VersionOutput(ctx, binary, 2*time.Minute, copilotEnv)
	if err != nil {
		return "", err
	}
	for _, f := range strings.Fields(out) {
		f = strings.TrimSuffix(f, ".")
		if f != "" && f[0] >= '0' && f[0] <= '9' && strings.Count(f, ".") >= 1 {
			return f, nil
		}
	}
	return "", fmt.Errorf("%s --version: no release number in %q", binary, strings.TrimSpace(out))
}

// Capture is what one run of the CLI sent in its first model request.
type Capture struct {
	// Tools is the tools array, each entry as sent.
	Tools []json.RawMessage
	// Body is the whole first request.
	Body json.RawMessage
}

// Capture runs the CLI once without a search and returns its first
// request.
func (r *Runner) Capture(ctx context.Context) (*Capture, error) {
	st, err := r.run(ctx, nil)
	if err != nil {
		return nil, err
	}
	var req request
	if err := json.Unmarshal(st.first, &req); err != nil {
		return nil, fmt.Errorf("the first model request: %w", err)
	}
	return &Capture{Tools: req.Tools, Body: st.first}, nil
}

// Input is tool_search_tool's input for a query: {"pattern": Q} with
// "limit" when the query has one.
func Input(q verify.Query) []byte {
	m := map[string]any{"pattern": q.Text}
	if q.Limit > 0 {
		m["limit"] = q.Limit
	}
	b, _ := json.Marshal(m)
	return b
}

// Run makes one tool_search_tool call through a fresh CLI process.
func (r *Runner) Run(ctx context.Context, q verify.Query) (verify.Answer, error) {
	st, err := r.run(ctx, Input(q))
	if err != nil {
		return verify.Answer{}, err
	}
	if st.result == nil {
		if !st.gotCall {
			return verify.Answer{}, fmt.Errorf("no model request offered tool_search_tool (no deferral for this model, wire and catalog?); tools offered: %s", strings.Join(st.offered, ", "))
		}
		return verify.Answer{}, errors.New("the CLI ended without sending tool_search_tool's result" + st.output)
	}
	return Answer(st.result)
}

// Answer reads the result content of a tool_search_tool call: the
// tool_reference names in order; with none, the text.
func Answer(content json.RawMessage) (verify.Answer, error) {
	a := verify.Answer{Tools: []string{}}
	var s string
	if json.Unmarshal(content, &s) == nil {
		a.Text = s
		return a, nil
	}
	var blocks []struct {
		Type     string `json:"type"`
		ToolName string `json:"tool_name"`
		Text     string `json:"text"`
	}
	if err := json.Unmarshal(content, &blocks); err != nil {
		return a, fmt.Errorf("tool_search_tool result: %w", err)
	}
	var text []string
	for _, b := range blocks {
		switch b.Type {
		case "tool_reference":
			a.Tools = append(a.Tools, b.ToolName)
		case "text":
			text = append(text, b.Text)
		}
	}
	if len(a.Tools) == 0 {
		a.Text = strings.Join(text, "")
	}
	return a, nil
}

// runState is what one run left.
type runState struct {
	first   []byte
	result  json.RawMessage
	gotCall bool
	offered []string
	output  string // the client's stdout and stderr tails, for errors
}

func (r *Runner) run(ctx context.Context, call []byte) (*runState, error) {
	if len(r.StubCommand) == 0 {
		return nil, errors.New("copilotcli: no stub command")
	}
	binary, err := ResolveBinary(r.Binary)
	if err != nil {
		return nil, err
	}
	d, err := clientproc.NewDir("toolfind-verify-copilot-", "home/.copilot", "logs")
	if err != nil {
		return nil, err
	}
	if !r.Keep {
		defer d.Remove()
	}
	cfg, err := r.writeMCPConfig(d)
	if err != nil {
		return nil, err
	}
	a, err := startAPI(call)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	base := a.URL() + "/v1"
	env := append(d.Env(), copilotEnv(d)...)
	switch r.API {
	case copilot.Anthropic:
		base = a.URL()
		env = append(env, "COPILOT_PROVIDER_TYPE=anthropic")
	case copilot.Responses:
		env = append(env, "COPILOT_PROVIDER_WIRE_API=responses")
	}
	model := r.Model
	if model == "" {
		model = copilot.DefaultModel
	}
	env = append(env, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+base, "COPILOT_PROVIDER_API_KEY=sk-toolfind-verify-dummy",
		"COPILOT_MODEL="+model, "COPILOT_AUTO_UPDATE=false")
	env = append(env, r.Env...)
	x, err := clientproc.Run(ctx, clientproc.Cmd{Binary: binary,
		Args: []string{"-p", "go", "--no-auto-update", "--allow-all-tools", "--additional-mcp-config", "@" + cfg,
			"--log-level", "debug", "--log-dir", d.Join("logs")},
		Dir: d.Work(), Env: env, Done: a.Done(), Grace: r.Grace})
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	st := &runState{first: a.first, result: a.result, gotCall: a.gotCall, offered: a.offered, output: x.Output()}
	a.mu.Unlock()
	switch {
	case a.Err() != nil:
		return nil, a.Err()
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case st.first == nil:
		msg := "the CLI made no model request"
		if x.Err != nil {
			msg += ": " + x.Err.Error()
		}
		return nil, errors.New(msg + st.output)
	}
	return st, nil
}

// writeMCPConfig writes one stub file per server and the MCP config that
// starts them.
func (r *Runner) writeMCPConfig(d *clientproc.Dir) (string, error) {
	never := map[string]bool{}
	for _, n := range r.NeverDefer {
		never[n] = true
	}
	files, err := d.WriteStubs(r.Servers)
	if err != nil {
		return "", err
	}
	servers := map[string]any{}
	for i, s := range r.Servers {
		e := map[string]any{"type": "stdio", "command": r.StubCommand[0],
			"args": clientproc.StubArgs(r.StubCommand, files[i]), "tools": []string{"*"}}
		if never[s.Name] {
			e["deferTools"] = "never"
		}
		servers[s.Name] = e
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		return "", err
	}
	p := d.Join("mcp.json")
	return p, os.WriteFile(p, b, 0o600)
}

// copilotEnv is what the CLI adds to a clean environment: its home
// folder, no colours, and the package cache kept across runs.
func copilotEnv(d *clientproc.Dir) []string {
	cache := os.Getenv("COPILOT_PKG_CACHE_HOME")
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "toolfind", "copilot-pkg")
		}
	}
	env := []string{"COPILOT_HOME=" + d.Join("home", ".copilot"), "NO_COLOR=1"}
	if cache != "" {
		env = append(env, "COPILOT_PKG_CACHE_HOME="+cache)
	}
	return env
}
