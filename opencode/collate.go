package opencode

import (
	"bytes"
	"slices"

	"github.com/toolfind/toolfind/search"
)

// OpenCode sorts keys and paths with localeCompare (ICU's root collation;
// search.LocaleKeys). The names it sorts are nearly always made of
// [A-Za-z0-9_-] and ".", where search.ASCIILocaleCompare gives the same
// order without the collator.

// localeOrder sorts ss with localeCompare: order lists the indices of ss
// in that order (stable: equal strings keep their order), and ranks gives
// each string its place in it, equal strings the same place, so that
// comparing two places compares the strings.
func localeOrder(ss []string) (order, ranks []int32) {
	order = make([]int32, len(ss))
	for i := range order {
		order[i] = int32(i)
	}
	var compare func(a, b int32) int
	fast := true
	for _, s := range ss {
		if !search.ASCIICollatable(s) {
			fast = false
			break
		}
	}
	if fast {
		compare = func(a, b int32) int { return search.ASCIILocaleCompare(ss[a], ss[b]) }
	} else {
		keys := search.LocaleKeys(ss)
		compare = func(a, b int32) int { return bytes.Compare(keys[a], keys[b]) }
	}
	slices.SortStableFunc(order, compare)
	ranks = make([]int32, len(ss))
	for k, i := range order {
		if k > 0 && compare(order[k-1], i) == 0 {
			ranks[i] = ranks[order[k-1]]
		} else {
			ranks[i] = int32(k)
		}
	}
	return order, ranks
}

// localeRanks is localeOrder's ranks.
func localeRanks(ss []string) []int32 {
	_, ranks := localeOrder(ss)
	return ranks
}
