package bm25

import (
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/blevesearch/snowballstem"
	snowenglish "github.com/blevesearch/snowballstem/english"
)

// TestStemmersAgree compares kljensen's Porter2 with the Snowball-generated
// English stemmer (blevesearch/snowballstem, the same generator output as
// rust-stemmers) on every word of the shared catalogs.
func TestStemmersAgree(t *testing.T) {
	docs := catalogDocs(t)
	seen := map[string]bool{}
	diff := 0
	for _, d := range docs {
		ts := analyzerNoStem.Analyze([]byte(d))
		for _, tk := range ts {
			w := string(tk.Term)
			if seen[w] {
				continue
			}
			seen[w] = true
			env := snowballstem.NewEnv(w)
			snowenglish.Stem(env)
			if got := Stem(w); got != env.Current() {
				diff++
				if diff <= 20 {
					t.Errorf("%q: kljensen %q, snowball %q", w, got, env.Current())
				}
			}
		}
	}
	t.Logf("%d words, %d differ", len(seen), diff)
}

var analyzerNoStem = &analysis.DefaultAnalyzer{
	CharFilters:  analyzer.CharFilters,
	Tokenizer:    analyzer.Tokenizer,
	TokenFilters: analyzer.TokenFilters[:1],
}
