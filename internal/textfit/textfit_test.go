package textfit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  []string
	}{
		// "one two three four" is 18 characters; " five" would make 23.
		{"one two three four five six", 20, []string{"one two three four", "five six"}},
		{"", 20, []string{""}},
		{"a  b\tc", 20, []string{"a b c"}},
		// A word over the width gets a line of its own.
		{"a " + strings.Repeat("x", 25) + " b", 20, []string{"a", strings.Repeat("x", 25), "b"}},
		// Characters, not bytes: "é" is one.
		{"ééé ééé", 7, []string{"ééé ééé"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Wrap(tt.in, tt.width), "Wrap(%q, %d)", tt.in, tt.width)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{
		0:                   "0",
		7:                   "7",
		999:                 "999",
		1000:                "1,000",     // 4 digits: one group of 1, one of 3
		218237:              "218,237",   // 6 digits: two groups of 3
		1234567:             "1,234,567", // 7 digits: 1 + 3 + 3
		-1049:               "-1,049",    // the sign stays in front of the first group
		-999:                "-999",
		9223372036854775807: "9,223,372,036,854,775,807", // 19 digits: 1 + 6 × 3
	} {
		assert.Equal(t, want, Thousands(n), "Thousands(%d)", n)
	}
}

func TestShortenMiddle(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"github/create_issue", 30, "github/create_issue"}, // fits: unchanged
		// 24: 23 kept, 23*2/5 = 9 before the "…", 14 after.
		{"github/add_pull_request_review_comment", 24, "github/ad…review_comment"},
		// 10: 9 kept, 3 before, 6 after.
		{"abcdefghijklmnop", 10, "abc…klmnop"},
		{"naïve_tööl_name", 8, "na…_name"}, // characters, not bytes
		{"abc", 1, "…"},
		{"abc", 0, "abc"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ShortenMiddle(tt.in, tt.n), "ShortenMiddle(%q, %d)", tt.in, tt.n)
	}
}

func TestTable(t *testing.T) {
	tab := Table{
		Head:  []string{"TOOL", "N", "claude\n@2.1.332", "grok\n@1.0.0", "codex\n@0.171.0\n[name]"},
		Right: []bool{false, true, true, true, true},
		Keys:  2, Shrink: 0, Indent: "  ",
		Rows: [][]string{
			{"github/add_pull_request_review_comment", "10", "10/10", "7/10", "2.5/10 (2-3)"},
			{"github/get_me", "1", "1/1", "1/1", "0/1"},
		},
	}
	// Wide enough: one block; the key column is 38 wide (the long name),
	// headers aligned at the bottom, numbers right.
	assert.Equal(t, []string{
		"                                                                       codex",
		"                                                claude    grok      @0.171.0",
		"  TOOL                                     N  @2.1.332  @1.0.0        [name]",
		"  github/add_pull_request_review_comment  10     10/10    7/10  2.5/10 (2-3)",
		"  github/get_me                            1       1/1     1/1           0/1",
	}, tab.Lines(80))
	// 40 columns: 2 + 38 + 2 + 2 for the keys, plus 2 + 12 for the widest
	// value, is 58: 18 over, so the name shrinks to 38 - 18 = 20 (19 kept:
	// 7 before the "…", 12 after). Keys 2 + 20 + 2 + 2 = 26; claude's 2 + 8
	// make 36; grok's 2 + 6 would make 44 > 40: a block each.
	assert.Equal(t, []string{
		"                              claude",
		"  TOOL                   N  @2.1.332",
		"  github/…view_comment  10     10/10",
		"  github/get_me          1       1/1",
		"",
		"                              grok",
		"  TOOL                   N  @1.0.0",
		"  github/…view_comment  10    7/10",
		"  github/get_me          1     1/1",
		"",
		"                                   codex",
		"                                @0.171.0",
		"  TOOL                   N        [name]",
		"  github/…view_comment  10  2.5/10 (2-3)",
		"  github/get_me          1           0/1",
	}, tab.Lines(40))
}
