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
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"

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
	switch {
	case len(args) == 0:
		fmt.Fprint(errOut, usage)
		return 2
	case len(args) > 1:
		fmt.Fprintf(errOut, "toolfind-js: one command, not %d arguments: %q\n%s", len(args), args, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		// Ctrl-C reaches the whole process group: toolfind cancels its
		// runs and closes our input, which ends Serve.
		signal.Ignore(os.Interrupt)
		if err := remote.Serve(context.Background(), in, out, gojabox.New()); err != nil {
			fmt.Fprintf(errOut, "toolfind-js: %v\n", err)
			return 1
		}
		return 0
	case "version":
		fmt.Fprintf(out, "toolfind-js (protocol %d)%s\n", remote.Protocol, gojaVersion())
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(out, usage)
		return 0
	}
	fmt.Fprintf(errOut, "toolfind-js: unknown command %q\n%s", args[0], usage)
	return 2
}

// gojaVersion names the goja module linked, from the build information.
func gojaVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/dop251/goja" {
			return "\n  " + d.Path + " " + d.Version
		}
	}
	return ""
}
