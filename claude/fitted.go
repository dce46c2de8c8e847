package claude

import (
	_ "embed"
	"encoding/json"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// WriterFeatures are the features of one deferred tool that the heuristic
// writer's selection model weighs (see WriterCandidates). The weights are
// fitted on model-written calls (writer/testdata/calib; the fitting
// program is writer/internal/calibrate) and embedded as writer_fit.json.
var WriterFeatures = []string{
	"rel_score",        // the tool's intent score over the best tool's
	"log_score",        // ln(1 + score) / 5
	"inv_rank",         // 1 / its rank by intent score
	"name_frac",        // share of the tool name's words the prompt has (or a word of their family)
	"server_in_prompt", // the prompt names a word of the tool's server
	"name_matches",     // prompt words in the tool's name and server name, at most 3, over 3
	"websearch",        // the tool is WebSearch
	"websearch_weak",   // WebSearch, over 1 + the best MCP tool's score (a general request)
	"websearch_words",  // WebSearch, and the prompt asks for the web, news or the latest
	"webfetch_url",     // the tool is WebFetch and the prompt holds a URL
}

// Candidate is one tool the heuristic writer may load, with its
// features (WriterFeatures, in order).
type Candidate struct {
	// Name is the name the model sees and loads (mcp__server__tool,
	// WebSearch).
	Name string
	// Tool is the canonical id of an MCP tool ("" for a built-in).
	Tool string
	X    []float64
}

// maxCandidates bounds the MCP tools a selection is chosen from (the best
// by intent score).
const maxCandidates = 15

//go:embed writer_fit.json
var writerFitJSON []byte

// WriterModel is the fitted selection model the heuristic writer uses.
var WriterModel = sync.OnceValue(func() *intent.Logit {
	m, err := intent.ParseLogit(writerFitJSON, WriterFeatures)
	if err != nil {
		panic("claude: writer_fit.json: " + err.Error())
	}
	return m
})

var webWords = map[string]bool{"web": true, "onlin": true, "internet": true, "latest": true, "news": true, "googl": true, "today": true, "recent": true, "websit": true, "trend": true}

// WriterCandidates are the tools the model may load for the prompt, with
// their features: the deferred MCP tools that score best for it (package
// intent: names, and standing in for what a model knows a name means, the
// descriptions and schemas), then the deferred WebSearch and WebFetch.
func (s *Simulator) WriterCandidates(prompt string) []Candidate {
	ix, entries := s.intentIndex()
	ranked := ix.Rank(prompt)
	stems := map[string]bool{}
	for _, w := range intent.Keywords(prompt) {
		stems[w.Stem] = true
	}
	fam := map[string]bool{}
	for st := range stems {
		fam[st] = true
		for _, r := range intent.Related(st) {
			fam[r] = true
		}
	}
	top := 0.0
	if len(ranked) > 0 {
		top = ranked[0].Score
	}
	var out []Candidate
	for i, r := range ranked {
		if i == maxCandidates {
			break
		}
		e := entries[r.Doc]
		words := intent.Words(e.tool.Name)
		hit := 0
		for _, w := range words {
			if fam[w.Stem] {
				hit++
			}
		}
		frac := 0.0
		if len(words) > 0 {
			frac = float64(hit) / float64(len(words))
		}
		srv := 0.0
		for _, w := range intent.Words(e.srv.Name) {
			if stems[w.Stem] {
				srv = 1
			}
		}
		x := make([]float64, len(WriterFeatures))
		x[0] = r.Score / top
		x[1] = math.Log1p(r.Score) / 5
		x[2] = 1 / float64(i+1)
		x[3] = frac
		x[4] = srv
		x[5] = float64(min(r.NameMatches, 3)) / 3
		out = append(out, Candidate{Name: e.name, Tool: string(e.id), X: x})
	}
	web, url := false, strings.Contains(prompt, "http://") || strings.Contains(prompt, "https://") || strings.Contains(prompt, "www.")
	for st := range stems {
		web = web || webWords[st]
	}
	for _, e := range s.deferred {
		if e.mcp {
			continue
		}
		x := make([]float64, len(WriterFeatures))
		switch e.name {
		case "WebSearch":
			x[6] = 1
			x[7] = 1 / (1 + top)
			if web {
				x[8] = 1
			}
		case "WebFetch":
			if url {
				x[9] = 1
			}
		default:
			continue
		}
		out = append(out, Candidate{Name: e.name, X: x})
	}
	return out
}

// Select is the model's choice among candidates: the most probable when
// its probability reaches m.Threshold, then the next most probable while
// theirs reach m.Options["more"] (m.Threshold when unset) and their
// intent score is at least m.Options["min_rel"] of the best's
// (rel_score), at most m.Max in all (ties in candidate order).
func Select(m *intent.Logit, cands []Candidate) []Candidate {
	type scored struct {
		c Candidate
		p float64
	}
	ok := make([]scored, 0, len(cands))
	for _, c := range cands {
		ok = append(ok, scored{c, m.P(c.X)})
	}
	sort.SliceStable(ok, func(i, j int) bool { return ok[i].p > ok[j].p })
	more, set := m.Options["more"]
	if !set {
		more = m.Threshold
	}
	minRel := m.Options["min_rel"]
	var out []Candidate
	for i, s := range ok {
		if len(out) == m.Max || i == 0 && s.p < m.Threshold {
			break
		}
		if i > 0 && (s.p < more || s.c.X[0] < minRel) {
			continue
		}
		out = append(out, s.c)
	}
	return out
}

// HeuristicCallsWith is HeuristicCalls with another selection model (the
// fitting program's leave-one-out runs).
func (s *Simulator) HeuristicCallsWith(prompt string, m *intent.Logit) []json.RawMessage {
	return s.CallsFor(prompt, s.WriterCandidates(prompt), m)
}

// CallsFor is the call for the prompt given its candidates
// (WriterCandidates): "select:" and the names m selects (SelectCall),
// else a keyword search (KeywordCall).
func (s *Simulator) CallsFor(prompt string, cands []Candidate, m *intent.Logit) []json.RawMessage {
	if pick := Select(m, cands); len(pick) > 0 {
		return SelectCall(pick)
	}
	return s.KeywordCall(prompt, m)
}

// SelectCall loads the picked tools by name.
func SelectCall(pick []Candidate) []json.RawMessage {
	names := make([]string, len(pick))
	for i, c := range pick {
		names[i] = c.Name
	}
	return []json.RawMessage{search.MarshalCall("query", "select:"+strings.Join(names, ","))}
}

// KeywordCall is the call of a model that sees no name to load: a short
// keyword search of the prompt's most telling words
// (intent.Index.KeywordQuery), m.Options["kw_words"] of them (4 when
// unset), led by the server of the best tool when m.Options["kw_server"]
// is 1. (Model-written keyword searches abstract the request: "car rental
// Los Angeles", "domain name registrar price comparison".)
func (s *Simulator) KeywordCall(prompt string, m *intent.Logit) []json.RawMessage {
	ix, entries := s.intentIndex()
	ranked := ix.Rank(prompt)
	words := heuristicKeywords
	if v, ok := m.Options["kw_words"]; ok && v > 0 {
		words = int(v)
	}
	server := ""
	if m.Options["kw_server"] == 1 {
		servers := make([]string, len(entries))
		for i, e := range entries {
			servers[i] = e.srv.Name
		}
		server = intent.BestServer(ranked, servers)
		if server != "" {
			words++
		}
	}
	q := ix.KeywordQuery(server, prompt, ranked, words)
	if q == "" {
		return nil
	}
	return []json.RawMessage{search.MarshalCall("query", q, "max_results", DefaultMaxResults)}
}
