// Command fakecopilot stands in for GitHub Copilot CLI in toolfind's
// tests: it reads the same command line and environment as the real CLI
// as far as `toolfind verify` uses them (-p, --additional-mcp-config @F,
// COPILOT_MODEL, COPILOT_PROVIDER_TYPE, COPILOT_PROVIDER_WIRE_API,
// COPILOT_PROVIDER_BASE_URL), sends the tool entries toolfind's own
// simulation gives, and answers a tool_search_tool call with the
// simulation's search. It holds no Copilot CLI code or text. It reads the
// catalog from the stub files named in the MCP config instead of
// speaking MCP to them.
//
//	fakecopilot --version       "GitHub Copilot CLI 1.0.102."
//	fakecopilot -p PROMPT … --additional-mcp-config @FILE
//
// FAKE_COPILOT_MODE: "reverse" returns search results in reverse order,
// "describe" changes the first MCP entry's description, "extra" sends one
// entry more, "crash" exits 1 at once (a client that disagrees or fails).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fakecopilot:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	mode := os.Getenv("FAKE_COPILOT_MODE")
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println("GitHub Copilot CLI 1.0.102.")
		return nil
	}
	if mode == "crash" {
		return fmt.Errorf("crashing as asked")
	}
	var cfgPath string
	for i, a := range args {
		if a == "--additional-mcp-config" && i+1 < len(args) {
			cfgPath = strings.TrimPrefix(args[i+1], "@")
		}
	}
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		return err
	}
	var cfg struct {
		MCPServers map[string]struct {
			Args       []string `json:"args"`
			DeferTools string   `json:"deferTools"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return err
	}
	var servers []mcpstub.Server
	var never []string
	for name, s := range cfg.MCPServers {
		srv, err := mcpstub.ReadFile(s.Args[len(s.Args)-1])
		if err != nil {
			return err
		}
		servers = append(servers, srv)
		if s.DeferTools == "never" {
			never = append(never, name)
		}
	}
	doc, _ := json.Marshal(map[string]any{"servers": servers})
	ss, _, err := corpus.ParseCatalog("fake.json", doc)
	if err != nil {
		return err
	}
	api := copilot.OpenAI
	switch {
	case os.Getenv("COPILOT_PROVIDER_TYPE") == "anthropic":
		api = copilot.Anthropic
	case os.Getenv("COPILOT_PROVIDER_WIRE_API") == "responses":
		api = copilot.Responses
	}
	sim := copilot.New(&corpus.Catalog{Servers: ss}, copilot.Options{Model: os.Getenv("COPILOT_MODEL"), API: api, Offline: true, NeverDefer: never})
	var tools []json.RawMessage
	for _, b := range sim.BuiltinNames() {
		tools = append(tools, json.RawMessage(fmt.Sprintf(`{"name":%q,"description":"(builtin)","input_schema":{}}`, b)))
	}
	for i, e := range sim.Entries() {
		js := e.JSON
		if i == 0 && mode == "describe" {
			js = strings.Replace(js, `"description":`, `"description":"changed ",  "x":`, 1)
		}
		tools = append(tools, json.RawMessage(js))
	}
	if mode == "extra" {
		tools = append(tools, json.RawMessage(`{"name":"zz-extra","description":"","input_schema":{}}`))
	}
	if sim.Searchable() {
		tools = append(tools, json.RawMessage(`{"name":"tool_search_tool","description":"","input_schema":{}}`))
	}
	base := os.Getenv("COPILOT_PROVIDER_BASE_URL")
	path := base + "/chat/completions"
	if api == copilot.Anthropic {
		path = base + "/v1/messages"
	} else if api == copilot.Responses {
		path = base + "/responses"
	}
	first := map[string]any{"model": sim.Model(), "stream": true, "tools": tools,
		"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "go"}}}}}
	events, err := post(path, first)
	if err != nil {
		return err
	}
	input, id := toolCall(events)
	if input == "" {
		return nil
	}
	var call struct {
		Pattern string `json:"pattern"`
		Limit   int    `json:"limit"`
	}
	if err := json.Unmarshal([]byte(input), &call); err != nil {
		return err
	}
	r := sim.RunSearch(call.Pattern, call.Limit)
	var content any = r.Text
	if len(r.Names) > 0 {
		names := r.Names
		if mode == "reverse" {
			for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
				names[i], names[j] = names[j], names[i]
			}
		}
		var blocks []any
		for _, n := range names {
			blocks = append(blocks, map[string]any{"type": "tool_reference", "tool_name": n})
		}
		content = blocks
	}
	var second map[string]any
	if api == copilot.Anthropic {
		second = map[string]any{"tools": tools, "messages": []any{
			first["messages"].([]any)[0],
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "tool_search_tool", "input": json.RawMessage(input)}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}}},
		}}
	} else {
		second = map[string]any{"tools": tools, "messages": []any{
			first["messages"].([]any)[0],
			map[string]any{"role": "tool", "tool_call_id": id, "content": content},
		}}
	}
	_, err = post(path, second)
	return err
}

// post sends a request and returns the data lines of its event stream.
func post(url string, body any) ([]string, error) {
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out, sc.Err()
}

// toolCall finds a tool_search_tool call in an Anthropic or
// chat-completions event stream: its input and id.
func toolCall(events []string) (input, id string) {
	for _, e := range events {
		var ev struct {
			Type         string `json:"type"`
			ContentBlock struct {
				Type string `json:"type"`
				ID   string `json:"id"`
			} `json:"content_block"`
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						ID       string `json:"id"`
						Function struct {
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(e), &ev) != nil {
			continue
		}
		if ev.ContentBlock.Type == "tool_use" {
			id = ev.ContentBlock.ID
		}
		if ev.Delta.PartialJSON != "" {
			input += ev.Delta.PartialJSON
		}
		for _, c := range ev.Choices {
			for _, tc := range c.Delta.ToolCalls {
				id, input = tc.ID, tc.Function.Arguments
			}
		}
	}
	return input, id
}
