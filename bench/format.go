package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/mdtext"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// Format is a report format.
type Format string

// The report formats.
const (
	Table    Format = "table"
	JSON     Format = "json"
	Markdown Format = "markdown"
	JUnit    Format = "junit"
	HTML     Format = "html"
)

// Formats lists every format, in the order of the usage text.
var Formats = []Format{Table, JSON, Markdown, JUnit, HTML}

// ParseFormat reads a format name ("md" is accepted for markdown, "xml"
// for junit).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "table", "text":
		return Table, nil
	case "json":
		return JSON, nil
	case "markdown", "md":
		return Markdown, nil
	case "junit", "xml":
		return JUnit, nil
	case "html":
		return HTML, nil
	}
	return "", fmt.Errorf("unknown format %q (want table, json, markdown, junit or html)", s)
}

// Write renders the report in format f.
func (r *Report) Write(w io.Writer, f Format) error {
	switch f {
	case Table:
		return r.WriteTable(w)
	case JSON:
		return r.WriteJSON(w)
	case Markdown:
		return r.WriteMarkdown(w)
	case JUnit:
		return r.WriteJUnit(w)
	case HTML:
		return r.WriteHTML(w)
	}
	return fmt.Errorf("unknown format %q", f)
}

// WriteJSON writes the report as indented JSON (HTML characters not
// escaped): {"queries", "query_count", "catalog", "catalog_tools",
// "clients": [ClientMetrics…], "outcomes": [Outcome…], "by", "per_tool"}.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.summary {
		return errSummary
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Percent formats a fraction as a percentage with one decimal: "80.0%".
func Percent(x float64) string {
	return strconv.FormatFloat(x*100, 'f', 1, 64) + "%"
}

// RankText formats a rank and its worst rank: "3", or "3-7" when tied.
func RankText(rank, worst int) string {
	if rank == 0 {
		return "-"
	}
	if worst > rank {
		return strconv.Itoa(rank) + "-" + strconv.Itoa(worst)
	}
	return strconv.Itoa(rank)
}

