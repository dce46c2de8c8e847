package lint

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/internal/lazyre"
	"github.com/toolfind/toolfind/search"
)

// TextHit is one piece of text aimed at the model rather than at
// describing the tool: an instruction phrase, hidden Unicode or an encoded
// blob.
type TextHit struct {
	Rule string `json:"rule"` // RuleInjection, RuleHiddenUnicode or RuleEncoded
	// Kind names the pattern: override, secrecy, consent, call-order,
	// tag characters, bidi control, zero-width run, base64.
	Kind string `json:"kind"`
	// Phrase is the matched text; hidden characters are written as U+XXXX,
	// tag characters and base64 as the text they spell.
	Phrase string `json:"phrase"`
	// Offset is where the match starts, in characters (Unicode code points)
	// from the start of the text, counting from 0.
	Offset int `json:"offset"`
}

func (h TextHit) String() string {
	return fmt.Sprintf("%s %q at offset %d", h.Kind, h.Phrase, h.Offset)
}

// Instruction phrases. Each pattern needs the words that make a sentence
// an order to the model against its user (ignore your instructions, hide
// this from the user, act without asking, call another tool before
// anything else); ordinary usage advice ("call list_tables first to get the
// id", "tell the user to narrow the window") does not match. Every pattern
// is checked for zero matches over the 15 real catalogs of ../shared
// (TestNoFalsePositivesOnRealCatalogs).
var phrasePatterns = []struct {
	kind    string
	anchors []string // a lowercased text without any of these cannot match
	re      *lazyre.Regexp
}{
	{"override", []string{"ignore", "disregard", "forget", "override"}, lazyre.New(`(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|system|original|other)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages)\b`)},
	{"override", []string{"<"}, lazyre.New(`(?i)</?(?:system|important|instructions?|admin)>`)},
	{"override", []string{"system"}, lazyre.New(`(?i)\b(?:reveal|print|show|output|repeat|leak)\s+(?:your|the)\s+system\s+prompt\b`)},
	{"secrecy", []string{"user"}, lazyre.New(`(?i)\b(?:do\s+not|don't|never|must\s+not)\s+(?:tell|inform|notify|mention|reveal|disclose|alert)\b[^.;]{0,40}?\b(?:the\s+)?user\b`)},
	{"secrecy", []string{"without"}, lazyre.New(`(?i)\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b`)},
	{"secrecy", []string{"from the user"}, lazyre.New(`(?i)\b(?:keep|hide)\s+(?:this|it)\s+(?:secret\s+)?from\s+the\s+user\b`)},
	{"consent", []string{"already"}, lazyre.New(`(?i)\bthe\s+user\s+(?:has\s+)?already\s+(?:agreed|approved|consented|confirmed|authori[sz]ed|accepted|given\s+(?:consent|permission))\b`)},
	{"consent", []string{"without"}, lazyre.New(`(?i)\bwithout\s+(?:asking|requesting|seeking|waiting\s+for|prompting)\b[^.;]{0,30}?\b(?:confirmation|permission|consent|approval)\b`)},
	{"consent", []string{"the user"}, lazyre.New(`(?i)\b(?:no\s+need\s+to|do\s+not|don't|never)\s+(?:ask|check\s+with|confirm\s+with)\s+the\s+user\b`)},
}

// Call orders: an order to call a named tool of the catalog ahead of
// everything else, or before this tool is used. The target must be another
// tool's name; "call this tool first" and "call list_x first to get the id"
// stay unflagged.
var (
	callBeforeAll = lazyre.New(`(?i)\b(?:always|first|must|should)\b[^.;]{0,30}?\b(?:call|invoke|run|use|execute)\s+` + "`?" + `([A-Za-z0-9_.-]+)` + "`?" + `(?:\(\))?[^.;]{0,60}?\b(?:before|prior\s+to)\s+(?:any|every|all)\s+(?:other\s+)?(?:tools?|actions?|requests?|calls?|steps?)\b`)
	callBeforeUse = lazyre.New(`(?i)\bbefore\s+(?:using|calling|invoking|running)\s+(?:this|any)\s+tool,?\s+(?:you\s+must\s+|always\s+|first\s+)?(?:call|invoke|run|use|execute)\s+` + "`?" + `([A-Za-z0-9_.-]+)`)
)

// ScanText returns the model-directed pieces of one text, in order of
// offset. self is the tool the text belongs to ("" for server
// instructions) and tools the names a call order may target.
func ScanText(text, self string, tools map[string]bool) []TextHit {
	var hits []TextHit
	off := func(byteIdx int) int { return utf8.RuneCountInString(text[:byteIdx]) }
	lower := strings.ToLower(text)
	has := func(anchors ...string) bool {
		for _, a := range anchors {
			if strings.Contains(lower, a) {
				return true
			}
		}
		return false
	}
	for _, p := range phrasePatterns {
		if !has(p.anchors...) {
			continue
		}
		for _, m := range p.re.Re().FindAllStringIndex(text, -1) {
			hits = append(hits, TextHit{Rule: RuleInjection, Kind: p.kind, Phrase: text[m[0]:m[1]], Offset: off(m[0])})
		}
	}
	if has("without") {
		hits = append(hits, consentWithout(text, off)...)
	}
	for _, re := range []*lazyre.Regexp{callBeforeAll, callBeforeUse} {
		if !has("before", "prior to") {
			break
		}
		for _, m := range re.Re().FindAllStringSubmatchIndex(text, -1) {
			target := strings.TrimRight(text[m[2]:m[3]], ".")
			if target == self || !tools[target] {
				continue
			}
			hits = append(hits, TextHit{Rule: RuleInjection, Kind: "call-order", Phrase: text[m[0]:m[1]], Offset: off(m[0])})
		}
	}
	if !isASCII(text) {
		hits = append(hits, hiddenUnicode(text)...)
	}
	for _, m := range base64Runs(text) {
		if s, ok := decodeBase64Text(text[m[0]:m[1]]); ok {
			hits = append(hits, TextHit{Rule: RuleEncoded, Kind: "base64", Phrase: s, Offset: off(m[0])})
		}
	}
	sortHits(hits)
	return hits
}

