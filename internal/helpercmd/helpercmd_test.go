package helpercmd

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRun(t *testing.T) {
	served := ""
	p := Program{Name: "toolfind-x", Usage: "usage: toolfind-x serve | version\n", Protocol: 3, Modules: []string{"stretchr/testify"},
		Serve: func(in io.Reader, out io.Writer) error {
			b, _ := io.ReadAll(in)
			served = string(b)
			if served == "fail" {
				return errors.New("no luck")
			}
			_, err := io.WriteString(out, "ok\n")
			return err
		},
		More: []Command{{Name: "emulate", Run: func(in io.Reader, out io.Writer) error { return errors.New("cannot") }}}}
	for _, tt := range []struct {
		args          []string
		in            string
		code          int
		out, errOut   string
		servedWithArg string
	}{
		{nil, "", 2, "", p.Usage, ""},
		{[]string{"serv"}, "", 2, "", "toolfind-x: unknown command \"serv\"\n" + p.Usage, ""},
		{[]string{"serve", "x\x1b"}, "", 2, "", "toolfind-x: one command, not 2 arguments: [\"serve\" \"x\\x1b\"]\n" + p.Usage, ""},
		{[]string{"--help"}, "", 0, p.Usage, "", ""},
		{[]string{"serve"}, "line", 0, "ok\n", "", "line"},
		{[]string{"serve"}, "fail", 1, "", "toolfind-x: no luck\n", "fail"},
		{[]string{"emulate"}, "", 1, "", "toolfind-x: emulate: cannot\n", ""},
	} {
		served = ""
		var out, errOut bytes.Buffer
		assert.Equal(t, tt.code, p.Run(tt.args, strings.NewReader(tt.in), &out, &errOut), "%q", tt.args)
		assert.Equal(t, tt.out, out.String(), "%q", tt.args)
		assert.Equal(t, tt.errOut, errOut.String(), "%q", tt.args)
		assert.Equal(t, tt.servedWithArg, served, "%q", tt.args)
	}
	// In a test binary the build information lists no dependencies.
	var out bytes.Buffer
	assert.Equal(t, 0, p.Run([]string{"version"}, nil, &out, io.Discard))
	assert.True(t, strings.HasPrefix(out.String(), "toolfind-x (protocol 3)"), out.String())
}
