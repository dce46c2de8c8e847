package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/search"
)

// defaultWidth is the width of text output that does not go to a
// terminal (and of a terminal whose size is unknown).
const defaultWidth = 100

// outputWidth is $COLUMNS when set (the user's choice, as for ls and git),
// else the terminal's width when w is one, else defaultWidth; never below
// 60.
func outputWidth(w io.Writer) int {
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		return max(c, 60)
	}
	if o, ok := w.(*outWriter); ok {
		w = o.w
	}
	width := defaultWidth
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if c, _, err := term.GetSize(int(f.Fd())); err == nil && c > 0 {
			width = c
		}
	}
	return max(width, 60)
}

// splitAfterDash splits a client name for a narrow column header:
// "opencode-codemode" → "opencode-", "codemode"; names without "-" stay
// whole.
func splitAfterDash(name string) []string {
	if i := strings.IndexByte(name, '-'); i > 0 && i < len(name)-1 {
		return []string{name[:i+1], name[i+1:]}
	}
	return []string{name}
}

// padRight and padLeft pad to n characters (runes).
func padRight(s string, n int) string {
	if c := utf8.RuneCountInString(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}

func padLeft(s string, n int) string {
	if c := utf8.RuneCountInString(s); c < n {
		return strings.Repeat(" ", n-c) + s
	}
	return s
}

// compactColumn is one client in the compact view: its primary result.
type compactColumn struct {
	name, version string
	r             search.Result
	variants      int  // further strategies (Codex code mode), shown with --by-client
	everything    bool // every tool at rank 1 (eager loading): adds no rows
}

// cell is what the compact view prints for a tool in one client's result:
// its rank ("3", a tie range "3-4"), "~" after it when only some tie
// orders show it within the limit, in parentheses when it is ranked but
// never within the limit, "·" when the client does not return it.
func cell(h search.Hit, found bool, limit int) string {
	if !found {
		return "·"
	}
	rank := rankText(h)
	switch {
	case h.PWithinLimit >= 1:
		return rank
	case h.PWithinLimit > 0:
		return rank + "~"
	case limit > 0 && h.Rank > limit:
		return "(" + rank + ")"
	}
	return rank
}

// writeRankCompact prints one row per tool and one column per client (its
// rank for the tool), for the tools that at least one client shows within
// its limit, best first. A client that shows every tool at once (eager
// loading) adds no rows of its own. rows caps the tool rows (0: all);
// width is the line width every line fits in.
func writeRankCompact(w io.Writer, results []search.Result, query string, rows, width int) error {
	var cols []compactColumn
	// A client whose model made several calls (--prompt) has a column per
	// call, numbered: "grok#1", "grok#2".
	calls, nth := map[string]int{}, map[string]int{}
	for _, r := range results {
		if r.Call != nil {
			calls[r.Client]++
		}
	}
	for _, r := range results {
		name, version, _ := strings.Cut(r.Client, "@")
		if calls[r.Client] > 1 && r.Call != nil {
			nth[r.Client]++
			name += "#" + strconv.Itoa(nth[r.Client])
		}
		c := compactColumn{name: name, version: version, r: r, variants: len(r.Variants)}
		c.everything = len(r.Hits) > 1
		for _, h := range r.Hits {
			c.everything = c.everything && h.Rank == 1 && h.RankWorst == 1
		}
		cols = append(cols, c)
	}

	// The rows: tools shown within the limit by some client, ordered by
	// their best rank, then by how many clients show them, then by name.
	type row struct {
		id    corpus.ToolID
		best  int
		shown int
	}
	byID := map[corpus.ToolID]*row{}
	var order []*row
	for _, c := range cols {
		if c.everything {
			continue
		}
		for _, h := range c.r.Hits {
			if h.PWithinLimit <= 0 {
				continue
			}
			rw := byID[h.Tool]
			if rw == nil {
				rw = &row{id: h.Tool, best: h.Rank}
				byID[h.Tool] = rw
				order = append(order, rw)
			}
			rw.best = min(rw.best, h.Rank)
			rw.shown++
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.best != b.best {
			return a.best < b.best
		}
		if a.shown != b.shown {
			return a.shown > b.shown
		}
		return a.id < b.id
	})
	more := 0
	if rows > 0 && len(order) > rows {
		more = len(order) - rows
		order = order[:rows]
	}

	// Column widths: each client column as wide as its name, version and
	// cells; the tool column takes the rest, at least 16.
	cw := make([]int, len(cols))
	cells := make([][]string, len(order))
	for i := range order {
		cells[i] = make([]string, len(cols))
	}
	// A long client name goes on two header lines, split after a "-"
	// ("opencode-" over "codemode").
	heads := make([][]string, len(cols))
	for j, c := range cols {
		heads[j] = splitAfterDash(c.name)
	}
	for j, c := range cols {
		cw[j] = max(utf8.RuneCountInString(c.version), len(strconv.Itoa(c.r.ShownTokens)), 5)
		for _, part := range heads[j] {
			cw[j] = max(cw[j], utf8.RuneCountInString(part))
		}
		for i, rw := range order {
			h, ok := c.r.Find(rw.id)
			cells[i][j] = cell(h, ok, c.r.Limit)
			cw[j] = max(cw[j], utf8.RuneCountInString(cells[i][j]))
		}
	}
	const gap = 2
	toolWant := len("tokens read")
	for _, rw := range order {
		toolWant = max(toolWant, utf8.RuneCountInString(esc(string(rw.id))))
	}
	// Too many clients for the width: the client columns are split into
	// blocks that fit beside a tool column of at least 16, each block a
	// table of its own under the same rows.
	var blocks [][]int
	for j := range cols {
		if n := len(blocks); n > 0 {
			used := 0
			for _, k := range blocks[n-1] {
				used += gap + cw[k]
			}
			if used+gap+cw[j]+16 <= width {
				blocks[n-1] = append(blocks[n-1], j)
				continue
			}
		}
		blocks = append(blocks, []int{j})
	}

	title := esc(textfit.ShortenMiddle(strconv.Quote(query), 2*width)) + " — " + count(len(order)+more, "tool", "tools") + " shown by at least one client, ranks per client"
	for _, l := range textfit.Wrap(title, width) {
		fmt.Fprintln(w, l)
	}
	// With --prompt, each client's model wrote its own call: show it whole
	// before the ranks it produced, folded at the width (continuation
	// lines indented; the call is the lines joined without separators).
	for _, c := range cols {
		if c.r.Call == nil {
			continue
		}
		writeFolded(w, fmt.Sprintf("%s call (%s writer): %s", c.name, c.r.Writer, callText(c.r.Call)), "  ", width)
	}
	for bi, block := range blocks {
		if bi > 0 {
			fmt.Fprintln(w)
		}
		used := 0
		for _, j := range block {
			used += gap + cw[j]
		}
		toolW := min(toolWant, max(width-used, 16))
		line := func(first string, each func(j int) string) {
			var b strings.Builder
			b.WriteString(padRight(first, toolW))
			for _, j := range block {
				b.WriteString(strings.Repeat(" ", gap))
				b.WriteString(padLeft(each(j), cw[j]))
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
		rowsH := 1
		for _, j := range block {
			rowsH = max(rowsH, len(heads[j]))
		}
		for k := 0; k < rowsH; k++ {
			line("", func(j int) string {
				// bottom-aligned: a one-line name sits on the last header line
				if i := k - (rowsH - len(heads[j])); i >= 0 {
					return heads[j][i]
				}
				return ""
			})
		}
		line("TOOL", func(j int) string { return cols[j].version })
		for i, rw := range order {
			line(textfit.ShortenMiddle(esc(string(rw.id)), toolW), func(j int) string { return cells[i][j] })
		}
		if len(order) == 0 && bi == 0 {
			fmt.Fprintln(w, "(no client shows any tool for this query)")
		}
		if more > 0 {
			fmt.Fprintf(w, "… %s more (--rows 0 prints all)\n", count(more, "tool", "tools"))
		}
		line("limit", func(j int) string {
			if cols[j].everything {
				return "all"
			}
			return strconv.Itoa(cols[j].r.Limit)
		})
		line("tokens read", func(j int) string { return strconv.Itoa(cols[j].r.ShownTokens) })
	}

	// Legend and notes, wrapped to the width.
	say := func(s string) {
		for i, l := range wrap(s, width-2) {
			if i > 0 {
				l = "  " + l
			}
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
	say("3-4: tie range; 4-9~: shown in some tie orders only; (7): ranked beyond the limit; ·: not returned")
	for _, c := range cols {
		var notes []string
		// A client whose every hit is at rank 1 adds no rows: one that
		// loads every tool says so; another says it on its first note.
		noRows := c.everything && !eagerNoted(c.r)
		if c.everything && !noRows {
			notes = append(notes, "shows every tool at once (eager loading), so it adds no rows")
		}
		if noRows && len(c.r.Notes) == 0 {
			notes = append(notes, fmt.Sprintf("its model searches nothing: the %s it sends in full are at rank 1 whatever the query, so it adds no rows", count(len(c.r.Hits), "tool", "tools")))
		}
		if c.r.Error != "" {
			notes = append(notes, "error: "+c.r.Error)
		}
		if c.variants > 0 {
			notes = append(notes, fmt.Sprintf("strategy %s shown; %d more with --by-client", c.r.Strategy, c.variants))
		}
		for i, n := range c.r.Notes {
			if noRows && i == 0 {
				n += " (so it adds no rows)"
			}
			if !c.everything || !strings.HasPrefix(n, "eager loading") {
				notes = append(notes, n)
			}
		}
		for _, n := range notes {
			say(esc(c.name + ": " + n))
		}
	}
	say("--by-client for each client's own list, --explain for the scores, --shown for what each model reads")
	return nil
}

// writeFolded writes text after indent, folded to width: continuation
// lines are indented two more, and the text is the lines joined without
// separators (a call can be copied back whole). A line breaks after the
// last blank, comma, semicolon or ⏎ that leaves it at least half full,
// else at the width, so tokens stay whole where they can. A width of 0
// does not fold.
func writeFolded(w io.Writer, text, indent string, width int) {
	if width <= 0 {
		fmt.Fprintln(w, indent+text)
		return
	}
	r := []rune(text)
	prefix := indent
	for len(r) > 0 {
		room := max(width-utf8.RuneCountInString(prefix), 20)
		n := min(room, len(r))
		if n < len(r) {
			for i := n; i > room/2; i-- {
				if c := r[i-1]; c == ' ' || c == ',' || c == ';' || c == '⏎' {
					n = i
					break
				}
			}
		}
		fmt.Fprintln(w, prefix+string(r[:n]))
		r = r[n:]
		prefix = indent + "  "
	}
}

// eagerNoted reports whether the client says it loads every tool (its
// "eager loading" note): its rows are the whole catalog.
func eagerNoted(r search.Result) bool {
	for _, n := range r.Notes {
		if strings.HasPrefix(n, "eager loading") {
			return true
		}
	}
	return false
}
