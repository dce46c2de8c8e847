package vscode

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// The "words" stand-in for VS Code's embeddings (copilot.md §3.6: cluster
// membership, the activate_embeddings top 10 and client tool_search need
// Copilot's text3small_512 embeddings, which toolfind does not have).
//
// A tool's text is name + "\n\n" + description, as VS Code embeds it
// (§3.3 step 8). Its words: split at every character that is not a letter
// or digit and at lower→upper case changes, lowercased, words of one
// character and a short stop list dropped, a trailing "s" cut from words
// longer than three letters made singular (singular). The name's
// words count twice. Vectors are tf-idf (idf = ln(1 + N/df) over the
// tools being compared) and similarity is their cosine. Deterministic, and
// only an approximation of what an embedding model would say.

var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"can": true, "for": true, "from": true, "if": true, "in": true, "into": true, "is": true, "it": true,
	"its": true, "of": true, "on": true, "or": true, "that": true, "the": true, "this": true, "to": true,
	"use": true, "used": true, "when": true, "will": true, "with": true, "you": true, "your": true,
}

// Words are the stand-in's words of a text, in order.
func Words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 1 {
			w := strings.ToLower(string(cur))
			w = singular(w)
			if !stopWords[w] {
				out = append(out, w)
			}
		}
		cur = cur[:0]
	}
	var prev rune
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}

// singular undoes the commonest English plurals: "repositories" →
// "repository", "branches" → "branch", "issues" → "issue"; words of three
// letters or fewer and words in "ss" are kept.
func singular(w string) string {
	switch {
	case len(w) <= 3 || strings.HasSuffix(w, "ss"):
		return w
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// vector is a sparse unit tf-idf vector, terms sorted.
type vector struct {
	terms []string
	w     []float64
}

func (a vector) dot(b vector) float64 {
	s := 0.0
	for i, j := 0, 0; i < len(a.terms) && j < len(b.terms); {
		switch {
		case a.terms[i] == b.terms[j]:
			s += a.w[i] * b.w[j]
			i++
			j++
		case a.terms[i] < b.terms[j]:
			i++
		default:
			j++
		}
	}
	return s
}

// space holds the idf of a set of texts.
type space struct {
	n  int
	df map[string]int
}

func newSpace(docs [][]string) *space {
	sp := &space{n: len(docs), df: map[string]int{}}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, w := range d {
			if !seen[w] {
				seen[w] = true
				sp.df[w]++
			}
		}
	}
	return sp
}

func (sp *space) vector(words []string) vector {
	tf := map[string]float64{}
	for _, w := range words {
		tf[w]++
	}
	var v vector
	for t := range tf {
		v.terms = append(v.terms, t)
	}
	sort.Strings(v.terms)
	norm := 0.0
	for _, t := range v.terms {
		df := sp.df[t]
		if df == 0 {
			df = 1
		}
		x := tf[t] * math.Log(1+float64(sp.n)/float64(df))
		v.w = append(v.w, x)
		norm += x * x
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for i := range v.w {
			v.w[i] /= norm
		}
	}
	return v
}

// toolWords are a tool's words: the name's twice, then the description's.
func toolWords(name, description string) []string {
	nw := Words(name)
	return append(append(append([]string(nil), nw...), nw...), Words(description)...)
}

// cluster splits n items into k clusters by average-linkage agglomeration
// over the cosine similarities sim: the pair of clusters with the highest
// mean similarity merges first, ties going to the pair whose first members
// come first. Clusters come in the order of their first member; members
// in item order. k ≥ n gives every item alone.
func cluster(sim [][]float64, k int) [][]int {
	n := len(sim)
	cl := make([][]int, n)
	for i := range cl {
		cl[i] = []int{i}
	}
	if k < 1 {
		k = 1
	}
	// sum[a][b]: the sum of similarities between clusters a and b.
	sum := make([][]float64, n)
	for i := range sum {
		sum[i] = append([]float64(nil), sim[i]...)
	}
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	for count := n; count > k; count-- {
		ba, bb, best := -1, -1, math.Inf(-1)
		for a := 0; a < n; a++ {
			if !alive[a] {
				continue
			}
			for b := a + 1; b < n; b++ {
				if !alive[b] {
					continue
				}
				m := sum[a][b] / float64(len(cl[a])*len(cl[b]))
				if m > best+1e-12 {
					ba, bb, best = a, b, m
				}
			}
		}
		// merge bb into ba (ba < bb, so ba keeps the first member)
		cl[ba] = mergeSorted(cl[ba], cl[bb])
		alive[bb] = false
		for c := 0; c < n; c++ {
			if alive[c] && c != ba {
				sum[ba][c] += sum[bb][c]
				sum[c][ba] = sum[ba][c]
			}
		}
	}
	var out [][]int
	for a := 0; a < n; a++ {
		if alive[a] {
			out = append(out, cl[a])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func mergeSorted(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j >= len(b) || i < len(a) && a[i] < b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// topWord is a cluster's most frequent name word (ties: the word first
// in alphabetical order), for the stand-in group name.
func topWord(names []string) string {
	count := map[string]int{}
	for _, n := range names {
		seen := map[string]bool{}
		for _, w := range Words(n) {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	best, bc := "", 0
	for w, c := range count {
		if c > bc || c == bc && w < best {
			best, bc = w, c
		}
	}
	return best
}
