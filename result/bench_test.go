package result

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkDeliver: every client over a 218,237-character one-line JSON
// result (the seed's list result), parse included.
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
	for b.Loop() {
		r, err := Parse("bench.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Deliver(Input{Result: r}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
