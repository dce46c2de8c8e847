package transcript

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/toolfind/toolfind/internal/lazyre"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type codexPayload struct {
	Type string `json:"type"`
	// session_meta
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	// event_msg user_message
	Message string `json:"message"`
	// response_item
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Input     string          `json:"input"`
	Arguments json.RawMessage `json:"arguments"`
}

// codexOther are the envelope types Codex writes that hold nothing read
// here (0.17x).
var codexOther = map[string]bool{"turn_context": true, "compacted": true}

// The clients of Codex calls (writer's file format): code mode's exec and
// the BM25 tool_search.
const (
	codexCodeClient   = "codex"
	codexSearchClient = "codex-search"
)

// mcpCallRe finds the MCP tools a code-mode script calls:
// tools.mcp__server__tool( or tools["mcp__server__tool"] (specs/codex.md
// §1.3–1.4: an MCP tool's flat name is its mcp__ namespace, "__", its
// name).
var mcpCallRe = lazyre.New(`tools(?:\.(mcp__[A-Za-z0-9_]+)\s*\(|\[\s*["'](mcp__[A-Za-z0-9_]+)["']\s*\])`)

// ParseCodex reads one Codex rollout (package doc).
func ParseCodex(file string, r io.Reader, opts Options, st *Stats) ([]writer.Line, error) {
	im := newImporter(opts, st)
	c := &chain{}
	var cwd, version string
	// Codex logs a prompt twice (a response_item message and an event_msg
	// user_message, either first): the second opens no new prompt unless a
	// call came between.
	open := func(t, ts string) {
		if c.prompt == t && !c.busy {
			return
		}
		im.startPrompt(c, t, ts, cwd)
	}
	err := eachLine(file, r, st, func(n int, raw []byte) {
		var l codexLine
		var p codexPayload
		if raw[0] != '{' || json.Unmarshal(raw, &l) != nil || json.Unmarshal(l.Payload, &p) != nil {
			st.unknown(file, n)
			return
		}
		switch l.Type {
		case "session_meta":
			c.session, cwd, version = p.ID, p.Cwd, p.CLIVersion
			st.Other++
		case "event_msg":
			if p.Type != "user_message" || strings.TrimSpace(p.Message) == "" {
				st.Other++
				return
			}
			open(strings.TrimSpace(p.Message), l.Timestamp)
		case "response_item":
			switch p.Type {
			case "message":
				t, ok := codexUserText(p)
				if !ok {
					st.Other++
					return
				}
				open(t, l.Timestamp)
			case "tool_search_call":
				args := p.Arguments
				var s string
				if json.Unmarshal(args, &s) == nil {
					args = json.RawMessage(s)
				}
				if call := objectOrNil(args); call != nil {
					im.search(c, clientID(codexSearchClient, version), call)
				}
			case "custom_tool_call":
				if p.Name != "exec" {
					st.Other++
					return
				}
				if strings.Contains(p.Input, "ALL_TOOLS") {
					im.search(c, clientID(codexCodeClient, version), search.MarshalCall("code", p.Input))
				}
				if m := mcpCallRe.Re().FindStringSubmatch(p.Input); m != nil {
					im.called(c, m[1]+m[2])
				}
			case "function_call":
				name := p.Name
				if strings.HasPrefix(p.Namespace, "mcp__") {
					name = strings.TrimSuffix(p.Namespace, "__") + "__" + p.Name
				}
				if strings.HasPrefix(name, "mcp__") {
					im.called(c, name)
				}
			default:
				st.Other++
			}
		default:
			if codexOther[l.Type] {
				st.Other++
			} else {
				st.unknown(file, n)
			}
		}
	})
	im.finish(c)
	return im.out, err
}

// codexUserText is the user's text of a response_item message, unless it
// is a block Codex adds to the conversation itself (environment context,
// AGENTS.md and user instructions, permissions).
func codexUserText(p codexPayload) (string, bool) {
	if p.Role != "user" {
		return "", false
	}
	var items []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(p.Content, &items) != nil {
		return "", false
	}
	var parts []string
	for _, it := range items {
		t := strings.TrimSpace(it.Text)
		if it.Type != "input_text" || t == "" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# AGENTS.md") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n"), true
}