// withoutConsent is "without (the user's) confirmation/permission/consent/
// approval" as an order; "without confirmation prompts" describes a flag
// and is left alone.
var withoutConsent = lazyre.New(`(?i)\bwithout\s+(?:the\s+user'?s\s+|user\s+|explicit\s+)?(?:confirmation|permission|consent|approval)\b(\s*prompts?\b)?`)

func consentWithout(text string, off func(int) int) []TextHit {
	var hits []TextHit
	for _, m := range withoutConsent.Re().FindAllStringSubmatchIndex(text, -1) {
		if m[2] >= 0 {
			continue
		}
		hits = append(hits, TextHit{Rule: RuleInjection, Kind: "consent", Phrase: text[m[0]:m[1]], Offset: off(m[0])})
	}
	return hits
}

// Hidden characters: Unicode tag characters (U+E0000–U+E007F, invisible
// ASCII look-alikes, decoded), bidirectional controls (U+202A–U+202E,
// U+2066–U+2069), and zero-width characters (U+200B, U+2060, U+FEFF, and
// runs of two or more of those with U+200C/U+200D, which alone join
// emoji and scripts).
func hiddenUnicode(text string) []TextHit {
	var hits []TextHit
	runes := []rune(text)
	for i := 0; i < len(runes); {
		r := runes[i]
		switch {
		case r >= 0xE0000 && r <= 0xE007F:
			j := i
			var spelled strings.Builder
			for j < len(runes) && runes[j] >= 0xE0000 && runes[j] <= 0xE007F {
				if c := runes[j] - 0xE0000; c >= 0x20 && c < 0x7F {
					spelled.WriteRune(c)
				}
				j++
			}
			hits = append(hits, TextHit{Rule: RuleHiddenUnicode, Kind: "tag characters", Phrase: spelled.String(), Offset: i})
			i = j
		case (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069):
			hits = append(hits, TextHit{Rule: RuleHiddenUnicode, Kind: "bidi control", Phrase: fmt.Sprintf("U+%04X", r), Offset: i})
			i++
		case isZeroWidth(r):
			j := i
			var names []string
			for j < len(runes) && isZeroWidth(runes[j]) {
				names = append(names, fmt.Sprintf("U+%04X", runes[j]))
				j++
			}
			if j-i >= 2 || (r != 0x200C && r != 0x200D) {
				hits = append(hits, TextHit{Rule: RuleHiddenUnicode, Kind: "zero-width run", Phrase: strings.Join(names, " "), Offset: i})
			}
			i = j
		default:
			i++
		}
	}
	return hits
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isZeroWidth(r rune) bool {
	return r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF
}

// minBase64 is the shortest run of base64 characters looked at (24 bytes
// of text).
const minBase64 = 32

// base64Runs finds the runs of at least minBase64 characters of
// [A-Za-z0-9+/], each with up to two trailing "=".
func base64Runs(text string) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) {
			c := text[i]
			if c == '+' || c == '/' || search.IsWordByte(c) && c != '_' {
				if start < 0 {
					start = i
				}
				continue
			}
		}
		if start >= 0 && i-start >= minBase64 {
			end := i
			for k := 0; k < 2 && end < len(text) && text[end] == '='; k++ {
				end++
			}
			out = append(out, [2]int{start, end})
		}
		start = -1
	}
	return out
}

// decodeBase64Text decodes a base64 run and keeps it when it spells text:
// printable ASCII with at least one space and mostly letters, which hashes,
// keys and identifiers do not.
func decodeBase64Text(s string) (string, bool) {
	var data []byte
	var err error
	if strings.HasSuffix(s, "=") || len(s)%4 == 0 {
		data, err = base64.StdEncoding.DecodeString(s)
	} else {
		data, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil || len(data) < 16 {
		return "", false
	}
	letters, spaces := 0, 0
	for _, c := range data {
		switch {
		case c == ' ':
			spaces++
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			letters++
		case c == '\n' || c == '\t' || (c >= 0x21 && c < 0x7F):
		default:
			return "", false
		}
	}
	if spaces == 0 || letters*10 < len(data)*7 {
		return "", false
	}
	return string(data), true
}

func sortHits(h []TextHit) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && (h[j].Offset < h[j-1].Offset || (h[j].Offset == h[j-1].Offset && h[j].Kind < h[j-1].Kind)); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}
