package messagesapi_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
)

// One run: the request that offers ToolSearch is answered with the call;
// the state says so once the server is closed.
func ExampleStart() {
	s, err := messagesapi.Start([]byte(`{"query":"invoice"}`), func() []string { return nil })
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := http.Post(s.URL()+"/v1/messages", "application/json",
		strings.NewReader(`{"tools":[{"name":"ToolSearch","input_schema":{"required":["query"]}}],"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(strings.Contains(string(body), `"name":"ToolSearch","type":"tool_use"`), strings.Contains(string(body), `"input":{"query":"invoice"}`))
	st := s.Close()
	fmt.Println(st.Called, st.Required, st.Captured == nil)
	// Output:
	// true true
	// true [query] true
}
