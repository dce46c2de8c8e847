// Command calibrate builds and uses the calibration set of the heuristic
// writers (package writer/calib):
//
//	go run ./writer/internal/calibrate batches -family claude -first 1 -last 3
//	go run ./writer/internal/calibrate prompts
//	go run ./writer/internal/calibrate ingest
//	go run ./writer/internal/calibrate fit
//
// batches writes blind call-writing batches (what one client's model sees
// and the prompts, never the expected tools) and their answer keys;
// prompts writes prompt-writing batches for catalogs with no corpus (one
// tool at a time); ingest validates the blind writers' answers, joins
// them with the keys and stores the set under writer/testdata/calib; fit
// derives the heuristic writers' weights from that set and writes the
// leave-one-catalog-out table into its README.
package main

import (
	"fmt"
	"os"

	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: calibrate batches|prompts|ingest|fit [flags]")
		os.Exit(2)
	}
	// Model-written Codex scripts run in goja in this process.
	jsbox.SetEngine(gojabox.New())
	var err error
	switch os.Args[1] {
	case "batches":
		err = runBatches(os.Args[2:])
	case "prompts":
		err = runPrompts(os.Args[2:])
	case "ingest":
		err = runIngest(os.Args[2:])
	case "fit":
		err = runFit(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q (known: batches, prompts, ingest, fit)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
}
