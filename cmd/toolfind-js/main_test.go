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
	assert.Equal(t, "toolfind-js: unknown command \"serv\"\n"+usage, errOut.String())

	assert.Equal(t, 0, run([]string{"version"}, nil, &out, &errOut))
	assert.True(t, strings.HasPrefix(out.String(), "toolfind-js (protocol 1)\n  github.com/dop251/goja v"), out.String())
}

// serve answers the hello and runs a script in goja; another protocol
// version is refused.
func TestServe(t *testing.T) {
	var out, errOut bytes.Buffer
	in := strings.NewReader(`{"id":0,"hello":{"protocol":1}}` + "\n" +
		`{"id":1,"opencode":{"tools":[],"timeout_ns":2000000000}}` + "\n")
	assert.Equal(t, 0, run([]string{"serve"}, in, &out, &errOut), errOut.String())
	assert.Equal(t, `{"id":0,"ready":{"protocol":1}}`+"\n"+`{"id":1,"opened":true}`+"\n", out.String())

	out.Reset()
	in = strings.NewReader(`{"id":0,"hello":{"protocol":7}}` + "\n")
	assert.Equal(t, 1, run([]string{"serve"}, in, &out, &errOut))
	assert.Equal(t, `{"id":0,"error":"line 1: protocol 7: this program speaks 1"}`+"\n", out.String())
	assert.Equal(t, "toolfind-js: line 1: protocol 7: this program speaks 1\n", errOut.String())
}
