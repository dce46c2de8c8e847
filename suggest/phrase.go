package suggest

import (
	"strings"
	"sync"
	"unicode"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search/bm25"
)

// A description edit is one sentence written by a template, so that it
// reads as the author's own writing and not as a list of keywords. The
// words are sorted into actions (verbs: "resize", "remove") and the rest
// (objects and qualifiers: "VMs", "cost"), each kept as the prompts spell
// it, and the sentence is one of:
//
//	actions, the tool's object known: "Also use it to resize or scale disks."
//	actions, no object:               "Also use it when asked to count or total."
//	other words only:                 "Also use it for VMs and cost."
//	both:                             "Also use it to resize disks, and for SKU and tier."
//
// The object is the tool name's last word that is not an action ("disk"
// in compute_disk_update), in the plural. Verbs stay in their base form
// after "to" (the form an imperative prompt uses), so a client matching
// whole words still matches the prompt's word.

// actionVerbs are the base forms of the verbs a prompt uses to ask a tool
// for something (words that are more often nouns in requests, "log",
// "stream", "plan", "tag", are left out). A word is an action when its stem is one of these verbs'
// stems ("resizing" → "resize").
const actionVerbs = `activate add adjust aggregate allocate analyze analyse append apply approve archive assign attach
audit backup browse build calculate cancel change check clean clear clone close compare compile
compress configure connect convert copy count create deallocate debug decrypt delete deploy describe
destroy detach detect diagnose disable disconnect display download drop duplicate edit enable
encrypt enumerate erase estimate evaluate execute expand explain export extend extract fetch filter
find fix forecast generate get grant import increase inspect install invite invoke kill launch link
list load locate lock look make manage merge migrate modify monitor mount move open optimize pause
ping predict print provision prune publish purge push put query read reboot redeploy refresh
register reject release reload remove rename render renew replace reply reserve reset resize restart
restore resume retrieve revoke rotate run save scale scan schedule search send set show shrink sign
simulate sort speak split start stop store submit summarize suspend switch sync synthesize terminate
transcribe transfer translate trigger troubleshoot unlock unmount update upgrade upload validate
verify view visualize watch write`

// verbStems maps each action verb's stem to its base form.
var verbStems = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, v := range strings.Fields(actionVerbs) {
		m[bm25.Stem(v)] = v
	}
	return m
})

// isAction reports whether a stem is an action verb's.
func isAction(stem string) bool {
	_, ok := verbStems()[stem]
	return ok
}

// actionBase is the base form of a word used as an action: the verb
// itself ("resize") or its -ing or -ed form ("resizing", "enabled" →
// "enable"). Any other form of a verb's stem is taken as a noun
// ("queries", "tags").
func actionBase(form, stem string) (string, bool) {
	base, ok := verbStems()[stem]
	if !ok {
		return "", false
	}
	l := strings.ToLower(form)
	if l == base || strings.HasSuffix(l, "ing") || strings.HasSuffix(l, "ed") {
		return base, true
	}
	return "", false
}

// notObjects are name words that name no object ("delete-many").
var notObjects = map[string]bool{"many": true, "all": true, "one": true, "by": true, "of": true, "and": true,
	"for": true, "to": true, "from": true, "with": true, "in": true, "on": true, "azure": true, "details": true}

// objectOf is the object a tool acts on, from its name: the last word
// that is not an action, not the server's name and at least three
// letters, in the plural ("compute_disk_update" → "disks",
// "fileshares_fileshare_delete" → "fileshares", "appconfig_kv_get" →
// "KVs"); "" when the name has none ("find", "delete-many").
func objectOf(t *corpus.Tool) string {
	words := strings.Fields(strings.ToLower(humanize(t.Name)))
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if _, act := actionBase(w, bm25.Stem(w)); act || notObjects[w] || w == strings.ToLower(t.Server) || len(w) < 2 || !isLetters(w) {
			continue
		}
		if !hasVowel(w) {
			w = strings.ToUpper(w) // vm, kv, sql
		}
		return pluralNoun(w)
	}
	return ""
}

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

