package approval

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/internal/mdtext"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/search"
)

// legend opens the text and Markdown reports.
const legend = "run = called without asking, ask = the user is asked first, deny = refused without asking; " +
	"parallel = may run at the same time as other calls. The number after each answer is the reason, listed under the table."

// minToolWidth is the narrowest the tool column gets before the table
// falls back to one block per tool.
const minToolWidth = 12

// table is one client's matrix, with its cells and reasons.
type table struct {
	client  string
	headers []string   // mode names, then "parallel"
	tools   []string   // escaped tool ids
	cells   [][]string // per tool: one cell per header
	notes   footnotes
}

func (r *Report) tables() []table {
	var out []table
	for _, ci := range r.clients {
		t := table{client: ci.name}
		for _, m := range ci.modes {
			t.headers = append(t.headers, m.Name)
		}
		t.headers = append(t.headers, "parallel")
		ids, cells := r.rowsOf(ci.name)
		for _, id := range ids {
			byMode := cells[id]
			var row []string
			for _, m := range ci.modes {
				v := byMode[m.Name]
				row = append(row, fmt.Sprintf("%s %d", v.Decision, t.notes.ref(v.Because)))
			}
			par, why := parallelCell(ci.modes, byMode)
			row = append(row, fmt.Sprintf("%s %d", par, t.notes.ref(why)))
			t.tools = append(t.tools, safetext.Escape(string(id)))
			t.cells = append(t.cells, row)
		}
		out = append(out, t)
	}
	return out
}

