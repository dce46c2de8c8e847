package bench

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"

	"github.com/stretchr/testify/assert"
)

func TestRankStatDash(t *testing.T) {
	tests := []struct {
		name string
		c    ClientMetrics
		want string
	}{
		// 3 queries, 3 not found: no rank to average.
		{"nothing found", ClientMetrics{Queries: 3, NotFound: 3, MeanRank: 0}, "–"},
		{"no queries scored", ClientMetrics{}, "–"},
		// 3 queries, 1 found at rank 2.
		{"one found", ClientMetrics{Queries: 3, NotFound: 2, MeanRank: 2}, "2.00"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, rankStat(tt.c, tt.c.MeanRank, 2), tt.name)
	}
}

func TestClientCountAndSkipped(t *testing.T) {
	r := &Report{QueryCount: 10, Clients: []ClientMetrics{
		{Client: "a@1", Queries: 8}, {Client: "b@1", Queries: 8},
		{Client: "b@1 [x]", Variant: true, Queries: 8}, {Client: "b@1 [y]", Variant: true, Queries: 8},
	}}
	clients, rows, _ := r.clientCount()
	assert.Equal(t, 2, clients)
	assert.Equal(t, 4, rows)
	assert.Equal(t, "10 queries × 2 clients (4 variants)", r.title())
	// 10 queries, 8 with an expected tool: 2 skipped.
	assert.Equal(t, `8 of 10 queries scored; 2 skipped: no expected tool (empty "expect")`, r.notScored())
}

// With writers, "client (writer)" rows are the same client: five
// clients, two writers, one variant row.
func TestClientCountWithWriters(t *testing.T) {
	r := &Report{QueryCount: 3, Clients: []ClientMetrics{
		{Client: "a@1", Writer: "heuristic"}, {Client: "a@1 (verbatim)", Writer: "verbatim"},
		{Client: "b@1", Writer: "heuristic"}, {Client: "b@1 [catalog]", Variant: true, Writer: "heuristic"},
		{Client: "b@1 (verbatim)", Writer: "verbatim"}, {Client: "c@1"},
	}}
	clients, rows, writers := r.clientCount()
	assert.Equal(t, []int{3, 6, 2}, []int{clients, rows, writers})
	assert.Equal(t, "3 queries × 3 clients × 2 writers (6 rows)", r.title())
}

// A second writer's rows ("client (verbatim)") are a baseline: their
// misses are counted in one line, not listed.
func TestBaselineMissesNotListed(t *testing.T) {
	miss := func(client string) Outcome {
		return Outcome{Query: "q", Client: client, Expect: []corpus.ToolID{"s/t"}}
	}
	r := &Report{QueryCount: 1, Clients: []ClientMetrics{
		{Client: "a@1", Writer: "heuristic", Queries: 1}, {Client: "a@1 (verbatim)", Writer: "verbatim", Queries: 1},
		{Client: "a@1 (verbatim) [catalog]", Variant: true, Queries: 1},
	}, Outcomes: []Outcome{miss("a@1"), miss("a@1 (verbatim)"), miss("a@1 (verbatim) [catalog]")}}
	var b strings.Builder
	assert.NoError(t, r.WriteTable(&b))
	out := b.String()
	assert.Contains(t, out, "\na@1: 1 query not certainly shown:\n")
	assert.NotContains(t, out, "a@1 (verbatim): 1 query")
	assert.Contains(t, out, "(the misses of the 2 baseline rows beside the chosen writer are in --format json)")
}

// A catalog-dump row shows the whole catalog instead of a missed tool: the
// table lists the first maxShownInstead (5) and counts the rest (7 - 5 = 2);
// the markdown and JSON keep all seven.
func TestMissTextBoundsShownInstead(t *testing.T) {
	o := &Outcome{OutrankedBy: ids("s/a", "s/b", "s/c", "s/d", "s/e", "s/f", "s/g")}
	assert.Equal(t, "not among the hits; shown instead: s/a, s/b, s/c, s/d, s/e and 2 more",
		missTextMax(o, maxShownInstead))
	assert.Equal(t, "not among the hits; shown instead: s/a, s/b, s/c, s/d, s/e, s/f, s/g", missText(o))
	// Five or fewer: all listed, no count.
	o.OutrankedBy = o.OutrankedBy[:5]
	assert.Equal(t, "not among the hits; shown instead: s/a, s/b, s/c, s/d, s/e", missTextMax(o, maxShownInstead))
	// Ranked but beyond the limit: "outranked by", same bound (rank 9, limit 5).
	o.Rank, o.RankWorst, o.Limit, o.OutrankedBy = 9, 9, 5, ids("s/a", "s/b", "s/c", "s/d", "s/e", "s/f")
	assert.Equal(t, "rank 9, beyond limit 5; outranked by s/a, s/b, s/c, s/d, s/e and 1 more", missTextMax(o, maxShownInstead))
}

// TestWriteTextFitsWidth: WriteText fits the width it is given: the
// writer line is wrapped and the per-tool table, twelve client columns of
// 8 to 17 characters, is split into blocks that each repeat the tool.
func TestWriteTextFitsWidth(t *testing.T) {
	r := &Report{QueryCount: 1, Clients: []ClientMetrics{}}
	var tools []ToolClient
	for _, c := range []string{"claude@2.1.332", "grok@1.0.0", "codex@0.171.0", "codex-search@0.171.0", "opencode@1.18.33", "opencode-codemode@1.18.33"} {
		for _, w := range []string{"heuristic", "verbatim"} {
			label := c
			if w == "verbatim" {
				label += " (verbatim)"
			}
			r.Clients = append(r.Clients, ClientMetrics{Client: label, Writer: w, Queries: 1, Limit: 5})
			tools = append(tools, ToolClient{Client: label, Found: 1, FoundBest: 1, FoundWorst: 1})
		}
	}
	r.PerTool = []ToolMetrics{{Tool: "github/add_pull_request_review_comment_to_pending_review", Queries: 1, Clients: tools}}
	for _, width := range []int{100, 60} {
		var b strings.Builder
		assert.NoError(t, r.WriteText(&b, width))
		for _, l := range strings.Split(b.String(), "\n") {
			assert.LessOrEqual(t, utf8.RuneCountInString(l), width, "width %d: %q", width, l)
		}
		// Every block names the tool, shortened in the middle.
		blocks := strings.Count(b.String(), "\n  TOOL ")
		assert.Equal(t, strings.Count(b.String(), "\n  github/"), blocks)
		assert.Greater(t, blocks, 1)
	}
}
