package transcript

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/toolfind/toolfind/writer"
)

// claudeLine holds the members of a Claude Code transcript line that
// Import reads; everything else is left undecoded.
type claudeLine struct {
	Type             string          `json:"type"`
	SessionID        string          `json:"sessionId"`
	Version          string          `json:"version"`
	Cwd              string          `json:"cwd"`
	Timestamp        string          `json:"timestamp"`
	IsSidechain      bool            `json:"isSidechain"`
	AgentID          string          `json:"agentId"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"`
	Message          *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type claudeBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// claudeOther are the line types Claude Code writes that hold no prompt
// and no call (2.1.x).
var claudeOther = map[string]bool{
	"summary": true, "system": true, "attachment": true, "queue-operation": true,
	"file-history-snapshot": true, "last-prompt": true, "atis-latch": true,
	"api-request-shape": true, "api-request-blob": true, "api-request": true,
	"tools-used": true, "cost-state": true, "progress": true, "custom-title": true,
	"tag": true, "agent-name": true, "pr-link": true, "mode": true,
}

// ClaudeSearchTool is the tool whose calls are Claude Code's searches
// (specs/claude.md background §1).
const ClaudeSearchTool = "ToolSearch"

// ParseClaude reads one Claude Code transcript (package doc).
func ParseClaude(file string, r io.Reader, opts Options, st *Stats) ([]writer.Line, error) {
	im := newImporter(opts, st)
	chains := map[string]*chain{}
	chainOf := func(l *claudeLine) *chain {
		k := l.SessionID
		if l.IsSidechain {
			k += "\x00" + l.AgentID
		}
		c := chains[k]
		if c == nil {
			c = &chain{session: l.SessionID}
			chains[k] = c
		}
		return c
	}
	err := eachLine(file, r, st, func(n int, raw []byte) {
		var l claudeLine
		if raw[0] != '{' || json.Unmarshal(raw, &l) != nil {
			st.unknown(file, n)
			return
		}
		switch {
		case l.Type == "user" && l.Message != nil:
			text, ok := claudePrompt(&l)
			if !ok {
				st.Other++
				return
			}
			im.startPrompt(chainOf(&l), text, l.Timestamp, l.Cwd)
		case l.Type == "assistant" && l.Message != nil:
			var blocks []claudeBlock
			if json.Unmarshal(l.Message.Content, &blocks) != nil {
				st.Other++ // a plain-text answer
				return
			}
			c := chainOf(&l)
			used := false
			for _, b := range blocks {
				if b.Type != "tool_use" {
					continue
				}
				switch {
				case b.Name == ClaudeSearchTool:
					if call := objectOrNil(b.Input); call != nil {
						im.search(c, clientID("claude", l.Version), call)
						used = true
					}
				case strings.HasPrefix(b.Name, "mcp__"):
					im.called(c, b.Name)
					used = true
				}
			}
			if !used {
				st.Other++ // text, thinking, other tools
			}
		case claudeOther[l.Type], l.Type == "user", l.Type == "assistant":
			st.Other++
		default:
			st.unknown(file, n)
		}
	})
	for _, c := range chains {
		im.finish(c)
	}
	return im.out, err
}

// claudePrompt returns the user's prompt of a user line, if it is one.
func claudePrompt(l *claudeLine) (string, bool) {
	if l.IsMeta || l.IsCompactSummary || len(l.ToolUseResult) > 0 {
		return "", false
	}
	var text string
	var s string
	if json.Unmarshal(l.Message.Content, &s) == nil {
		text = s
	} else {
		var blocks []claudeBlock
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			return "", false
		}
		var parts []string
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				return "", false
			case "text":
				if !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>") {
					parts = append(parts, b.Text)
				}
			}
		}
		text = strings.Join(parts, "\n")
	}
	t := strings.TrimSpace(text)
	switch {
	case t == "",
		strings.HasPrefix(t, "<command-name>"), strings.HasPrefix(t, "<command-message>"),
		strings.HasPrefix(t, "<local-command-"), strings.HasPrefix(t, "<system-reminder>"),
		strings.HasPrefix(t, "[Request interrupted"):
		return "", false
	}
	return t, true
}

// objectOrNil returns raw, compacted, when it is a JSON object; the
// members keep the model's order.
func objectOrNil(raw json.RawMessage) json.RawMessage {
	t := strings.TrimSpace(string(raw))
	if t == "" || t[0] != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &m) != nil {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(t)) != nil {
		return nil
	}
	return b.Bytes()
}

// clientID is "name@version", or the name alone without a version.
func clientID(name, version string) string {
	v := strings.TrimSpace(version)
	if v == "" || strings.ContainsAny(v, "@, \t\n") {
		return name
	}
	return name + "@" + v
}
