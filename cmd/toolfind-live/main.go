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
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/toolfind/toolfind/corpus/live"
	"github.com/toolfind/toolfind/corpus/live/remote"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: toolfind-live serve | version

toolfind-live snapshots live MCP servers through the official MCP Go SDK
for toolfind's --server and --url; toolfind runs "toolfind-live serve" itself.
`

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(errOut, usage)
		return 2
	case len(args) > 1:
		fmt.Fprintf(errOut, "toolfind-live: one command, not %d arguments: %q\n%s", len(args), args, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		if err := serve(in, out); err != nil {
			fmt.Fprintf(errOut, "toolfind-live: %v\n", err)
			return 1
		}
		return 0
	case "version":
		fmt.Fprintf(out, "toolfind-live (protocol %d)%s\n", remote.Protocol, sdkVersion())
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(out, usage)
		return 0
	}
	fmt.Fprintf(errOut, "toolfind-live: unknown command %q\n%s", args[0], usage)
	return 2
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

// sdkVersion names the MCP SDK module linked, from the build information.
func sdkVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, d := range bi.Deps {
		if strings.Contains(d.Path, "modelcontextprotocol/go-sdk") {
			fmt.Fprintf(&b, "\n  %s %s", d.Path, d.Version)
		}
	}
	return b.String()
}
