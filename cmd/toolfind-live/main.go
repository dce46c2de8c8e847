// Command toolfind-live snapshots live MCP servers for toolfind: it holds
// the MCP Go SDK (package corpus/live), which the toolfind command does
// not link, so that toolfind starts fast. toolfind runs `toolfind-live
// serve` when a command is given live servers (--server, --url), and
// talks to it over its standard input and output (the protocol of
// package corpus/live/remote).
//
// Install it beside toolfind:
//
//	go install github.com/toolfind/toolfind/cmd/toolfind-live@latest
//	go install ./cmd/...    # from a checkout: toolfind and its helper programs
//
// Usage:
//
//	toolfind-live serve      # the protocol on stdin/stdout (run by toolfind)
//	toolfind-live version    # the protocol and SDK versions
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolfind/toolfind/corpus/live"
	"github.com/toolfind/toolfind/corpus/live/remote"
	"github.com/toolfind/toolfind/internal/helpercmd"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: toolfind-live serve | version

toolfind-live snapshots live MCP servers through the official MCP Go SDK
for toolfind's --server and --url; toolfind runs "toolfind-live serve" itself.
`

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	return helpercmd.Program{Name: "toolfind-live", Usage: usage, Protocol: remote.Protocol, Modules: []string{"modelcontextprotocol/go-sdk"},
		Serve: serve}.Run(args, in, out, errOut)
}

// serve answers toolfind until its input ends. Ctrl-C reaches the whole
// process group: toolfind cancels its requests, so SIGINT is ignored
// here. SIGTERM (sent by the kernel when toolfind dies: Pdeathsig) stops
// and reaps the servers, as the input's end does.
func serve(in io.Reader, out io.Writer) error {
	signal.Ignore(os.Interrupt)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	return live.Serve(ctx, in, out)
}
