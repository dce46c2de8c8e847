package result

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/cputime"
)

// BenchmarkDeliver: every client over a 218,000-byte one-line JSON result
// (about the seed's list result), parse included.
func BenchmarkDeliver(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"content":[{"type":"text","text":"[`)
	for i := 0; sb.Len() < 218_000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		id := strconv.Itoa(100000 + i)
		sb.WriteString(`{\"id\":` + id + `,\"name\":\"record ` + id + `\",\"status\":\"open\"}`)
	}
	sb.WriteString(`]"}]}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cputime.Used()
	for b.Loop() {
		r, err := Parse("bench.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Deliver(Input{Result: r}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	// On a busy shared machine wall time mostly measures waiting for a core.
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
}
