package suggest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/internal/mdtext"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// Format is an output format of a Report.
type Format string

// The formats.
const (
	Text     Format = "text"
	JSON     Format = "json"
	Markdown Format = "markdown"
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Text, JSON, Markdown:
		return Format(s), nil
	case "table":
		return Text, nil
	}
	return "", fmt.Errorf("unknown format %q: want text, json or markdown", s)
}

// maxFixesShown bounds the fixed prompts listed per tool in text and
// Markdown (JSON lists them all).
const maxFixesShown = 5

// Write renders the report.
func (r *Report) Write(w io.Writer, f Format) error {
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case Markdown:
		bw := bufio.NewWriter(w)
		r.markdown(bw)
		return bw.Flush()
	}
	bw := bufio.NewWriter(w)
	r.text(bw)
	return bw.Flush()
}

// clip shortens s to n runes with "…", escaping what a terminal would act
// on; it is printed between plain quotes (%q would escape safetext's
// escapes a second time: \\u202e).
func clip(s string, n int) string {
	s = safetext.Escape(strings.Join(strings.Fields(s), " "))
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

// headline sums the report up in one line.
func (r *Report) headline() string {
	breaking := 0
	for _, e := range r.Edits {
		if e.Breaking {
			breaking++
		}
	}
	s := fmt.Sprintf("%d %s over %d %s", len(r.Edits), plural(len(r.Edits), "tool edited", "tools edited"),
		r.QueryCount, plural(r.QueryCount, "query", "queries"))
	if breaking > 0 {
		s += fmt.Sprintf(", %d breaking (renames)", breaking)
	}
	s += fmt.Sprintf("; %d %s tried, %d rejected; every kept edit re-simulated on the whole corpus: no regressions",
		r.Tried, plural(r.Tried, "candidate", "candidates"), len(r.Rejected))
	if h := r.Holdout; h != nil {
		s += fmt.Sprintf(" on the %d learning queries (the held-out part below)", h.Learn)
	}
	return s
}

func meanOf(cs []ClientFigures) (before, after float64) {
	for _, c := range cs {
		before += c.Before
		after += c.After
	}
	if len(cs) > 0 {
		before /= float64(len(cs))
		after /= float64(len(cs))
	}
	return before, after
}

// textWidth is the width of the text report; maxToolsShown bounds the
// edited tools it details (the most fixing first; Markdown and JSON list
// them all).
const (
	textWidth     = 100
	maxToolsShown = 6
)

// para writes s wrapped to the text width, continuation lines indented.
func para(w *bufio.Writer, indent, s string) {
	for i, l := range textfit.Wrap(s, textWidth-len(indent)-2) {
		if i == 0 {
			fmt.Fprintf(w, "%s%s\n", indent, l)
		} else {
			fmt.Fprintf(w, "%s  %s\n", indent, l)
		}
	}
}

// shortClient drops the version from a row label ("claude@2.1.332" →
// "claude") where the table above already gives it.
func shortClient(c string) string {
	if i := strings.IndexByte(c, '@'); i > 0 {
		return c[:i]
	}
	return c
}

func (r *Report) text(w *bufio.Writer) {
	para(w, "", "suggest: "+r.headline())
	if r.Writer == "" {
		para(w, "", "(the query text is each client's search; --writer heuristic writes the calls as each client's model would)")
	} else if l := r.writerLine(); l != "" {
		para(w, "", l)
	}
	fmt.Fprintln(w)
	width := len("mean")
	for _, c := range r.Clients {
		width = max(width, len(c.Client))
	}
	fmt.Fprintf(w, "%-*s  %7s  %7s  %s\n", width, "CLIENT", "BEFORE", "AFTER", "FOUND@LIMIT")
	for _, c := range r.Clients {
		fmt.Fprintf(w, "%-*s  %7s  %7s  %s\n", width, c.Client, bench.Percent(c.Before), bench.Percent(c.After), delta(c.Before, c.After))
	}
	b, a := meanOf(r.Clients)
	fmt.Fprintf(w, "%-*s  %7s  %7s  %s\n", width, "mean", bench.Percent(b), bench.Percent(a), delta(b, a))
	// The edits that fix the most first.
	order := make([]int, len(r.Edits))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(r.Edits[order[i]].Fixes) > len(r.Edits[order[j]].Fixes) })
	for n, i := range order {
		if n == maxToolsShown {
			fmt.Fprintf(w, "\n… and %d more %s (--format markdown or json lists every edit)\n", len(order)-n, plural(len(order)-n, "tool edited", "tools edited"))
			break
		}
		e := r.Edits[i]
		head := safetext.Escape(string(e.Tool))
		if e.NewID != "" {
			head += " → " + safetext.Escape(string(e.NewID)) + " (BREAKING: callers must use the new name)"
		}
		fmt.Fprintln(w)
		para(w, "", head+": "+fixesSummary(e.Fixes)+", no regressions")
		for _, c := range e.Changes {
			writeChangeText(w, c)
		}
		var moved []string
		for _, c := range e.Clients {
			if c.Before != c.After {
				moved = append(moved, fmt.Sprintf("%s %s → %s", shortClient(c.Client), bench.Percent(c.Before), bench.Percent(c.After)))
			}
		}
		if len(moved) > 0 && len(e.Clients) > 0 {
			q := e.Clients[0].Queries
			para(w, "  ", strings.Join(moved, ", ")+fmt.Sprintf(" (its %d %s)", q, plural(q, "query", "queries")))
		}
		if len(e.Fixes) > 0 {
			f := e.Fixes[0]
			line := fmt.Sprintf("fixed: \"%s\" (line %d, %s)", clip(f.Query, 50), f.Line, shortClient(f.Client))
			if more := len(e.Fixes) - 1; more > 0 {
				line += fmt.Sprintf(" and %d more", more)
			}
			para(w, "  ", line)
		}
		rejected := 0
		for _, rj := range r.Rejected {
			if rj.Tool == e.Tool && rj.Regressions > 0 {
				if rejected == 0 {
					para(w, "  ", fmt.Sprintf("rejected: %s +\"%s\": %s%s", rj.Change.Field, clip(strings.Join(rj.Change.Words, " "), 30), rj.Reason, firstExample(rj)))
				}
				rejected++
			}
		}
		if rejected > 1 {
			fmt.Fprintf(w, "    and %d more candidates rejected for regressions\n", rejected-1)
		}
	}
	if len(r.Unfixed) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "still missed by some client: %d %s", len(r.Unfixed), plural(len(r.Unfixed), "tool", "tools"))
		for i, u := range r.Unfixed {
			if i == 5 {
				b.WriteString(", …")
				break
			}
			sep := ", "
			if i == 0 {
				sep = " ("
			}
			fmt.Fprintf(&b, "%s%s %d", sep, safetext.Escape(string(u.Tool)), u.Misses)
		}
		b.WriteString(")")
		fmt.Fprintln(w)
		para(w, "", b.String())
	}
	if h := r.Holdout; h != nil {
		fmt.Fprintln(w)
		para(w, "", fmt.Sprintf("held out: %d of %d queries (%s); edits learned on the other %d", h.Held, h.Held+h.Learn, h.rule(), h.Learn))
		fmt.Fprintf(w, "%-*s  %15s  %15s\n", width, "CLIENT", "LEARNED ON", "HELD OUT")
		var notes []string
		for _, c := range h.Clients {
			fmt.Fprintf(w, "%-*s  %6s → %6s  %6s → %6s\n", width, c.Client, bench.Percent(c.LearnBefore), bench.Percent(c.LearnAfter), bench.Percent(c.HeldBefore), bench.Percent(c.HeldAfter))
			if c.Note != "" {
				notes = append(notes, shortClient(c.Client)+": "+c.Note)
			}
		}
		for _, n := range notes {
			para(w, "  ", n)
		}
		if n := len(h.Regressions); n > 0 {
			var b strings.Builder
			fmt.Fprintf(&b, "%d held-out %s worse: ", n, plural(n, "pair is", "pairs are"))
			for i, g := range h.Regressions {
				if i == 3 {
					b.WriteString(", …")
					break
				}
				if i > 0 {
					b.WriteString("; ")
				}
				fmt.Fprintf(&b, "%s \"%s\" (line %d)", shortClient(g.Client), clip(g.Query, 40), g.Line)
			}
			para(w, "", b.String())
		}
	}
}

