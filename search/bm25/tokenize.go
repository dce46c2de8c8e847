package bm25

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/segment"
	"github.com/kljensen/snowball/english"
	"github.com/toolfind/toolfind/internal/ascii"
)

// Tokenize returns the tokens of text exactly as the bm25 crate's English
// DefaultTokenizer produces them (see the package doc, "Tokenizer"): ASCII
// transliteration, lowercase, UAX #29 words, NLTK English stop words
// removed, Snowball English stems. Documents and queries use the same
// function. The result is nil for text without tokens.
func Tokenize(text string) []string {
	var out []string
	var tk tokenizer
	tk.each(text, func(tok string) { out = append(out, tok) })
	return out
}

// tokenizer runs Tokenize's steps with buffers reused from one text to the
// next (one per goroutine).
type tokenizer struct {
	buf []byte
	// stems, when set, is a private memo in front of the shared stemCache,
	// read without a lock (index builds tokenize on several goroutines).
	stems map[string]string
}

// stem is stemBytes through the private memo.
func (tk *tokenizer) stem(w []byte) string {
	if tk.stems == nil {
		return stemBytes(w)
	}
	if n := len(w); n > 0 && '0' <= w[n-1] && w[n-1] <= '9' {
		return stemBytes(w) // not memoised (see stemBytes)
	}
	if s, ok := tk.stems[string(w)]; ok {
		return s
	}
	s := stemBytes(w)
	if len(tk.stems) < stemCacheMax {
		tk.stems[string(w)] = s
	}
	return s
}

// each calls fn with every token of text, in order.
func (tk *tokenizer) each(text string, fn func(tok string)) {
	if text == "" { // crate: an empty input gives no tokens
		return
	}
	// The same steps as the bleve chain (Analyzer), fused so that no
	// intermediate token structs are allocated; TestTokenizeMatchesAnalyzer
	// and FuzzTokenize check that both give the same tokens.
	tk.buf = append(tk.buf[:0], text...)
	tk.eachOwned(tk.buf, fn)
}

// eachOwned is each over text that is the tokenizer's to overwrite.
func (tk *tokenizer) eachOwned(text []byte, fn func(tok string)) {
	if len(text) == 0 {
		return
	}
	b := transliterateFilter{}.Filter(text)
	stops := stopSet()
	word := func(w []byte) {
		if _, stop := stops[string(w)]; stop {
			return
		}
		fn(tk.stem(w))
	}
	if ascii.IsBytes(b) { // always, after transliteration; checked all the same
		// lowercaseFilter on ASCII, in place (b is text or a fresh copy).
		ascii.LowerInPlace(b)
		asciiWords(b, word)
		return
	}
	b = lowercaseFilter{}.Filter(b)
	seg := segment.NewWordSegmenterDirect(b)
	for seg.Segment() {
		if w := seg.Bytes(); hasAlphanumeric(w) {
			word(w)
		}
	}
}

// Word-break classes of the ASCII characters (Unicode's
// WordBreakProperty.txt; every other ASCII character is Other, CR, LF,
// Newline or WSegSpace, which never join a word).
const (
	wbOther uint8 = iota
	wbLetter
	wbDigit
	wbExtendNumLet // _
	wbMidLetter    // :
	wbMidNumLetQ   // . and ' (MidNumLet, Single_Quote)
	wbMidNum       // , ;
)

var asciiWordBreak = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = wbLetter, wbLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = wbDigit
	}
	t['_'], t[':'], t['.'], t['\''], t[','], t[';'] = wbExtendNumLet, wbMidLetter, wbMidNumLetQ, wbMidNumLetQ, wbMidNum, wbMidNum
	return t
}()

// asciiWords calls fn with each word of ASCII text that contains a letter
// or a digit, as the UAX #29 segmenter cuts it (wordsTokenizer), without
// running its state machine. Within ASCII the word rules reduce to: letters,
// digits and _ join each other (WB5, WB8–WB10, WB13a, WB13b); a : . or '
// between two letters joins them (WB6, WB7); a , ; . or ' between two
// digits joins them (WB11, WB12); everything else is a break.
// TestASCIIWordsMatchSegmenter and FuzzTokenize hold it to the segmenter.
func asciiWords(b []byte, fn func(w []byte)) {
	wordish := func(c uint8) bool { return c == wbLetter || c == wbDigit || c == wbExtendNumLet }
	for i := 0; i < len(b); {
		if !wordish(asciiWordBreak[b[i]]) {
			i++
			continue
		}
		start := i
		alnum := false
		for {
			cur := asciiWordBreak[b[i]]
			alnum = alnum || cur != wbExtendNumLet
			if i+1 == len(b) {
				i++
				break
			}
			next := asciiWordBreak[b[i+1]]
			if wordish(next) {
				i++
				continue
			}
			if i+2 < len(b) {
				after := asciiWordBreak[b[i+2]]
				if cur == wbLetter && after == wbLetter && (next == wbMidLetter || next == wbMidNumLetQ) ||
					cur == wbDigit && after == wbDigit && (next == wbMidNum || next == wbMidNumLetQ) {
					i += 2
					continue
				}
			}
			i++
			break
		}
		if alnum {
			fn(b[start:i])
		}
	}
}

