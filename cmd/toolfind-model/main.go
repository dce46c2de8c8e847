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
	"io"
	"os"
	"os/signal"

	"github.com/toolfind/toolfind/internal/helpercmd"
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
	return helpercmd.Program{Name: "toolfind-model", Usage: usage, Protocol: remote.Protocol, Modules: []string{"openai-go", "anthropic-sdk-go"},
		Serve: func(in io.Reader, out io.Writer) error {
			// Ctrl-C reaches the whole process group: toolfind cancels its
			// asks and closes our input, which ends Serve.
			signal.Ignore(os.Interrupt)
			return remote.Serve(context.Background(), in, out, newBackend)
		},
		More: []helpercmd.Command{{Name: "emulate-api", Run: func(in io.Reader, out io.Writer) error {
			// Ctrl-C reaches the whole process group: toolfind stops the run
			// and closes our input, which ends Serve after the state line.
			signal.Ignore(os.Interrupt)
			return messagesapi.Serve(in, out)
		}}},
	}.Run(args, in, out, errOut)
}

// newBackend is the SDK backend of the hello's configuration, with the
// key from the environment.
func newBackend(cfg model.Config) (model.Backend, error) {
	cfg.Key = os.Getenv(model.KeyVar(cfg.API))
	return sdk.NewBackend(cfg)
}
