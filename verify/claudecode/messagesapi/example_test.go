package messagesapi_test

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
)

// One run whose input closes at once: the URL Claude Code would be given,
// then the state (nothing happened).
func ExampleServe() {
	var out strings.Builder
	err := messagesapi.Serve(strings.NewReader(`{"type":"input","input":{"query":"invoice"}}`+"\n"), &out)
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, `{"type":"url"`) {
			line = line[:strings.LastIndexByte(line, ':')] + `:PORT"}`
		}
		fmt.Println(line)
	}
	fmt.Println(err)
	// Output:
	// {"type":"url","url":"http://127.0.0.1:PORT"}
	// {"type":"state","state":{"called":false,"required":null,"offered":null,"unlisted":null,"captured":null}}
	// <nil>
}
