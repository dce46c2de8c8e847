package clientconfig_test

import (
	"fmt"

	"github.com/toolfind/toolfind/clientconfig"
)

// A Codex config.toml: the server to start, and the tools the Codex
// clients keep of it.
func ExampleParse() {
	data := []byte(`
[mcp_servers.everything]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-everything"]
env = { API_KEY = "sk-not-for-logs" }
enabled_tools = ["echo", "get-sum"]
`)
	c, err := clientconfig.Parse("config.toml", data, clientconfig.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := c.Servers[0]
	fmt.Println(c.Format, c.Clients(), s.Key, s.Transport, s.Label().Label())
	fmt.Println(s.Tools.Keeps("echo"), s.Tools.Keeps("get-env"))
	fmt.Println(c.Redact("the server said: bad key sk-not-for-logs"))
	// Output:
	// codex [codex codex-search] everything stdio stdio:npx -y @modelcontextprotocol/server-everything
	// true false
	// the server said: bad key [redacted]
}