// num formats a metric with up to decimals decimals, trailing zeros kept
// (fixed width reads better in columns).
func num(x float64, decimals int) string {
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

// bandNote explains the band column where one is shown.
const bandNote = "found@limit is the expected share over the clients' random tie orders; band is its range from the worst order to the best."

// hasBand reports whether some row's found@limit depends on tie order.
func (r *Report) hasBand() bool {
	for _, c := range r.Clients {
		if c.FoundAtLimitBest != c.FoundAtLimitWorst {
			return true
		}
	}
	return false
}

// band formats the best/worst found@limit band, "-" when it is a point
// (or the row is uncapped: no found@limit to bound).
func band(c ClientMetrics) string {
	if c.FoundAtLimitBest == c.FoundAtLimitWorst || c.Uncapped {
		return "-"
	}
	return Percent(c.FoundAtLimitWorst) + "–" + Percent(c.FoundAtLimitBest)
}

func joinIDs(ids []corpus.ToolID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}

// title is the report's one-line heading.
// comparisonRow reports whether a row (or one of its variants) belongs to
// a second writer's run, labelled "client (writer)": a baseline shown for
// comparison beside the chosen writer.
func (r *Report) comparisonRow(label string) bool {
	for _, c := range r.Clients {
		if c.Writer != "" && !c.Variant && strings.HasSuffix(c.Client, " ("+c.Writer+")") &&
			(label == c.Client || strings.HasPrefix(label, c.Client+" [")) {
			return true
		}
	}
	return false
}

// writerNote says who wrote the rows' calls, each writer by its label
// (writer.Label), and how many prompts had none ("" when no row's calls
// were written): "writer: heuristic (a prediction of the model's call)"
// when one writer wrote every row's calls, else "writers: " and, per
// label, the rows it wrote ("every client" when it wrote one row of each
// client that writes calls); a client whose model never searches is named
// with noSearchLabel.
func (r *Report) writerNote() string {
	type group struct {
		label string
		rows  []string
	}
	var groups []*group
	byLabel := map[string]*group{}
	clients := map[string]bool{}
	var noCall, none []string
	for _, c := range r.Clients {
		if c.Variant {
			continue
		}
		if c.Writer == "" {
			if c.WriterLabel != "" {
				none = append(none, c.Client+": "+c.WriterLabel)
			}
			continue
		}
		client := strings.TrimSuffix(c.Client, " ("+c.Writer+")")
		clients[client] = true
		label := c.WriterLabel
		if label == "" {
			label = c.Writer
		}
		g := byLabel[label]
		if g == nil {
			g = &group{label: label}
			byLabel[label] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, client)
		if c.NoCall > 0 {
			noCall = append(noCall, fmt.Sprintf("%s: %d %s", c.Client, c.NoCall, plural(c.NoCall, "prompt", "prompts")))
		}
	}
	if len(groups) == 0 {
		return ""
	}
	var b strings.Builder
	heuristic := len(groups) > 0
	var ids []search.ClientID
	for _, g := range groups {
		for _, row := range g.rows {
			ids = append(ids, search.ParseClientID(row))
		}
		heuristic = heuristic && strings.HasPrefix(g.label, "heuristic (")
	}
	switch {
	case len(groups) == 1 && len(groups[0].rows) == len(clients):
		b.WriteString("writer: " + groups[0].label)
	case heuristic:
		// The heuristic wrote every row: one line with its agreement per
		// client (writer.LabelLine).
		b.WriteString(writer.LabelLine("heuristic", ids))
	default:
		b.WriteString("writers: ")
		for i, g := range groups {
			if i > 0 {
				b.WriteString("; ")
			}
			who := strings.Join(g.rows, ", ")
			if len(g.rows) == len(clients) {
				who = "every client"
			}
			b.WriteString(g.label + " for " + who)
		}
	}
	for _, n := range none {
		b.WriteString("; " + n)
	}
	if len(noCall) > 0 {
		b.WriteString("; no search call (counted not found): " + strings.Join(noCall, ", "))
	}
	return b.String()
}

func (r *Report) title() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", Thousands(r.QueryCount), plural(r.QueryCount, "query", "queries"))
	if r.Queries != "" {
		fmt.Fprintf(&b, " (%s)", r.Queries)
	}
	clients, variants, writers := r.clientCount()
	fmt.Fprintf(&b, " × %d %s", clients, plural(clients, "client", "clients"))
	switch {
	case writers > 1:
		fmt.Fprintf(&b, " × %d writers (%d rows)", writers, variants)
	case variants > clients:
		fmt.Fprintf(&b, " (%d variants)", variants)
	}
	if r.CatalogTools > 0 || r.Catalog != "" {
		fmt.Fprintf(&b, " over %d %s", r.CatalogTools, plural(r.CatalogTools, "tool", "tools"))
		if r.Catalog != "" {
			fmt.Fprintf(&b, " (%s)", r.Catalog)
		}
	}
	return b.String()
}

// clientCount counts the report's clients, its rows (a client with
// strategy variants has one row per strategy; with several writers, one
// row group per writer, labelled "client (writer)") and its writers.
func (r *Report) clientCount() (clients, rows, writers int) {
	ws := map[string]bool{}
	for _, c := range r.Clients {
		if c.Variant {
			continue
		}
		if c.Writer != "" {
			ws[c.Writer] = true
		}
		if !strings.HasSuffix(c.Client, " ("+c.Writer+")") {
			clients++
		}
	}
	return clients, len(r.Clients), len(ws)
}

// skipped counts the queries without an expected tool: they are searched
// (their outcomes are in JSON) but not scored.
func (r *Report) skipped() int {
	for _, c := range r.Clients {
		return r.QueryCount - c.Queries
	}
	return 0
}

// notScored says how many queries the metrics count and why the others
// are left out ("" when every query is scored).
func (r *Report) notScored() string {
	if p := r.perClientScored(); p != "" {
		return p
	}
	n := r.skipped()
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%s of %s %s scored; %s skipped: no expected tool (empty \"expect\")",
		Thousands(r.QueryCount-n), Thousands(r.QueryCount), plural(r.QueryCount, "query", "queries"), Thousands(n))
}

