package suggest_test

import (
	"context"
	"testing"

	"github.com/toolfind/toolfind/suggest"
	"github.com/toolfind/toolfind/writer"
)

// BenchmarkSuggestNotes is the whole search on the notes fixture, every
// client, heuristic writer.
func BenchmarkSuggestNotes(b *testing.B) {
	_, cat, qs := notes(b)
	for b.Loop() {
		if _, err := suggest.Suggest(context.Background(), cat, builder("all"), qs, suggest.Options{Writer: writer.Heuristic{}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSuggestMongoDB is the whole search on mongodb-accuracy (234
// prompts × 21 tools × every client), heuristic writer.
func BenchmarkSuggestMongoDB(b *testing.B) {
	_, cat, qs := sharedCorpus(b, "mongodb.json", "mongodb-accuracy")
	for b.Loop() {
		if _, err := suggest.Suggest(context.Background(), cat, builder("all"), qs, suggest.Options{Writer: writer.Heuristic{}}); err != nil {
			b.Fatal(err)
		}
	}
}
