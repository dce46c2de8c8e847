package suggest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/internal/safetext"
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

func pct(x float64) string { return fmt.Sprintf("%.1f%%", x*100) }

// clip shortens s to n runes with "…", escaping what a terminal would act on.
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
	if r.Writer != "" {
		s += " (calls by the " + r.Writer + " writer)"
	}
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

func (r *Report) text(w *bufio.Writer) {
	fmt.Fprintf(w, "suggest: %s\n", r.headline())
	if r.Writer == "" {
		fmt.Fprintf(w, "(the query text is each client's search, as in bench without --writer; --writer heuristic writes the calls as each client's model would)\n")
	}
	fmt.Fprintln(w)
	width := len("mean")
	for _, c := range r.Clients {
		width = max(width, len(c.Client))
	}
	fmt.Fprintf(w, "%-*s  %7s  %7s  %s\n", width, "CLIENT", "BEFORE", "AFTER", "FOUND@LIMIT")
	for _, c := range r.Clients {
		fmt.Fprintf(w, "%-*s  %7s  %7s  %s\n", width, c.Client, pct(c.Before), pct(c.After), delta(c.Before, c.After))
	}
	b, a := meanOf(r.Clients)
	fmt.Fprintf(w, "%-*s  %7s  %7s  %s\n", width, "mean", pct(b), pct(a), delta(b, a))
	for _, e := range r.Edits {
		fmt.Fprintf(w, "\n%s", safetext.Escape(string(e.Tool)))
		if e.NewID != "" {
			fmt.Fprintf(w, " → %s (BREAKING: callers must use the new name)", safetext.Escape(string(e.NewID)))
		}
		fmt.Fprintf(w, ": %s, no regressions\n", fixesSummary(e.Fixes))
		for _, c := range e.Changes {
			writeChangeText(w, c)
		}
		for _, c := range e.Clients {
			if c.Before != c.After {
				fmt.Fprintf(w, "  %-*s  %s → %s over its %d %s\n", width, c.Client, pct(c.Before), pct(c.After), c.Queries, plural(c.Queries, "query", "queries"))
			}
		}
		for i, f := range e.Fixes {
			if i == maxFixesShown {
				fmt.Fprintf(w, "  … and %d more fixed\n", len(e.Fixes)-maxFixesShown)
				break
			}
			fmt.Fprintf(w, "  fixed: %s %q (line %d)\n", f.Client, clip(f.Query, 60), f.Line)
		}
		for _, rj := range r.Rejected {
			if rj.Tool == e.Tool && rj.Regressions > 0 {
				fmt.Fprintf(w, "  rejected: %s +%s: %s%s\n", rj.Change.Field, clip(strings.Join(rj.Change.Words, " "), 40), rj.Reason, firstExample(rj))
			}
		}
	}
	if len(r.Unfixed) > 0 {
		fmt.Fprintf(w, "\nstill missed by some client: %d %s", len(r.Unfixed), plural(len(r.Unfixed), "tool", "tools"))
		for i, u := range r.Unfixed {
			if i == 5 {
				fmt.Fprintf(w, ", …")
				break
			}
			sep := ", "
			if i == 0 {
				sep = " ("
			}
			fmt.Fprintf(w, "%s%s %d", sep, safetext.Escape(string(u.Tool)), u.Misses)
		}
		fmt.Fprintf(w, ")\n")
	}
	if h := r.Holdout; h != nil {
		fmt.Fprintf(w, "\nheld out: %d of %d queries (share %.2f, seed %d); edits learned on the other %d\n", h.Held, h.Held+h.Learn, h.Share, h.Seed, h.Learn)
		fmt.Fprintf(w, "%-*s  %15s  %15s\n", width, "CLIENT", "LEARNED ON", "HELD OUT")
		for _, c := range h.Clients {
			fmt.Fprintf(w, "%-*s  %6s → %6s  %6s → %6s", width, c.Client, pct(c.LearnBefore), pct(c.LearnAfter), pct(c.HeldBefore), pct(c.HeldAfter))
			if c.Note != "" {
				fmt.Fprintf(w, "  (%s)", c.Note)
			}
			fmt.Fprintln(w)
		}
		if n := len(h.Regressions); n > 0 {
			fmt.Fprintf(w, "%d held-out %s worse: ", n, plural(n, "pair is", "pairs are"))
			for i, g := range h.Regressions {
				if i == 3 {
					fmt.Fprintf(w, ", …")
					break
				}
				if i > 0 {
					fmt.Fprintf(w, "; ")
				}
				fmt.Fprintf(w, "%s %q (line %d)", g.Client, clip(g.Query, 40), g.Line)
			}
			fmt.Fprintln(w)
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
	s := fmt.Sprintf(", e.g. %s %q (line %d) %s → %s", g.Client, clip(g.Query, 40), g.Line, pct(g.Before), pct(g.After))
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

// writeChangeText shows one change as a diff of the field.
func writeChangeText(w *bufio.Writer, c Change) {
	label := string(c.Field)
	if c.Field == Hint {
		label = `_meta["` + HintKey + `"]`
	}
	fmt.Fprintf(w, "  %s:\n", label)
	if c.Before != "" {
		fmt.Fprintf(w, "    - %q\n", clip(c.Before, 90))
	}
	fmt.Fprintf(w, "    + %q\n", clip(c.After, 90))
}

func (r *Report) markdown(w *bufio.Writer) {
	fmt.Fprintf(w, "### toolfind suggest\n\n%s\n\n", mdEscape(r.headline()))
	fmt.Fprintf(w, "| client | before | after | |\n|---|---:|---:|---:|\n")
	for _, c := range r.Clients {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mdEscape(c.Client), pct(c.Before), pct(c.After), delta(c.Before, c.After))
	}
	b, a := meanOf(r.Clients)
	fmt.Fprintf(w, "| **mean** | %s | %s | %s |\n", pct(b), pct(a), delta(b, a))
	for _, e := range r.Edits {
		fmt.Fprintf(w, "\n#### `%s`", mdCode(string(e.Tool)))
		if e.NewID != "" {
			fmt.Fprintf(w, " → `%s` ⚠️ breaking rename", mdCode(string(e.NewID)))
		}
		fmt.Fprintf(w, "\n\n%s; no regressions.\n\n```diff\n", upperFirst(fixesSummary(e.Fixes)))
		for _, c := range e.Changes {
			label := string(c.Field)
			if c.Field == Hint {
				label = `_meta["` + HintKey + `"]`
			}
			if c.Before != "" {
				fmt.Fprintf(w, "- %s: %q\n", label, clip(c.Before, 200))
			}
			fmt.Fprintf(w, "+ %s: %q\n", label, clip(c.After, 200))
		}
		fmt.Fprintf(w, "```\n\n| client | before | after | queries |\n|---|---:|---:|---:|\n")
		for _, c := range e.Clients {
			fmt.Fprintf(w, "| %s | %s | %s | %d |\n", mdEscape(c.Client), pct(c.Before), pct(c.After), c.Queries)
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
			fmt.Fprintf(w, "- `%s` %s: %s, %s (line %d): %s → %s\n", mdCode(string(g.Tool)), g.Field, mdEscape(g.Client), mdEscape(clip(g.Query, 80)), g.Line, pct(g.Before), pct(g.After))
		}
		fmt.Fprintf(w, "\n</details>\n")
	}
	if h := r.Holdout; h != nil {
		fmt.Fprintf(w, "\n**Held out:** %d of %d queries (seed %d); edits learned on the other %d.\n\n", h.Held, h.Held+h.Learn, h.Seed, h.Learn)
		fmt.Fprintf(w, "| client | learned on | held out | note |\n|---|---:|---:|---|\n")
		for _, c := range h.Clients {
			fmt.Fprintf(w, "| %s | %s → %s | %s → %s | %s |\n", mdEscape(c.Client), pct(c.LearnBefore), pct(c.LearnAfter), pct(c.HeldBefore), pct(c.HeldAfter), mdEscape(c.Note))
		}
	}
}

var mdEscaper = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "'", "[", `\[`, "]", `\]`)

func mdEscape(s string) string { return mdEscaper.Replace(safetext.Escape(s)) }

func mdCode(s string) string { return strings.ReplaceAll(safetext.Escape(s), "`", "'") }
