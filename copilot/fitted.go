package copilot

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

//go:embed writer_fit.json
var writerFitJSON []byte

// WriterModel is the fitted model of the heuristic writer (fitted on
// model-written tool_search_tool calls by writer/internal/calibrate, kept
// in writer/testdata/calib, embedded as writer_fit.json). Its option
// "mode" says which pattern it writes:
//
//   - 0: the final names of the "names" tools the intent index ranks
//     first, escaped and joined into one alternation (the model has read
//     every deferred name in the reminder);
//   - 1: the words the word model selects (intent.SelectWords over
//     intent.Index.WordCandidates: the servers of the best tools, the
//     prompt's keywords, family words, words of the best tools' names),
//     each as its stem when the stem begins the word, joined into one
//     alternation: "issue|creat|github".
var WriterModel = sync.OnceValue(func() *intent.Logit {
	m, err := intent.ParseLogit(writerFitJSON, intent.WordFeatures)
	if err != nil {
		panic("copilot: writer_fit.json: " + err.Error())
	}
	return m
})

// WriterCandidates are the words the model may write for the prompt.
func (s *Simulator) WriterCandidates(prompt string) []intent.WordCand {
	return s.CandidatesFor(prompt, s.Ranked(prompt))
}

// Ranked is the intent ranking of the prompt over the catalog's tools.
func (s *Simulator) Ranked(prompt string) []intent.Scored {
	return s.intentIndex().Rank(prompt)
}

// CandidatesFor are WriterCandidates given the prompt's ranking.
func (s *Simulator) CandidatesFor(prompt string, ranked []intent.Scored) []intent.WordCand {
	servers := make([]string, len(s.entries))
	names := make([]string, len(s.entries))
	for i, e := range s.entries {
		servers[i], names[i] = e.Tool.Server, e.Tool.Name
	}
	return s.intentIndex().WordCandidates(prompt, ranked, servers, names)
}

// HeuristicCallsWith is HeuristicCalls with another model (the fitting
// program's leave-one-out runs).
func (s *Simulator) HeuristicCallsWith(prompt string, m *intent.Logit) []json.RawMessage {
	ranked := s.Ranked(prompt)
	return s.CallsFor(prompt, ranked, s.CandidatesFor(prompt, ranked), m)
}

// CallsFor is the call for the prompt given its ranking and candidates.
func (s *Simulator) CallsFor(prompt string, ranked []intent.Scored, cands []intent.WordCand, m *intent.Logit) []json.RawMessage {
	if !s.Searchable() {
		return nil
	}
	if m.Options["mode"] == 1 {
		var terms []string
		seen := map[string]bool{}
		for _, w := range intent.SelectWords(m, cands) {
			t := w.Form
			if strings.HasPrefix(w.Form, w.Stem) && len(w.Stem) >= 3 {
				t = w.Stem
			}
			if t = regexp.QuoteMeta(t); t != "" && !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		}
		if len(terms) > 0 {
			return []json.RawMessage{search.MarshalCall("pattern", strings.Join(terms, "|"))}
		}
	} else {
		max := int(m.Options["names"])
		if max <= 0 {
			max = HeuristicMaxNames
		}
		var names []string
		for _, r := range ranked {
			if e := s.entries[r.Doc]; e.Deferred {
				names = append(names, regexp.QuoteMeta(e.Name))
			}
			if len(names) == max {
				break
			}
		}
		if len(names) > 0 {
			return []json.RawMessage{search.MarshalCall("pattern", strings.Join(names, "|"))}
		}
	}
	// No tool fits and no word is selected: the prompt's two most telling
	// words, in either order.
	ix := s.intentIndex()
	words := strings.Fields(ix.KeywordQuery("", prompt, ranked, 2))
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	switch len(words) {
	case 0:
		return nil
	case 1:
		return []json.RawMessage{search.MarshalCall("pattern", words[0])}
	}
	return []json.RawMessage{search.MarshalCall("pattern", fmt.Sprintf("%s.*%s|%s.*%s", words[0], words[1], words[1], words[0]))}
}
