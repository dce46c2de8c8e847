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
