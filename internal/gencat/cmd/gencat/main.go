// Command gencat writes a synthetic catalog of N tools to standard output
// (package gencat), for trying toolfind at scale without committing data:
//
//	go run ./internal/gencat/cmd/gencat -n 100000 -dir /tmp/100k
//	toolfind rank --catalog /tmp/100k --query "create invoice" --timing
//
// Without -dir it writes one {"servers": [...]} file to standard output
// (over 64 MiB, toolfind's limit for one file, from about 70,000 tools).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/toolfind/toolfind/internal/gencat"
)

func main() {
	n := flag.Int("n", 100_000, "number of tools")
	seed := flag.Uint64("seed", 1, "random seed (same seed, same catalog)")
	dir := flag.String("dir", "", "write one catalog file per server into this folder instead")
	flag.Parse()
	write := func() error { return gencat.Write(os.Stdout, *n, *seed) }
	if *dir != "" {
		write = func() error { return gencat.WriteDir(*dir, *n, *seed) }
	}
	if err := write(); err != nil {
		fmt.Fprintln(os.Stderr, "gencat:", err)
		os.Exit(1)
	}
}