// analyze runs the bleve chain and returns its terms.
func analyze(text string) []string {
	if text == "" {
		return nil
	}
	ts := analyzer.Analyze([]byte(text))
	if len(ts) == 0 {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t.Term)
	}
	return out
}

// Analyzer returns the bleve analysis chain behind Tokenize, for use in a
// bleve index mapping or directly. It is safe for concurrent use.
func Analyzer() analysis.Analyzer { return analyzer }

// analyzer is the crate's pipeline as a bleve analysis chain, step for
// step in the order of default_tokenizer.rs `_tokenize`: normalize
// (deunicode), lowercase, split into UAX #29 words, remove stop words,
// stem.
var analyzer = &analysis.DefaultAnalyzer{
	CharFilters: []analysis.CharFilter{transliterateFilter{}, lowercaseFilter{}},
	Tokenizer:   wordsTokenizer{},
	TokenFilters: []analysis.TokenFilter{
		stopFilter{},
		stemFilter{},
	},
}

// lowercaseFilter lowercases the whole text before it is split, as the
// crate does (Rust's str::to_lowercase; Go's bytes.ToLower differs only
// on final sigma and a few special casings such as İ, and Greek and Latin
// letters are already spelled in ASCII at this point).
type lowercaseFilter struct{}

func (lowercaseFilter) Filter(input []byte) []byte {
	for _, c := range input {
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return bytes.ToLower(input)
		}
	}
	return input
}

// wordsTokenizer is unicode-segmentation's `unicode_words`: the text is
// cut at UAX #29 word boundaries by blevesearch/segment (the segmenter of
// bleve's `unicode` tokenizer: pure UAX #29, no ICU tailoring, so `:`
// between letters joins, `@` splits, `_` joins, `-` splits, `.` and `'`
// between letters or digits join) and the pieces that contain at least one
// alphanumeric character (Rust's char::is_alphanumeric) are the words.
// Unlike bleve's tokenizer, a piece such as "___" is not a word.
type wordsTokenizer struct{}

func (wordsTokenizer) Tokenize(input []byte) analysis.TokenStream {
	var out analysis.TokenStream
	seg := segment.NewWordSegmenterDirect(input)
	start, pos := 0, 1
	for seg.Segment() {
		b := seg.Bytes()
		end := start + len(b)
		if hasAlphanumeric(b) {
			out = append(out, &analysis.Token{Term: b, Start: start, End: end, Position: pos, Type: analysis.AlphaNumeric})
			pos++
		}
		start = end
	}
	return out
}

// hasAlphanumeric is Rust's `s.chars().any(char::is_alphanumeric)`:
// Alphabetic (letters, letter numbers, Other_Alphabetic marks) or Numeric
// (Nd, Nl, No).
func hasAlphanumeric(b []byte) bool {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				return true
			}
			b = b[1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Other_Alphabetic, r) {
			return true
		}
		b = b[n:]
	}
	return false
}

// transliterateFilter is the crate's `normalize` step as a bleve char
// filter.
type transliterateFilter struct{}

func (transliterateFilter) Filter(input []byte) []byte {
	for _, c := range input {
		if c >= 0x7F {
			return []byte(Transliterate(string(input)))
		}
	}
	return input // deunicode's fast path: bytes below 0x7F are returned as is
}

