package bm25

import (
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// The crate's constants (embedder.rs; spec grok.md B.2, codex.md §5.1).
const (
	K1            float32 = 1.2   // EmbedderBuilder k1
	B             float32 = 0.75  // EmbedderBuilder b
	FallbackAvgDL float32 = 256.0 // Embedder::FALLBACK_AVGDL: empty corpus (or avgdl ≤ 0)
)

// Index is a BM25 index over a fixed list of documents, scoring as the bm25
// crate 2.3.2 does with SearchEngineBuilder::<u32>::with_corpus(English,
// docs). It is immutable after New and safe for concurrent Search.
//
// The postings of all terms sit in one pointer-free slice (term t's are
// post[postOff[t]:postOff[t+1]], in document order), so a large index costs
// the garbage collector nothing to scan.
type Index struct {
	n       int       // documents
	avgdl   float32   // mean token count, f64 mean rounded to f32
	docLen  []int32   // token count per document
	terms   termTable // fxhash32(token) → term id
	idf     []float32 // term id → idf, f32 as the crate computes it
	postOff []int32   // term id → first posting; len terms+1
	post    []posting // every term's postings, by term id, then document
	scratch sync.Pool // *[]float32 of length n, all zero when pooled
}

type posting struct {
	doc   int32
	tf    int32   // occurrences of the term's hash in the document
	value float32 // the document's embedding value for the term
}

// Match is a candidate document and its score.
type Match struct {
	Doc   int
	Score float32
}

// TermScore is one query token's share of a document's score.
type TermScore struct {
	Token string  // the query token (after analysis)
	TF    int     // occurrences in the document (0: absent)
	DF    int     // documents containing it
	IDF   float32 // ln(1 + (N − DF + 0.5)/(DF + 0.5)), f32
	Value float32 // the document's embedding value for it (0: absent)
	Score float32 // IDF × Value, f32: what the crate adds for this occurrence
}

// hashTF is one distinct token hash of a document and its count; after
// the term ids are assigned, hash holds the term id.
type hashTF struct {
	hash uint32
	tf   int32
}

// New builds the index; a document's id is its position in docs.
// Documents are tokenized in parallel (GOMAXPROCS workers) when there are
// many, straight into token hashes (the crate's term ids) without keeping
// the token strings.
func New(docs []string) *Index {
	return NewFunc(len(docs), func(i int) string { return docs[i] })
}

// NewFunc is New over n documents that doc returns one at a time, so a
// caller can build each text when it is tokenized and let it go right
// after instead of holding them all. doc is called once per document,
// from several goroutines at once.
func NewFunc(n int, doc func(i int) string) *Index {
	return NewAppend(n, func(i int, dst []byte) []byte { return append(dst, doc(i)...) })
}

// NewAppend is NewFunc for a caller that writes each document's text:
// doc appends document i to dst and returns the extended slice, which the
// index reuses for the next document of the same goroutine (no text is
// kept). doc is called once per document, from several goroutines at
// once.
func NewAppend(n int, doc func(i int, dst []byte) []byte) *Index {
	workers := runtime.GOMAXPROCS(0)
	if n < 64 || workers < 2 {
		workers = 1
	}
	lists := make([][]hashTF, n)
	docLen := make([]int32, n)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk := tokenizer{stems: map[string]string{}}
			var hashes []uint32
			var text []byte
			var chunk []hashTF // the documents' lists are cut from chunks
			for i := w; i < n; i += workers {
				hashes = hashes[:0]
				text = doc(i, text[:0])
				tk.eachOwned(text, func(tok string) { hashes = append(hashes, FxHash32(tok)) })
				docLen[i] = int32(len(hashes))
				if cap(chunk)-len(chunk) < len(hashes) {
					chunk = make([]hashTF, 0, max(1<<14, len(hashes)))
				}
				start := len(chunk)
				chunk = appendCounts(chunk, hashes)
				lists[i] = chunk[start:len(chunk):len(chunk)]
			}
		}()
	}
	wg.Wait()
	return build(docLen, func(d int) []hashTF { return lists[d] })
}

// appendCounts appends the distinct values of hashes with their counts
// (hashes is sorted in place).
func appendCounts(out []hashTF, hashes []uint32) []hashTF {
	slices.Sort(hashes)
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j] == hashes[i] {
			j++
		}
		out = append(out, hashTF{hash: hashes[i], tf: int32(j - i)})
		i = j
	}
	return out
}

// NewFromTokens builds an index over documents that are already tokenized
// (for callers that tokenize once and reuse the tokens).
func NewFromTokens(docs [][]string) *Index {
	docLen := make([]int32, len(docs))
	lists := make([][]hashTF, len(docs))
	var hashes []uint32
	for d, ts := range docs {
		hashes = hashes[:0]
		for _, t := range ts {
			hashes = append(hashes, FxHash32(t))
		}
		docLen[d] = int32(len(ts))
		lists[d] = appendCounts(nil, hashes)
	}
	return build(docLen, func(d int) []hashTF { return lists[d] })
}

