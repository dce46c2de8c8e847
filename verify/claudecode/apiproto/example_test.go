package apiproto_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/toolfind/toolfind/verify/claudecode/apiproto"
)

// toolfind's side of a run: the input line it writes, and a line of the
// server's checked and read.
func ExampleDecode() {
	os.Stdout.Write(apiproto.Encode(apiproto.Message{Type: apiproto.TypeInput, Input: json.RawMessage(`{"query":"<invoice>"}`)}))
	m, err := apiproto.Decode([]byte(`{"type":"state","state":{"called":true,"required":["query"],"captured":{"content":"No matching deferred tools found"}}}`))
	fmt.Println(m.Type, m.State.Called, m.State.Required, string(m.State.Captured.Content), err)
	_, err = apiproto.Decode([]byte(`{"type":"url","url":"127.0.0.1:80"}`))
	fmt.Println(err)
	// Output:
	// {"type":"input","input":{"query":"<invoice>"}}
	// state true [query] "No matching deferred tools found" <nil>
	// "url" message with "127.0.0.1:80", not an http:// URL
}
