package search_test

import (
	"fmt"

	"github.com/toolfind/toolfind/search"
)

// Claude Code matches query terms as whole words with JavaScript's \b:
// "invoice" is not a word of "invoices", but "-" is one of "one-shot".
func ExampleContainsWord() {
	fmt.Println(search.ContainsWord("summarizes each invoice.", "invoice"))
	fmt.Println(search.ContainsWord("summarizes invoices.", "invoice"))
	fmt.Println(search.ContainsWord("a one-shot task", "-"))
	// Output:
	// true
	// false
	// true
}

// Tie order in Claude Code (and OpenCode's catalog queue) is JavaScript's
// localeCompare: case-insensitive first, then punctuation _ < - < .
// before digits and letters.
func ExampleSortLocale() {
	names := []string{"mcp__ab__x", "mcp__a.b__x", "mcp__a-b__x", "mcp__a_b__x", "mcp__A__x", "mcp__a__x"}
	search.SortLocale(names)
	fmt.Println(names)
	// Output: [mcp__a__x mcp__A__x mcp__a_b__x mcp__a-b__x mcp__a.b__x mcp__ab__x]
}

// Resolve turns a --client list into registered profiles; an unknown
// name is an error that lists the known ones.
func ExampleResolve() {
	_, err := search.Resolve("cursor")
	fmt.Println(err != nil)
	// Output: true
}
