package messagesapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func postTo(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// TestServer walks one run over real HTTP: a side request, the call (the
// unlisted answer asked as it is made and kept), the result (Done), and
// the state once closed.
func TestServer(t *testing.T) {
	asked := 0
	s, err := Start([]byte(`{"query":"invoice","max_results":3}`), func() []string { asked++; return []string{"slow"} })
	require.NoError(t, err)
	url := s.URL()
	assert.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), url)

	// A side request: no call.
	assert.Contains(t, postTo(t, url, `{"tools":[{"name":"Read"},{"name":"Grep"}],"messages":[]}`), `"text":"OK."`)
	assert.Equal(t, 0, asked)
	// The request offering ToolSearch: the call.
	body := postTo(t, url, `{"tools":[{"name":"ToolSearch","input_schema":{"required":["query"]}}],"messages":[{"role":"user","content":"go"}]}`)
	assert.Equal(t, 1, asked)
	assert.Contains(t, body, `"input":{"query":"invoice","max_results":3}`)
	assert.Contains(t, body, `"stop_reason":"tool_use"`)
	id := body[strings.Index(body, `"id":"toolu_tf`)+6:]
	id = id[:strings.IndexByte(id, '"')]
	assert.Len(t, id, len("toolu_tf")+24)
	select {
	case <-s.Done():
		t.Fatal("done before the result")
	default:
	}

	// The result.
	result := `{"tools":[{"name":"ToolSearch"}],"messages":[{"role":"user","content":"go"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"ToolSearch","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":[{"type":"tool_reference","tool_name":"a"}]},{"type":"text","text":"hi"}]}]}`
	assert.Contains(t, postTo(t, url, result), `"text":"Done."`)
	<-s.Done()
	// The same result again (a retry) changes nothing and closes nothing twice.
	assert.Contains(t, postTo(t, url, result), `"text":"Done."`)

	st := s.Close()
	assert.Equal(t, State{Called: true, Required: []string{"query"}, Offered: []string{"Read", "Grep"}, Unlisted: []string{"slow"},
		Captured: &Capture{Content: json.RawMessage(`[{"type":"tool_reference","tool_name":"a"}]`), Extra: []json.RawMessage{json.RawMessage(`{"type":"text","text":"hi"}`)}}}, st)
	_, err = http.Post(url+"/v1/messages", "application/json", strings.NewReader(`{}`))
	assert.Error(t, err, "the server is closed")
}

// TestServerNoCall: closed at once, the state says nothing happened.
func TestServerNoCall(t *testing.T) {
	s, err := Start([]byte(`{"query":"x"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, State{}, s.Close())
}
