package claude

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/search"
)

// TestBuiltinsDecoded: the streaming reader of builtinsJSON gives what a
// plain encoding/json decode of the same file gives, tokens joined with
// single spaces, sorted by name.
func TestBuiltinsDecoded(t *testing.T) {
	var f struct {
		Tools map[string]struct {
			Chars int      `json:"description_chars"`
			Desc  []string `json:"description_tokens"`
			Hint  []string `json:"hint_tokens"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(builtinsJSON, &f))
	var want []builtin
	for name, tl := range f.Tools {
		want = append(want, builtin{Name: name, DescChars: tl.Chars, Desc: strings.Join(tl.Desc, " "),
			Hint: strings.Join(tl.Hint, " "), HasHint: len(tl.Hint) > 0})
	}
	sort.Slice(want, func(i, j int) bool { return want[i].Name < want[j].Name })
	got := mustLoadBuiltins()
	require.Equal(t, want, got)
	// Desc and Hint are separate texts, and some tokens needed unescaping.
	require.Len(t, got, 11) // the 11 deferred built-ins of 2.1.328
	require.NotEqual(t, got[0].Desc, got[0].Hint)
	require.Contains(t, got[0].Desc, `"`)
}

// TestSortEntries: sortEntries orders as search.SortLocale (localeCompare,
// stable) does, ASCII names compared in place and others by collation
// keys.
func TestSortEntries(t *testing.T) {
	for _, names := range [][]string{
		{"mcp__b__x", "mcp__a__y", "Read", "mcp__A__y", "mcp__a-b__c", "mcp__a_b__c", "mcp__a__y", "mcp__a.b__c", "mcp__a__Y", "mcp__a__y1"},
		{"é", "e", "f", "E", "mcp__x", "ê", "e"},
	} {
		es := make([]*entry, len(names))
		for i, n := range names {
			es[i] = &entry{name: n, desc: string(rune('a' + i))} // desc tells equal names apart
		}
		sortEntries(es)
		want := append([]string(nil), names...)
		search.SortLocale(want)
		var got []string
		for i, e := range es {
			got = append(got, e.name)
			if i > 0 && e.name == es[i-1].name && e.desc < es[i-1].desc {
				t.Errorf("%q: equal names out of their order", e.name)
			}
		}
		require.Equal(t, want, got)
	}
}
