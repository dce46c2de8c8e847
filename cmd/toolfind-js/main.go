// Command toolfind-js runs JavaScript for toolfind: it holds the goja
// engine (package jsbox/gojabox), which the toolfind command does not
// link, so that toolfind starts fast. toolfind runs `toolfind-js serve`
// when a run needs JavaScript — a model's script to replay for Codex or
// OpenCode code mode, a --codex-script, --codex-engine goja — and talks
// to it over its standard input and output (the protocol of package
// jsbox/remote).
//
// Install it beside toolfind:
//
//	go install github.com/toolfind/toolfind/cmd/toolfind-js@latest
//	go install ./cmd/...    # from a checkout: toolfind and its helpers
//
// Usage:
//
//	toolfind-js serve      # the protocol on stdin/stdout (run by toolfind)
//	toolfind-js version    # the protocol and goja versions
package main

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/toolfind/toolfind/internal/helpercmd"
	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/jsbox/remote"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: toolfind-js serve | version

toolfind-js runs the JavaScript of toolfind's code-mode simulators (Codex
exec, OpenCode execute) in goja; toolfind runs "toolfind-js serve" itself.
`

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	return helpercmd.Program{Name: "toolfind-js", Usage: usage, Protocol: remote.Protocol, Modules: []string{"dop251/goja"},
		Serve: func(in io.Reader, out io.Writer) error {
			// Ctrl-C reaches the whole process group: toolfind cancels its
			// runs and closes our input, which ends Serve.
			signal.Ignore(os.Interrupt)
			return remote.Serve(context.Background(), in, out, gojabox.New())
		}}.Run(args, in, out, errOut)
}
