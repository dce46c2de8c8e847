// Package helpercmd is the command line of toolfind's helper programs
// (toolfind-js, toolfind-live, toolfind-model): each holds what the
// toolfind command does not link and serves it over its standard input
// and output when toolfind runs "<program> serve".
//
// Run takes exactly one command: serve (the protocol, until the input
// ends), version (the protocol's version and the versions of the modules
// the program exists for), help (-h, --help) or one of the program's
// own. No command prints the
// usage and exits 2, as do an unknown command and more than one
// argument (named, quoted); a failed serve prints "<program>: <error>"
// and exits 1.
package helpercmd

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Program is one helper program.
type Program struct {
	Name     string // toolfind-js
	Usage    string // the usage text, ending in a newline
	Protocol int    // the version of its line protocol
	// Modules are parts of module paths (e.g. "dop251/goja"): version
	// lists each linked module whose path contains one.
	Modules []string
	// Serve runs the protocol until in ends.
	Serve func(in io.Reader, out io.Writer) error
	// More are further commands, each failing as "<program>: <command>:
	// <error>" (exit 1).
	More []Command
}

// Command is a further command of a program.
type Command struct {
	Name string
	Run  func(in io.Reader, out io.Writer) error
}

// Run runs the command args and returns the exit code.
func (p Program) Run(args []string, in io.Reader, out, errOut io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(errOut, p.Usage)
		return 2
	case len(args) > 1:
		fmt.Fprintf(errOut, "%s: one command, not %d arguments: %q\n%s", p.Name, len(args), args, p.Usage)
		return 2
	}
	switch args[0] {
	case "serve":
		if err := p.Serve(in, out); err != nil {
			fmt.Fprintf(errOut, "%s: %v\n", p.Name, err)
			return 1
		}
		return 0
	case "version":
		fmt.Fprintf(out, "%s (protocol %d)%s\n", p.Name, p.Protocol, moduleVersions(p.Modules))
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(out, p.Usage)
		return 0
	}
	for _, c := range p.More {
		if c.Name == args[0] {
			if err := c.Run(in, out); err != nil {
				fmt.Fprintf(errOut, "%s: %s: %v\n", p.Name, c.Name, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(errOut, "%s: unknown command %q\n%s", p.Name, args[0], p.Usage)
	return 2
}

// moduleVersions lists, one per line after a newline and two spaces, the
// linked modules whose path contains one of parts, from the build
// information.
func moduleVersions(parts []string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, d := range bi.Deps {
		for _, p := range parts {
			if strings.Contains(d.Path, p) {
				fmt.Fprintf(&b, "\n  %s %s", d.Path, d.Version)
				break
			}
		}
	}
	return b.String()
}
