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
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolfind/toolfind/search"
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

// FindBinary returns the gemini executable on PATH.
func FindBinary() (string, error) {
	p, err := exec.LookPath("gemini")
	if err != nil {
		return "", fmt.Errorf("no gemini on PATH (install Gemini CLI, or give --binary): %w", err)
	}
	return p, nil
}

// ResolveBinary makes a relative --binary absolute (a run starts in
// another folder).
func ResolveBinary(binary string) (string, error) {
	if !strings.ContainsRune(binary, filepath.Separator) {
		p, err := exec.LookPath(binary)
		if err != nil {
			return "", fmt.Errorf("--binary %s: %w", binary, err)
		}
		return p, nil
	}
	return filepath.Abs(binary)
}

// Version runs `BINARY --version` in a throwaway HOME and returns the
// release it prints ("0.61.0").
func Version(ctx context.Context, binary string) (string, error) {
	tmp, err := os.MkdirTemp("", "toolfind-verify-gemini-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if binary, err = ResolveBinary(binary); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "--version")
	cmd.Env = baseEnv(tmp)
	cmd.Dir = tmp
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
	tmp, err := os.MkdirTemp("", "toolfind-verify-gemini-")
	if err != nil {
		return nil, err
	}
	if !r.Keep {
		defer os.RemoveAll(tmp)
	}
	home, work := filepath.Join(tmp, "home"), filepath.Join(tmp, "work")
	for _, d := range []string{filepath.Join(home, ".gemini"), work, filepath.Join(tmp, "servers"), filepath.Join(tmp, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	if err := r.writeSettings(tmp); err != nil {
		return nil, err
	}
	a, err := startAPI(calls)
	if err != nil {
		return nil, err
	}
	defer a.close()
	args := append([]string{"-p", Prompt, "-m", Model, "--skip-trust", "--output-format", "json"}, r.Args...)
	if r.YOLO {
		args = append(args, "--yolo")
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir = work
	cmd.Env = append(append(baseEnv(tmp),
		"GEMINI_CLI_HOME="+home,
		"GOOGLE_GEMINI_BASE_URL="+a.url(),
		"GEMINI_API_KEY=toolfind-verify-dummy-key",
		"NO_PROXY=127.0.0.1,localhost",
	), r.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	newProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
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
	case <-a.done:
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
	killGroup(cmd) // the stubs it may have left
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
	if waitErr != nil && ctx.Err() == nil {
		msg += "; gemini: " + waitErr.Error()
	}
	return nil, errors.New(msg + tail("; stdout: ", stdout.String()) + tail("; stderr: ", stderr.String()))
}

// writeSettings writes the stub files and settings.json, servers in
// catalog order (their order decides which of two colliding names is
// registered last, and the order of the instructions).
func (r *Runner) writeSettings(tmp string) error {
	var servers bytes.Buffer
	servers.WriteByte('{')
	for i, s := range r.Servers {
		s.CallLog = ""
		data, err := s.Marshal()
		if err != nil {
			return fmt.Errorf("server %q: %w", s.Name, err)
		}
		f := filepath.Join(tmp, "servers", fmt.Sprintf("%03d.json", i))
		if err := os.WriteFile(f, data, 0o600); err != nil {
			return err
		}
		entry := map[string]any{"command": r.StubCommand[0], "args": append(append([]string{}, r.StubCommand[1:]...), f)}
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
	return os.WriteFile(filepath.Join(tmp, "home", ".gemini", "settings.json"), []byte(settings), 0o600)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// baseEnv is a clean environment under the run's folder: only PATH comes
// from the caller.
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
