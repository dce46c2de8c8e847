// Command fakeclaude stands in for Claude Code in toolfind's tests: it
// speaks the same protocols as the real client as far as `toolfind verify`
// can see (command line, MCP over stdio to the configured servers, the
// Anthropic Messages API with streaming), and answers ToolSearch with
// toolfind's own simulation of its version. It holds no Claude Code code
// or text.
//
//	fakeclaude --version                 "<version> (Claude Code)"
//	fakeclaude -p PROMPT --mcp-config F --strict-mcp-config --output-format json [--disallowedTools A,B]
//
// The version is set at build time: -ldflags "-X main.version=2.1.332".
// FAKE_CLAUDE_MODE changes its behaviour: "hang" (never answers), "crash"
// (exits 1 at once), "no-toolsearch" (offers no ToolSearch), "linger"
// (does not exit after its turn), "skip-server" (searches without the
// first server, as when it is slow to connect), "reverse" (returns the tools in reverse
// order, as a client that disagrees with the simulation would), "error"
// (reports the call as a tool error). FAKE_CLAUDE_REPORT names a file
// where it writes what it saw (HOME, config folder, arguments, stub PIDs).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

var version = "2.1.332"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fakeclaude:", err)
		os.Exit(1)
	}
}

type report struct {
	Home      string   `json:"home"`
	ConfigDir string   `json:"config_dir"`
	Args      []string `json:"args"`
	Env       []string `json:"env"`
	StubPIDs  []int    `json:"stub_pids"`
}

func run(args []string) error {
	if len(args) == 1 && args[0] == "--version" {
		fmt.Printf("%s (Claude Code)\n", version)
		return nil
	}
	mode := os.Getenv("FAKE_CLAUDE_MODE")
	if mode == "crash" {
		return errors.New("crashed on purpose")
	}
	var mcpConfig, disallowed string
	prompt := false
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-p":
			prompt = true
			i++
		case "--mcp-config":
			i++
			mcpConfig = args[i]
		case "--disallowedTools":
			i++
			disallowed = args[i]
		case "--output-format":
			i++
		case "--strict-mcp-config":
		default:
			return fmt.Errorf("unknown argument %q", args[i])
		}
	}
	if !prompt || mcpConfig == "" {
		return errors.New("want -p and --mcp-config")
	}
	for _, k := range []string{"HOME", "CLAUDE_CONFIG_DIR", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"} {
		if os.Getenv(k) == "" {
			return fmt.Errorf("%s is not set", k)
		}
	}
	if os.Getenv("ENABLE_TOOL_SEARCH") != "true" {
		return errors.New("ENABLE_TOOL_SEARCH is not true: tool search would be off with a non-Anthropic base URL")
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("CLAUDE_CONFIG_DIR"), ".claude.json")); err != nil {
		return err
	}
	rep := report{Home: os.Getenv("HOME"), ConfigDir: os.Getenv("CLAUDE_CONFIG_DIR"), Args: args, Env: os.Environ()}
	if mode == "hang" {
		time.Sleep(time.Hour)
	}

	cat, pids, err := connect(mcpConfig)
	if err != nil {
		return err
	}
	rep.StubPIDs = pids
	if p := os.Getenv("FAKE_CLAUDE_REPORT"); p != "" {
		b, _ := json.Marshal(rep)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	prof, err := search.Lookup("claude@" + version)
	if err != nil {
		return err
	}
	opts := search.Options{}
	if disallowed != "" {
		opts[claude.OptBuiltins] = "false"
	}
	sim, err := search.Build(prof, cat, opts)
	if err != nil {
		return err
	}
	if err := converse(sim, mode); err != nil {
		return err
	}
	fmt.Println(`{"type":"result","subtype":"success","is_error":false,"result":"Done."}`)
	if mode == "linger" {
		time.Sleep(time.Hour)
	}
	return nil
}

// connect starts every configured stdio server, lists its tools and
// builds the catalog from their answers, byte for byte.
func connect(path string) (*corpus.Catalog, []int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var cfg struct {
		MCPServers map[string]struct {
			Type    string            `json:"type"`
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, nil, err
	}
	names := make([]string, 0, len(cfg.MCPServers))
	for n := range cfg.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	var servers []map[string]any
	var pids []int
	for i, name := range names {
		if i == 0 && os.Getenv("FAKE_CLAUDE_MODE") == "skip-server" {
			continue // as if this server had not connected in time
		}
		s := cfg.MCPServers[name]
		if s.Type != "stdio" {
			return nil, nil, fmt.Errorf("server %s: type %q", name, s.Type)
		}
		cmd := exec.Command(s.Command, s.Args...)
		cmd.Env = os.Environ()
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, nil, fmt.Errorf("server %s: %w", name, err)
		}
		pids = append(pids, cmd.Process.Pid)
		// The stub stays up (its stdin open) for as long as this process.
		rd := bufio.NewReader(out)
		call := func(id int, method string) (json.RawMessage, error) {
			fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fakeclaude","version":%q}}}`+"\n", id, method, version)
			line, err := rd.ReadBytes('\n')
			if err != nil {
				return nil, fmt.Errorf("server %s %s: %w", name, method, err)
			}
			var resp struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(line, &resp); err != nil || resp.ID != id || resp.Error != nil {
				return nil, fmt.Errorf("server %s %s: bad answer %s", name, method, line)
			}
			return resp.Result, nil
		}
		initRes, err := call(1, "initialize")
		if err != nil {
			return nil, nil, err
		}
		var ir struct {
			ProtocolVersion string `json:"protocolVersion"`
			Instructions    string `json:"instructions"`
		}
		if json.Unmarshal(initRes, &ir); ir.ProtocolVersion != "2025-11-25" {
			return nil, nil, fmt.Errorf("server %s: protocol version %q not echoed", name, ir.ProtocolVersion)
		}
		fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		list, err := call(2, "tools/list")
		if err != nil {
			return nil, nil, err
		}
		var lr struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(list, &lr); err != nil {
			return nil, nil, fmt.Errorf("server %s: tools/list: %w", name, err)
		}
		servers = append(servers, map[string]any{"name": name, "instructions": ir.Instructions, "tools": lr.Tools})
	}
	b, _ := json.Marshal(map[string]any{"servers": servers})
	parsed, diags, err := corpus.ParseCatalog("mcp", b)
	if err != nil {
		return nil, nil, err
	}
	cat := &corpus.Catalog{}
	if err := cat.AddParsed(parsed, diags); err != nil {
		return nil, nil, err
	}
	cat.Revalidate()
	return cat, pids, nil
}

