package bm25

import (
	"bufio"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/segment"
	"github.com/kljensen/snowball/english"
	"github.com/toolfind/toolfind/corpus"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"space station", []string{"space", "station"}},
		{"SPACE STATION", []string{"space", "station"}},
		{"\tspace\r\nstation\n space       station", []string{"space", "station", "space", "station"}},
		// NLTK stop words go, contractions included.
		{"i me my myself we our ours ourselves you you're you've you'll you'd", nil},
		{"The running dogs", []string{"run", "dog"}},
		// Numbers stay; "." between digits joins.
		{"42 1337 3.14", []string{"42", "1337", "3.14"}},
		// `_` joins (one stemmed token), `-` splits.
		{"save_issue create-issue", []string{"save_issu", "creat", "issu"}},
		// `:` between letters joins (UAX #29 MidLetter), `@` splits,
		// "." between letters joins.
		{"ref:block hh:mm:ssZ noreply@x.com", []string{"ref:block", "hh:mm:ssz", "norepli", "x.com"}},
		// "'" between letters joins; the result may be a stop word.
		{"don't won't can't let's", []string{"can't", "let"}}, // Porter2 step 0 drops 's
		// Typographic apostrophe is transliterated first, then joins.
		{"don\u2019t stop", []string{"stop"}},
		// Diacritics dropped before lowercasing and stemming.
		{"Ünïcode Café", []string{"unicod", "cafe"}},
		// Em dash becomes "--" and splits; runs of "_" alone are no word.
		{"list\u2014issues ___ _a", []string{"list", "issu", "_a"}},
		// Porter2 special forms and short words.
		{"skis dying news as is", []string{"ski", "die", "news"}},
		{"pull_requests PullRequests", []string{"pull_request", "pullrequest"}},
		// Emoji names (emojione short names) with deunicode's space rule.
		{"🎉 Server🎉works", []string{"tada", "servertada", "work"}}, // no space before an emoji name
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFxHash32 uses the crate's own vectors (embedder.rs test
// it_weights_repeated_words_unequally).
// TestCrateProbes holds facts observed on the real crate through Codex
// 0.171.0's tool_search (shared/oracles/codex-oracle, probe catalogs with
// one tool per case): a query finds the probe tool exactly when the tokens
// below are right.
func TestCrateProbes(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"they're i'm she'd", []string{"they'r", "i'm", "she'd"}}, // not stop words: the 179-word NLTK list
		{"\U0001F389 party", []string{"tada", "parti"}},           // emoji short name
		{"\u26a0 \U0001F680 \U0001F50D \U0001F4A1", []string{"warn", "rocket", "mag", "bulb"}},
		{"\u2705 \u274c", []string{"white", "check", "mark", "x"}},
		{"size 300\u00d750 px", []string{"size", "300x50", "px"}}, // × → x joins the numbers
		{"caf\u00e9 \u00a92024 m\u00b2 90\u00b0 brand\u2122", []string{"cafe", "c", "2024", "m2", "90deg", "brandtm"}},
		{"\u00bd cup", []string{"1", "2", "cup"}},
		{"zero\u200bwidth a\u200db c\u200cd e\u2060f g\ufeffh i\u00adj", []string{"zero", "width", "ab", "cd", "ef", "gh", "ij"}},
		{"left\u00a0right wait\u2026later", []string{"left", "right", "wait", "later"}},
		{"\u03b1\u03b2\u03b3 q\u03be r\u039e q\u03ac r\u0398 q\u03a3", []string{"abg", "qx", "rks", "qa", "rth", "qs"}},
		{"\u043c\u0430\u043b\u044c\u0447\u0438\u043a r\u044as r\u0429 s\u042f r\u0401", []string{"mal'chik", "r", "rshch", "sia", "rio"}}, // ъ → " splits; "s" is a stop word
		{"stra\u00dfe \u0153uvre \u0141\u00f3d\u017a", []string{"strass", "oeuvr", "lodz"}},
		// CJK (probe catalog, queries "lie chu", "hangugeo", "katakana",
		// "genmaicha" each found exactly their tool).
		{"\u5217\u51fa \u6587\u4ef6", []string{"lie", "chu", "wen", "jian"}},                           // 列出 文件
		{"\ud55c\uad6d\uc5b4", []string{"hangugeo"}},                                                   // 한국어
		{"\u30ab\u30bf\u30ab\u30ca \u3052\u3093\u307e\u3044\u8336", []string{"katakana", "genmaicha"}}, // カタカナ げんまい茶
		// After a non-ASCII character deunicode drops control characters,
		// newlines included: the query "cafezebraquux" found this tool and
		// "cafe zebraquux" found nothing.
		{"caf\u00e9\nzebraquux", []string{"cafezebraquux"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTransliterate(t *testing.T) {
	tests := map[string]string{
		"plain ascii": "plain ascii",
		"Æneid étude": "AEneid etude",
		"“quote” ‘x’": "\"quote\" 'x'",
		"a—b–c…":      "a--b-c...",
		"3×4 → x":     "3x4 - x", // deunicode 1.6.2 spells → as "-" (Text::Unidecode x21)
		"🎉":           "tada",
		"🎉 x":         "tada x",
		"🎉x":          "tada x",
		"é":          "e",
		"":           "[?]",
		"北":           "Bei", // deunicode: "Bei " with the trailing space dropped at the end
	}
	for in, want := range tests {
		if got := Transliterate(in); got != want {
			t.Errorf("Transliterate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFxHash32(t *testing.T) {
	for tok, want := range map[string]uint32{"space": 866767497, "station": 666609503} {
		if got := FxHash32(tok); got != want {
			t.Errorf("FxHash32(%q) = %d, want %d", tok, got, want)
		}
	}
}

// TestEmbedderVector is the crate's it_weights_repeated_words_unequally:
// avgdl 3, "space station station" → values [1.0, 1.375, 1.375].
//
//	space:   tf 1: 1·2.2 / (1 + 1.2·(0.25 + 0.75·3/3)) = 2.2/2.2   = 1
//	station: tf 2: 2·2.2 / (2 + 1.2·1)                 = 4.4/3.2   = 1.375
func TestEmbedderVector(t *testing.T) {
	if v := TermValue(1, 3, 3); v != 1.0 {
		t.Errorf("space = %v, want 1", v)
	}
	if v := TermValue(2, 3, 3); v != 1.375 {
		t.Errorf("station = %v, want 1.375", v)
	}
}

// TestLnf32 checks Lnf32 against Rust's f32::ln on Linux for idf arguments
// where it differs from the correctly rounded logarithm.
func TestLnf32(t *testing.T) {
	f, err := os.Open("testdata/logf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		var N, df int
		var bits uint32
		if _, err := fmt.Sscan(line, &N, &df, &bits); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want := math.Float32frombits(bits)
		if got := IDF(N, df); got != want {
			t.Errorf("IDF(%d, %d) = %v, want %v (Rust)", N, df, got, want)
		}
		n++
	}
	if n < 200 {
		t.Fatalf("only %d vectors", n)
	}
	if got := Lnf32(1); got != 0 {
		t.Errorf("Lnf32(1) = %v", got)
	}
	// The crate's own scorer vectors: idf of a token in 1 of 1 document,
	// ln(1 + 0.5/1.5) = 0.2876821, and in 1 of 2, ln(1 + 1.5/1.5) = ln 2.
	if got := IDF(2, 1); got != 0.6931472 {
		t.Errorf("IDF(2,1) = %v, want 0.6931472", got)
	}
}

// The hand-computed cases. Every value was worked out from the crate's
// formulas below and checked bit for bit against the same arithmetic
// compiled with rustc (f32 throughout, f32::ln).
//
// Corpus A (stop words, stemming, repeated query words):
//
//	d0 "The running dogs" → [run dog]   ("the" is a stop word)
//	d1 "A cat is running" → [cat run]   ("a", "is")
//	d2 "Dogs and cats"    → [dog cat]   ("and")
//	N = 3, avgdl = 6/3 = 2
//	every value: tf 1, len 2: 2.2 / (1 + 1.2·(0.25 + 0.75·2/2)) = 2.2/2.2 = 1
//	every token has df 2: idf = ln(1 + (3 − 2 + 0.5)/(2 + 0.5)) = ln 1.6 = 0.47000363
//
//	"running"     → [run]:         d0 = d1 = 0.47000363·1 = 0.47000363 (a tie)
//	"dog dog cat" → [dog dog cat]: d2 = 0.47000363 + 0.47000363 + 0.47000363 = 1.4100109
//	                               d0 = 0.47000363 + 0.47000363 = 0.94000727
//	                               d1 = 0.47000363 (only cat)
//
// Corpus B (`_`, `-`, `:`, `@`, tf > 1, an empty document):
//
//	d0 "save_issue create-issue"          → [save_issu creat issu]        len 3
//	d1 "issue Issues ISSUE"               → [issu issu issu]              len 3
//	d2 "ref:block sent to noreply@x.com"  → [ref:block sent norepli x.com] len 4
//	d3 ""                                 → []                            len 0
//	N = 4, avgdl = 10/4 = 2.5
//	d0 values: 2.2 / (1 + 1.2·(0.25 + 0.75·3/2.5)) = 2.2/2.38 = 0.92436975
//	d1 issu:   6.6 / (3 + 1.2·(0.25 + 0.9))       = 6.6/4.38 = 1.5068494
//	d2 values: 2.2 / (1 + 1.2·(0.25 + 0.75·4/2.5)) = 2.2/2.74 = 0.8029196
//	idf df 1:  ln(1 + 3.5/1.5) = 1.2039728;  idf df 2: ln(1 + 2.5/2.5) = ln 2 = 0.6931472
//
//	"save_issue"   → [save_issu]:    d0 = 1.2039728·0.92436975 = 1.1129161 ("save" alone finds nothing)
//	"issues"       → [issu]:         d1 = 0.6931472·1.5068494 = 1.0444684, d0 = 0.6931472·0.92436975 = 0.6407243
//	"noreply block"→ [norepli block]: d2 = 1.2039728·0.8029196 = 0.9666934 (block is not a token of d2)
//	"ref:block"    → [ref:block]:    d2 = 0.9666934
//	"create-issue" → [creat issu]:   d0 = 1.1129161 + 0.6407243 = 1.7536404, d1 = 1.0444684
//	"issue issue"  → [issu issu]:    d1 = 1.0444684·2 = 2.0889368, d0 = 0.6407243·2 = 1.2814486
func TestHandComputed(t *testing.T) {
	a := New([]string{"The running dogs", "A cat is running", "Dogs and cats"})
	b := New([]string{"save_issue create-issue", "issue Issues ISSUE", "ref:block sent to noreply@x.com", ""})
	if a.AvgDL() != 2 || b.AvgDL() != 2.5 {
		t.Fatalf("avgdl = %v, %v", a.AvgDL(), b.AvgDL())
	}
	tests := []struct {
		ix    *Index
		query string
		want  []Match
	}{
		{a, "running", []Match{{0, 0.47000363}, {1, 0.47000363}}},
		{a, "dog dog cat", []Match{{2, 1.4100109}, {0, 0.94000727}, {1, 0.47000363}}},
		{a, "the and is", nil},
		{b, "save_issue", []Match{{0, 1.1129161}}},
		{b, "save", nil},
		{b, "issues", []Match{{1, 1.0444684}, {0, 0.6407243}}},
		{b, "noreply block", []Match{{2, 0.9666934}}},
		{b, "ref:block", []Match{{2, 0.9666934}}},
		{b, "create-issue", []Match{{0, 1.7536404}, {1, 1.0444684}}},
		{b, "issue issue", []Match{{1, 2.0889368}, {0, 1.2814486}}},
	}
	for _, tt := range tests {
		got := tt.ix.Search(tt.query)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Search(%q) = %v, want %v", tt.query, got, tt.want)
		}
		for _, m := range got {
			if s := tt.ix.Score(tt.query, m.Doc); s != m.Score {
				t.Errorf("Score(%q, %d) = %v, Search says %v", tt.query, m.Doc, s, m.Score)
			}
		}
	}
	ex := b.Explain("create-issue", 0)
	want := []TermScore{
		{Token: "creat", TF: 1, DF: 1, IDF: 1.2039728, Value: 0.92436975, Score: 1.1129161},
		{Token: "issu", TF: 1, DF: 2, IDF: 0.6931472, Value: 0.92436975, Score: 0.6407243},
	}
	if !reflect.DeepEqual(ex, want) {
		t.Errorf("Explain = %+v, want %+v", ex, want)
	}
}

func TestEmptyCorpus(t *testing.T) {
	ix := New(nil)
	if ix.AvgDL() != FallbackAvgDL || ix.Len() != 0 || ix.Search("anything") != nil {
		t.Errorf("empty index: avgdl %v len %d", ix.AvgDL(), ix.Len())
	}
	// Only empty documents: avgdl 0, scoring falls back to 256 (no token
	// is ever scored, but nothing divides by zero).
	ix = New([]string{"", "the"})
	if ix.AvgDL() != 0 || ix.Search("the") != nil {
		t.Errorf("stop-word corpus: avgdl %v", ix.AvgDL())
	}
}

// refIndex is the crate's SearchEngine transcribed slowly: per document a
// map from token hash to value, per hash its document count.
type refIndex struct {
	n   int
	emb []map[uint32]float32
	df  map[uint32]int
}

func newRef(docs [][]string) *refIndex {
	r := &refIndex{n: len(docs), emb: make([]map[uint32]float32, len(docs)), df: map[uint32]int{}}
	total := 0
	for _, d := range docs {
		total += len(d)
	}
	avgdl := FallbackAvgDL
	if r.n > 0 {
		avgdl = float32(float64(total) / float64(r.n))
	}
	if avgdl <= 0 {
		avgdl = FallbackAvgDL
	}
	for i, d := range docs {
		counts := map[uint32]int{}
		for _, t := range d {
			counts[FxHash32(t)]++
		}
		r.emb[i] = map[uint32]float32{}
		for h, c := range counts {
			tf := float32(c)
			num := float32(tf * (K1 + 1))
			den := tf + float32(K1*(1-B+float32(B*(float32(len(d))/avgdl))))
			r.emb[i][h] = num / den
			r.df[h]++
		}
	}
	return r
}

// search is the crate's search.rs loop: for every document holding at
// least one query token hash, sum over all query tokens (duplicates
// included) idf × the document's value, 0 when absent; then a stable sort
// by score.
func (r *refIndex) search(q []string) []Match {
	var out []Match
	for i := range r.emb {
		hit := false
		for _, t := range q {
			if _, ok := r.emb[i][FxHash32(t)]; ok {
				hit = true
			}
		}
		if !hit {
			continue
		}
		var s float32
		for _, t := range q {
			h := FxHash32(t)
			s += float32(IDF(r.n, r.df[h]) * r.emb[i][h])
		}
		out = append(out, Match{Doc: i, Score: s})
	}
	slices.SortStableFunc(out, func(a, b Match) int {
		if a.Score > b.Score {
			return -1
		}
		if a.Score < b.Score {
			return 1
		}
		return 0
	})
	return out
}

func refSearch(docs [][]string, q []string) []Match { return newRef(docs).search(q) }

// catalogDocs returns one text per tool of the shared catalogs (name,
// description, parameter names), or skips.
func catalogDocs(tb testing.TB) []string {
	dir := filepath.Join("..", "..", "..", "shared", "catalogs")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("shared catalogs not found at %s: %v", dir, err)
	}
	docsOnce.Do(func() {
		cat, err := corpus.Load(dir)
		if err != nil {
			docsErr = err
			return
		}
		for _, t := range cat.Tools() {
			sharedDocs = append(sharedDocs, t.Server+" "+t.Name+" "+t.Description+" "+strings.Join(t.InputSchema.Lookup("properties").Keys(), " "))
		}
	})
	if docsErr != nil {
		tb.Fatal(docsErr)
	}
	return sharedDocs
}

var (
	docsOnce   sync.Once
	sharedDocs []string
	docsErr    error
)

// TestAgainstReference checks the fast index against refSearch on the
// shared catalogs with random queries drawn from their vocabulary.
func TestAgainstReference(t *testing.T) {
	docs := catalogDocs(t)
	toks := make([][]string, len(docs))
	var vocab []string
	for i, d := range docs {
		toks[i] = Tokenize(d)
		vocab = append(vocab, toks[i]...)
	}
	ix := NewFromTokens(toks)
	ref := newRef(toks)
	rng := rand.New(rand.NewSource(1))
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	for r := 0; r < rounds; r++ {
		q := make([]string, 1+rng.Intn(5))
		for i := range q {
			q[i] = vocab[rng.Intn(len(vocab))]
		}
		got := ix.SearchTokens(q)
		want := ref.search(q)
		if !sameMatches(got, want) {
			t.Fatalf("query %q: fast %v\nreference %v", q, got, want)
		}
	}
}

// sameMatches compares two result lists whose tie order may differ: the
// same documents with equal scores, in the same score order.
func sameMatches(a, b []Match) bool {
	if len(a) != len(b) {
		return false
	}
	score := map[int]float32{}
	for _, m := range b {
		score[m.Doc] = m.Score
	}
	for i, m := range a {
		s, ok := score[m.Doc]
		if !ok || s != m.Score || b[i].Score != m.Score {
			return false
		}
	}
	return true
}

// TestTokenizeMatchesAnalyzer checks the fused fast path against the bleve
// analysis chain on every document of the shared catalogs.
func TestTokenizeMatchesAnalyzer(t *testing.T) {
	for _, d := range catalogDocs(t) {
		if a, b := Tokenize(d), analyze(d); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q:\nfast  %q\nbleve %q", d, a, b)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"save_issue", "ref:block noreply@x.com", "Ünïcode — café", "don\u2019t", "3.14", "\xff\xfe", "北亰 🦄", "caf\u00e9\nlist\x7f", "한국어\tカタカナ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// deunicode's guarantee: the output is ASCII.
		if tr := Transliterate(s); strings.IndexFunc(tr, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
			t.Fatalf("%q: non-ASCII transliteration %q", s, tr)
		}
		toks := Tokenize(s)
		if ref := analyze(s); !reflect.DeepEqual(toks, ref) {
			t.Fatalf("%q: fast %q, bleve chain %q", s, toks, ref)
		}
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token from %q", s)
			}
			if !hasAlphanumeric([]byte(tok)) {
				t.Fatalf("token %q without a letter or digit from %q", tok, s)
			}
		}
	})
}

