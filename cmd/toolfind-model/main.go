// Command toolfind-model asks a model for toolfind: it holds the OpenAI
// and Anthropic SDKs (package writer/model/sdk), which the toolfind
// command does not link, so that toolfind starts fast. toolfind runs
// `toolfind-model serve` when --writer model asks a model, and talks to
// it over its standard input and output (the protocol of package
// writer/model/remote); the API key comes in its environment
// (OPENAI_API_KEY or ANTHROPIC_API_KEY).
//
// It also serves, for `toolfind verify`, the emulated Anthropic Messages
// API that the real Claude Code is pointed at (package
// verify/claudecode/messagesapi): an HTTP server, which the toolfind
// command does not link either (net/http's initialisation would run on
// every toolfind start). toolfind runs `toolfind-model emulate-api` once
// per query and talks to it over its standard input and output (package
// verify/claudecode/apiproto).
//
// Install it beside toolfind:
//
//	go install github.com/toolfind/toolfind/cmd/toolfind-model@latest
//	go install ./cmd/...    # from a checkout: toolfind and toolfind-model
//
// Usage:
//
//	toolfind-model serve        # the protocol on stdin/stdout (run by toolfind)
//	toolfind-model emulate-api  # the emulated Messages API of one verify run (run by toolfind)
//	toolfind-model version      # the protocol and SDK versions
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
	"github.com/toolfind/toolfind/writer/model"
	"github.com/toolfind/toolfind/writer/model/remote"
	"github.com/toolfind/toolfind/writer/model/sdk"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: toolfind-model serve | emulate-api | version

toolfind-model asks a model through the official OpenAI and Anthropic SDKs
for toolfind's --writer model, and serves the emulated model API of
toolfind verify; toolfind runs "toolfind-model serve" and
"toolfind-model emulate-api" itself.
`

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(errOut, usage)
		return 2
	case len(args) > 1:
		fmt.Fprintf(errOut, "toolfind-model: one command, not %d arguments: %q\n%s", len(args), args, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		// Ctrl-C reaches the whole process group: toolfind cancels its
		// asks and closes our input, which ends Serve.
		signal.Ignore(os.Interrupt)
		if err := remote.Serve(context.Background(), in, out, newBackend); err != nil {
			fmt.Fprintf(errOut, "toolfind-model: %v\n", err)
			return 1
		}
		return 0
	case "emulate-api":
		// Ctrl-C reaches the whole process group: toolfind stops the run
		// and closes our input, which ends Serve after the state line.
		signal.Ignore(os.Interrupt)
		if err := messagesapi.Serve(in, out); err != nil {
			fmt.Fprintf(errOut, "toolfind-model: emulate-api: %v\n", err)
			return 1
		}
		return 0
	case "version":
		fmt.Fprintf(out, "toolfind-model (protocol %d)%s\n", remote.Protocol, sdkVersions())
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(out, usage)
		return 0
	}
	fmt.Fprintf(errOut, "toolfind-model: unknown command %q\n%s", args[0], usage)
	return 2
}

// newBackend is the SDK backend of the hello's configuration, with the
// key from the environment.
func newBackend(cfg model.Config) (model.Backend, error) {
	cfg.Key = os.Getenv(model.KeyVar(cfg.API))
	return sdk.NewBackend(cfg)
}

// sdkVersions names the SDK modules linked, from the build information.
func sdkVersions() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, d := range bi.Deps {
		if strings.Contains(d.Path, "openai-go") || strings.Contains(d.Path, "anthropic-sdk-go") {
			fmt.Fprintf(&b, "\n  %s %s", d.Path, d.Version)
		}
	}
	return b.String()
}