// build assigns term ids (counts are per token hash, as the crate counts
// embedding indices), then lays out the postings in document order.
// terms(d) is document d's distinct hashes; build overwrites them with
// term ids.
func build(docLen []int32, terms func(d int) []hashTF) *Index {
	n := len(docLen)
	ix := &Index{n: n, docLen: docLen}
	total := 0
	for _, l := range docLen {
		total += int(l)
	}
	// EmbedderBuilder::with_fit_to_corpus: avgdl = (total as f64 / N as f64) as f32,
	// or the fallback for an empty corpus.
	if n == 0 {
		ix.avgdl = FallbackAvgDL
	} else {
		ix.avgdl = float32(float64(total) / float64(n))
	}
	avgdl := ix.avgdl
	if avgdl <= 0 { // Embedder::embed: `if self.avgdl <= 0.0 { FALLBACK_AVGDL }`
		avgdl = FallbackAvgDL
	}
	var df []int32
	for d := 0; d < n; d++ {
		list := terms(d)
		for k := range list {
			id, added := ix.terms.add(list[k].hash, int32(len(df)))
			if added {
				df = append(df, 0)
			}
			df[id]++
			list[k].hash = uint32(id)
		}
	}
	ix.postOff = make([]int32, len(df)+1)
	for t, c := range df {
		ix.postOff[t+1] = ix.postOff[t] + c
	}
	ix.post = make([]posting, ix.postOff[len(df)])
	next := df // reused as each term's fill cursor
	copy(next, ix.postOff[:len(df)])
	for d := 0; d < n; d++ {
		for _, ht := range terms(d) {
			t := ht.hash
			ix.post[next[t]] = posting{doc: int32(d), tf: ht.tf, value: TermValue(int(ht.tf), int(docLen[d]), avgdl)}
			next[t]++
		}
	}
	ix.idf = make([]float32, len(df))
	for t := range ix.idf {
		ix.idf[t] = IDF(n, int(ix.postOff[t+1]-ix.postOff[t]))
	}
	ix.scratch.New = func() any { s := make([]float32, n); return &s }
	return ix
}

// postings returns term id's postings, in document order.
func (ix *Index) postings(id int32) []posting {
	return ix.post[ix.postOff[id]:ix.postOff[id+1]]
}

func (ix *Index) termID(tok string) int32 {
	return ix.terms.get(FxHash32(tok))
}

// Len returns the number of documents.
func (ix *Index) Len() int { return ix.n }

// AvgDL returns the average document length used in scoring.
func (ix *Index) AvgDL() float32 { return ix.avgdl }

// DocLen returns the token count of a document.
func (ix *Index) DocLen(doc int) int { return int(ix.docLen[doc]) }

// Terms returns the number of distinct terms (token hashes).
func (ix *Index) Terms() int { return len(ix.idf) }

// Search returns every document sharing at least one token with the query,
// sorted by score descending, equal scores by document id ascending. The
// crate returns equal scores in hash-set order, which varies from run to
// run; callers that model that must treat equal scores as a tie group.
func (ix *Index) Search(query string) []Match {
	return ix.SearchTokens(Tokenize(query))
}

// SearchTokens is Search over an already tokenized query.
func (ix *Index) SearchTokens(qtoks []string) []Match {
	if len(qtoks) == 0 || ix.n == 0 {
		return nil
	}
	acc := ix.scratch.Get().(*[]float32)
	scores := *acc
	var cand []int32
	// Term at a time, in query-token order: each document's sum gets its
	// addends in the same order as the crate's document-at-a-time loop
	// (search.rs), minus the zero addends of absent tokens, which leave an
	// f32 sum unchanged. A repeated query token is added again.
	for _, t := range qtoks {
		id := ix.termID(t)
		if id < 0 {
			continue
		}
		idf := ix.idf[id]
		for _, p := range ix.postings(id) {
			if scores[p.doc] == 0 {
				cand = append(cand, p.doc)
			}
			// float32(...) forbids fusing the multiply into the add
			// (Go spec, "Floating-point operators"): the crate rounds both.
			scores[p.doc] += float32(idf * p.value)
		}
	}
	if len(cand) == 0 {
		ix.scratch.Put(acc)
		return nil
	}
	out := make([]Match, len(cand))
	for i, d := range cand {
		out[i] = Match{Doc: int(d), Score: scores[d]}
		scores[d] = 0
	}
	ix.scratch.Put(acc)
	slices.SortFunc(out, func(a, b Match) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return a.Doc - b.Doc
	})
	return out
}

// Score returns the crate's score of one document for the query (0 when
// it shares no token).
func (ix *Index) Score(query string, doc int) float32 {
	var s float32
	for _, ts := range ix.Explain(query, doc) {
		s += ts.Score
	}
	return s
}

