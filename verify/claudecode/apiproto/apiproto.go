// Package apiproto is the protocol between `toolfind verify` (package
// verify/claudecode) and the process that serves the emulated Anthropic
// Messages API to Claude Code (package verify/claudecode/messagesapi, run
// as `toolfind-model emulate-api`). The server lives in another process so
// that the toolfind command does not link net/http, whose package
// initialisation (crypto/tls, x509, http2) would run on every start.
//
// One JSON object per line, each with a "type". toolfind writes to the
// server's standard input:
//
//	{"type":"input","input":{"query":"invoice"}}   first: the ToolSearch input of the run
//	{"type":"unlisted","servers":["a","b"]}        the answer to a "call"
//
// and closes it to end the run. The server writes to its standard output:
//
//	{"type":"url","url":"http://127.0.0.1:PORT"}   listening (ANTHROPIC_BASE_URL)
//	{"type":"call"}                                 a request offers ToolSearch: the
//	                                                 server waits for "unlisted" before
//	                                                 it answers with the call
//	{"type":"done"}                                 the call's tool_result is in
//	{"type":"state","state":{...}}                  last, once its input is closed:
//	                                                 what the run saw (State)
//
// Calls are one at a time: a "call" is always answered before the next.
// Decode checks each line and says what is wrong with it.
package apiproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// SearchTool is the name of Claude Code's search tool (specs/claude.md
// background §1).
const SearchTool = "ToolSearch"

// Message types.
const (
	TypeInput    = "input"
	TypeUnlisted = "unlisted"
	TypeURL      = "url"
	TypeCall     = "call"
	TypeDone     = "done"
	TypeState    = "state"
)

// Message is one line of the protocol; the fields besides Type belong to
// the types named beside them.
type Message struct {
	Type    string          `json:"type"`
	Input   json.RawMessage `json:"input,omitempty"`   // input: a JSON object
	Servers []string        `json:"servers,omitempty"` // unlisted
	URL     string          `json:"url,omitempty"`     // url: http://HOST:PORT
	State   *State          `json:"state,omitempty"`   // state
}

// State is what the emulated API saw during a run.
type State struct {
	// Called: the call was sent (a request offered ToolSearch).
	Called bool `json:"called"`
	// Required is the "required" of ToolSearch's input schema as first
	// offered (nil when never offered).
	Required []string `json:"required"`
	// Offered are the tools of the latest request that had no ToolSearch.
	Offered []string `json:"offered"`
	// Unlisted is the "unlisted" answer to the first call.
	Unlisted []string `json:"unlisted"`
	// Captured is the call's tool_result, nil when none came.
	Captured *Capture `json:"captured"`
}

// Capture is what the client sent back for the call.
type Capture struct {
	// Content is the tool_result's content: a string or content blocks.
	Content json.RawMessage `json:"content"`
	// IsError is the tool_result's is_error.
	IsError bool `json:"is_error"`
	// Extra are the other content blocks of the same turn.
	Extra []json.RawMessage `json:"extra"`
}

// MaxLine bounds one line (a state carrying Claude Code's answer over a
// large catalog is a few hundred KB).
const MaxLine = 64 << 20

// Encode writes m as one line, texts as they are (no HTML escaping).
func Encode(m Message) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(m) != nil { // only a RawMessage that is not JSON; Decode never yields one
		b.Reset()
		_ = enc.Encode(Message{Type: m.Type})
	}
	return b.Bytes()
}

// Decode reads one line and checks it: a known type with the fields that
// type needs, no unknown field; the error says what is wrong.
func Decode(line []byte) (Message, error) {
	var m Message
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return m, errors.New("empty line")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Message{}, fmt.Errorf("not a protocol message: %w", err)
	}
	if dec.More() {
		return Message{}, errors.New("not a protocol message: text after the JSON object")
	}
	switch m.Type {
	case TypeInput:
		if !isObject(m.Input) {
			return Message{}, errors.New(`"input" message without a JSON object in "input"`)
		}
	case TypeURL:
		if !strings.HasPrefix(m.URL, "http://") || len(m.URL) == len("http://") {
			return Message{}, fmt.Errorf(`"url" message with %q, not an http:// URL`, m.URL)
		}
	case TypeState:
		if m.State == nil {
			return Message{}, errors.New(`"state" message without "state"`)
		}
	case TypeUnlisted, TypeCall, TypeDone:
	case "":
		return Message{}, errors.New(`message without "type"`)
	default:
		return Message{}, fmt.Errorf("unknown message type %q", m.Type)
	}
	return m, nil
}

func isObject(raw json.RawMessage) bool {
	var v map[string]json.RawMessage
	return len(raw) > 0 && json.Unmarshal(raw, &v) == nil && v != nil
}

// Block is a Messages API content block, as far as either side reads it.
type Block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Text      string          `json:"text"`
	ToolName  string          `json:"tool_name"`
}

// Blocks returns a message's content blocks; plain-string content is one
// text block.
func Blocks(c json.RawMessage) []json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(c, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(c, &s) == nil {
		b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
		return []json.RawMessage{b}
	}
	return nil
}