func FuzzSearch(f *testing.F) {
	f.Add("save_issue create-issue\nissue issue\nref:block to noreply@x.com", "issue save_issue")
	f.Add("a\n\nthe", "the a")
	f.Fuzz(func(t *testing.T, corpusText, query string) {
		docs := strings.Split(corpusText, "\n")
		if len(docs) > 50 {
			docs = docs[:50]
		}
		toks := make([][]string, len(docs))
		for i, d := range docs {
			toks[i] = Tokenize(d)
		}
		ix := New(docs)
		q := Tokenize(query)
		got := ix.Search(query)
		if want := refSearch(toks, q); !sameMatches(got, want) {
			t.Fatalf("fast %v, reference %v", got, want)
		}
		for i, m := range got {
			if !(m.Score > 0) {
				t.Fatalf("non-positive score %v", m)
			}
			if i > 0 && (got[i-1].Score < m.Score || got[i-1].Score == m.Score && got[i-1].Doc > m.Doc) {
				t.Fatalf("order broken at %d: %v", i, got)
			}
		}
	})
}

// TestASCIIWordsMatchSegmenter holds the ASCII word cutter to the UAX #29
// segmenter on random strings over the characters whose word-break class
// matters (letters, digits, _ : . ' , ;) and a few that only break.
func TestASCIIWordsMatchSegmenter(t *testing.T) {
	const alphabet = "aZ9_.:',; -\n\r\t@/\"x0"
	r := rand.New(rand.NewSource(18))
	for n := 0; n < 200_000; n++ {
		b := make([]byte, 1+r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		var got, want []string
		asciiWords(b, func(w []byte) { got = append(got, string(w)) })
		seg := segment.NewWordSegmenterDirect(b)
		for seg.Segment() {
			if w := seg.Bytes(); hasAlphanumeric(w) {
				want = append(want, string(w))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: ascii %q, segmenter %q", b, got, want)
		}
	}
}

// TestStemDigitEnding: Snowball English leaves a word that ends in a digit
// as it is unless it starts with an apostrophe (stemBytes' shortcut), on
// random words over letters (vowels and the letters of common suffixes),
// digits and the characters a UAX #29 word can hold inside (_ ' . :).
func TestStemDigitEnding(t *testing.T) {
	const alphabet = "aeiouybcdrstlnsgmz_'.:0123456789"
	r := rand.New(rand.NewSource(18))
	for n := 0; n < 300_000; n++ {
		b := make([]byte, 1+r.Intn(14))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		b[len(b)-1] = '0' + byte(r.Intn(10))
		w := string(b)
		want := english.Stem(w, true)
		if b[0] == '\'' {
			if stemBytes(b) != want {
				t.Fatalf("stemBytes(%q) = %q, Snowball %q", w, stemBytes(b), want)
			}
			continue
		}
		if want != w || stemBytes(b) != w {
			t.Fatalf("%q: Snowball %q, stemBytes %q", w, want, stemBytes(b))
		}
	}
}

// TestTermTable: the open-addressing table agrees with a map over keys
// that collide in their low and high bits, 0 included, across growth.
func TestTermTable(t *testing.T) {
	var tt termTable
	want := map[uint32]int32{}
	keys := []uint32{0, 1, 1 << 31, 0xFFFFFFFF}
	for i := uint32(0); i < 5000; i++ {
		keys = append(keys, i<<20, i*0x9E3779B1, i)
	}
	for _, k := range keys {
		id, added := tt.add(k, int32(len(want)))
		if w, ok := want[k]; ok {
			if added || id != w {
				t.Fatalf("add(%#x) again = %d, %v; want %d, false", k, id, added, w)
			}
			continue
		}
		if !added || id != int32(len(want)) {
			t.Fatalf("add(%#x) = %d, %v; want %d, true", k, id, added, len(want))
		}
		want[k] = id
	}
	for k, w := range want {
		if got := tt.get(k); got != w {
			t.Fatalf("get(%#x) = %d, want %d", k, got, w)
		}
	}
	if got := tt.get(12345678); got != -1 {
		t.Errorf("get(absent) = %d, want -1", got)
	}
	if tt.n != len(want) || 2*tt.n > len(tt.keys) {
		t.Errorf("%d keys in %d slots, want %d at most half full", tt.n, len(tt.keys), len(want))
	}
	var empty termTable
	if got := empty.get(0); got != -1 {
		t.Errorf("empty get = %d, want -1", got)
	}
}