// Explain returns, per query token in query order (duplicates included),
// its contribution to the document's score; the contributions summed in
// order in float32 give the score.
func (ix *Index) Explain(query string, doc int) []TermScore {
	return ix.ExplainTokens(Tokenize(query), doc)
}

// ExplainTokens is Explain over an already tokenized query.
func (ix *Index) ExplainTokens(qtoks []string, doc int) []TermScore {
	if doc < 0 || doc >= ix.n {
		return nil
	}
	out := make([]TermScore, 0, len(qtoks))
	for _, t := range qtoks {
		ts := TermScore{Token: t}
		id := ix.termID(t)
		if id >= 0 {
			ps := ix.postings(id)
			ts.DF = len(ps)
			ts.IDF = ix.idf[id]
			if k, ok := slices.BinarySearchFunc(ps, int32(doc), func(p posting, d int32) int { return int(p.doc - d) }); ok {
				ts.TF = int(ps[k].tf)
				ts.Value = ps[k].value
				ts.Score = float32(ts.IDF * ts.Value)
			}
		} else {
			ts.IDF = IDF(ix.n, 0)
		}
		out = append(out, ts)
	}
	return out
}

// TermValue is the crate's embedding value of a token occurring tf times in
// a text of docLen tokens (embedder.rs `embed`), every operation rounded to
// float32 in the crate's order:
//
//	numerator   = tf·(k1 + 1)
//	denominator = tf + k1·((1 − b) + b·(docLen/avgdl))
//	value       = numerator / denominator
func TermValue(tf, docLen int, avgdl float32) float32 {
	ftf := float32(tf)
	num := float32(ftf * float32(K1+1))
	ratio := float32(docLen) / avgdl
	norm := float32(1-B) + float32(B*ratio)
	den := ftf + float32(K1*norm)
	return num / den
}

// IDF is the crate's idf for a token found in df of n documents
// (scorer.rs `idf`), every step in float32:
//
//	idf = ln(1 + ((n − df) + 0.5) / (df + 0.5))
//
// The logarithm is Rust's f32::ln, which calls the C library's logf; Lnf32
// reproduces that function bit for bit.
func IDF(n, df int) float32 {
	num := float32(n) - float32(df) + 0.5
	den := float32(df) + 0.5
	return Lnf32(1 + num/den)
}

// FxHash32 is fxhash 0.2's hash32 of a str, the crate's token id
// (EmbeddingDimension for u32): the bytes as little-endian 4-byte words,
// then each remaining byte alone, then the 0xff that Rust's `impl Hash for
// str` writes; each word is mixed in as hash = (rotl(hash, 5) ^ word) ·
// 0x27220a95 (SEED32, the low half of fxhash's 64-bit seed). The crate's
// own test vectors pin it: "space" → 866767497, "station" → 666609503. Two
// tokens with the same hash are one term to the crate, and so to this
// index.
func FxHash32(s string) uint32 {
	var h uint32
	for len(s) >= 4 {
		h = fxAdd(h, uint32(s[0])|uint32(s[1])<<8|uint32(s[2])<<16|uint32(s[3])<<24)
		s = s[4:]
	}
	for i := 0; i < len(s); i++ {
		h = fxAdd(h, uint32(s[i]))
	}
	return fxAdd(h, 0xff)
}

func fxAdd(h, w uint32) uint32 { return (bits.RotateLeft32(h, 5) ^ w) * 0x27220a95 }

// termTable maps token hashes to term ids: open addressing with linear
// probing over a power-of-two table kept at most half full (a Go map
// costs several times more per lookup while an index is built).
type termTable struct {
	keys  []uint32
	ids   []int32 // id+1; 0 marks an empty slot
	n     int
	shift uint8 // 32 − log2(len(keys)): the slot is the product's top bits
}

func (t *termTable) slot(key uint32) int { return int((key * 0x9E3779B1) >> t.shift) }

// get returns key's id, or -1.
func (t *termTable) get(key uint32) int32 {
	if len(t.keys) == 0 {
		return -1
	}
	mask := len(t.keys) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		switch {
		case t.ids[i] == 0:
			return -1
		case t.keys[i] == key:
			return t.ids[i] - 1
		}
	}
}

// add returns key's id, giving it id when it has none (added true).
func (t *termTable) add(key uint32, id int32) (int32, bool) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := len(t.keys) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		switch {
		case t.ids[i] == 0:
			t.keys[i], t.ids[i] = key, id+1
			t.n++
			return id, true
		case t.keys[i] == key:
			return t.ids[i] - 1, false
		}
	}
}

func (t *termTable) grow() {
	old := *t
	size := max(2*len(old.keys), 1024)
	*t = termTable{keys: make([]uint32, size), ids: make([]int32, size), shift: uint8(32 - bits.Len(uint(size)-1))}
	for i, id := range old.ids {
		if id != 0 {
			t.add(old.keys[i], id-1)
		}
	}
}
