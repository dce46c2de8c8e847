package intent

import (
	"math"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/search/bm25"
)

// WordFeatures are the features of one word a model may put in a keyword
// query or a filter (see Index.WordCandidates); a client's fitted Logit
// weighs them.
var WordFeatures = []string{
	"is_server",       // the word is a connected server's name
	"server_first",    // the server of the best-ranked tool
	"server_inv_rank", // 1 / the server's rank (by its best tool)
	"server_in_prompt",
	"one_server",       // a server word, and only one server is connected
	"is_prompt_word",   // a keyword of the prompt
	"in_top1",          // in the best tool's name or description
	"in_top3",          // in one of the three best tools' names or descriptions
	"in_any_name",      // in some tool's name
	"desc_only",        // in some description, no name
	"idf",              // inverse document frequency over the tools, over ln(N+1)
	"position",         // 1 for the prompt's first keyword, falling to 1/n for its last
	"is_action",        // the word belongs to a family of action words (Families)
	"first_word",       // the prompt's first keyword
	"is_related",       // not the prompt's: a word of a prompt word's family that a tool name holds
	"is_toolname_word", // not the prompt's: a word of a top tool's name
	"toolname_inv_rank",
}

// Word candidate kinds, in the order a query prints them: servers, the
// family words a model knows the domain by ("aggregate" for "group"),
// the prompt's words, tool-name words.
const (
	KindServer = iota
	KindRelated
	KindPrompt
	KindToolName
)

// WordCand is one word a model may write, with its features
// (WordFeatures, in order).
type WordCand struct {
	Form string
	Stem string
	Kind int
	Pos  int // order within its kind
	X    []float64
}

// WordCandidates lists the words a model may write for the prompt: the
// names of the servers of the three best tools (when servers is given:
// servers[d] is doc d's server), the prompt's keywords, one family word
// per keyword that some tool name holds, and the words of the two best
// tools' names (when names is given: names[d] is doc d's tool name).
func (ix *Index) WordCandidates(prompt string, ranked []Scored, servers, names []string) []WordCand {
	kws := Keywords(prompt)
	stems := map[string]bool{}
	for _, w := range kws {
		stems[w.Stem] = true
	}
	top := ranked
	if len(top) > 3 {
		top = top[:3]
	}
	in1 := func(st string) float64 {
		if len(ranked) > 0 && (ix.name[ranked[0].Doc][st] > 0 || ix.desc[ranked[0].Doc][st] > 0) {
			return 1
		}
		return 0
	}
	b2f := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	norm := math.Log(float64(ix.n) + 1)
	if norm == 0 {
		norm = 1
	}
	nf := len(WordFeatures)
	var out []WordCand
	seen := map[string]bool{}
	if servers != nil {
		distinct := map[string]bool{}
		for _, s := range servers {
			distinct[s] = true
		}
		rank := 0
		for _, r := range ranked {
			srv := servers[r.Doc]
			key := "\x00" + srv
			if seen[key] {
				continue
			}
			seen[key] = true
			rank++
			if rank > 3 {
				break
			}
			x := make([]float64, nf)
			x[0] = 1
			x[1] = b2f(rank == 1)
			x[2] = 1 / float64(rank)
			for _, w := range Words(srv) {
				if stems[w.Stem] {
					x[3] = 1
				}
			}
			x[4] = b2f(len(distinct) == 1)
			out = append(out, WordCand{Form: strings.ToLower(srv), Stem: key, Kind: KindServer, Pos: rank, X: x})
		}
	}
	for i, w := range kws {
		if seen[w.Stem] {
			continue
		}
		seen[w.Stem] = true
		x := make([]float64, nf)
		x[5] = 1
		x[6] = in1(w.Stem)
		x[7] = b2f(ix.inAny(top, w.Stem))
		x[8] = b2f(ix.nameDF[w.Stem] > 0)
		x[9] = b2f(ix.nameDF[w.Stem] == 0 && ix.df[w.Stem] > 0)
		if ix.df[w.Stem] > 0 {
			x[10] = ix.IDF(w.Stem) / norm
		}
		x[11] = 1 / float64(i+1)
		x[12] = b2f(len(familyForms()[w.Stem]) > 0)
		x[13] = b2f(i == 0)
		out = append(out, WordCand{Form: w.Form, Stem: w.Stem, Kind: KindPrompt, Pos: i, X: x})
	}
	for i, w := range kws {
		if ix.nameDF[w.Stem] > 0 {
			continue
		}
		for _, f := range familyForms()[w.Stem] {
			st := bm25.Stem(f)
			if ix.nameDF[st] > 0 && !seen[st] {
				seen[st] = true
				x := make([]float64, nf)
				x[6] = in1(st)
				x[7] = b2f(ix.inAny(top, st))
				x[8] = 1
				x[10] = ix.IDF(st) / norm
				x[11] = 1 / float64(i+1)
				x[12] = 1
				x[14] = 1
				out = append(out, WordCand{Form: f, Stem: st, Kind: KindRelated, Pos: i, X: x})
				break
			}
		}
	}
	if names != nil {
		for r := 0; r < len(ranked) && r < 2; r++ {
			for j, w := range Words(names[ranked[r].Doc]) {
				if seen[w.Stem] {
					continue
				}
				seen[w.Stem] = true
				x := make([]float64, nf)
				x[6] = in1(w.Stem)
				x[7] = 1
				x[8] = 1
				x[10] = ix.IDF(w.Stem) / norm
				x[12] = b2f(len(familyForms()[w.Stem]) > 0)
				x[15] = 1
				x[16] = 1 / float64(r+1)
				out = append(out, WordCand{Form: w.Form, Stem: w.Stem, Kind: KindToolName, Pos: r*100 + j, X: x})
			}
		}
	}
	return out
}

