package bench

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
)

// FuzzReportText: whatever a report holds — query text, tags, tool ids,
// client labels, errors from a catalog, a query file or a script — the
// table, Markdown and HTML formats write no control, bidi or invisible
// character (newlines and tabs only as layout).
func FuzzReportText(f *testing.F) {
	f.Add("invoice\ufe0f\u3164 by id", "t", "c", "k", "v", "", "")
	f.Add("invoice\x1b[31m", "evil/t\x1b]0;T\x07", "fake@1 [s\u202e]", "cat\x00", "bad\u202etag", "Error: \x1b[2J", "q.jsonl\r")
	f.Fuzz(func(t *testing.T, query, tool, client, tagKey, tagValue, errText, source string) {
		id := corpus.ToolID(tool)
		o := Outcome{Query: query, Client: client, Expect: []corpus.ToolID{id}, Tools: []ToolOutcome{{Tool: id}},
			Tags: map[string]string{tagKey: tagValue}, Error: errText, OutrankedBy: []corpus.ToolID{id}, Limit: 1}
		c := ClientMetrics{Client: client, Queries: 1, NotFound: 1, Errors: 1, Runs: 1, RankDist: []float64{}}
		r := &Report{Queries: source, QueryCount: 1, Catalog: source, CatalogTools: 1, Clients: []ClientMetrics{c}, Outcomes: []Outcome{o},
			By:      []Breakdown{{Key: tagKey, Groups: []Group{{Value: tagValue, Queries: 1, Clients: []ClientMetrics{c}}}}},
			PerTool: []ToolMetrics{{Tool: id, Queries: 1, Clients: []ToolClient{{Client: client}}}}}
		for _, format := range []Format{Table, Markdown, HTML} {
			var b bytes.Buffer
			if err := r.Write(&b, format); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if !utf8.ValidString(out) {
				t.Fatalf("%s: invalid UTF-8", format)
			}
			for i, ch := range out {
				if ch != '\n' && ch != '\t' && safetext.Unsafe(ch) {
					t.Fatalf("%s: %U at byte %d in %q", format, ch, i, out[max(i-30, 0):min(i+30, len(out))])
				}
			}
		}
	})
}
