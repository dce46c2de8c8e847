// Command toolfind tells whether each AI agent client will find an MCP
// server's tools for a query, and what its model will see of them.
//
// See `toolfind --help` and the README for the commands.
package main

import "os"

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
