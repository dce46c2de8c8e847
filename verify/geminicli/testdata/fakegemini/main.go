// Command fakegemini stands in for Gemini CLI in toolfind's tests: it
// speaks the same protocols as the real client as far as `toolfind
// verify --client gemini` can see (command line, settings.json, MCP over
// stdio to the configured servers, the Gemini API's streamGenerateContent
// with server-sent events) and builds what it sends with toolfind's own
// simulation (package gemini). It holds no Gemini CLI code.
//
//	fakegemini --version
//	fakegemini -p PROMPT -m MODEL --skip-trust --output-format json [--yolo]
//
// FAKE_GEMINI_MODE changes what it does: "reverse" (declares the MCP tools
// in reverse order), "no-instructions" (leaves the servers' instructions
// out), "cut" (cuts results at 30,000 characters instead of 40,000),
// "crash" (exits 1 at once), "hang" (never sends a request).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/ojson"
)

var version = "0.61.0"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fakegemini:", err)
		os.Exit(1)
	}
}

type server struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	id   int
}

func (s *server) call(method string, params any) (json.RawMessage, error) {
	s.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	for s.out.Scan() {
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(s.out.Bytes(), &m) != nil || m.ID != s.id {
			continue
		}
		if m.Error != nil {
			return nil, fmt.Errorf("MCP error %d: %s", m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	}
	return nil, fmt.Errorf("server %s: no answer to %s", s.name, method)
}

func run(args []string) error {
	mode := os.Getenv("FAKE_GEMINI_MODE")
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println(version)
		return nil
	}
	if mode == "crash" {
		return errors.New("crashing as asked")
	}
	yolo := slices.Contains(args, "--yolo")
	model := "gemini-2.5-flash"
	if i := slices.Index(args, "-m"); i >= 0 && i+1 < len(args) {
		model = args[i+1]
	}
	prompt := ""
	if i := slices.Index(args, "-p"); i >= 0 && i+1 < len(args) {
		prompt = args[i+1]
	}
	data, err := os.ReadFile(filepath.Join(os.Getenv("GEMINI_CLI_HOME"), ".gemini", "settings.json"))
	if err != nil {
		return err
	}
	settings, err := ojson.Parse(data)
	if err != nil {
		return err
	}
	mcp, _ := settings.Get("mcpServers")
	var servers []*server
	defer func() {
		for _, s := range servers {
			_ = s.in.Close()
			_ = s.cmd.Wait()
		}
	}()
	var catJSON bytes.Buffer
	catJSON.WriteString(`{"servers":[`)
	cfg := gemini.Config{YOLO: yolo}
	for i, m := range mcp.Members() {
		command, _ := m.Value.Get("command")
		var argv []string
		a, _ := m.Value.Get("args")
		for _, x := range a.Array() {
			argv = append(argv, x.Str())
		}
		cmd := exec.Command(command.Str(), argv...)
		cmd.Env = os.Environ()
		env, _ := m.Value.Get("env")
		for _, e := range env.Members() {
			cmd.Env = append(cmd.Env, e.Key+"="+e.Value.Str())
		}
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			return err
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		s := &server{name: m.Key, cmd: cmd, in: in, out: sc}
		servers = append(servers, s)
		if t, ok := m.Value.Get("trust"); ok && t.Kind == ojson.Bool && t.Bool {
			cfg.Trusted = append(cfg.Trusted, m.Key)
		}
		init, err := s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"roots": map[string]any{"listChanged": true}},
			"clientInfo": map[string]any{"name": "gemini-cli-mcp-client", "version": version}})
		if err != nil {
			return err
		}
		var ir struct {
			Instructions string `json:"instructions"`
		}
		_ = json.Unmarshal(init, &ir)
		list, err := s.call("tools/list", map[string]any{}) // the first page only
		if err != nil {
			return err
		}
		var lr struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(list, &lr); err != nil {
			return err
		}
		if i > 0 {
			catJSON.WriteByte(',')
		}
		name, _ := json.Marshal(m.Key)
		instr, _ := json.Marshal(ir.Instructions)
		fmt.Fprintf(&catJSON, `{"name":%s,"instructions":%s,"tools":[`, name, instr)
		for j, t := range lr.Tools {
			if j > 0 {
				catJSON.WriteByte(',')
			}
			catJSON.Write(t)
		}
		catJSON.WriteString(`]}`)
	}
	catJSON.WriteString(`]}`)
	srvs, _, err := corpus.ParseCatalog("settings.json", catJSON.Bytes())
	if err != nil {
		return err
	}
	cat := &corpus.Catalog{Servers: srvs}
	d := gemini.Declare(cat, cfg)
	if mode == "reverse" {
		slices.Reverse(d.MCP)
	}
	instructions := gemini.Instructions(cat)
	if mode == "no-instructions" {
		instructions = ""
	}
	if mode == "hang" {
		time.Sleep(time.Hour)
	}
	first := map[string]any{"role": "user", "parts": []any{
		map[string]any{"text": "<session_context>\nThis is a fake Gemini CLI.\n" + instructions + "\n</session_context>"},
		map[string]any{"text": prompt}}}
	contents := []any{first}
	tools := json.RawMessage(d.JSON())
	base := os.Getenv("GOOGLE_GEMINI_BASE_URL")
	byName := map[string]*gemini.Entry{}
	for _, e := range d.MCP {
		byName[e.Name] = e
	}
	srvOf := map[string]*server{}
	for _, s := range servers {
		srvOf[s.name] = s
	}
	for turn := 0; turn < 4; turn++ {
		parts, err := generate(base, model, contents, tools)
		if err != nil {
			return err
		}
		var calls []*gemini.Entry
		var callArgs []json.RawMessage
		var modelParts []any
		text := ""
		for _, p := range parts {
			if p.FunctionCall == nil {
				text += p.Text
				continue
			}
			modelParts = append(modelParts, map[string]any{"functionCall": p.FunctionCall})
			calls = append(calls, byName[p.FunctionCall.Name])
			callArgs = append(callArgs, p.FunctionCall.Args)
		}
		if len(calls) == 0 {
			b, _ := json.Marshal(map[string]any{"response": text})
			fmt.Println(string(b))
			return nil
		}
		contents = append(contents, map[string]any{"role": "model", "parts": modelParts})
		var user []any
		for i, e := range calls {
			if e == nil {
				user = append(user, map[string]any{"functionResponse": map[string]any{"name": "unknown", "response": map[string]any{"error": "Tool not found."}}})
				continue
			}
			id := fmt.Sprintf("%s_1796000000000_%d", e.Name, i)
			args := callArgs[i]
			if len(args) == 0 {
				args = json.RawMessage(`{}`)
			}
			var dv gemini.Delivery
			res, err := srvOf[e.Tool.Server].call("tools/call", map[string]any{"name": e.Tool.Name, "arguments": args})
			opts := gemini.DeliverOptions{Args: string(args), CallID: id, Model: model, OutputSchema: e.Tool.OutputSchema.Exists()}
			if mode == "cut" {
				opts.Threshold = 30000
			}
			if err != nil {
				dv = gemini.ErrorDelivery(e.Tool.Name, string(args), err.Error())
			} else {
				v, perr := ojson.Parse(res)
				if perr != nil {
					return perr
				}
				dv = gemini.Deliver(e.Tool.Name, e.Name, v, opts)
			}
			user = append(user, map[string]any{"functionResponse": map[string]any{"id": id, "name": e.Name, "response": json.RawMessage(dv.Response)}})
			for _, x := range dv.Inline {
				user = append(user, map[string]any{"inlineData": map[string]any{"mimeType": x.MimeType, "data": x.Data}})
			}
		}
		contents = append(contents, map[string]any{"role": "user", "parts": user})
	}
	return errors.New("too many turns")
}

type part struct {
	Text         string `json:"text"`
	FunctionCall *struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
}

// generate sends one streamGenerateContent request and returns the
// model's parts.
func generate(base, model string, contents []any, tools json.RawMessage) ([]part, error) {
	body, err := json.Marshal(map[string]any{"contents": contents, "tools": tools})
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/v1beta/models/"+model+":streamGenerateContent?alt=sse", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-goog-api-key", os.Getenv("GEMINI_API_KEY"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("API: %s: %s", resp.Status, raw)
	}
	var out []part
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Candidates []struct {
				Content struct {
					Parts []part `json:"parts"`
				} `json:"content"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return nil, err
		}
		for _, c := range ev.Candidates {
			out = append(out, c.Content.Parts...)
		}
	}
	return out, nil
}
