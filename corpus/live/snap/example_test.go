package snap_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// A snapshot as corpus/live or a remote.Client returns it, written as a
// catalog file and merged into a catalog.
func ExampleWriteCatalog() {
	src, _ := snap.ParseServer("billing=./bin/billing-mcp --region 'eu west'")
	s := &snap.Snapshot{Source: src, Name: src.Name, Pages: 1,
		Tools: []json.RawMessage{json.RawMessage(`{"name":"create_invoice","description":"Create an invoice","inputSchema":{"type":"object"}}`)}}
	snap.WriteCatalog(os.Stdout, []*snap.Snapshot{s})
	cat, err := snap.Merge(nil, []*snap.Snapshot{s})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cat.Servers[0].Source, len(cat.Servers[0].Tools))
	// Output:
	// {
	//   "server": "billing",
	//   "tools": [
	//     {
	//       "name": "create_invoice",
	//       "description": "Create an invoice",
	//       "inputSchema": {
	//         "type": "object"
	//       }
	//     }
	//   ]
	// }
	// stdio:./bin/billing-mcp --region 'eu west' 1
}

// The failures of a snapshot: a phase, a source, a cause.
func ExamplePhaseOf() {
	err := &snap.StartError{Failure: snap.Failure{Name: "billing", Source: "./bin/billing-mcp",
		Err: fmt.Errorf("%w before answering initialize", &snap.ExitError{Status: "exit status 3", Code: 3}), Stderr: "billing: no token"}}
	phase, _ := snap.PhaseOf(err)
	var exit *snap.ExitError
	fmt.Println(phase, errors.As(err, &exit), exit.Code)
	fmt.Println(err)
	// Output:
	// start true 3
	// live server billing (./bin/billing-mcp): start: the server process exited (exit status 3) before answering initialize
	//   server stderr (last lines):
	//     | billing: no token
}

// The --header flags of a --url server: keys written as HTTP writes them,
// values in order. net/http takes the map as it is (http.Header(h)).
func ExampleHeader_Add() {
	h := snap.Header{}
	for _, flag := range []string{"authorization: Bearer t0k", "X-TEAM: a", "x-team:b"} {
		k, v, err := snap.ParseHeader(flag)
		if err != nil {
			fmt.Println(err)
			continue
		}
		h.Add(k, v)
	}
	fmt.Println(h["Authorization"], h["X-Team"], len(h))
	fmt.Println(snap.CanonicalKey("x-api-KEY"))
	// Output:
	// [Bearer t0k] [a b] 2
	// X-Api-Key
}
