package claudecode

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func post(a *modelAPI, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	return rec
}

// TestModelAPI walks one conversation through the emulated API: a side
// request, the request offering ToolSearch, the one carrying its result.
func TestModelAPI(t *testing.T) {
	a := &modelAPI{input: []byte(`{"query":"invoice"}`), useID: "toolu_x", done: make(chan struct{})}
	if rec := post(a, "/v1/messages", `{"tools":[{"name":"Read"}],"messages":[]}`); !strings.Contains(rec.Body.String(), `"text":"OK."`) {
		t.Errorf("side request: %s", rec.Body)
	}
	rec := post(a, "/v1/messages?beta=true", `{"stream":true,"tools":[{"name":"ToolSearch","input_schema":{"required":["query"]}}],"messages":[{"role":"user","content":"go"}]}`)
	body := rec.Body.String()
	for _, want := range []string{
		"event: message_start\n", `"content_block":{"id":"toolu_x","input":{},"name":"ToolSearch","type":"tool_use"}`,
		`"partial_json":"{\"query\":\"invoice\"}"`, `"stop_reason":"tool_use"`, "event: message_stop\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("tool_use stream lacks %q:\n%s", want, body)
		}
	}
	result := `{"stream":false,"tools":[{"name":"ToolSearch"}],"messages":[{"role":"user","content":"go"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_x","name":"ToolSearch","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_x","content":"No matching deferred tools found"},{"type":"text","text":"<system-reminder>\nx\n</system-reminder>"}]}]}`
	if rec := post(a, "/v1/messages", result); !strings.Contains(rec.Body.String(), `"text":"Done."`) {
		t.Errorf("result request: %s", rec.Body)
	}
	select {
	case <-a.done:
	default:
		t.Fatal("done not closed")
	}
	got, err := a.captured.answer()
	if err != nil || len(got.Tools) != 0 || got.Text != "No matching deferred tools found\n\n<system-reminder>\nx\n</system-reminder>" {
		t.Errorf("answer %+v %v", got, err)
	}
	if fmt.Sprint(a.required) != "[query]" {
		t.Errorf("required %v", a.required)
	}
	if rec := post(a, "/v1/messages/count_tokens", `{}`); rec.Body.String() != `{"input_tokens":42}` {
		t.Errorf("count_tokens %s", rec.Body)
	}
	if rec := post(a, "/v1/other", `{}`); rec.Code != http.StatusNotFound {
		t.Errorf("unknown path: %d", rec.Code)
	}
	if rec := post(a, "/v1/messages", `{`); rec.Code != http.StatusBadRequest {
		t.Errorf("bad JSON: %d", rec.Code)
	}
}

func TestCaptureAnswer(t *testing.T) {
	c := capture{content: json.RawMessage(`[{"type":"tool_reference","tool_name":"a"},{"type":"tool_reference","tool_name":"b"}]`),
		extra: []json.RawMessage{json.RawMessage(`{"type":"text","text":"Tool loaded."}`)}}
	if got, err := c.answer(); err != nil || fmt.Sprint(got.Tools) != "[a b]" || got.Text != "" {
		t.Errorf("%+v %v", got, err)
	}
	c = capture{content: json.RawMessage(`"bad input"`), isError: true}
	if _, err := c.answer(); err == nil || err.Error() != "the client reported a tool error: bad input" {
		t.Errorf("is_error: %v", err)
	}
}

// FuzzModelAPI: no request body makes the emulator panic, and every
// non-streamed answer is JSON.
func FuzzModelAPI(f *testing.F) {
	for _, s := range []string{
		`{"tools":[{"name":"ToolSearch"}],"messages":[]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_x"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_x","content":[{"type":"tool_reference"}]}]}]}`,
		`{"messages":[{"role":"assistant","content":"x"},{"role":"user","content":7}]}`, `[]`, `{"tools":7}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		a := &modelAPI{input: []byte(`{"query":"q"}`), useID: "toolu_x", done: make(chan struct{})}
		rec := post(a, "/v1/messages", body)
		if ct := rec.Header().Get("Content-Type"); ct == "application/json" && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON answer %q", rec.Body)
		}
		if a.captured != nil {
			_, _ = a.captured.answer()
		}
	})
}
