package bm25

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/segment"
	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"
)

// Tokenize returns the tokens of text exactly as the bm25 crate's English
// DefaultTokenizer produces them (see the package doc, "Tokenizer"): ASCII
// transliteration, lowercase, UAX #29 words, NLTK English stop words
// removed, Snowball English stems. Documents and queries use the same
// function. The result is nil for text without tokens.
func Tokenize(text string) []string {
	if text == "" { // crate: an empty input gives no tokens
		return nil
	}
	// The same steps as the bleve chain (Analyzer), fused so that no
	// intermediate token structs are allocated; TestTokenizeMatchesAnalyzer
	// and FuzzTokenize check that both give the same tokens.
	b := []byte(text)
	b = transliterateFilter{}.Filter(b)
	b = lowercaseFilter{}.Filter(b)
	var out []string
	seg := segment.NewWordSegmenterDirect(b)
	for seg.Segment() {
		w := seg.Bytes()
		if !hasAlphanumeric(w) {
			continue
		}
		if _, stop := stopSet[string(w)]; stop {
			continue
		}
		out = append(out, stemBytes(w))
	}
	return out
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
		stop.NewStopTokensFilter(stopTokenMap()),
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
		if c >= utf8.RuneSelf {
			return []byte(Transliterate(string(input)))
		}
	}
	return input // deunicode's fast path: ASCII is returned as is
}

