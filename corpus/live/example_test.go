package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind/corpus/live"
)

// A streamable-HTTP MCP server made with the SDK, on 127.0.0.1.
func exampleServer() *httptest.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "acme/weather", Version: "1.0.0"},
		&mcp.ServerOptions{Instructions: "Forecasts for any city."})
	srv.AddTool(&mcp.Tool{Name: "forecast", Description: "Weather forecast for a city",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	return httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
}

func ExampleTake() {
	ts := exampleServer()
	defer ts.Close()
	src, _ := live.ParseURL(ts.URL)
	snap, err := live.Take(context.Background(), src, live.Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(snap.Name, "-", snap.Instructions)
	for _, raw := range snap.Tools {
		fmt.Println(string(raw))
	}
	// Output:
	// weather - Forecasts for any city.
	// {"description":"Weather forecast for a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}},"name":"forecast"}
}

func ExampleWriteCatalog() {
	ts := exampleServer()
	defer ts.Close()
	src, _ := live.ParseURL("forecasts=" + ts.URL)
	snap, err := live.Take(context.Background(), src, live.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	snap.ServerInfo = nil // its "version" would make the output depend on the SDK
	live.WriteCatalog(os.Stdout, []*live.Snapshot{snap})
	// Output:
	// {
	//   "server": "forecasts",
	//   "instructions": "Forecasts for any city.",
	//   "tools": [
	//     {
	//       "description": "Weather forecast for a city",
	//       "inputSchema": {
	//         "type": "object",
	//         "properties": {
	//           "city": {
	//             "type": "string"
	//           }
	//         }
	//       },
	//       "name": "forecast"
	//     }
	//   ]
	// }
}

func ExamplePhaseOf() {
	_, err := live.Take(context.Background(), live.Source{Command: []string{"toolfind-no-such-server"}}, live.Options{})
	phase, _ := live.PhaseOf(err)
	var start *live.StartError
	fmt.Println(phase, errors.As(err, &start))
	fmt.Println(err)
	// Output:
	// start true
	// live server "toolfind-no-such-server": start: command "toolfind-no-such-server" not found in PATH: exec: "toolfind-no-such-server": executable file not found in $PATH
}

func ExampleSplitCommand() {
	words, _ := live.SplitCommand(`srv --name 'a b' "c\"d" e\ f ''`)
	fmt.Printf("%q\n", words)
	src, _ := live.ParseServer("billing=./bin/billing-mcp --region 'eu west'")
	fmt.Printf("%s %q\n", src.Name, src.Command)
	// Output:
	// ["srv" "--name" "a b" "c\"d" "e f" ""]
	// billing ["./bin/billing-mcp" "--region" "eu west"]
}
