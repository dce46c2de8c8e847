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
	assert.Equal(t, "toolfind-live: unknown command \"serv\"\n"+usage, errOut.String())

	assert.Equal(t, 0, run([]string{"version"}, nil, &out, &errOut))
	assert.True(t, strings.HasPrefix(out.String(), "toolfind-live (protocol 1)\n  github.com/modelcontextprotocol/go-sdk v"), out.String())
}

// serve answers the hello, then a take of a command that does not
// exist with the start error corpus/live gives it; another protocol
// version is refused.
func TestServe(t *testing.T) {
	var out, errOut bytes.Buffer
	in := strings.NewReader(`{"id":0,"hello":{"protocol":1}}` + "\n" +
		`{"id":1,"take":{"sources":[{"command":["toolfind-no-such-command-xyz"]}],"options":{"timeout_ns":5000000000}}}` + "\n")
	assert.Equal(t, 0, run([]string{"serve"}, in, &out, &errOut), errOut.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if assert.Len(t, lines, 2) {
		assert.Equal(t, `{"id":0,"ready":{"protocol":1}}`, lines[0])
		assert.True(t, strings.HasPrefix(lines[1], `{"id":1,"error":{"text":"live server \"toolfind-no-such-command-xyz\": start: command \"toolfind-no-such-command-xyz\" not found in PATH: exec: `), lines[1])
		assert.Contains(t, lines[1], `"sentinel":"not-found"`)
	}

	out.Reset()
	in = strings.NewReader(`{"id":0,"hello":{"protocol":2}}` + "\n")
	assert.Equal(t, 1, run([]string{"serve"}, in, &out, &errOut))
	assert.Equal(t, `{"id":0,"fatal":"protocol 2: this program speaks 1"}`+"\n", out.String())
	assert.Equal(t, "toolfind-live: protocol 2: this program speaks 1\n", errOut.String())
}
