package opencode

import (
	"fmt"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// BenchmarkBuildEntriesManyServers: namespaces for 1,000 and 10,000 servers
// of one tool; ns/op should grow about tenfold (the namespace of each key
// was a scan of every server: a hundredfold).
func BenchmarkBuildEntriesManyServers(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		cat := &corpus.Catalog{}
		for i := range n {
			name := fmt.Sprintf("s%d", i)
			cat.Servers = append(cat.Servers, &corpus.Server{Name: name, Tools: []*corpus.Tool{{Server: name, Name: "t"}}})
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				buildEntries(cat, nil)
			}
		})
	}
}
