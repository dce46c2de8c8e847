package opencode

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/toolfind/toolfind/search"
)

// OpenCode sorts keys and paths with localeCompare (ICU's root collation;
// search.LocaleKeys). The names it sorts are nearly always made of
// [A-Za-z0-9_-] and ".", where the root collation reduces to a simple rule
// (TestASCIILocaleCompare holds it to search.LocaleKeys): compare the
// strings' primary weights (_ < - < . < digits < letters, a letter's case
// ignored), a shorter string first when it is a prefix of the other; then,
// on equal primaries, the first difference in case decides, lowercase
// first.

// asciiPrimary is the root collation's primary order of the characters of
// the fast rule; 0 for any other byte.
var asciiPrimary = func() (t [256]uint8) {
	t['_'], t['-'], t['.'] = 1, 2, 3
	for c := '0'; c <= '9'; c++ {
		t[c] = uint8(4 + c - '0')
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = uint8(14+c-'a'), uint8(14+c-'a')
	}
	return t
}()

// asciiCollatable reports whether the fast rule applies to s.
func asciiCollatable(s string) bool {
	for i := 0; i < len(s); i++ {
		if asciiPrimary[s[i]] == 0 {
			return false
		}
	}
	return true
}

// asciiLocaleCompare is localeCompare for two asciiCollatable strings.
func asciiLocaleCompare(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if pa, pb := asciiPrimary[a[i]], asciiPrimary[b[i]]; pa != pb {
			return cmp.Compare(pa, pb)
		}
	}
	if len(a) != len(b) {
		return cmp.Compare(len(a), len(b))
	}
	for i := 0; i < n; i++ {
		if a[i] != b[i] { // the same letter in two cases
			if a[i] >= 'a' {
				return -1
			}
			return 1
		}
	}
	return 0
}

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
		if !asciiCollatable(s) {
			fast = false
			break
		}
	}
	if fast {
		compare = func(a, b int32) int { return asciiLocaleCompare(ss[a], ss[b]) }
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
