package mcpstub_test

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/toolfind/toolfind/verify/mcpstub"
)

// The stub answers tools/list with the tools byte for byte, duplicate key
// and all.
func ExampleServe() {
	s := mcpstub.Server{Name: "billing", Tools: []json.RawMessage{json.RawMessage(`{"name":"a", "name":"b"}`)}}
	_ = mcpstub.Serve(s, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"), os.Stdout)
	// Output: {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","name":"b"}]}}
}