// Transliterate is deunicode::deunicode_with_tofu_cow(text, "[?]") of
// deunicode 1.6.2 (the version linked into Codex 0.171.0), the crate's
// normalisation step (codex.md §5.1 "Tokenizer" step 1, grok.md B.2), with
// deunicode's own table (deunicode.bin, see deunicodeData):
//
//   - The longest prefix of bytes below 0x7F is kept as it is (deunicode's
//     fast path; text made only of such bytes is returned unchanged).
//   - From the first other byte on, every character, ASCII included, is
//     replaced by its table entry: printable ASCII by itself, but the
//     control characters U+0000–U+001F (tab, newline and carriage return
//     included) and U+007F by nothing, so "café\nlist" becomes "cafelist"
//     (confirmed on Codex, TestCrateProbes) while "list\ncafé" keeps its
//     newline. Letters lose diacritics or are romanised (é → "e", Æ → "AE",
//     ß → "ss", мальчик → "mal'chik"); a Han character becomes its
//     capitalised Mandarin syllable, nearly always followed by a space
//     (列出 → "Lie Chu"); kana and Hangul their romanisation (げんまい茶 →
//     "genmaiCha", 한국어 → "hangugeo"); emoji their short names followed
//     by a space (🦄☣ → "unicorn biohazard"); punctuation an ASCII form
//     (— → "--", → → "-", … → "..."). A character the table does not know
//     becomes "[?]" (private use, unassigned, U+222DE and above).
//   - A replacement longer than one character that ends in a space loses
//     that space when the next character's replacement starts with a space
//     or the text ends (deunicode's AsciiCharsIter): 北亰 city → "Bei Jing
//     city", 北亰 → "Bei Jing".
func Transliterate(text string) string {
	i := 0
	for i < len(text) && text[i] < 0x7F {
		i++
	}
	if i == len(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) | 15) // deunicode reserves s.len() | 15
	b.WriteString(text[:i])
	pending := "" // a replacement ending in a space, held until the next character is known
	for _, r := range text[i:] {
		rep, ok := deunicodeChar(r)
		if !ok {
			rep = "[?]" // the crate's placeholder (never starts with a space)
		}
		if pending != "" {
			if strings.HasPrefix(rep, " ") {
				pending = pending[:len(pending)-1]
			}
			b.WriteString(pending)
			pending = ""
		}
		if len(rep) > 1 && rep[len(rep)-1] == ' ' {
			pending = rep
			continue
		}
		b.WriteString(rep)
	}
	if pending != "" {
		b.WriteString(pending[:len(pending)-1])
	}
	return b.String()
}

// stopWords is the NLTK English stop-word list (179 words) as the
// stop-words crate 0.9.0 ships it under its `nltk` feature (spec: grok.md
// B.2, codex.md §0), separated by white space. The crate transliterates
// the list too; it is ASCII.
const stopWords = `i me my myself we our ours ourselves you you're you've you'll
you'd your yours yourself yourselves he him his himself she she's her hers herself it it's its
itself they them their theirs themselves what which who whom this that that'll these those am is
are was were be been being have has had having do does did doing a an the and but if or because
as until while of at by for with about against between into through during before after above
below to from up down in out on off over under again further then once here there when where why
how all any both each few more most other some such no nor not only own same so than too very s
t can will just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't
didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't
mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't
wouldn wouldn't`

// IsStopWord reports whether the lowercase word is on the NLTK English list.
func IsStopWord(word string) bool {
	_, ok := stopSet()[word]
	return ok
}

// stopSet is the set of stopWords, made on first use (not at start-up:
// most runs never tokenize).
var stopSet = sync.OnceValue(func() map[string]struct{} {
	words := strings.Fields(stopWords)
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
})

// stopFilter drops the tokens that are stop words (stopSet), keeping the
// others in order: bleve's stop.StopTokensFilter over the same word list,
// without importing bleve's stop package (which pulls bleve's registry,
// search and geo packages, and their package initialisation, into every
// binary that tokenizes).
type stopFilter struct{}

func (stopFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	j := 0
	stops := stopSet()
	for _, token := range input {
		if _, isStop := stops[string(token.Term)]; !isStop {
			input[j] = token
			j++
		}
	}
	return input[:j]
}

// stemFilter stems each token with the Snowball English (Porter2)
// stemmer, as rust-stemmers' Algorithm::English does. Stop words were
// removed already, so kljensen's own stop-word shortcut is disabled
// (stemStopWords true): the crate stems every remaining token.
type stemFilter struct{}

// stemCache memoises stems: Porter2 is a pure function of the word and
// catalogs repeat words a lot. It stops growing at stemCacheMax entries so
// that hostile input cannot grow it without bound.
var (
	stemMu    sync.RWMutex
	stemCache = map[string]string{}
)

const stemCacheMax = 1 << 16

func (stemFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, t := range input {
		t.Term = []byte(stemBytes(t.Term))
	}
	return input
}

// Stem returns the Snowball English stem of a lowercase word.
func Stem(word string) string { return stemBytes([]byte(word)) }

func stemBytes(w []byte) string {
	// A word that ends in a digit is its own stem: every Porter2 suffix
	// rule ends in a letter or an apostrophe, and the prelude only drops a
	// leading apostrophe and marks y (undone by the postlude). Such words
	// are mostly unique (tool names with serial numbers, ids), so they
	// skip the memo instead of filling it. TestStemDigitEnding holds it.
	if n := len(w); n > 0 && '0' <= w[n-1] && w[n-1] <= '9' && w[0] != '\'' {
		return string(w)
	}
	stemMu.RLock()
	s, ok := stemCache[string(w)] // no allocation for the lookup
	stemMu.RUnlock()
	if ok {
		return s
	}
	word := string(w)
	s = english.Stem(word, true)
	stemMu.Lock()
	if len(stemCache) < stemCacheMax {
		stemCache[word] = s
	}
	stemMu.Unlock()
	return s
}
