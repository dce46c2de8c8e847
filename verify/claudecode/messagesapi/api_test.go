package messagesapi

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
	done := 0
	a := &modelAPI{input: []byte(`{"query":"invoice"}`), useID: "toolu_x", onDone: func() { done++ }}
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
	if done != 1 {
		t.Fatalf("onDone ran %d times", done)
	}
	if c := a.captured; c == nil || string(c.Content) != `"No matching deferred tools found"` || c.IsError ||
		len(c.Extra) != 1 || string(c.Extra[0]) != `{"type":"text","text":"<system-reminder>\nx\n</system-reminder>"}` {
		t.Errorf("captured %+v", c)
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
		a := &modelAPI{input: []byte(`{"query":"q"}`), useID: "toolu_x"}
		rec := post(a, "/v1/messages", body)
		if ct := rec.Header().Get("Content-Type"); ct == "application/json" && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON answer %q", rec.Body)
		}
	})
}
