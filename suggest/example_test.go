package suggest_test

import (
	"context"
	"fmt"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/suggest"
	"github.com/toolfind/toolfind/writer"
)

// Suggest edits for the notes fixture, with each client's call written by
// the heuristic writer, and print what is kept.
func ExampleSuggest() {
	cat, _ := corpus.Load("testdata/notes.json")
	qs, _ := corpus.LoadQueries("testdata/notes.jsonl", cat)
	build := func(c *corpus.Catalog) ([]search.Simulator, error) { return toolfind.Clients(c, "claude,grok", nil) }
	rep, err := suggest.Suggest(context.Background(), cat, build, qs, suggest.Options{Writer: writer.Heuristic{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Clients {
		fmt.Printf("%s: %.0f%% → %.0f%%\n", c.Client, c.Before*100, c.After*100)
	}
	for _, e := range rep.Edits {
		for _, ch := range e.Changes {
			fmt.Printf("%s %s: %q\n", e.Tool, ch.Field, ch.After)
		}
	}
	// Output:
	// claude@2.1.332: 70% → 100%
	// grok@1.0.0: 70% → 90%
	// notes/archive_note search_hint: "memo away"
	// notes/archive_note description: "Move a note out of the active list into the archive. Also use it for stash."
}