func hasVowel(s string) bool { return strings.ContainsAny(strings.ToLower(s), "aeiouy") }

// pluralNoun is the English plural of a noun by the regular rules: "disk" →
// "disks", "policy" → "policies", "box" → "boxes", "KV" → "KVs"; a word
// ending in "s" is taken as plural already.
func pluralNoun(w string) string {
	l := strings.ToLower(w)
	switch {
	case w != l: // an acronym
		return w + "s"
	case strings.HasSuffix(l, "s"):
		return w
	case strings.HasSuffix(l, "y") && len(l) > 1 && !strings.ContainsRune("aeiou", rune(l[len(l)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(l, "x"), strings.HasSuffix(l, "z"), strings.HasSuffix(l, "ch"), strings.HasSuffix(l, "sh"):
		return w + "es"
	}
	return w + "s"
}

// joinList joins items the English way: "a", "a or b", "a, b or c".
func joinList(items []string, conj string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// sentenceFor writes the sentence that adds the words to a tool's
// description (see the templates above).
func sentenceFor(t *corpus.Tool, words []candidateWord) string {
	var acts []string
	var rest []candidateWord
	for _, w := range words {
		if base, ok := actionBase(w.Form, w.Stem); ok {
			acts = append(acts, base)
		} else {
			rest = append(rest, w)
		}
	}
	others := phrases(rest)
	var b strings.Builder
	b.WriteString("Also use it")
	if len(acts) > 0 {
		if obj := objectOf(t); obj != "" {
			b.WriteString(" to " + joinList(acts, "or") + " " + obj)
		} else {
			b.WriteString(" when asked to " + joinList(acts, "or"))
		}
		if len(others) > 0 {
			b.WriteString(", and")
		}
	}
	if len(others) > 0 {
		b.WriteString(" for " + joinList(others, "and"))
	}
	b.WriteString(".")
	return b.String()
}

// phrases joins words that follow each other in a prompt into that
// prompt's phrase ("Application" and "Insights" → "Application
// Insights"), each phrase at its first word's rank.
func phrases(words []candidateWord) []string {
	preceded := map[string]bool{}
	for _, a := range words {
		for _, b := range words {
			if a.Stem != b.Stem && a.Next[b.Stem] {
				preceded[b.Stem] = true
			}
		}
	}
	used := map[string]bool{}
	var out []string
	for _, w := range words {
		if used[w.Stem] || preceded[w.Stem] {
			continue
		}
		used[w.Stem] = true
		p := w.display()
		for cur := w; ; {
			found := false
			for _, x := range words {
				if !used[x.Stem] && cur.Next[x.Stem] {
					used[x.Stem] = true
					p += " " + x.display()
					cur, found = x, true
					break
				}
			}
			if !found {
				break
			}
		}
		out = append(out, p)
	}
	// Words in a cycle of phrases ("a b a") are left: each on its own.
	for _, w := range words {
		if !used[w.Stem] {
			out = append(out, w.display())
		}
	}
	return out
}

// display is the word as the description spells it: the prompts' most
// common casing ("VMs", "MySQL"), else the lowercased form.
func (w candidateWord) display() string {
	if w.Initials {
		return strings.ToUpper(w.Form)
	}
	if w.Cased != "" {
		return w.Cased
	}
	return w.Form
}

// frontBytes bounds where a sentence may end in a description: Codex cuts
// an Agent Plugin tool's description at 1,000 bytes (specs/codex.md §3),
// the shortest cut of a searched text among the clients (Claude and Grok
// cut at 2,048: specs/claude.md §3, specs/grok.md §B.3), so a sentence put
// past it would not be searched there.
const frontBytes = 1000

// insertSentence puts the sentence at the end of the description's first
// paragraph, where it reads as the paragraph's last sentence: the text up
// to the first line break that ends a sentence (after ".", "!", "?" or
// ":") or to the first blank line, the whole description when it has
// neither. When that would end past frontBytes, it goes right after the
// first sentence. A paragraph that does not end a sentence gets a period
// first.
func insertSentence(desc, sentence string) string {
	if strings.TrimSpace(desc) == "" {
		return sentence
	}
	end := paragraphEnd(desc)
	para := strings.TrimRight(desc[:end], " \t\r\n")
	at := len(para)
	if at+1+len(sentence) > frontBytes {
		if i := firstSentenceEnd(para); i > 0 {
			return desc[:i] + " " + sentence + desc[i:]
		}
	}
	sep := " "
	if !endsSentence(para) {
		sep = ". "
	}
	return para + sep + sentence + desc[at:]
}

// paragraphEnd is the offset of the first line break that ends a
// paragraph (see insertSentence), or len(desc).
func paragraphEnd(desc string) int {
	for i := 0; i < len(desc); i++ {
		if desc[i] != '\n' {
			continue
		}
		if i+1 < len(desc) && desc[i+1] == '\n' || endsSentence(strings.TrimRight(desc[:i], " \t\r")) {
			return i
		}
	}
	return len(desc)
}

// firstSentenceEnd is the offset just past the first sentence's closing
// ".", "!" or "?" (one followed by a space), or -1.
func firstSentenceEnd(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if strings.IndexByte(".!?", s[i]) >= 0 && s[i+1] == ' ' {
			return i + 1
		}
	}
	return -1
}

func endsSentence(s string) bool {
	return s != "" && strings.IndexByte(".!?:;", s[len(s)-1]) >= 0
}

// IsWordList reports whether a sentence an edit adds is a bare list of
// the added words rather than prose. It is one when any of its sentences
// is made of nothing but the added words, list punctuation and "and"/"or"
// ("Groceries, large, ordering, upload."), or when a sentence does not
// read as a clause: it must start with a capital letter, end with a
// period and hold a verb-led clause, "use it to <verb>", "use it when
// asked to <verb>" or "use it for <words>" (the templates of sentenceFor).
func IsWordList(sentence string, added []string) bool {
	addedSet := map[string]bool{}
	for _, w := range added {
		addedSet[strings.ToLower(w)] = true
	}
	for _, s := range splitSentences(sentence) {
		other := 0
		for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' }) {
			l := strings.ToLower(tok)
			if !addedSet[l] && l != "and" && l != "or" {
				other++
			}
		}
		if other == 0 {
			return true
		}
		r := []rune(s)
		if !unicode.IsUpper(r[0]) || !strings.HasSuffix(s, ".") {
			return true
		}
		l := strings.ToLower(s)
		clause := false
		for _, lead := range []string{"use it to ", "use it when asked to ", "use it for "} {
			if k := strings.Index(l, lead); k >= 0 && k+len(lead) < len(l) {
				clause = true
			}
		}
		if !clause {
			return true
		}
	}
	return false
}

// splitSentences cuts a text after each ". ", "! " or "? ".
func splitSentences(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; {
		i := firstSentenceEnd(s)
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		s = strings.TrimSpace(s[i:])
	}
	return out
}

// casedForm is how a prompt spells a word: the first token of the text
// equal to form ignoring case, lowercased when it is the prompt's first
// word with only its first letter capital ("Resize disk" → "resize",
// "VMs" stays); "" when the text has no such token (a word split from
// camelCase, or one of a written call).
func casedForm(text, form string) string {
	toks := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, tok := range toks {
		if !strings.EqualFold(tok, form) {
			continue
		}
		if i == 0 && tok[1:] == strings.ToLower(tok[1:]) {
			return strings.ToLower(tok)
		}
		if tok == strings.ToUpper(tok) && len(tok) > 3 {
			return strings.ToLower(tok) // shouting, not an acronym
		}
		return tok
	}
	return ""
}
