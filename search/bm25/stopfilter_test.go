package bm25

import (
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
)

// TestStopFilterIsBleves checks stopFilter against the bleve filter it
// replaced (stop.StopTokensFilter over a TokenMap of stopWords): the same
// tokens survive, in the same order, with the same positions.
func TestStopFilterIsBleves(t *testing.T) {
	tm := analysis.NewTokenMap()
	for _, w := range strings.Fields(stopWords) {
		tm.AddToken(w)
	}
	bleveStop := stop.NewStopTokensFilter(tm)
	for _, text := range []string{
		"",
		"the",
		"list all of the invoices for my customers",
		"don't you've won't shouldn't mightn't ain't s t d ll",
		"Create an invoice and then send it to the user's account",
		"über café naïve 北亰 city — it's ok",
	} {
		mk := func() analysis.TokenStream {
			return wordsTokenizer{}.Tokenize(lowercaseFilter{}.Filter(transliterateFilter{}.Filter([]byte(text))))
		}
		got, want := stopFilter{}.Filter(mk()), bleveStop.Filter(mk())
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: stopFilter kept %v, bleve's stop filter %v", text, got, want)
		}
	}
	// "list all of the invoices for my customers": all, of, the, for, my
	// are stop words (5 of 8), so 3 tokens stay.
	got := stopFilter{}.Filter(wordsTokenizer{}.Tokenize([]byte("list all of the invoices for my customers")))
	var terms []string
	for _, tok := range got {
		terms = append(terms, string(tok.Term))
	}
	if want := []string{"list", "invoices", "customers"}; !reflect.DeepEqual(terms, want) {
		t.Errorf("terms = %q, want %q", terms, want)
	}
}
