package messagesapi

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/verify/claudecode/apiproto"
)

// pipeRun is Serve on pipes, as toolfind runs it.
type pipeRun struct {
	in   *io.PipeWriter
	out  *bufio.Scanner
	errc chan error
}

func startServe(t *testing.T) *pipeRun {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &pipeRun{in: inW, out: bufio.NewScanner(outR), errc: make(chan error, 1)}
	go func() {
		r.errc <- Serve(inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return r
}

func (r *pipeRun) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(r.in, line+"\n")
	require.NoError(t, err)
}

func (r *pipeRun) next(t *testing.T) apiproto.Message {
	t.Helper()
	require.True(t, r.out.Scan(), "no line: %v", r.out.Err())
	m, err := apiproto.Decode(r.out.Bytes())
	require.NoError(t, err, r.out.Text())
	return m
}

func postTo(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// TestServe walks one run over the pipes and real HTTP: input, url, the
// call's round trip (the unlisted answer kept), done, and the state once
// the input closes.
func TestServe(t *testing.T) {
	r := startServe(t)
	r.send(t, `{"type":"input","input":{"query":"invoice","max_results":3}}`)
	m := r.next(t)
	require.Equal(t, apiproto.TypeURL, m.Type)
	assert.True(t, strings.HasPrefix(m.URL, "http://127.0.0.1:"), m.URL)

	// A side request: no call.
	assert.Contains(t, postTo(t, m.URL, `{"tools":[{"name":"Read"},{"name":"Grep"}],"messages":[]}`), `"text":"OK."`)
	// The request offering ToolSearch: a call, answered before the reply.
	replied := make(chan string, 1)
	go func() {
		replied <- postTo(t, m.URL, `{"tools":[{"name":"ToolSearch","input_schema":{"required":["query"]}}],"messages":[{"role":"user","content":"go"}]}`)
	}()
	assert.Equal(t, apiproto.Message{Type: apiproto.TypeCall}, r.next(t))
	r.send(t, `{"type":"unlisted","servers":["slow"]}`)
	body := <-replied
	assert.Contains(t, body, `"input":{"query":"invoice","max_results":3}`)
	assert.Contains(t, body, `"stop_reason":"tool_use"`)
	id := body[strings.Index(body, `"id":"toolu_tf`)+6:]
	id = id[:strings.IndexByte(id, '"')]
	assert.Len(t, id, len("toolu_tf")+24)

	// The result.
	result := `{"tools":[{"name":"ToolSearch"}],"messages":[{"role":"user","content":"go"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"ToolSearch","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":[{"type":"tool_reference","tool_name":"a"}]},{"type":"text","text":"hi"}]}]}`
	go func() { replied <- postTo(t, m.URL, result) }()
	assert.Equal(t, apiproto.Message{Type: apiproto.TypeDone}, r.next(t))
	assert.Contains(t, <-replied, `"text":"Done."`)

	r.in.Close()
	require.True(t, r.out.Scan())
	assert.Equal(t, `{"type":"state","state":{"called":true,"required":["query"],"offered":["Read","Grep"],"unlisted":["slow"],`+
		`"captured":{"content":[{"type":"tool_reference","tool_name":"a"}],"is_error":false,"extra":[{"type":"text","text":"hi"}]}}}`, r.out.Text())
	assert.False(t, r.out.Scan(), "nothing after the state")
	assert.NoError(t, <-r.errc)
	_, err := http.Post(m.URL+"/v1/messages", "application/json", strings.NewReader(`{}`))
	assert.Error(t, err, "the server is closed")
}

// TestServeNoCall: input closed at once; the state says nothing happened.
func TestServeNoCall(t *testing.T) {
	var out strings.Builder
	require.NoError(t, Serve(strings.NewReader(`{"type":"input","input":{"query":"x"}}`+"\n"), &out))
	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[0], `{"type":"url","url":"http://127.0.0.1:`), lines[0])
	assert.Equal(t, `{"type":"state","state":{"called":false,"required":null,"offered":null,"unlisted":null,"captured":null}}`, lines[1])
}

// TestServeProtocolErrors: each broken input names its line; after the
// input line, the state still goes out.
func TestServeProtocolErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", `no input: the first line must be an "input" message`},
		{"{\n", "line 1: not a protocol message: unexpected EOF"},
		{`{"type":"unlisted"}` + "\n", `line 1: a "unlisted" message, want "input" first`},
		{`{"type":"input","input":[1]}` + "\n", `line 1: "input" message without a JSON object in "input"`},
		{`{"type":"input","input":{}}` + "\n" + `{"type":"unlisted","servers":["a"]}` + "\n", `line 2: "unlisted" without a "call"`},
		{`{"type":"input","input":{}}` + "\n" + `{"type":"done"}` + "\n", `line 2: a "done" message, want "unlisted"`},
		{`{"type":"input","input":{}}` + "\n\n", "line 2: empty line"},
	} {
		var out strings.Builder
		err := Serve(strings.NewReader(tt.in), &out)
		if assert.Error(t, err, tt.in) {
			assert.Equal(t, tt.want, err.Error(), tt.in)
		}
		if strings.HasPrefix(tt.want, "line 2") {
			assert.Contains(t, out.String(), `{"type":"state","state":{"called":false`, tt.in)
		}
	}
}