// WriteText prints the report for a person: the legend, then per client
// its matrix fitted to width characters, the reasons numbered under it,
// its rules and notes; then what is not simulated.
func (r *Report) WriteText(w io.Writer, width int) error {
	width = max(width, 40)
	var b strings.Builder
	for _, line := range textfit.Wrap(legend, width) {
		b.WriteString(line + "\n")
	}
	for i, t := range r.tables() {
		ci := r.clients[i]
		b.WriteString("\n" + t.client + "\n")
		if len(t.tools) == 0 {
			b.WriteString("  (no tools)\n")
		} else {
			t.writeMatrix(&b, width)
		}
		for n, text := range t.notes.texts {
			writeHanging(&b, fmt.Sprintf("%3d  ", n+1), safetext.Escape(text), width)
		}
		for _, rule := range ci.rules {
			writeHanging(&b, "  rule: ", safetext.Escape(ruleText(rule)), width)
		}
		for _, n := range ci.notes {
			writeHanging(&b, "  note: ", safetext.Escape(n), width)
		}
	}
	var other []string
	for _, n := range r.Notes {
		if !r.clientNote(n) {
			other = append(other, n)
		}
	}
	if len(r.NotSimulated) > 0 || len(other) > 0 {
		b.WriteString("\n")
	}
	for _, ns := range r.NotSimulated {
		who := ns.Client
		if ns.Mode != "" {
			who += " mode " + ns.Mode
		}
		writeHanging(&b, "not simulated: ", safetext.Escape(who+": "+ns.Because), width)
	}
	for _, n := range other {
		writeHanging(&b, "note: ", safetext.Escape(n), width)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clientNote reports whether n is one of a client's own notes (printed
// under its table).
func (r *Report) clientNote(n string) bool {
	for _, ci := range r.clients {
		for _, cn := range ci.notes {
			if n == ci.name+": "+cn {
				return true
			}
		}
	}
	return false
}

// writeMatrix prints the tools × modes table within width. When the tool
// ids do not fit beside one-line headers, long mode names are stacked on
// two lines at a camelCase boundary ("bypass" over "Permissions"); then
// the columns are closed up to one space; then the widest headers are cut
// until the tool column holds the ids or two fifths of the width, and
// longer ids are shortened in the middle; when even that does not fit,
// one block per tool.
func (t table) writeMatrix(b *strings.Builder, width int) {
	gap := 2
	ncol := len(t.headers)
	cellW := make([]int, ncol) // widest cell per column
	for _, row := range t.cells {
		for j, c := range row {
			cellW[j] = max(cellW[j], utf8.RuneCountInString(c))
		}
	}
	toolW := len("tool")
	for _, name := range t.tools {
		toolW = max(toolW, utf8.RuneCountInString(name))
	}
	layout := func(stack bool) (heads [][]string, colW []int, fixed int) {
		colW = make([]int, ncol)
		for j, h := range t.headers {
			lines := []string{h}
			if stack {
				lines = stackHeader(h)
			}
			heads = append(heads, lines)
			colW[j] = cellW[j]
			for _, l := range lines {
				colW[j] = max(colW[j], utf8.RuneCountInString(l))
			}
			fixed += gap + colW[j]
		}
		return heads, colW, fixed
	}
	heads, colW, fixed := layout(false)
	if width-fixed < toolW {
		heads, colW, fixed = layout(true)
	}
	if width-fixed < min(toolW, 2*minToolWidth) {
		gap = 1
		heads, colW, fixed = layout(true)
	}
	// Cut the widest header columns, one character at a time, down to
	// their cells, while the tool column is narrower than the tool ids
	// and than two fifths of the width (longer ids are shortened).
	for width-fixed < min(toolW, max(minToolWidth, width*2/5)) {
		widest := -1
		for j := range colW {
			if colW[j] > cellW[j] && (widest < 0 || colW[j] > colW[widest]) {
				widest = j
			}
		}
		if widest < 0 {
			break
		}
		colW[widest]--
		fixed--
	}
	if width-fixed < min(toolW, minToolWidth) {
		t.writeBlocks(b, width)
		return
	}
	toolW = min(toolW, width-fixed)
	line := func(first string, rest []string) {
		var l strings.Builder
		l.WriteString(padRight(shortenMiddle(first, toolW), toolW))
		for j, c := range rest {
			l.WriteString(strings.Repeat(" ", gap))
			l.WriteString(padRight(cutEnd(c, colW[j]), colW[j]))
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	nh := 1
	for _, h := range heads {
		nh = max(nh, len(h))
	}
	for k := range nh {
		first := ""
		if k == nh-1 {
			first = "tool"
		}
		row := make([]string, ncol)
		for j, h := range heads {
			// Bottom-aligned: a one-line header sits on the last line.
			if i := k - (nh - len(h)); i >= 0 {
				row[j] = h[i]
			}
		}
		line(first, row)
	}
	for i, name := range t.tools {
		line(name, t.cells[i])
	}
}

// stackHeader splits a mode name at its first camelCase boundary
// ("bypassPermissions" → "bypass", "Permissions"); a name without one
// stays whole.
func stackHeader(h string) []string {
	for i := 1; i < len(h); i++ {
		if h[i] >= 'A' && h[i] <= 'Z' && h[i-1] >= 'a' && h[i-1] <= 'z' {
			return []string{h[:i], h[i:]}
		}
	}
	return []string{h}
}

// writeBlocks is the fallback for a width no matrix fits: each tool on a
// line, then its cells as "mode: cell" wrapped under it.
func (t table) writeBlocks(b *strings.Builder, width int) {
	for i, name := range t.tools {
		b.WriteString(shortenMiddle(name, width) + "\n")
		var parts []string
		for j, h := range t.headers {
			parts = append(parts, h+": "+t.cells[i][j])
		}
		for _, l := range textfit.Wrap(strings.Join(parts, ", "), width-4) {
			b.WriteString("    " + l + "\n")
		}
	}
}

// writeHanging writes prefix + text wrapped to width, later lines indented
// under the text.
func writeHanging(b *strings.Builder, prefix, text string, width int) {
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	for i, l := range textfit.Wrap(text, max(width-len(indent), 20)) {
		if i == 0 {
			b.WriteString(prefix + l + "\n")
		} else {
			b.WriteString(indent + l + "\n")
		}
	}
}

// shortenMiddle cuts s to n characters, keeping more of its end (a tool's
// own name) than of its start (its server).
func shortenMiddle(s string, n int) string {
	if n < 1 || utf8.RuneCountInString(s) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	r := []rune(s)
	head := (n - 1) * 2 / 5
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// cutEnd cuts s to n characters, ending in "…" when cut.
func cutEnd(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	return string([]rune(s)[:n-1]) + "…"
}

func padRight(s string, n int) string {
	if c := utf8.RuneCountInString(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}

// ruleText says where a rule came from: its flag, or the settings file
// and key it was read from.
func ruleText(r search.Rule) string {
	if r.Source != "" {
		return r.Source + ": " + r.Text
	}
	return fmt.Sprintf("%s %q", r.Kind.Flag(), r.Text)
}

// mdCell escapes outside text for Markdown, a table cell or inline
// (package internal/mdtext): rendered, it is the text, never a link, an
// image or HTML.
func mdCell(s string) string { return mdtext.Escape(s) }

// WriteMarkdown prints the report as Markdown for a pull request: per
// client a table (tools × modes, parallel) and its numbered reasons.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("## Approvals\n\n" + legend + "\n")
	for i, t := range r.tables() {
		ci := r.clients[i]
		b.WriteString("\n### " + mdCell(t.client) + "\n\n")
		if len(t.tools) == 0 {
			b.WriteString("No tools.\n")
			continue
		}
		b.WriteString("| tool |")
		for _, h := range t.headers {
			b.WriteString(" " + mdCell(h) + " |")
		}
		b.WriteString("\n|---|")
		b.WriteString(strings.Repeat("---|", len(t.headers)))
		b.WriteString("\n")
		for k, name := range t.tools {
			b.WriteString("| " + mdCell(name) + " |")
			for _, c := range t.cells[k] {
				b.WriteString(" " + mdCell(c) + " |")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
		for n, text := range t.notes.texts {
			b.WriteString(strconv.Itoa(n+1) + ". " + mdCell(text) + "\n")
		}
		if len(ci.rules) > 0 || len(ci.notes) > 0 {
			b.WriteString("\n")
		}
		for _, rule := range ci.rules {
			b.WriteString("- rule: " + mdCell(ruleText(rule)) + "\n")
		}
		for _, n := range ci.notes {
			b.WriteString("- note: " + mdCell(n) + "\n")
		}
	}
	if len(r.NotSimulated) > 0 {
		b.WriteString("\n### Not simulated\n\n")
		for _, ns := range r.NotSimulated {
			who := ns.Client
			if ns.Mode != "" {
				who += " mode " + ns.Mode
			}
			b.WriteString("- " + mdCell(who+": "+ns.Because) + "\n")
		}
	}
	var other []string
	for _, n := range r.Notes {
		if !r.clientNote(n) {
			other = append(other, n)
		}
	}
	if len(other) > 0 {
		b.WriteString("\n")
		for _, n := range other {
			b.WriteString("- note: " + mdCell(n) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