// fixesSummary counts the prompts fixed and the (prompt, client) pairs.
func fixesSummary(fs []Fix) string {
	prompts := map[int]bool{}
	for _, f := range fs {
		prompts[f.Line] = true
	}
	s := fmt.Sprintf("fixes %d %s", len(prompts), plural(len(prompts), "prompt", "prompts"))
	if len(fs) != len(prompts) {
		s += fmt.Sprintf(" (%d prompt×client pairs)", len(fs))
	}
	return s
}

func firstExample(rj Rejected) string {
	if len(rj.Examples) == 0 {
		return ""
	}
	g := rj.Examples[0]
	s := fmt.Sprintf(", e.g. %s \"%s\" (line %d) %s → %s", g.Client, clip(g.Query, 40), g.Line, bench.Percent(g.Before), bench.Percent(g.After))
	if len(g.ShownInstead) > 0 {
		s += ", shown instead: " + safetext.Escape(string(g.ShownInstead[0]))
	}
	return s
}

func delta(before, after float64) string {
	d := (after - before) * 100
	switch {
	case d > 0.05:
		return fmt.Sprintf("+%.1f", d)
	case d < -0.05:
		return fmt.Sprintf("%.1f", d)
	}
	return "="
}

// writeChangeText shows one change in a line or two: what is added, and
// the new value (cut to the width).
func writeChangeText(w *bufio.Writer, c Change) {
	switch c.Field {
	case Hint:
		para(w, "  ", fmt.Sprintf(`+ _meta["%s"]: "%s"`, HintKey, clip(c.After, 70)))
	case Description:
		if c.Sentence != "" {
			para(w, "  ", fmt.Sprintf("+ the description gains \"%s\"", clip(c.Sentence, 80)))
		} else {
			para(w, "  ", fmt.Sprintf("+ description: \"%s\"", clip(c.After, 80)))
		}
	case Name:
		para(w, "  ", fmt.Sprintf("~ name: %s → %s (breaking)", clip(c.Before, 40), clip(c.After, 40)))
	default:
		if c.Before == "" {
			para(w, "  ", fmt.Sprintf("+ %s: \"%s\"", c.Field, clip(c.After, 80)))
		} else {
			para(w, "  ", fmt.Sprintf("~ %s: \"%s\" → \"%s\"", c.Field, clip(c.Before, 40), clip(c.After, 40)))
		}
	}
}

