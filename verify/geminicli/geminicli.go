// Package geminicli runs the user's installed Gemini CLI against a
// catalog for `toolfind verify --client gemini` and compares what it
// sent its model with the gemini package's simulation, tool by tool.
//
// One run is one headless `gemini -p` process, set up as the oracle of
// gemini.md §6 so that nothing of the user's own configuration is read or
// changed:
//
//  1. A throwaway folder holds HOME and GEMINI_CLI_HOME, whose
//     .gemini/settings.json turns off telemetry and updates, selects the
//     gemini-api-key auth (without it a base URL alone fails with "Invalid
//     auth method selected.") and lists every catalog server, in catalog
//     order, as a stdio stub MCP server (package verify/mcpstub) serving
//     its tools byte for byte and answering each tools/call with a result
//     (Suite, or the user's). A server the simulation trusts gets "trust":
//     true. Of the caller's environment only PATH is passed on.
//  2. GOOGLE_GEMINI_BASE_URL points at an emulated Gemini API on
//     127.0.0.1 (api.go) with a dummy GEMINI_API_KEY. Its answer to the
//     first request that declares functions calls every MCP tool the
//     simulation declares, in one turn, with arguments made by ArgsFor;
//     the next request carries the client's function responses and gets
//     a text, which ends the turn.
//  3. The command is `gemini -p "Use the MCP tools." -m gemini-2.5-flash
//     --skip-trust --output-format json` (plus --yolo when the simulation
//     is YOLO, and Runner.Args). The process group (the client and its
//     stubs) is killed once the answer is in (after a grace period),
//     on timeout and on cancellation; the folder is removed.
//
// Compare then checks, against the simulator: the names of the request's
// function declarations in order (built-ins included), each MCP tool's
// declaration as JSON, the servers' instructions block at the end of the
// first user message, and each call's function response with the
// inlineData parts after it (the saved file's path in a cut result is
// left out: it holds a session id and the time).
package geminicli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"time"

	"github.com/toolfind/toolfind/verify/clientproc"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// Prompt and Model are what each run asks.
const (
	Prompt = "Use the MCP tools."
	Model  = "gemini-2.5-flash"
)

// Runner is the real Gemini CLI bound to one catalog.
type Runner struct {
	// Binary is the gemini executable.
	Binary string
	// Servers are the catalog's servers as the stubs serve them; each
	// one's Results are set by Verify.
	Servers []mcpstub.Server
	// Trusted names the servers that get "trust": true; AllTrusted all.
	Trusted    []string
	AllTrusted bool
	// YOLO adds --yolo.
	YOLO bool
	// StubCommand starts one stub: the stub file's path is appended
	// (e.g. ["/usr/local/bin/toolfind", "mcp-stub"]); StubEnv is added to
	// its environment.
	StubCommand []string
	StubEnv     map[string]string
	// Env adds KEY=VALUE pairs to the client's environment; Args are
	// extra client arguments.
	Env  []string
	Args []string
	// Grace is how long the client may take to exit once the answer is in
	// (default 10s).
	Grace time.Duration
	// Keep leaves the throwaway folder in place (debugging).
	Keep bool
}

// ResolveBinary turns the executable a user names into an absolute path
// (a run starts in another folder; clientproc.ResolveBinary): "" is
// gemini on PATH.
func ResolveBinary(binary string) (string, error) {
	return clientproc.ResolveBinary("gemini", binary, "install Gemini CLI, or give --binary")
}

// Version runs `BINARY --version` in a throwaway HOME and returns the
// release it prints ("0.61.0").
func Version(ctx context.Context, binary string) (string, error) {
	binary, err := ResolveBinary(binary)
	if err != nil {
		return "", err
	}
	out, err := clientproc.VersionOutput(ctx, binary, time.Minute, nil)
	if err != nil {
		return "", err
	}
	return clientproc.FirstRelease(binary, out)
}

// Run starts one client process that calls each of calls once and
// returns what the emulated API saw.
func (r *Runner) Run(ctx context.Context, calls []Call) (*Capture, error) {
	if len(r.StubCommand) == 0 {
		return nil, errors.New("geminicli: no stub command")
	}
	binary, err := ResolveBinary(r.Binary)
	if err != nil {
		return nil, err
	}
	d, err := clientproc.NewDir("toolfind-verify-gemini-", "home/.gemini")
	if err != nil {
		return nil, err
	}
	if !r.Keep {
		defer d.Remove()
	}
	if err := r.writeSettings(d); err != nil {
		return nil, err
	}
	a, err := startAPI(calls)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	args := append([]string{"-p", Prompt, "-m", Model, "--skip-trust", "--output-format", "json"}, r.Args...)
	if r.YOLO {
		args = append(args, "--yolo")
	}
	env := append(append(d.Env(),
		"GEMINI_CLI_HOME="+d.Home(),
		"GOOGLE_GEMINI_BASE_URL="+a.URL(),
		"GEMINI_API_KEY=toolfind-verify-dummy-key",
		"NO_PROXY=127.0.0.1,localhost",
	), r.Env...)
	x, err := clientproc.Run(ctx, clientproc.Cmd{Binary: binary, Args: args, Dir: d.Work(), Env: env, Done: a.Done(), Grace: r.Grace})
	if err != nil {
		return nil, err
	}
	c, apiErr := a.result()
	if apiErr != nil {
		return nil, apiErr
	}
	if c.First != nil && (len(calls) == 0 || c.Replies != nil) {
		return &c, nil
	}
	var msg string
	switch {
	case ctx.Err() != nil:
		msg = "stopped: " + ctx.Err().Error()
	case c.First == nil:
		msg = errNoRequest.Error()
	default:
		msg = "the client did not send the results of the calls"
	}
	if x.Err != nil && ctx.Err() == nil {
		msg += "; gemini: " + x.Err.Error()
	}
	return nil, errors.New(msg + x.Output())
}

// writeSettings writes the stub files and settings.json, servers in
// catalog order (their order decides which of two colliding names is
// registered last, and the order of the instructions).
func (r *Runner) writeSettings(d *clientproc.Dir) error {
	stubs := append([]mcpstub.Server(nil), r.Servers...)
	for i := range stubs {
		stubs[i].CallLog = ""
	}
	files, err := d.WriteStubs(stubs)
	if err != nil {
		return err
	}
	var servers bytes.Buffer
	servers.WriteByte('{')
	for i, s := range r.Servers {
		entry := map[string]any{"command": r.StubCommand[0], "args": clientproc.StubArgs(r.StubCommand, files[i])}
		if len(r.StubEnv) > 0 {
			entry["env"] = r.StubEnv
		}
		if r.AllTrusted || contains(r.Trusted, s.Name) {
			entry["trust"] = true
		}
		k, _ := json.Marshal(s.Name)
		v, err := json.Marshal(entry)
		if err != nil {
			return err
		}
		if i > 0 {
			servers.WriteByte(',')
		}
		servers.Write(k)
		servers.WriteByte(':')
		servers.Write(v)
	}
	servers.WriteByte('}')
	settings := `{"privacy":{"usageStatisticsEnabled":false},` +
		`"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false},` +
		`"security":{"auth":{"selectedType":"gemini-api-key"}},` +
		`"mcpServers":` + servers.String() + `}`
	return os.WriteFile(d.Join("home", ".gemini", "settings.json"), []byte(settings), 0o600)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
