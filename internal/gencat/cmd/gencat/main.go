// Command gencat writes a synthetic catalog of N tools to standard output
// (package gencat), for trying toolfind at scale without committing data:
//
//	go run ./internal/gencat/cmd/gencat -n 100000 > /tmp/100k.json
//	toolfind rank --catalog /tmp/100k.json --query "create invoice" --timing
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
	flag.Parse()
	if err := gencat.Write(os.Stdout, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gencat:", err)
		os.Exit(1)
	}
}
