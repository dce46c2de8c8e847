package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolfindDeps is `go list -deps` of this command: every package it links.
func toolfindDeps(t *testing.T) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	require.NoError(t, err)
	return strings.Fields(string(out))
}

// The toolfind command links no HTTP stack: net/http's initialisation
// (crypto/tls, x509, http2's hpack tables …) would run on every start.
// Progress bars come from github.com/vbauerster/mpb, the model writer's
// core has its own status texts, verify's emulated model API runs in
// toolfind-model and live HTTP servers are reached by toolfind-live.
func TestToolfindLinksNoHTTP(t *testing.T) {
	deps := toolfindDeps(t)
	require.Contains(t, deps, "github.com/toolfind/toolfind/verify/claudecode")
	require.Contains(t, deps, "net") // spf13/pflag imports it
	for _, d := range deps {
		for _, p := range []string{"net/http", "crypto/tls", "crypto/x509", "vendor/golang.org/x/net/http2/hpack", "net/textproto", "mime/multipart"} {
			assert.False(t, d == p || strings.HasPrefix(d, p+"/"), "cmd/toolfind imports %s", d)
		}
	}
}
