package remote_test

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/jsbox/remote"
)

// The program's side of the protocol: a hello, a Codex session over one
// tool, one exec; toolfind's JavaScript child is this with the goja
// engine on its standard input and output. The end of the input cancels what still
// runs, so the caller reads the exec's reply before it closes the input.
func ExampleServe() {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		remote.Serve(context.Background(), inR, outW, gojabox.New())
		outW.Close()
	}()
	replies := bufio.NewScanner(outR)
	for _, line := range []string{
		`{"id":0,"hello":{"protocol":1}}`,
		`{"id":1,"codex":{"tools":[{"name":"mcp__gh__list","description":"List pull requests","call_name":"mcp__ghlist","tool":"gh/list"}],"limits":{"timeout_ns":2000000000,"max_output_bytes":67108864,"max_call_stack":10000,"max_heap_growth":1073741824}}}`,
		`{"id":2,"exec":{"session":1,"code":"text(ALL_TOOLS.map(t => t.name)); await tools.mcp__gh__list({n: 1})","query":"","yield_ms":10000}}`,
	} {
		fmt.Fprintln(inW, line)
		replies.Scan()
		fmt.Println(replies.Text())
	}
	inW.Close()
	// Output:
	// {"id":0,"ready":{"protocol":1}}
	// {"id":1,"opened":true}
	// {"id":2,"output":{"status":"Script completed","items":["[\"mcp__gh__list\"]"],"calls":[{"tool":"gh/list","name":"mcp__gh__list","arguments":{"n":1}}]}}
}
