package suggest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolfind/toolfind/corpus"
)

func TestRankWords(t *testing.T) {
	tool := &corpus.Tool{Name: "archive_note", Description: "Move a note out of the active list into the archive."}
	missed := []missedWords{
		{query: 0, fold: 0, text: "stash the meeting memo away", words: pairWords("stash the meeting memo away", nil)},
		// the same prompt, a second client
		{query: 0, fold: 0, text: "stash the meeting memo away", words: pairWords("stash the meeting memo away", nil)},
		{query: 1, fold: 1, text: "stash my old memo", words: pairWords("stash my old memo", nil)},
		{query: 2, fold: 2, text: "put the draft memo away in storage 2024", words: pairWords("put the draft memo away in storage 2024", nil)},
	}
	others := []map[string]bool{
		stemsOf("create a memo about lunch"),
		stemsOf("show my notes"),
		stemsOf("show the meeting agenda"),
		stemsOf("show old invoices"),
		stemsOf("show the draft"),
		stemsOf("show old drafts"),
	}
	got := rankWords(tool, missed, others)
	var forms []string
	for _, w := range got {
		forms = append(forms, w.Form)
	}
	// Sorted by missed prompts, then missed pairs, then other prompts,
	// then form:
	//   memo     prompts 0,1,2 = 3, pairs 4, others 1 ("create a memo")
	//   away     prompts 0,2   = 2, pairs 3, others 0
	//   stash    prompts 0,1   = 2, pairs 3, others 0 (after away by form)
	//   meeting  prompt 0      = 1, pairs 2, others 1
	//   put      prompt 2      = 1, pairs 1, others 0
	//   storage  prompt 2      = 1, pairs 1, others 0
	//   draft    prompt 2      = 1, pairs 1, others 2 ("draft", "drafts")
	//   old      prompt 1      = 1, pairs 1, others 2 (not generic: 2 ≤ 2·1+1)
	// note (in the tool's name), my/the/in (stop words) and 2024 (a
	// number) are left out.
	assert.Equal(t, []string{"memo", "away", "stash", "meeting", "put", "storage", "draft", "old"}, forms)
	// memo is in prompts of folds 0, 1 and 2, spelled "memo" by each, and
	// followed by "away" in prompts 0 and 2.
	assert.Equal(t, candidateWord{Form: "memo", Stem: "memo", Misses: 4, Prompts: 3, Others: 1, Folds: 3, Cased: "memo",
		Next: map[string]bool{"away": true}}, got[0])
	// stash starts prompts 0 and 1 (folds 0 and 1).
	assert.Equal(t, 2, got[2].Folds)
}

func TestGenericWordsLeftOut(t *testing.T) {
	tool := &corpus.Tool{Name: "get_vm"}
	missed := []missedWords{{query: 0, text: "show the vms", words: pairWords("show the vms", nil)}}
	var others []map[string]bool
	for i := 0; i < 3; i++ {
		others = append(others, stemsOf("show something else"))
	}
	// show: 1 missed prompt and 3 others, not more than 2·1+1 = 3, so it
	// stays (after vms, which no other prompt uses); a fourth other
	// prompt makes it generic.
	got := rankWords(tool, missed, others)
	assert.Equal(t, []string{"vms", "show"}, []string{got[0].Form, got[1].Form})
	others = append(others, stemsOf("show more"))
	got = rankWords(tool, missed, others)
	assert.Len(t, got, 1)
	assert.Equal(t, "vms", got[0].Form)
}

func TestCallTexts(t *testing.T) {
	calls := [][]byte{
		[]byte(`{"query":"mongodb vector search","limit":5}`),
		[]byte(`{"query":"select:mcp__a__b"}`),
		[]byte(`{"code":"return 1"}`),
		[]byte(`not json`),
	}
	var raw []json.RawMessage
	for _, c := range calls {
		raw = append(raw, c)
	}
	assert.Equal(t, []string{"mongodb vector search"}, callTexts(raw))
	assert.True(t, isSelect("SELECT:x"))
	assert.False(t, isSelect("select:"))
}
