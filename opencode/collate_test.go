package opencode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLocaleOrder: the fast rule and the collation keys give the same
// order and places; equal strings share a place; a string outside the
// fast alphabet sends the whole list to the collator.
func TestLocaleOrder(t *testing.T) {
	// localeCompare: "a" < "B" < "b_x" < "c" (case second, "_" before letters).
	order, ranks := localeOrder([]string{"c", "b_x", "a", "B", "a"})
	assert.Equal(t, []int32{2, 4, 3, 1, 0}, order)
	assert.Equal(t, []int32{4, 3, 0, 2, 0}, ranks)
	// "é" is outside the fast alphabet: the collator puts it with e.
	order, ranks = localeOrder([]string{"f", "é", "e", "E"})
	assert.Equal(t, []int32{2, 3, 1, 0}, order)
	assert.Equal(t, []int32{3, 2, 0, 1}, ranks)
}