// perClientScored says how many prompts each client row is scored on
// when some row was not asked every prompt (a written file with calls of
// different clients for different prompts: package doc, "Written
// calls"): "each client is scored over the prompts written for it:
// claude@2.1.332 on 2, codex@0.171.0 on 1 (of 3 prompts)"; "" when every
// row ran every query.
func (r *Report) perClientScored() string {
	partial := false
	var parts []string
	for _, c := range r.Clients {
		if c.Variant {
			continue
		}
		partial = partial || c.Runs > 0 && c.Runs < r.QueryCount
		parts = append(parts, fmt.Sprintf("%s on %s", c.Client, Thousands(c.Queries)))
	}
	if !partial {
		return ""
	}
	return fmt.Sprintf("each client is scored over the prompts written for it: %s (of %s %s)",
		strings.Join(parts, ", "), Thousands(r.QueryCount), plural(r.QueryCount, "prompt", "prompts"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// metricHeader and metricCells are the per-client columns shared by the
// table and Markdown formats.
var metricHeader = []string{"QUERIES", "FOUND@1", "FOUND@LIMIT", "BAND", "MRR", "MEAN RANK", "P95 RANK", "NOT FOUND", "TOKENS"}

// limitText is a limit for the tables: "-" for 0 (a client that reports
// no limit).
func limitText(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// rowLimit is a row's LIMIT cell: "none" for an uncapped row (its model
// reads every tool it gets; the number of hits is no limit), else
// limitText.
func rowLimit(c ClientMetrics) string {
	if c.Uncapped {
		return "none"
	}
	return limitText(c.Limit)
}

// foundText is a row's FOUND@LIMIT cell: "n/a" for an uncapped row, whose
// found@limit says only that the tool is somewhere in what the model
// reads (uncappedNote says what decides instead).
func foundText(c ClientMetrics) string {
	if c.Uncapped {
		return "n/a"
	}
	return Percent(c.FoundAtLimit)
}

// uncappedNote explains the uncapped rows, one sentence for all and one
// per row ("" when there is none): no cap, so found@limit is not shown;
// where the tool lands and the tokens read to reach it are.
//
//	no cap on what these models read (all of a script's output, every tool
//	definition at once): found@limit says only that the tool is somewhere
//	in it (n/a above); where it lands and what the model reads to reach it
//	decide:
//	  codex@0.171.0: mean rank 98.60 (p95 206), found@1 0.9%, MRR 0.041;
//	  983 tokens read to reach it (p95 2,009), of 2,234 shown
func (r *Report) uncappedNote() []string {
	var rows []string
	for _, c := range r.Clients {
		if !c.Uncapped || c.Queries == 0 {
			continue
		}
		s := fmt.Sprintf("%s: mean rank %s (p95 %s), found@1 %s, MRR %s", c.Client,
			rankStat(c, c.MeanRank, 2), rankStat(c, c.P95Rank, 0), Percent(c.FoundAt1), num(c.MRR, 3))
		read, p95, shown := int(math.Round(c.MeanReadTokens)), int(math.Round(c.P95ReadTokens)), int(math.Round(c.MeanShownTokens))
		switch {
		case read == 0:
		case read == p95 && read == shown:
			s += fmt.Sprintf("; the model reads all %s tokens every time", Thousands(read))
		default:
			s += fmt.Sprintf("; %s tokens read to reach it (p95 %s), of %s shown", Thousands(read), Thousands(p95), Thousands(shown))
		}
		if c.NotFound > 0 {
			s += fmt.Sprintf("; %s %s not in it at all", Thousands(c.NotFound), plural(c.NotFound, "query", "queries"))
		}
		rows = append(rows, s)
	}
	if len(rows) == 0 {
		return nil
	}
	head := "no cap on what these models read (all of a script's output, every tool definition at once): found@limit says only that the tool is somewhere in it (n/a above); where it lands and what the model reads to reach it decide:"
	if len(rows) == 1 {
		head = strings.Replace(head, "these models read", "this model reads", 1)
	}
	return append([]string{head}, rows...)
}

// errorsHeader is the column added after metricHeader when some row has
// errors (and only then, so reports without errors keep their layout).
const errorsHeader = "ERRORS"

// hasErrors reports whether some row has failed runs.
func (r *Report) hasErrors() bool {
	for _, c := range r.Clients {
		if c.Errors > 0 {
			return true
		}
	}
	return false
}

// header is metricHeader, with the errors column when the report has one.
func (r *Report) header() []string {
	h := append([]string(nil), metricHeader...)
	if r.hasErrors() {
		h = append(h, errorsHeader)
	}
	return h
}

// cells is metricCells, with the errors column when the report has one.
func (r *Report) cells(c ClientMetrics) []string {
	cells := metricCells(c)
	if r.hasErrors() {
		cells = append(cells, strconv.Itoa(c.Errors))
	}
	return cells
}

// ErrorSummary says how many of a row's runs failed, e.g.
// "codex@0.171.0 [script]: 12 of 2,487 runs timed out", "… 3 of 40 runs
// failed", "… 15 of 40 runs failed (12 timed out)"; "" without errors.
func (c ClientMetrics) ErrorSummary() string {
	if c.Errors == 0 {
		return ""
	}
	of := fmt.Sprintf("%s: %s of %s %s", c.Client, Thousands(c.Errors), Thousands(c.Runs), plural(c.Runs, "run", "runs"))
	switch c.TimedOut {
	case c.Errors:
		return of + " timed out"
	case 0:
		return of + " failed"
	}
	return of + " failed (" + Thousands(c.TimedOut) + " timed out)"
}

// Thousands formats n with commas between groups of three digits: 2,487.
func Thousands(n int) string { return textfit.Thousands(n) }

func metricCells(c ClientMetrics) []string {
	return []string{
		strconv.Itoa(c.Queries),
		Percent(c.FoundAt1),
		foundText(c),
		band(c),
		num(c.MRR, 3),
		rankStat(c, c.MeanRank, 2),
		rankStat(c, c.P95Rank, 2),
		strconv.Itoa(c.NotFound),
		num(c.MeanShownTokens, 0),
	}
}

// rankStat formats a rank statistic, "–" when no query found anything
// (there is no rank to average).
func rankStat(c ClientMetrics, x float64, decimals int) string {
	if c.Queries == c.NotFound {
		return "–"
	}
	return num(x, decimals)
}

// maxMisses bounds the misses listed per client row in the table and
// Markdown formats (JSON has them all).
const maxMisses = 10

// misses returns, per row label, the outcomes not certainly found and
// their number (of a summary report: the first maxMisses, and the number
// of all).
func (r *Report) misses() (map[string][]*Outcome, map[string]int) {
	m := map[string][]*Outcome{}
	for i := range r.Outcomes {
		o := &r.Outcomes[i]
		if isMiss(o) {
			m[o.Client] = append(m[o.Client], o)
		}
	}
	if r.summary {
		return m, r.missCount
	}
	n := map[string]int{}
	for l, ms := range m {
		n[l] = len(ms)
	}
	return m, n
}

// errSummary is the error of a format that lists every outcome, asked of a
// report that kept aggregates only.
var errSummary = errors.New("the report kept aggregates only (Options.Summary): this format lists every outcome")

// maxShownInstead bounds the tools the table lists as shown instead of (or
// outranking) a missed one: a catalog-dump row shows the whole catalog.
const maxShownInstead = 5

// missText describes a miss: "rank 7 (limit 5); outranked by a, b".
func missText(o *Outcome) string { return missTextMax(o, 0) }

// missTextMax is missText listing at most max tools shown instead (all when
// max is 0), then "and N more".
func missTextMax(o *Outcome, max int) string {
	var b strings.Builder
	switch {
	case o.Error != "":
		b.WriteString("error: " + o.Error)
		return b.String()
	case o.Rank == 0:
		b.WriteString("not among the hits")
	case o.PWithinLimit > 0:
		fmt.Fprintf(&b, "rank %s, shown in %s of tie orders", RankText(o.Rank, o.RankWorst), Percent(o.PWithinLimit))
	default:
		fmt.Fprintf(&b, "rank %s, beyond limit %d", RankText(o.Rank, o.RankWorst), o.Limit)
	}
	if len(o.OutrankedBy) > 0 {
		label := "; outranked by "
		if o.Rank == 0 {
			label = "; shown instead: "
		}
		ids := o.OutrankedBy
		if max > 0 && len(ids) > max {
			ids = ids[:max]
		}
		b.WriteString(label + joinIDs(ids))
		if n := len(o.OutrankedBy) - len(ids); n > 0 {
			fmt.Fprintf(&b, " and %d more", n)
		}
	}
	return b.String()
}

// WriteTable writes aligned text tables for a terminal: the per-client
// metrics, the breakdowns, the per-tool view, then up to ten misses per
// client row.
func (r *Report) WriteTable(w io.Writer) error { return r.WriteText(w, TextWidth) }

// WriteText is WriteTable fitted to width columns (a terminal's): prose
// is wrapped, long names are shortened in the middle, and a table too wide
// for the width is split into blocks of columns (textfit.Table).
func (r *Report) WriteText(w io.Writer, width int) error {
	width = max(width, 40)
	// Every field from a catalog, a query file or a simulator goes through
	// esc (package internal/safetext): nothing reaches the terminal as a
	// control character. Queries are quoted (%q) and then escaped: %q
	// leaves printable invisible runes (variation selectors, Hangul
	// fillers) alone.
	for _, l := range textfit.Wrap(esc(r.title()), width) {
		fmt.Fprintln(w, l)
	}
	if n := r.notScored(); n != "" {
		writeLines(w, textfit.Wrap(esc(n), width))
	}
	if ws := r.writerNote(); ws != "" {
		for _, l := range textfit.Wrap(esc(ws), width) {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
	r.writeMetricsText(w, width)
	if r.hasBand() {
		for _, l := range textfit.Wrap(bandNote, width) {
			fmt.Fprintln(w, l)
		}
	}
	for i, n := range r.uncappedNote() {
		if i == 0 {
			writeLines(w, textfit.Wrap(esc(n), width))
			continue
		}
		for k, l := range textfit.Wrap(esc(n), width-4) {
			if k == 0 {
				fmt.Fprintf(w, "  %s\n", l)
			} else {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
	for _, c := range r.Clients {
		if e := c.ErrorSummary(); e != "" {
			writeLines(w, textfit.Wrap("warning: "+esc(e), width))
		}
	}
	for _, b := range r.By {
		fmt.Fprintf(w, "\nBy %s:\n", esc(b.Key))
		t := textfit.Table{Head: []string{esc(strings.ToUpper(b.Key)), "CLIENT", "QUERIES", "FOUND\n@1", "FOUND\n@LIMIT", "MRR", "NOT\nFOUND"},
			Right: []bool{false, false, true, true, true, true, true}, Keys: 2, Shrink: 0, Indent: "  "}
		for _, g := range b.Groups {
			for _, c := range g.Clients {
				t.Rows = append(t.Rows, []string{esc(groupValue(g.Value)), esc(c.Client), strconv.Itoa(c.Queries),
					Percent(c.FoundAt1), foundText(c), num(c.MRR, 3), strconv.Itoa(c.NotFound)})
			}
		}
		writeLines(w, t.Lines(width))
	}
	if r.PerTool != nil {
		fmt.Fprintf(w, "\nPer tool (queries that show it, of those expecting it):\n")
		t := textfit.Table{Head: []string{"TOOL", "QUERIES"}, Right: []bool{false, true}, Keys: 2, Shrink: 0, Indent: "  "}
		for _, c := range r.Clients {
			t.Head = append(t.Head, clientHead(esc(c.Client)))
			t.Right = append(t.Right, true)
		}
		for _, tl := range r.PerTool {
			row := []string{esc(string(tl.Tool)), strconv.Itoa(tl.Queries)}
			for _, c := range tl.Clients {
				row = append(row, toolCell(c, tl.Queries))
			}
			t.Rows = append(t.Rows, row)
		}
		writeLines(w, t.Lines(width))
	}
	miss, nmiss := r.misses()
	compared := 0
	for _, c := range r.Clients {
		ms, n := miss[c.Client], nmiss[c.Client]
		if n == 0 {
			continue
		}
		if r.comparisonRow(c.Client) {
			compared++ // a baseline row beside the chosen writer: misses in JSON only
			continue
		}
		fmt.Fprintf(w, "\n%s: %d %s not certainly shown:\n", esc(c.Client), n, plural(n, "query", "queries"))
		for i, o := range ms {
			if i == maxMisses {
				break
			}
			q := esc(strconv.Quote(o.Query))
			if utf8.RuneCountInString(q) > 60 {
				q = string([]rune(q)[:58]) + "…\""
			}
			for k, l := range textfit.Wrap(q+" → "+esc(joinIDs(o.Expect))+": "+esc(missTextMax(o, maxShownInstead)), width-4) {
				if k == 0 {
					fmt.Fprintf(w, "  %s\n", l)
				} else {
					fmt.Fprintf(w, "    %s\n", l)
				}
			}
		}
		if n > maxMisses {
			fmt.Fprintf(w, "  … and %d more (see --format json)\n", n-maxMisses)
		}
	}
	if compared > 0 {
		fmt.Fprintln(w)
		writeLines(w, textfit.Wrap(fmt.Sprintf("(the misses of the %d baseline %s beside the chosen writer are in --format json)", compared, plural(compared, "row", "rows")), width))
	}
	return nil
}

// writeLines writes each line.
func writeLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// clientHead is a client's label as a column header of three lines at
// most: "codex@0.171.0 [any-term]" is "codex", "@0.171.0", "[any-term]".
func clientHead(label string) string {
	name, rest, ok := strings.Cut(label, "@")
	if !ok {
		return label
	}
	return name + "\n@" + strings.Replace(rest, " ", "\n", 1)
}

// TextWidth is the width the table format fits in by default.
const TextWidth = 100

// writeMetricsText writes the per-client table of the text format, within
// width: a strategy variant's row sits under its client's, indented
// and named by its strategy; the headers take two lines so the columns
// stay as narrow as their numbers.
func (r *Report) writeMetricsText(w io.Writer, width int) {
	type col struct {
		top, bottom string
		cell        func(c ClientMetrics) string
	}
	cols := []col{
		{"", "LIMIT", rowLimit},
		{"FOUND", "@1", func(c ClientMetrics) string { return Percent(c.FoundAt1) }},
		{"FOUND", "@LIMIT", foundText},
	}
	if r.hasBand() {
		cols = append(cols, col{"TIE", "BAND", func(c ClientMetrics) string {
			if c.FoundAtLimitBest == c.FoundAtLimitWorst {
				return "-"
			}
			return num(c.FoundAtLimitWorst*100, 1) + "–" + num(c.FoundAtLimitBest*100, 1)
		}})
	}
	cols = append(cols,
		col{"", "MRR", func(c ClientMetrics) string { return num(c.MRR, 3) }},
		col{"MEAN", "RANK", func(c ClientMetrics) string { return rankStat(c, c.MeanRank, 2) }},
		col{"P95", "RANK", func(c ClientMetrics) string { return rankStat(c, c.P95Rank, 1) }},
		col{"NOT", "FOUND", func(c ClientMetrics) string { return strconv.Itoa(c.NotFound) }},
		col{"", "TOKENS", func(c ClientMetrics) string { return num(c.MeanShownTokens, 0) }},
	)
	if r.hasErrors() {
		cols = append(cols, col{"", "ERRORS", func(c ClientMetrics) string { return strconv.Itoa(c.Errors) }})
	}
	labels := make([]string, len(r.Clients))
	for i, c := range r.Clients {
		labels[i] = esc(c.Client)
		if c.Variant {
			// "codex@0.171.0 [any-term]" under codex@0.171.0: "  any-term"
			if open := strings.LastIndex(c.Client, " ["); open >= 0 && strings.HasSuffix(c.Client, "]") {
				labels[i] = "  " + esc(c.Client[open+2:len(c.Client)-1])
			}
		}
	}
	t := textfit.Table{Head: []string{"CLIENT"}, Right: []bool{false}, Keys: 1, Shrink: 0}
	for _, cl := range cols {
		t.Head = append(t.Head, cl.top+"\n"+cl.bottom)
		t.Right = append(t.Right, true)
	}
	for i, c := range r.Clients {
		row := []string{labels[i]}
		for _, cl := range cols {
			row = append(row, cl.cell(c))
		}
		t.Rows = append(t.Rows, row)
	}
	writeLines(w, t.Lines(width))
}

func groupValue(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// toolCell is "found/queries", with the tie band when it is not a point:
// "3/5", "2.5/5 (2-3)".
func toolCell(c ToolClient, queries int) string {
	if c.FoundBest == c.FoundWorst {
		return fmt.Sprintf("%d/%d", c.FoundWorst, queries)
	}
	return fmt.Sprintf("%s/%d (%d-%d)", strconv.FormatFloat(c.Found, 'f', -1, 64), queries, c.FoundWorst, c.FoundBest)
}

// mdEscape escapes outside text for Markdown, a table cell or inline
// (package internal/mdtext): rendered, it is the text, never a link, an
// image or HTML.
func mdEscape(s string) string { return mdtext.Escape(s) }

// WriteMarkdown writes the report as GitHub-flavoured Markdown (for a pull
// request comment or a job summary): the same tables as WriteTable, misses
// in a collapsed section.
func (r *Report) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "## toolfind findability\n\n%s\n\n", mdEscape(r.title()))
	if p := r.perClientScored(); p != "" {
		fmt.Fprintf(w, "%s\n\n", mdEscape(p))
	}
	head := append([]string{"client", "limit"}, r.header()...)
	for i := range head {
		head[i] = strings.ToLower(head[i])
	}
	mdRow(w, head...)
	aligns := make([]string, len(head))
	for i := range aligns {
		aligns[i] = "---:"
	}
	aligns[0] = "---"
	mdRow(w, aligns...)
	for _, c := range r.Clients {
		mdRow(w, append([]string{code(c.Client), rowLimit(c)}, r.cells(c)...)...)
	}
	if r.hasBand() {
		fmt.Fprintf(w, "\n%s\n", bandNote)
	}
	if n := r.uncappedNote(); len(n) > 0 {
		fmt.Fprintf(w, "\n%s\n\n", mdEscape(upperFirst(n[0])))
		for _, l := range n[1:] {
			fmt.Fprintf(w, "- %s\n", mdEscape(l))
		}
	}
	for _, c := range r.Clients {
		if e := c.ErrorSummary(); e != "" {
			fmt.Fprintf(w, "\n> **Warning:** %s.\n", mdEscape(e))
		}
	}
	if ws := r.writerNote(); ws != "" {
		fmt.Fprintf(w, "\n%s\n", mdEscape(ws))
	}
	for _, b := range r.By {
		fmt.Fprintf(w, "\n### By %s\n\n", mdEscape(b.Key))
		mdRow(w, mdEscape(b.Key), "client", "queries", "found@1", "found@limit", "mrr", "not found")
		mdRow(w, "---", "---", "---:", "---:", "---:", "---:", "---:")
		for _, g := range b.Groups {
			for _, c := range g.Clients {
				mdRow(w, mdEscape(groupValue(g.Value)), code(c.Client), strconv.Itoa(c.Queries),
					Percent(c.FoundAt1), foundText(c), num(c.MRR, 3), strconv.Itoa(c.NotFound))
			}
		}
	}
	if r.PerTool != nil {
		fmt.Fprintf(w, "\n### Per tool\n\nQueries that show the tool, of those expecting it.\n\n")
		head := []string{"tool", "queries"}
		al := []string{"---", "---:"}
		for _, c := range r.Clients {
			head = append(head, code(c.Client))
			al = append(al, "---:")
		}
		mdRow(w, head...)
		mdRow(w, al...)
		for _, t := range r.PerTool {
			row := []string{code(string(t.Tool)), strconv.Itoa(t.Queries)}
			for _, c := range t.Clients {
				row = append(row, toolCell(c, t.Queries))
			}
			mdRow(w, row...)
		}
	}
	miss, nmiss := r.misses()
	for _, c := range r.Clients {
		ms, n := miss[c.Client], nmiss[c.Client]
		if n == 0 {
			continue
		}
		fmt.Fprintf(w, "\n<details><summary><code>%s</code>: %d %s not certainly shown</summary>\n\n", template.HTMLEscapeString(esc(c.Client)), n, plural(n, "query", "queries"))
		mdRow(w, "query", "expected", "outcome")
		mdRow(w, "---", "---", "---")
		for i, o := range ms {
			if i == maxMisses {
				break
			}
			mdRow(w, mdEscape(o.Query), mdEscape(joinIDs(o.Expect)), mdEscape(missText(o)))
		}
		if n > maxMisses {
			fmt.Fprintf(w, "\n… and %d more (see the JSON report).\n", n-maxMisses)
		}
		fmt.Fprintf(w, "\n</details>\n")
	}
	return nil
}

// code formats s as a Markdown code span safe inside a table cell, after
// the text-output rule (package internal/mdtext).
func code(s string) string { return mdtext.CodeCell(s) }

// esc is the one escaping rule for text output (package internal/safetext)
// for single-line fields: controls, bidi and invisible characters and
// invalid UTF-8 are shown escaped, never written.
func esc(s string) string { return safetext.Escape(s) }

func mdRow(w io.Writer, cells ...string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

// upperFirst capitalises a sentence's first letter (ASCII).
func upperFirst(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