func (r *Report) markdown(w *bufio.Writer) {
	fmt.Fprintf(w, "### toolfind suggest\n\n%s\n\n", mdEscape(r.headline()))
	if l := r.writerLine(); l != "" {
		fmt.Fprintf(w, "%s\n\n", mdEscape(l))
	}
	fmt.Fprintf(w, "| client | before | after | |\n|---|---:|---:|---:|\n")
	for _, c := range r.Clients {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mdEscape(c.Client), bench.Percent(c.Before), bench.Percent(c.After), delta(c.Before, c.After))
	}
	b, a := meanOf(r.Clients)
	fmt.Fprintf(w, "| **mean** | %s | %s | %s |\n", bench.Percent(b), bench.Percent(a), delta(b, a))
	for _, e := range r.Edits {
		fmt.Fprintf(w, "\n#### %s", mdCode(string(e.Tool)))
		if e.NewID != "" {
			fmt.Fprintf(w, " → %s ⚠️ breaking rename", mdCode(string(e.NewID)))
		}
		fmt.Fprintf(w, "\n\n%s; no regressions.\n\n", upperFirst(fixesSummary(e.Fixes)))
		writeDiff(w, e.Changes)
		fmt.Fprintf(w, "\n| client | before | after | queries |\n|---|---:|---:|---:|\n")
		for _, c := range e.Clients {
			fmt.Fprintf(w, "| %s | %s | %s | %d |\n", mdEscape(c.Client), bench.Percent(c.Before), bench.Percent(c.After), c.Queries)
		}
		if len(e.Fixes) > 0 {
			fmt.Fprintf(w, "\n<details><summary>prompts fixed</summary>\n\n")
			for _, f := range e.Fixes {
				fmt.Fprintf(w, "- %s: %s (line %d)\n", mdEscape(f.Client), mdEscape(clip(f.Query, 120)), f.Line)
			}
			fmt.Fprintf(w, "\n</details>\n")
		}
	}
	if len(r.Regressions) > 0 {
		fmt.Fprintf(w, "\n<details><summary>%d regressions made candidate edits be rejected</summary>\n\n", len(r.Regressions))
		for _, g := range r.Regressions {
			fmt.Fprintf(w, "- %s %s: %s, %s (line %d): %s → %s\n", mdCode(string(g.Tool)), g.Field, mdEscape(g.Client), mdEscape(clip(g.Query, 80)), g.Line, bench.Percent(g.Before), bench.Percent(g.After))
		}
		fmt.Fprintf(w, "\n</details>\n")
	}
	if h := r.Holdout; h != nil {
		fmt.Fprintf(w, "\n**Held out:** %d of %d queries (%s); edits learned on the other %d.\n\n", h.Held, h.Held+h.Learn, mdEscape(h.rule()), h.Learn)
		fmt.Fprintf(w, "| client | learned on | held out | note |\n|---|---:|---:|---|\n")
		for _, c := range h.Clients {
			fmt.Fprintf(w, "| %s | %s → %s | %s → %s | %s |\n", mdEscape(c.Client), bench.Percent(c.LearnBefore), bench.Percent(c.LearnAfter), bench.Percent(c.HeldBefore), bench.Percent(c.HeldAfter), mdEscape(c.Note))
		}
	}
}