// Transliterate is this package's stand-in for
// deunicode::deunicode_with_tofu_cow(text, "[?]"), the crate's
// normalisation. ASCII is kept byte for byte. Other characters are
// replaced as Text::Unidecode (from which deunicode started) does for the
// characters that occur in tool catalogs:
//
//   - Latin-1 and Latin Extended-A letters lose their diacritics
//     (é → e, Ł → L) and ligatures are spelled out (Æ → AE, ß → ss,
//     œ → oe, þ → th);
//
//   - typographic punctuation becomes its ASCII form (‘ ’ → ', “ ” → ",
//     – → -, — → --, … → ..., • → *, → → ->, ← → <-, × → x, NBSP → space);
//
//   - combining marks are dropped.
//
//   - Greek and Cyrillic letters are spelled in Latin (αβγ → abg, Ξ → Ks,
//     Щ → Shch, мальчик → mal'chik).
//
// These entries were checked against the real crate (through Codex
// 0.171.0's tool_search) where marked in the tests. Deviations, documented
// rather than hidden: other letters and digits (CJK, Arabic, …) are kept
// verbatim, so each still makes a word where deunicode makes one, but under
// its own spelling rather than a Latin transliteration (北京 stays 北 京
// where deunicode writes "Bei Jing", one token per character either way); other symbols (emoji included, which deunicode spells as
// names) become the crate's unknown-character placeholder "[?]", which
// yields no token, except a few common emoji listed in the table. Like
// deunicode, a multi-character replacement that ends in a space loses that
// space before a space or the end of the text.
func Transliterate(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 8)
	pending := "" // a replacement ending in a space, held until the next character is known
	for _, r := range text {
		var rep string
		if r < utf8.RuneSelf {
			rep = string(r)
		} else {
			rep = translitRune(r)
		}
		if pending != "" {
			// deunicode's AsciiCharsIter: a multi-character replacement's
			// trailing space is dropped before a space or the end.
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

func translitRune(r rune) string {
	if s, ok := translitTable[r]; ok {
		return s
	}
	if r >= 0x00C0 && r <= 0x024F || r >= 0x0370 && r <= 0x03FF || r >= 0x1F00 && r <= 0x1FFF || r >= 0x0400 && r <= 0x04FF {
		// Latin, Greek and Cyrillic letters with diacritics: decompose,
		// transliterate the base letter, drop the marks (é → e, ά → a,
		// й is in the table as a whole).
		d := norm.NFD.String(string(r))
		base, size := utf8.DecodeRuneInString(d)
		if size < len(d) || base != r {
			if base < utf8.RuneSelf {
				return string(base)
			}
			if s, ok := translitTable[base]; ok {
				return s
			}
		}
	}
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		return "" // combining marks: deunicode maps them to nothing
	case unicode.IsSpace(r):
		return " "
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return string(r) // deviation: kept verbatim (see Transliterate)
	}
	return "[?]"
}

// translitTable holds the replacements that are not "drop the diacritic".
// Derived facts (Text::Unidecode's tables, x00, x01, x20, x21, x22).
var translitTable = map[rune]string{
	// Latin-1 Supplement (x00)
	0x00A0: " ", 0x00A1: "!", 0x00A2: "C/", 0x00A3: "PS", 0x00A4: "$?", 0x00A5: "Y=",
	0x00A6: "|", 0x00A7: "SS", 0x00A8: "\"", 0x00A9: "(c)", 0x00AA: "a", 0x00AB: "<<",
	0x00AC: "!", 0x00AD: "", 0x00AE: "(r)", 0x00AF: "-", 0x00B0: "deg", 0x00B1: "+-",
	0x00B2: "2", 0x00B3: "3", 0x00B4: "'", 0x00B5: "u", 0x00B6: "P", 0x00B7: "*",
	0x00B8: ",", 0x00B9: "1", 0x00BA: "o", 0x00BB: ">>", 0x00BC: " 1/4", 0x00BD: " 1/2",
	0x00BE: " 3/4", 0x00BF: "?", 0x00C6: "AE", 0x00D0: "D", 0x00D7: "x", 0x00D8: "O",
	0x00DE: "Th", 0x00DF: "ss", 0x00E6: "ae", 0x00F0: "d", 0x00F7: "/", 0x00F8: "o",
	0x00FE: "th",
	// Latin Extended-A (x01) letters without a canonical decomposition
	0x0110: "D", 0x0111: "d", 0x0126: "H", 0x0127: "h", 0x0131: "i", 0x0132: "IJ",
	0x0133: "ij", 0x0138: "q", 0x013F: "L", 0x0140: "l", 0x0141: "L", 0x0142: "l",
	0x0149: "'n", 0x014A: "NG", 0x014B: "ng", 0x0152: "OE", 0x0153: "oe", 0x0166: "T",
	0x0167: "t", 0x017F: "s",
	// General Punctuation (x20)
	0x2000: " ", 0x2001: " ", 0x2002: " ", 0x2003: " ", 0x2004: " ", 0x2005: " ",
	0x2006: " ", 0x2007: " ", 0x2008: " ", 0x2009: " ", 0x200A: " ", 0x200B: " ",
	0x200C: "", 0x200D: "", 0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-",
	0x2014: "--", 0x2015: "--", 0x2016: "||", 0x2018: "'", 0x2019: "'", 0x201A: ",",
	0x201B: "'", 0x201C: "\"", 0x201D: "\"", 0x201E: ",,", 0x201F: "\"", 0x2020: "+",
	0x2021: "++", 0x2022: "*", 0x2024: ".", 0x2025: "..", 0x2026: "...", 0x2032: "'",
	0x2033: "\"", 0x2039: "<", 0x203A: ">", 0x202F: " ", 0x205F: " ", 0x2060: "",
	0x3000: " ", 0xFEFF: "",
	// Arrows and mathematical operators (x21, x22)
	0x2190: "<-", 0x2191: "^", 0x2192: "->", 0x2193: "V", 0x2194: "<->", 0x21D0: "<=",
	0x21D2: "=>", 0x21D4: "<=>", 0x2212: "-", 0x2260: "!=", 0x2264: "<=", 0x2265: ">=",
	0x2122: "TM",
	// Emoji: deunicode spells them by their emojione short names, with a
	// trailing space ("🦄☣" → "unicorn biohazard"). Only a few common ones
	// are listed; their names are inferred from that rule, not checked
	// against deunicode's table.
	0x1F389: "tada ", 0x26A0: "warning ", 0x1F680: "rocket ", 0x1F4A1: "bulb ", 0x1F50D: "mag ",
	0x2705: "white check mark ", 0x274C: "x ",
}

// Greek and Cyrillic (Text::Unidecode x03, x04). Uppercase letters mostly
// spell the capitalised lowercase form, but not always (Ξ → "Ks", ξ → "x").
func init() {
	add := func(letters string, spell []string) {
		i := 0
		for _, r := range letters {
			if spell[i] != "" {
				translitTable[r] = spell[i]
			}
			i++
		}
	}
	add("αβγδεζηθικλμνξοπρςστυφχψω", []string{"a", "b", "g", "d", "e", "z", "e", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s", "t", "u", "ph", "kh", "ps", "o"})
	add("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ", []string{"A", "B", "G", "D", "E", "Z", "E", "Th", "I", "K", "L", "M", "N", "Ks", "O", "P", "R", "S", "T", "U", "Ph", "Kh", "Ps", "O"})
	add("абвгдеёжзийклмнопрстуфхцчшщъыьэюя", []string{"a", "b", "v", "g", "d", "e", "io", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "\"", "y", "'", "e", "iu", "ia"})
	add("АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ", []string{"A", "B", "V", "G", "D", "E", "Io", "Zh", "Z", "I", "I", "K", "L", "M", "N", "O", "P", "R", "S", "T", "U", "F", "Kh", "Ts", "Ch", "Sh", "Shch", "\"", "Y", "'", "E", "Iu", "Ia"})
}

// stopWords is the NLTK English stop-word list (179 words) as the
// stop-words crate 0.9.0 ships it under its `nltk` feature (spec: grok.md
// B.2, codex.md §0). The crate transliterates the list too; it is ASCII.
var stopWords = strings.Fields(`i me my myself we our ours ourselves you you're you've you'll
you'd your yours yourself yourselves he him his himself she she's her hers herself it it's its
itself they them their theirs themselves what which who whom this that that'll these those am is
are was were be been being have has had having do does did doing a an the and but if or because
as until while of at by for with about against between into through during before after above
below to from up down in out on off over under again further then once here there when where why
how all any both each few more most other some such no nor not only own same so than too very s
t can will just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't
didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't
mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't
wouldn wouldn't`)

// IsStopWord reports whether the lowercase word is on the NLTK English list.
func IsStopWord(word string) bool {
	_, ok := stopSet[word]
	return ok
}

var stopSet = func() map[string]struct{} {
	m := make(map[string]struct{}, len(stopWords))
	for _, w := range stopWords {
		m[w] = struct{}{}
	}
	return m
}()

func stopTokenMap() analysis.TokenMap {
	m := analysis.NewTokenMap()
	for _, w := range stopWords {
		m.AddToken(w)
	}
	return m
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
