package gemini

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The worked examples of gemini.md §2 (rows marked [obs] were seen in the
// real 0.61.0's requests).
func TestToolNameSpecExamples(t *testing.T) {
	for _, c := range []struct {
		server, tool, want string
		short              bool
	}{
		{"edge", "echo_tool", "mcp_edge_echo_tool", false},         // 18 [obs]
		{"everything", "get-sum", "mcp_everything_get-sum", false}, // 22 [obs]
		{"my server.v2", "b_c", "mcp_my_server.v2_b_c", false},     // space → _ [obs]
		{"weather", "forecast/daily", "mcp_weather_forecast_daily", false},
		{"ünï", "tøøl", "mcp__n__t__l", false}, // each non-ASCII unit → _
		{"mcp", "x", "mcp_x", false},           // "mcp_x" already starts with mcp_: no double prefix
		// "mcp_edge_a_tool.with-odd_chars_and_spaces_and_a_really_long_name_that_goes_past_sixty_four_chars"
		// is 97 units: first 30 "mcp_edge_a_tool.with-odd_chars" + "..." + last 30 [obs]
		{"edge", "a_tool.with-odd/chars and spaces and a really long name that goes past sixty four chars",
			"mcp_edge_a_tool.with-odd_chars...hat_goes_past_sixty_four_chars", true},
		{"srv_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij", "b_c",
			"mcp_srv_abcdefghij_abcdefghij_...ghij_abcdefghij_abcdefghij_b_c", true}, // [obs]
	} {
		got, short := ToolName(c.server, c.tool)
		assert.Equal(t, c.want, got, "%s / %s", c.server, c.tool)
		assert.Equal(t, c.short, short, "%s / %s", c.server, c.tool)
		if short {
			assert.Len(t, got, MaxNameLength)
		}
	}
}

// Boundaries: 63 units pass, 64 are shortened; a supplementary character
// is two UTF-16 units and becomes "__".
func TestToolNameBoundaries(t *testing.T) {
	// "mcp_s_" is 6 units: a 57-unit tool makes 63.
	n63, short := ToolName("s", strings.Repeat("a", 57))
	assert.False(t, short)
	assert.Len(t, n63, 63)
	n64, short := ToolName("s", strings.Repeat("a", 57)+"b")
	assert.True(t, short)
	assert.Equal(t, "mcp_s_"+strings.Repeat("a", 24)+"..."+strings.Repeat("a", 29)+"b", n64)
	emoji, _ := ToolName("s", "a😀b") // U+1F600: two units
	assert.Equal(t, "mcp_s_a__b", emoji)
	// 57 units with the emoji's two: "a" ×55 + 😀 = 57 → 63, not shortened
	e63, short := ToolName("s", strings.Repeat("a", 55)+"😀")
	assert.False(t, short)
	assert.Equal(t, "mcp_s_"+strings.Repeat("a", 55)+"__", e63)
	// A server named "mcp_x" gets no second prefix either.
	p, _ := ToolName("mcp_x", "t")
	assert.Equal(t, "mcp_x_t", p)
	// ':' and '.' and '-' are kept.
	k, _ := ToolName("a:b", "c.d-e")
	assert.Equal(t, "mcp_a:b_c.d-e", k)
}

// The allow rule's wildcard (§2 "Effects of naming on policies").
func TestMatchesTrust(t *testing.T) {
	for _, c := range []struct {
		server, tool string
		want         bool
	}{
		{"edge", "echo_tool", true},
		{"my server.v2", "b_c", false}, // named mcp_my_server.v2_b_c; the rule wants "mcp_my server.v2_"
		{"srv_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij", "b_c", false}, // shortened past the prefix
		{"edge", "a_tool.with-odd/chars and spaces and a really long name that goes past sixty four chars", true},
		{"mcp", "x", false}, // named mcp_x; the rule wants "mcp_mcp_"
	} {
		name, _ := ToolName(c.server, c.tool)
		assert.Equal(t, c.want, matchesTrust(c.server, name), "%s/%s as %s", c.server, c.tool, name)
	}
}