// The Markdown escaping rule for outside text (package internal/mdtext):
// rendered, it is the text, never a link, an image or HTML.
var (
	mdEscape = mdtext.Escape
	mdCode   = mdtext.Code
)

// writerLine names the writer of the calls, with what its calls are, per
// client when that differs (writer.LabelLine).
func (r *Report) writerLine() string {
	ids := make([]search.ClientID, 0, len(r.Clients))
	for _, c := range r.Clients {
		ids = append(ids, search.ParseClientID(c.Client))
	}
	return writer.LabelLine(r.Writer, ids)
}

// rule says how the held-out part was chosen.
func (h *Holdout) rule() string {
	if h.Split != "" {
		return h.Split
	}
	return fmt.Sprintf("share %.2f, seed %d", h.Share, h.Seed)
}

// writeDiff shows a tool's changes as a diff of its JSON members, as the
// file will read once the edit is made (values JSON-encoded, never cut),
// so that a reviewer can accept it as it stands; each added sentence is
// named below it.
func writeDiff(w *bufio.Writer, cs []Change) {
	var lines []string
	var sentences []string
	for _, c := range cs {
		member := func(v string) string {
			if c.Field == Hint {
				return `"_meta": {"` + HintKey + `": ` + string(jsonString(v)) + `}`
			}
			return `"` + string(c.Field) + `": ` + string(jsonString(v))
		}
		if c.Before != "" {
			lines = append(lines, "- "+member(c.Before))
		}
		lines = append(lines, "+ "+member(c.After))
		if c.Sentence != "" {
			sentences = append(sentences, c.Sentence)
		}
	}
	fence := "```"
	for _, l := range lines {
		if strings.Contains(l, "```") {
			fence = "~~~~"
		}
	}
	fmt.Fprintf(w, "%sdiff\n%s\n%s\n", fence, strings.Join(lines, "\n"), fence)
	for _, s := range sentences {
		fmt.Fprintf(w, "\nAdded to the description: *%s*\n", mdEscape(s))
	}
}
