package copilotcli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/verify/clientproc"
)

// callID is the id of the emulated model's tool_search_tool call.
const callID = "toolfind_search_1"

// api is the emulated model API of one run: it answers chat completions
// (/chat/completions), Responses (/responses) and Anthropic Messages
// (/v1/messages) with server-sent events, as the CLI's streaming clients
// expect. The first request offering tool_search_tool is answered with a
// call of it (when the run has a pattern); the request that carries the
// call's result ends the run. Any other request gets the text "DONE".
type api struct {
	*clientproc.API
	call []byte // the tool_search_tool input, nil for a capture run

	mu      sync.Mutex
	first   []byte          // the first request's body
	result  json.RawMessage // the call's result content
	gotCall bool            // the call was made
	offered []string        // tool names of the first request
}

func startAPI(call []byte) (*api, error) {
	a := &api{call: call}
	var err error
	a.API, err = clientproc.StartAPI("emulated model API", http.HandlerFunc(a.serve))
	return a, err
}

// request is a model request body, as far as verify reads it.
type request struct {
	Tools    []json.RawMessage `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
	Input    json.RawMessage   `json:"input"`
}

func (a *api) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		w.Header().Set("content-type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[]}`)
		return
	}
	body, err := clientproc.ReadBody(r)
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		a.fail(fmt.Errorf("a model request that is not JSON: %v", err))
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	if a.first == nil {
		a.first = body
		a.offered = ToolNames(req.Tools)
	}
	res := findResult(req.Messages)
	offersSearch := contains(ToolNames(req.Tools), "tool_search_tool")
	answerCall := a.call != nil && res == nil && !a.gotCall && offersSearch
	if res != nil && a.result == nil {
		a.result = res
	}
	if answerCall {
		a.gotCall = true
	}
	a.mu.Unlock()
	path := r.URL.Path
	switch {
	case strings.HasSuffix(path, "/messages"):
		writeAnthropic(w, answerCall, a.call)
	case strings.HasSuffix(path, "/responses"):
		writeResponses(w)
	case strings.HasSuffix(path, "/chat/completions"):
		writeChat(w, answerCall, a.call)
	default:
		http.Error(w, "unknown path", http.StatusNotFound)
		return
	}
	if !answerCall {
		a.Finish() // the answer is in, or there will be none
	}
}

// fail keeps the run's first error and ends the run.
func (a *api) fail(err error) {
	a.Fail(err)
	a.Finish()
}

