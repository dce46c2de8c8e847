package suggest

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// missedWords are the words of one missed (prompt, client) pair.
type missedWords struct {
	query int
	// fold is the query's cross-validation fold, text its prompt.
	fold  int
	text  string
	words []intent.Word
}

// candidateWord is a word a missed prompt (or the call written for it)
// uses and the tool's text does not.
type candidateWord struct {
	Form, Stem string
	// Misses counts the tool's missed (prompt, client) pairs whose prompt
	// or call uses the word, Prompts the distinct prompts among them;
	// Others counts the prompts that do not expect the tool and use it
	// (where adding it could attract the tool).
	Misses, Prompts, Others int
	// Folds counts the cross-validation folds whose missed prompts use
	// the word; Cased is the prompts' most common spelling of it ("VMs";
	// "" when no prompt spells it as a whole word).
	Folds int
	Cased string
	// Next are the stems of the words that follow it in a missed prompt
	// ("application" → "insight"): sentenceFor keeps such words together
	// as the phrase the prompts use.
	Next map[string]bool
	// Initials is set for the initials of words of the tool's text
	// ("waf"), written in capitals.
	Initials bool
}

// generic reports whether a word is used by too many prompts that want
// other tools to be worth adding: more than twice (plus one) the missed
// prompts it would serve. Such words ("show", "list", "name") fix one
// prompt by pulling the tool into many others, and they are not what the
// tool is about; leaving them out also keeps the re-simulation small.
func (w candidateWord) generic() bool { return w.Others > 2*w.Prompts+1 }

// stemsOf returns the distinct stems of a text (intent.Words: lowercased,
// split at punctuation and camelCase, stop and filler words out, Snowball
// stems).
func stemsOf(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range intent.Words(text) {
		out[w.Stem] = true
	}
	return out
}

// callTexts returns the keyword texts of a client's calls: each call's
// "query" string, except Claude's select: lists (names, not words; specs/
// claude.md §1 "select:"). Code calls (Codex's, OpenCode's) have none.
func callTexts(calls []json.RawMessage) []string {
	var out []string
	for _, c := range calls {
		m, err := search.CallObject(c)
		if err != nil {
			continue
		}
		q, err := search.CallString(m, "query", false)
		if err != nil || q == "" || isSelect(q) {
			continue
		}
		out = append(out, q)
	}
	return out
}

// isSelect reports whether a Claude ToolSearch query is a select: lookup
// (specs/claude.md §1: `^select:(.+)$`, case-insensitive prefix).
func isSelect(q string) bool {
	return len(q) > len("select:") && strings.EqualFold(q[:len("select:")], "select:")
}

// pairWords are the words of one (prompt, client) pair: the prompt's and
// those of the calls written for it.
func pairWords(prompt string, calls []json.RawMessage) []intent.Word {
	seen := map[string]bool{}
	var out []intent.Word
	add := func(text string) {
		for _, w := range intent.Keywords(text) {
			if !seen[w.Stem] {
				seen[w.Stem] = true
				out = append(out, w)
			}
		}
	}
	add(prompt)
	for _, t := range callTexts(calls) {
		add(t)
	}
	return out
}

// toolText is every text of a tool an edit could add words to.
func toolText(t *corpus.Tool) string {
	hint, _ := t.MetaString(HintKey)
	return t.Name + " " + t.Title + " " + t.Description + " " + hint
}

// rankWords lists the words of the missed pairs that the tool's text does
// not have, leaving out generic ones: those used by the most missed
// prompts first, then by the most missed pairs; ties go to the word fewer
// other prompts use, then to the alphabetically first form. A word is spelled the way
// the prompts spell it most often.
func rankWords(tool *corpus.Tool, missed []missedWords, otherPrompts []map[string]bool) []candidateWord {
	have := stemsOf(toolText(tool))
	type tally struct {
		misses  int
		prompts map[int]bool
		folds   map[int]bool
		forms   map[string]int
		cased   map[string]int
		next    map[string]bool
	}
	byStem := map[string]*tally{}
	for _, m := range missed {
		for _, w := range m.words {
			if have[w.Stem] || len(w.Form) < 3 || isNumber(w.Form) {
				continue
			}
			t := byStem[w.Stem]
			if t == nil {
				t = &tally{forms: map[string]int{}, prompts: map[int]bool{}, folds: map[int]bool{}, cased: map[string]int{}, next: map[string]bool{}}
				byStem[w.Stem] = t
			}
			t.misses++
			if !t.prompts[m.query] {
				if c := casedForm(m.text, w.Form); c != "" {
					t.cased[c]++
				}
			}
			if !t.prompts[m.query] {
				for _, n := range following(m.text, w.Form) {
					t.next[n] = true
				}
			}
			t.prompts[m.query] = true
			t.folds[m.fold] = true
			t.forms[w.Form]++
		}
	}
	out := make([]candidateWord, 0, len(byStem))
	for stem, t := range byStem {
		form, best := "", 0
		for f, n := range t.forms {
			if n > best || n == best && f < form {
				form, best = f, n
			}
		}
		others := 0
		for _, p := range otherPrompts {
			if p[stem] {
				others++
			}
		}
		cased, bestCased := "", 0
		for f, n := range t.cased {
			if strings.EqualFold(f, form) && (n > bestCased || n == bestCased && f < cased) {
				cased, bestCased = f, n
			}
		}
		cw := candidateWord{Form: form, Stem: stem, Misses: t.misses, Prompts: len(t.prompts), Others: others, Folds: len(t.folds), Cased: cased, Next: t.next}
		if !cw.generic() {
			out = append(out, cw)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Prompts != b.Prompts {
			return a.Prompts > b.Prompts
		}
		if a.Misses != b.Misses {
			return a.Misses > b.Misses
		}
		if a.Others != b.Others {
			return a.Others < b.Others
		}
		return a.Form < b.Form
	})
	return out
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// following lists the stems of the words right after each whole-word
// occurrence of form in text ("for my Application Insights resource",
// "application" → "insight").
func following(text, form string) []string {
	toks := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	var out []string
	for i := 0; i+1 < len(toks); i++ {
		if strings.EqualFold(toks[i], form) {
			out = append(out, stemOfWord(toks[i+1]))
		}
	}
	return out
}

// stemOfWord is the stem of one word, lowercased ("" for a stop word).
func stemOfWord(w string) string {
	for s := range stemsOf(w) {
		return s
	}
	return ""
}
