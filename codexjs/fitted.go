package codexjs

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

//go:embed writer_fit.json
var writerFitJSON []byte

// WriterModel is the fitted term model of the code-mode heuristic writer:
// which of the prompt's keywords and their family words (the model sees
// no tool or server name: intent.Index.WordCandidates without servers or
// names) the model puts in its ALL_TOOLS filter. The catalog's words
// stand in for what a model knows of the domain. Fitted on model-written
// calls (writer/testdata/calib, by writer/internal/calibrate) and embedded
// as writer_fit.json.
var WriterModel = sync.OnceValue(func() *intent.Logit {
	m, err := intent.ParseLogit(writerFitJSON, intent.WordFeatures)
	if err != nil {
		panic("codexjs: writer_fit.json: " + err.Error())
	}
	return m
})

func (m *CodeMode) intentIndex() *intent.Index {
	m.intentOnce.Do(func() {
		var docs []intent.Doc
		for _, e := range m.c.entries {
			if e.Tool != nil {
				docs = append(docs, intent.Doc{Server: e.Tool.Server, Tool: e.Tool.Name, Description: e.Tool.Description})
			}
		}
		m.intent = intent.NewIndex(docs)
	})
	return m.intent
}

// WriterCandidates are the words the model may filter on.
func (m *CodeMode) WriterCandidates(prompt string) []intent.WordCand {
	ix := m.intentIndex()
	return ix.WordCandidates(prompt, ix.Rank(prompt), nil, nil)
}

// Term is the regex alternative of a word: its stem when the stem
// begins the word as written, else the word; "" when it is not three or
// more ASCII letters and digits.
func Term(w intent.WordCand) string {
	t := w.Form
	if strings.HasPrefix(w.Form, w.Stem) {
		t = w.Stem
	}
	if len(t) < 3 || !asciiAlnum(t) {
		return ""
	}
	return t
}

// HeuristicCallsWith is HeuristicCalls with another term model (the
// fitting program's leave-one-out runs).
func (m *CodeMode) HeuristicCallsWith(prompt string, lm *intent.Logit) []json.RawMessage {
	return m.CallsFor(prompt, m.WriterCandidates(prompt), lm)
}

// CallsFor is the call for the prompt given its candidates.
func (m *CodeMode) CallsFor(prompt string, cands []intent.WordCand, lm *intent.Logit) []json.RawMessage {
	var terms []string
	seen := map[string]bool{}
	if lm.Options["mode"] == 1 {
		// The former hand-written terms: every keyword's stem, then
		// their family words (heuristicTerms).
		cands = nil
	}
	for _, w := range intent.SelectWords(lm, cands) {
		if t := Term(w); t != "" && !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		terms = heuristicTerms(prompt)
	}
	if len(terms) == 0 {
		return nil
	}
	return []json.RawMessage{search.MarshalCall("code", HeuristicCode(terms))}
}