// SelectWords is the model's choice of words: those whose probability
// reaches m.Threshold, the m.Max most probable (ties in candidate order),
// printed kind by kind (servers, family words, prompt words, tool-name
// words), each kind in its own order.
func SelectWords(m *Logit, cands []WordCand) []WordCand {
	type scored struct {
		i int
		p float64
	}
	var ok []scored
	for i, c := range cands {
		if p := m.P(c.X); p >= m.Threshold {
			ok = append(ok, scored{i, p})
		}
	}
	sort.SliceStable(ok, func(a, b int) bool { return ok[a].p > ok[b].p })
	if len(ok) > m.Max {
		ok = ok[:m.Max]
	}
	// A model names what it wants done, not only the server (a query of
	// the server alone lists that server's first tools): the option
	// "min_words" tops the selection up with the most probable words that
	// are not server names, below the threshold if need be.
	if need := int(m.Options["min_words"]); need > 0 {
		taken := map[int]bool{}
		for _, s := range ok {
			taken[s.i] = true
			if cands[s.i].Kind != KindServer {
				need--
			}
		}
		var rest []scored
		for i, c := range cands {
			if !taken[i] && c.Kind != KindServer {
				rest = append(rest, scored{i, m.P(c.X)})
			}
		}
		sort.SliceStable(rest, func(a, b int) bool { return rest[a].p > rest[b].p })
		for j := 0; j < need && j < len(rest); j++ {
			ok = append(ok, rest[j])
		}
	}
	// A word a selected server's name already says is not repeated.
	said := map[string]bool{}
	for _, s := range ok {
		if c := cands[s.i]; c.Kind == KindServer {
			for _, w := range Words(c.Form) {
				said[w.Stem] = true
			}
		}
	}
	out := make([]WordCand, 0, len(ok))
	for _, s := range ok {
		if c := cands[s.i]; c.Kind == KindServer || !said[c.Stem] {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Kind != out[b].Kind {
			return out[a].Kind < out[b].Kind
		}
		return out[a].Pos < out[b].Pos
	})
	return out
}

// JoinForms joins the words' forms with spaces.
func JoinForms(ws []WordCand) string {
	f := make([]string, len(ws))
	for i, w := range ws {
		f[i] = w.Form
	}
	return strings.Join(f, " ")
}
