package gemini

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// manyServers is a catalog of n servers of one tool each (issue 31 class 7).
func manyServers(n int, extra ...string) *corpus.Catalog {
	var b strings.Builder
	b.WriteString(`{"servers":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"s%d","tools":[{"name":"t","description":"d","inputSchema":{"type":"object"}}`, i)
		for _, x := range extra {
			if x == fmt.Sprintf("s%d", i) {
				b.WriteString(`,{"name":"u","description":"d","inputSchema":{"type":"object"}}`)
			}
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	srv, _, err := corpus.ParseCatalog("many.json", []byte(b.String()))
	if err != nil {
		panic(err)
	}
	return &corpus.Catalog{Servers: srv}
}

// TestUntrustedPerServer: one gemini-untrusted warning per server without
// an allow rule, in catalog order, each counting its own tools (the count
// was a scan of every tool per server: quadratic in the servers).
func TestUntrustedPerServer(t *testing.T) {
	cat := manyServers(3, "s1") // s1 has two tools
	var got []string
	for _, d := range New(cat, Config{}).Problems() {
		if d.Code == CodeUntrusted {
			got = append(got, d.Server+":"+d.Message[len(d.Message)-len("(1 tool); give it \"trust\": true, list it in mcp.allowed or pass --allowed-mcp-server-names s0"):])
		}
	}
	want := []string{
		`s0:(1 tool); give it "trust": true, list it in mcp.allowed or pass --allowed-mcp-server-names s0`,
		`s1:2 tools); give it "trust": true, list it in mcp.allowed or pass --allowed-mcp-server-names s1`,
		`s2:(1 tool); give it "trust": true, list it in mcp.allowed or pass --allowed-mcp-server-names s2`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// BenchmarkProblemsManyServers: Problems on 1,000 and 10,000 servers of one
// tool; ns/op should grow about tenfold, not a hundredfold.
func BenchmarkProblemsManyServers(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		cat := manyServers(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				New(cat, Config{}).Problems()
			}
		})
	}
}