// ToolNames are the names of a tools array's entries (functions inside
// Responses namespaces included, namespaces and hosted tools by type).
func ToolNames(tools []json.RawMessage) []string {
	var out []string
	for _, raw := range tools {
		var t struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		switch {
		case t.Type == "namespace":
			out = append(out, ToolNames(t.Tools)...)
		case t.Function.Name != "":
			out = append(out, t.Function.Name)
		case t.Name != "":
			out = append(out, t.Name)
		default:
			out = append(out, t.Type)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// findResult is the content of the call's result in a conversation: an
// Anthropic tool_result block or a chat-completions tool message.
func findResult(messages []json.RawMessage) json.RawMessage {
	for _, raw := range messages {
		var m struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID == callID {
				if b.Content == nil {
					return json.RawMessage(`""`)
				}
				return b.Content
			}
		}
	}
	return nil
}

func sse(w http.ResponseWriter) func(event string, data any) {
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.Header().Set("connection", "close")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return func(event string, data any) {
		b, _ := json.Marshal(data)
		if s, ok := data.(string); ok {
			b = []byte(s)
		}
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
		if f != nil {
			f.Flush()
		}
	}
}

type obj = map[string]any

func writeChat(w http.ResponseWriter, call bool, input []byte) {
	send := sse(w)
	base := obj{"id": "chatcmpl-toolfind", "object": "chat.completion.chunk", "created": 0, "model": "m"}
	with := func(extra obj) obj {
		o := obj{}
		for k, v := range base {
			o[k] = v
		}
		for k, v := range extra {
			o[k] = v
		}
		return o
	}
	usage := obj{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}
	if call {
		send("", with(obj{"choices": []any{obj{"index": 0, "finish_reason": nil, "delta": obj{"role": "assistant", "content": nil,
			"tool_calls": []any{obj{"index": 0, "id": callID, "type": "function", "function": obj{"name": "tool_search_tool", "arguments": string(input)}}}}}}}))
		send("", with(obj{"choices": []any{obj{"index": 0, "delta": obj{}, "finish_reason": "tool_calls"}}, "usage": usage}))
	} else {
		send("", with(obj{"choices": []any{obj{"index": 0, "finish_reason": nil, "delta": obj{"role": "assistant", "content": "DONE"}}}}))
		send("", with(obj{"choices": []any{obj{"index": 0, "delta": obj{}, "finish_reason": "stop"}}, "usage": usage}))
	}
	send("", "[DONE]")
}

func writeAnthropic(w http.ResponseWriter, call bool, input []byte) {
	send := sse(w)
	usage := obj{"input_tokens": 10, "output_tokens": 2}
	send("message_start", obj{"type": "message_start", "message": obj{"id": "msg_toolfind", "type": "message", "role": "assistant", "model": "m", "content": []any{}, "stop_reason": nil, "usage": usage}})
	stop := "end_turn"
	if call {
		stop = "tool_use"
		send("content_block_start", obj{"type": "content_block_start", "index": 0, "content_block": obj{"type": "tool_use", "id": callID, "name": "tool_search_tool", "input": obj{}}})
		send("content_block_delta", obj{"type": "content_block_delta", "index": 0, "delta": obj{"type": "input_json_delta", "partial_json": string(input)}})
	} else {
		send("content_block_start", obj{"type": "content_block_start", "index": 0, "content_block": obj{"type": "text", "text": ""}})
		send("content_block_delta", obj{"type": "content_block_delta", "index": 0, "delta": obj{"type": "text_delta", "text": "DONE"}})
	}
	send("content_block_stop", obj{"type": "content_block_stop", "index": 0})
	send("message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": stop}, "usage": obj{"output_tokens": 2}})
	send("message_stop", obj{"type": "message_stop"})
}

// writeResponses answers with a text: the hosted tool_search runs at
// OpenAI, so a run over the Responses wire only captures the request.
func writeResponses(w http.ResponseWriter) {
	send := sse(w)
	item := obj{"type": "message", "id": "msg_toolfind", "role": "assistant", "status": "completed",
		"content": []any{obj{"type": "output_text", "text": "DONE", "annotations": []any{}}}}
	usage := obj{"input_tokens": 10, "output_tokens": 2, "total_tokens": 12,
		"input_tokens_details": obj{"cached_tokens": 0}, "output_tokens_details": obj{"reasoning_tokens": 0}}
	resp := obj{"id": "resp_toolfind", "object": "response", "created_at": 0, "model": "m", "status": "completed", "output": []any{item}, "usage": usage}
	n := 0
	ev := func(t string, kv obj) {
		n++
		kv["type"], kv["sequence_number"] = t, n
		send(t, kv)
	}
	inProgress := obj{}
	for k, v := range resp {
		inProgress[k] = v
	}
	inProgress["status"], inProgress["output"] = "in_progress", []any{}
	ev("response.created", obj{"response": inProgress})
	ev("response.output_item.added", obj{"output_index": 0, "item": item})
	ev("response.content_part.added", obj{"output_index": 0, "item_id": "msg_toolfind", "content_index": 0, "part": obj{"type": "output_text", "text": "", "annotations": []any{}}})
	ev("response.output_text.delta", obj{"output_index": 0, "item_id": "msg_toolfind", "content_index": 0, "delta": "DONE"})
	ev("response.output_text.done", obj{"output_index": 0, "item_id": "msg_toolfind", "content_index": 0, "text": "DONE"})
	ev("response.content_part.done", obj{"output_index": 0, "item_id": "msg_toolfind", "content_index": 0, "part": obj{"type": "output_text", "text": "DONE", "annotations": []any{}}})
	ev("response.output_item.done", obj{"output_index": 0, "item": item})
	ev("response.completed", obj{"response": resp})
}
