package didyoumean

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearest(t *testing.T) {
	known := []string{"claude", "grok", "codex", "codex-search", "opencode", "opencode-codemode"}
	tests := []struct{ in, want string }{
		{"claud", "claude"},  // a deletion: 1 ≤ 6/3
		{"clade", "claude"},  // 1
		{"cluade", "claude"}, // a swap counts 1
		{"codex-serch", "codex-search"},
		{"opencod", "opencode"}, // a prefix of 3 or more
		{"gork", "grok"},        // a swap, 1 ≤ max(1, 4/3)
		{"cursor", ""},          // nothing near
		{"claude", ""},          // itself is no suggestion
		{"CLAUDE", "claude"},    // case differs only: distance 0
		{"xy", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Nearest(tt.in, known), tt.in)
	}
	assert.Equal(t, 3, Distance("kitten", "sitting")) // k→s, e→i, +g
}

func TestHint(t *testing.T) {
	assert.Equal(t, ` (did you mean "json"?)`, Hint("jsno", []string{"text", "json"}))
	assert.Equal(t, "", Hint("pdf", []string{"text", "json"}))
}
