package grok

import (
	_ "embed"
	"encoding/json"
	"sync"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

//go:embed writer_fit.json
var writerFitJSON []byte

// WriterModel is the fitted word model of the heuristic writer: which of
// the candidate words (intent.Index.WordCandidates: the servers of the
// best tools, the prompt's keywords, family words, words of the best
// tools' names) a model puts in its search_tool query. Its weights are
// fitted on model-written calls (writer/testdata/calib, by
// writer/internal/calibrate) and embedded as writer_fit.json.
var WriterModel = sync.OnceValue(func() *intent.Logit {
	m, err := intent.ParseLogit(writerFitJSON, intent.WordFeatures)
	if err != nil {
		panic("grok: writer_fit.json: " + err.Error())
	}
	return m
})

// WriterCandidates are the words the model may write for the prompt.
func (s *Simulator) WriterCandidates(prompt string) []intent.WordCand {
	ix, servers := s.intentIndex()
	ranked := ix.Rank(prompt)
	return ix.WordCandidates(prompt, ranked, servers, s.toolNames())
}

func (s *Simulator) toolNames() []string {
	s.namesOnce.Do(func() {
		s.names = make([]string, len(s.entries))
		for i, e := range s.entries {
			s.names[i] = e.tool.Name
		}
	})
	return s.names
}

// HeuristicCallsWith is HeuristicCalls with another word model (the
// fitting program's leave-one-out runs): the words m selects, then, when
// m's "follow_up" option is 1, the second search of followUp.
func (s *Simulator) HeuristicCallsWith(prompt string, m *intent.Logit) []json.RawMessage {
	ix, servers := s.intentIndex()
	ranked := ix.Rank(prompt)
	return s.CallsFor(prompt, ranked, ix.WordCandidates(prompt, ranked, servers, s.toolNames()), m)
}

// Ranked is the intent ranking of the prompt over the connected tools.
func (s *Simulator) Ranked(prompt string) []intent.Scored {
	ix, _ := s.intentIndex()
	return ix.Rank(prompt)
}

// CandidatesFor are WriterCandidates given the prompt's ranking.
func (s *Simulator) CandidatesFor(prompt string, ranked []intent.Scored) []intent.WordCand {
	ix, servers := s.intentIndex()
	return ix.WordCandidates(prompt, ranked, servers, s.toolNames())
}

// CallsFor is the calls for the prompt given its ranking and candidates.
func (s *Simulator) CallsFor(prompt string, ranked []intent.Scored, cands []intent.WordCand, m *intent.Logit) []json.RawMessage {
	ix, servers := s.intentIndex()
	if m.Options["mode"] == 1 {
		// The former hand-written query: the best server, then the
		// prompt's six most telling keywords (intent.Index.KeywordQuery).
		server := intent.BestServer(ranked, servers)
		q := ix.KeywordQuery(server, prompt, ranked, 7)
		if q == "" {
			return nil
		}
		calls := []json.RawMessage{search.MarshalCall("query", q)}
		if m.Options["follow_up"] == 1 {
			if q2 := s.followUp(ix, server, prompt, q, ranked); q2 != "" {
				calls = append(calls, search.MarshalCall("query", q2))
			}
		}
		return calls
	}
	words := intent.SelectWords(m, cands)
	q := intent.JoinForms(words)
	if q == "" {
		// A model always writes some query: the best server and the
		// prompt's most telling keywords (intent.Index.KeywordQuery).
		q = ix.KeywordQuery(intent.BestServer(ranked, servers), prompt, ranked, 4)
	}
	if q == "" {
		return nil
	}
	calls := []json.RawMessage{search.MarshalCall("query", q)}
	if m.Options["follow_up"] == 1 {
		server := ""
		for _, w := range words {
			if w.Kind == intent.KindServer {
				server = w.Form
				break
			}
		}
		if q2 := s.followUp(ix, server, prompt, q, ranked); q2 != "" {
			calls = append(calls, search.MarshalCall("query", q2))
		}
	}
	return calls
}
