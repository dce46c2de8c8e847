package opencode

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/search"
)

// TestASCIILocaleCompare holds the fast rule to the collator: every pair
// of strings of up to 3 characters over a sample alphabet (1,111 strings,
// all pairs), then random longer ones over the whole fast alphabet.
func TestASCIILocaleCompare(t *testing.T) {
	alpha := "aAbBzZ09_-."
	ss := []string{""}
	for n, prev := 0, []string{""}; n < 3; n++ {
		var next []string
		for _, p := range prev {
			for i := 0; i < len(alpha); i++ {
				next = append(next, p+alpha[i:i+1])
			}
		}
		ss, prev = append(ss, next...), next
	}
	full := "_-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		b := make([]byte, 1+r.IntN(12))
		for i := range b {
			b[i] = full[r.IntN(len(full))]
		}
		ss = append(ss, string(b))
	}
	require.Len(t, ss, 1+11+121+1331+3000)
	keys := search.LocaleKeys(ss)
	bad := 0
	for i := range ss {
		require.True(t, asciiCollatable(ss[i]), ss[i])
		for j := range ss {
			if i > 1500 && j > 1500 && (i+j)%7 != 0 {
				continue // a sample of the random pairs
			}
			if got, want := asciiLocaleCompare(ss[i], ss[j]), bytes.Compare(keys[i], keys[j]); got != want && bad < 10 {
				bad++
				t.Errorf("asciiLocaleCompare(%q, %q) = %d, collator %d", ss[i], ss[j], got, want)
			}
		}
	}
}

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
