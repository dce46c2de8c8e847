package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The command line is internal/helpercmd's (tested there): this program's
// name, usage and modules.
func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"serv"}, nil, &out, &errOut))
	assert.Equal(t, "toolfind-model: unknown command \"serv\"\n"+usage, errOut.String())

	assert.Equal(t, 0, run([]string{"version"}, nil, &out, &errOut))
	assert.True(t, strings.HasPrefix(out.String(), "toolfind-model (protocol 1)\n  github.com/anthropics/anthropic-sdk-go/v2 v"), out.String())
}

// serve builds the SDK backend of the hello's API, reading the key from
// the environment, and answers ready; an unknown API is refused.
func TestServe(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-x")
	var out, errOut bytes.Buffer
	in := strings.NewReader(`{"id":0,"hello":{"protocol":1,"api":"openai","base_url":"http://127.0.0.1:9/v1","model":"m"}}` + "\n")
	assert.Equal(t, 0, run([]string{"serve"}, in, &out, &errOut), errOut.String())
	assert.Equal(t, `{"id":0,"ready":{"protocol":1}}`+"\n", out.String())

	out.Reset()
	in = strings.NewReader(`{"id":0,"hello":{"protocol":1,"api":"gemini","model":"m"}}` + "\n")
	assert.Equal(t, 1, run([]string{"serve"}, in, &out, &errOut))
	assert.Equal(t, `{"id":0,"error":{"fatal":"model writer: unknown API \"gemini\" (known: openai, anthropic)"}}`+"\n", out.String())
	assert.Equal(t, "toolfind-model: model writer: unknown API \"gemini\" (known: openai, anthropic)\n", errOut.String())
}

// emulate-api serves one verify run's emulated API on the pipes: the URL
// first, the state once the input closes; a broken first line is an error.
func TestEmulateAPI(t *testing.T) {
	var out, errOut bytes.Buffer
	in := strings.NewReader(`{"type":"input","input":{"query":"invoice"}}` + "\n")
	assert.Equal(t, 0, run([]string{"emulate-api"}, in, &out, &errOut), errOut.String())
	lines := strings.Split(out.String(), "\n")
	assert.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[0], `{"type":"url","url":"http://127.0.0.1:`), lines[0])
	assert.Equal(t, `{"type":"state","state":{"called":false,"required":null,"offered":null,"unlisted":null,"captured":null}}`, lines[1])

	out.Reset()
	assert.Equal(t, 1, run([]string{"emulate-api"}, strings.NewReader(`{"id":0,"hello":{}}`+"\n"), &out, &errOut))
	assert.Equal(t, "toolfind-model: emulate-api: line 1: not a protocol message: json: unknown field \"id\"\n", errOut.String())
	assert.Empty(t, out.String())
}