// converse is the model loop: a first request offering ToolSearch, the
// emulated model's tool_use, the search, the request with its result.
func converse(sim search.Simulator, mode string) error {
	tools := []map[string]any{{"name": "Read", "input_schema": map[string]any{"type": "object"}}}
	if mode != "no-toolsearch" {
		// ToolSearch's schema as this version's simulated surface has it
		// ("schema-old": as before 2.1.332).
		schema := json.RawMessage(`{"type":"object","required":["query","max_results"]}`)
		if w, ok := sim.(search.Writable); ok && mode != "schema-old" {
			sf, err := w.Surface(nil)
			if err != nil {
				return err
			}
			schema = sf.Tools[0].InputSchema
		}
		tools = append(tools, map[string]any{"name": "ToolSearch", "input_schema": schema})
	}
	user := map[string]any{"role": "user", "content": "go"}
	first := map[string]any{"model": "fake-model", "stream": true, "max_tokens": 100, "tools": tools, "messages": []any{user}}
	blocks, err := post(first)
	if err != nil {
		return err
	}
	var use map[string]any
	for _, b := range blocks {
		if b["type"] == "tool_use" && b["name"] == "ToolSearch" {
			use = b
		}
	}
	if use == nil {
		return nil // the model answered with text: the turn ends
	}
	var in struct {
		Query      string `json:"query"`
		MaxResults int    `json:"max_results"`
	}
	if err := json.Unmarshal(use["input"].(json.RawMessage), &in); err != nil {
		return fmt.Errorf("ToolSearch input: %w", err)
	}
	res, err := sim.Search(context.Background(), search.Query{Text: in.Query, Limit: in.MaxResults})
	if err != nil {
		return err
	}
	var content any
	var extra []any
	if len(res.Hits) > 0 {
		var refs []any
		for _, h := range res.Hits {
			refs = append(refs, map[string]any{"type": "tool_reference", "tool_name": h.Name})
		}
		if mode == "reverse" {
			slices.Reverse(refs)
		}
		content = refs
		extra = append(extra, map[string]any{"type": "text", "text": "Loaded."})
	} else {
		text, reminder, _ := strings.Cut(res.Shown, "\n\n")
		content = text
		if reminder != "" {
			extra = append(extra, map[string]any{"type": "text", "text": reminder})
		}
	}
	result := map[string]any{"type": "tool_result", "tool_use_id": use["id"], "content": content}
	if mode == "error" {
		result["is_error"] = true
		result["content"] = "InputValidationError: on purpose"
	}
	useBlock := map[string]any{"type": "tool_use", "id": use["id"], "name": "ToolSearch", "input": use["input"]}
	second := map[string]any{"model": "fake-model", "stream": true, "max_tokens": 100, "tools": tools, "messages": []any{
		user,
		map[string]any{"role": "assistant", "content": []any{useBlock}},
		map[string]any{"role": "user", "content": append([]any{result}, extra...)},
	}}
	_, err = post(second)
	return err
}

// post sends a streaming Messages request and returns the content blocks
// of the streamed answer (tool_use inputs as raw JSON).
func post(body any) ([]map[string]any, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(os.Getenv("ANTHROPIC_BASE_URL"), "/")+"/v1/messages", bytes.NewReader(b))
	req.Header.Set("x-api-key", os.Getenv("ANTHROPIC_API_KEY"))
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		msg, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("model API: %s %s", resp.Status, msg)
	}
	var blocks []map[string]any
	var partial []strings.Builder
	sc := bufio.NewScanner(resp.Body)
	stopped := false
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type         string         `json:"type"`
			Index        int            `json:"index"`
			ContentBlock map[string]any `json:"content_block"`
			Delta        struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
				Text        string `json:"text"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return nil, fmt.Errorf("model API event %q: %w", data, err)
		}
		switch ev.Type {
		case "content_block_start":
			blocks = append(blocks, ev.ContentBlock)
			partial = append(partial, strings.Builder{})
		case "content_block_delta":
			if ev.Delta.Type == "input_json_delta" {
				partial[ev.Index].WriteString(ev.Delta.PartialJSON)
			}
		case "message_stop":
			stopped = true
		}
	}
	if !stopped {
		return nil, errors.New("model API: stream ended without message_stop")
	}
	for i, bl := range blocks {
		if bl["type"] == "tool_use" {
			bl["input"] = json.RawMessage(partial[i].String())
		}
	}
	return blocks, nil
}
