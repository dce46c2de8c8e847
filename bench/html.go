package bench

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/internal/safetext"
)

// The HTML report is one self-contained file (inline CSS and SVG, no
// script, no external resource), readable offline: the per-client table,
// per-client rank distributions as bar charts, the breakdowns and the
// per-tool view when present, and a findability heatmap of queries ×
// clients where each cell is coloured by the expected tool's rank.

// cell classes of the heatmap, best first; the legend lists them.
var heatClasses = []struct{ class, label string }{
	{"r1", "rank 1"},
	{"r2", "rank 2"},
	{"r3", "rank 3"},
	{"r5", "rank 4–5"},
	{"rn", "rank 6+ (within limit)"},
	{"tie", "shown in some tie orders"},
	{"miss", "not shown"},
	{"err", "simulator error"},
	{"none", "no expected tool"},
}

// heatClass picks a heatmap cell's class.
func heatClass(o *Outcome) string {
	switch {
	case o.Error != "":
		return "err"
	case len(o.Expect) == 0:
		return "none"
	case o.PWithinLimit == 0:
		return "miss"
	case o.PWithinLimit < 1:
		return "tie"
	case o.Rank == 1:
		return "r1"
	case o.Rank == 2:
		return "r2"
	case o.Rank == 3:
		return "r3"
	case o.Rank <= 5:
		return "r5"
	}
	return "rn"
}

// heatText is a cell's text: the rank ("3", "2-4"), with the share of tie
// orders that show it when not all do; "–" when not found.
func heatText(o *Outcome) string {
	switch {
	case o.Error != "":
		return "err"
	case len(o.Expect) == 0:
		return ""
	case o.Rank == 0:
		return "–"
	case o.PWithinLimit > 0 && o.PWithinLimit < 1:
		return RankText(o.Rank, o.RankWorst) + " · " + strconv.FormatFloat(o.PWithinLimit*100, 'f', 0, 64) + "%"
	}
	return RankText(o.Rank, o.RankWorst)
}

type htmlCell struct {
	Class, Text, Title string
}

type htmlRow struct {
	N      int
	Query  string
	Expect string
	Tags   string
	Cells  []htmlCell
}

type htmlBar struct {
	X, Y, W, H     float64
	Label, Value   string
	Title          string
	LabelX, ValueY float64
	Miss           bool
}

type htmlChart struct {
	Client string
	Width  int
	Height int
	Bars   []htmlBar
	Axis   float64
}

type htmlData struct {
	Title   string
	Writers string // who wrote each client's calls ("" when nobody did)
	// Uncapped explains the rows without a cap (Report.uncappedNote).
	Uncapped []string
	Report   *Report
	Header   []string
	Rows     [][]string
	Charts   []htmlChart
	Legend   []struct{ class, label string }
	Clients  []string
	Heat     []htmlRow
	By       []htmlTable
	PerTool  *htmlTable
}

type htmlTable struct {
	Title  string
	Header []string
	Rows   [][]string
	// Titles are the cells' tooltips, row by row (none when nil).
	Titles [][]string
	// Client says the columns after the first two are clients: their
	// headers are set vertically, as in the heatmap.
	Client bool
}

// cellTitle is the tooltip of row i, column j ("" for none).
func (t htmlTable) CellTitle(i, j int) string {
	if i < len(t.Titles) && j < len(t.Titles[i]) {
		return t.Titles[i][j]
	}
	return ""
}

// WriteHTML writes the self-contained HTML report.
func (r *Report) WriteHTML(w io.Writer) error {
	if r.summary {
		return errSummary
	}
	d := htmlData{Title: r.title(), Writers: r.writerNote(), Uncapped: r.uncappedNote(), Report: r, Legend: heatClasses}
	d.Header = append([]string{"client", "limit"}, r.header()...)
	for i := range d.Header {
		d.Header[i] = strings.ToLower(d.Header[i])
	}
	for _, c := range r.Clients {
		d.Rows = append(d.Rows, append([]string{c.Client, rowLimit(c)}, r.cells(c)...))
		d.Clients = append(d.Clients, c.Client)
		d.Charts = append(d.Charts, rankChart(c))
	}
	// A breakdown has one row per tag value and one column per client
	// (found@limit, the rest in the cell's tooltip): a row per value and
	// client made 91 rows of 12 prompts.
	for _, b := range r.By {
		t := htmlTable{Title: "By " + b.Key + ": found@limit", Header: []string{b.Key, "queries"}, Client: true}
		t.Header = append(t.Header, d.Clients...)
		for _, g := range b.Groups {
			row := []string{groupValue(g.Value), ""}
			var titles []string
			titles = append(titles, "", "")
			for _, c := range g.Clients {
				row[1] = strconv.Itoa(c.Queries)
				row = append(row, foundText(c))
				titles = append(titles, fmt.Sprintf("%s: found@1 %s, found@limit %s, MRR %s, not found %d of %d",
					c.Client, Percent(c.FoundAt1), foundText(c), num(c.MRR, 3), c.NotFound, c.Queries))
			}
			t.Rows = append(t.Rows, row)
			t.Titles = append(t.Titles, titles)
		}
		d.By = append(d.By, t)
	}
	if r.PerTool != nil {
		t := &htmlTable{Title: "Per tool: queries that show it, of those expecting it", Header: []string{"tool", "queries"}, Client: true}
		t.Header = append(t.Header, d.Clients...)
		for _, pt := range r.PerTool {
			row := []string{string(pt.Tool), strconv.Itoa(pt.Queries)}
			for _, c := range pt.Clients {
				row = append(row, toolCell(c, pt.Queries))
			}
			t.Rows = append(t.Rows, row)
		}
		d.PerTool = t
	}
	// Heatmap rows: outcomes are query-major, rows in Clients order.
	col := map[string]int{}
	for i, c := range d.Clients {
		col[c] = i
	}
	type qkey struct {
		index, line int
		query       string
	}
	last := qkey{index: -1}
	for i := range r.Outcomes {
		o := &r.Outcomes[i]
		if k := (qkey{o.index, o.Line, o.Query}); len(d.Heat) == 0 || k != last {
			last = k
			d.Heat = append(d.Heat, htmlRow{N: len(d.Heat) + 1, Query: o.Query, Expect: joinIDs(o.Expect),
				Tags: tagText(o.Tags), Cells: make([]htmlCell, len(d.Clients))})
		}
		cur := &d.Heat[len(d.Heat)-1]
		k, ok := col[o.Client]
		if !ok {
			continue
		}
		// The client's name without its release (the column says it).
		name, _, _ := strings.Cut(o.Client, "@")
		title := name + ": " + heatTitle(o)
		cur.Cells[k] = htmlCell{Class: heatClass(o), Text: heatText(o), Title: title}
	}
	d.escape()
	return htmlTemplate().Execute(w, d)
}

// escape applies the text-output rule (package internal/safetext) to every
// string the template prints, before html/template HTML-escapes it: no
// control, bidi or invisible character from a query file or a catalog
// reaches the page.
func (d *htmlData) escape() {
	e := safetext.Escape
	all := func(ss []string) {
		for i := range ss {
			ss[i] = e(ss[i])
		}
	}
	table := func(t *htmlTable) {
		t.Title = e(t.Title)
		all(t.Header)
		for _, r := range t.Rows {
			all(r)
		}
		for _, r := range t.Titles {
			all(r)
		}
	}
	d.Title = e(d.Title)
	all(d.Uncapped)
	all(d.Header)
	for _, r := range d.Rows {
		all(r)
	}
	all(d.Clients)
	for i := range d.Charts {
		d.Charts[i].Client = e(d.Charts[i].Client)
	}
	for i := range d.By {
		table(&d.By[i])
	}
	if d.PerTool != nil {
		table(d.PerTool)
	}
	for i := range d.Heat {
		h := &d.Heat[i]
		h.Query, h.Expect, h.Tags = e(h.Query), e(h.Expect), e(h.Tags)
		for j := range h.Cells {
			h.Cells[j].Text, h.Cells[j].Title = e(h.Cells[j].Text), e(h.Cells[j].Title)
		}
	}
}

// maxTitleTools bounds the tools a heatmap cell's tooltip lists as
// outranking (or shown instead of) the expected one: a catalog dump
// outranks it by the whole catalog, which made the Azure report 4.4 MB;
// the JSON report has them all.
const maxTitleTools = 3

// heatTitle is a cell's tooltip.
func heatTitle(o *Outcome) string {
	if len(o.Expect) == 0 {
		return "no expected tool"
	}
	if o.Found {
		s := "rank " + RankText(o.Rank, o.RankWorst)
		if ids := o.OutrankedBy; len(ids) > 0 {
			s += "; outranked by " + joinIDs(ids[:min(len(ids), maxTitleTools)])
			if n := len(ids) - maxTitleTools; n > 0 {
				s += fmt.Sprintf(" and %d more", n)
			}
		}
		return s
	}
	return missTextMax(o, maxTitleTools)
}

func tagText(tags map[string]string) string {
	if len(tags) == 0 {
		return ""
	}
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + tags[k]
	}
	return strings.Join(parts, " ")
}

// rankChart lays out one client's rank distribution: a bar per position
// 1..limit (at least the last position seen) and one for "not shown",
// heights as shares of the client's queries.
func rankChart(c ClientMetrics) htmlChart {
	const (
		w, h         = 360, 150
		left, bottom = 8, 30
		top          = 18
	)
	bins := c.Limit
	if len(c.RankDist) > bins {
		bins = len(c.RankDist)
	}
	if bins < 1 {
		bins = 1
	}
	if bins > 20 {
		bins = 20 // positions beyond 20 are folded into the 20th bar
	}
	vals := make([]float64, bins+1)
	for i, p := range c.RankDist {
		j := i
		if j >= bins {
			j = bins - 1
		}
		vals[j] += p
	}
	found := 0.0
	for _, v := range vals[:bins] {
		found += v
	}
	vals[bins] = float64(c.Queries) - found
	if vals[bins] < 0 {
		vals[bins] = 0
	}
	chart := htmlChart{Client: c.Client, Width: w, Height: h, Axis: h - bottom}
	// One slot per bar, and an empty one before the "not shown" bar.
	slot := float64(w-2*left) / float64(bins+2)
	plot := float64(h - bottom - top)
	for i, v := range vals {
		share := 0.0
		if c.Queries > 0 {
			share = v / float64(c.Queries)
		}
		bh := share * plot
		x := float64(left) + float64(i)*slot
		if i == bins {
			x += slot
		}
		label := strconv.Itoa(i + 1)
		if i == bins-1 && len(c.RankDist) > bins {
			label += "+"
		}
		// Past ten bars, label 1, every fifth and the last, so that the
		// labels do not overlap.
		if bins > 10 && i > 0 && (i+1)%5 != 0 && i != bins-1 {
			label = ""
		}
		if i == bins {
			label = "none"
		}
		// Past ten bars, values would overlap: only the last two bars
		// (the folded one and "not shown") keep theirs; the others are in
		// the tooltips.
		value := barValue(v)
		if bins > 10 && i < bins-1 {
			value = ""
		}
		chart.Bars = append(chart.Bars, htmlBar{
			X: round1(x + slot*0.1), W: round1(slot * 0.8), Y: round1(float64(h-bottom) - bh), H: round1(bh),
			Label: label, LabelX: round1(x + slot/2), ValueY: round1(float64(h-bottom) - bh - 4),
			Value: value, Miss: i == bins, Title: barTitle(i, bins, len(c.RankDist) > bins, v),
		})
	}
	return chart
}

// barTitle is a bar's tooltip: "rank 3: 12 queries".
func barTitle(i, bins int, folded bool, v float64) string {
	var what string
	switch {
	case i == bins:
		what = "not shown"
	case i == bins-1 && folded:
		what = "rank " + strconv.Itoa(i+1) + " or more"
	default:
		what = "rank " + strconv.Itoa(i+1)
	}
	n := barValue(v)
	if n == "" {
		n = "0"
	}
	if n == "1" {
		return what + ": 1 query"
	}
	return what + ": " + n + " queries"
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }

func barValue(v float64) string {
	if v == 0 {
		return ""
	}
	if v == float64(int(v)) {
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// htmlTemplate is parsed on first use: parsing costs about a thousand
// allocations, which only an HTML report needs.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"f":           func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) },
		"legendClass": func(l struct{ class, label string }) string { return l.class },
		"legendLabel": func(l struct{ class, label string }) string { return l.label },
		"sprintf":     fmt.Sprintf,
	}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolfind: {{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1f2328;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
.sub{color:#57606a;margin:0 0 16px}
nav{margin:0 0 16px}a{color:#0969da;text-decoration:none}
table{border-collapse:collapse}
th,td{padding:3px 8px;border-bottom:1px solid #e5e7eb;text-align:right;white-space:nowrap}
th{background:#f6f8fa;font-weight:600}
td.l,th.l{text-align:left}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart{border:1px solid #e5e7eb;border-radius:6px;padding:8px}
.chart h3{font-size:13px;margin:0 0 4px;font-family:ui-monospace,Menlo,Consolas,monospace}
svg text{font:10px system-ui,sans-serif;fill:#57606a}
.bar{fill:#2da44e}.bar.miss{fill:#cf222e}
.legend{display:flex;flex-wrap:wrap;gap:10px;margin:6px 0 10px}
.legend span{display:inline-flex;align-items:center;gap:4px}
.legend i{display:inline-block;width:14px;height:14px;border-radius:2px}
.wide{max-width:100%;overflow-x:auto}
.heat td.c{text-align:center;min-width:36px;font-variant-numeric:tabular-nums;border:1px solid #fff;white-space:normal}
.heat td.q{text-align:left;white-space:normal;min-width:200px;max-width:420px}
.heat td.e{text-align:left;color:#57606a;white-space:normal;max-width:220px;overflow-wrap:anywhere}
.heat th.c{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;vertical-align:bottom;padding:6px 3px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.heat tr:hover td{outline:1px solid #8c959f}
.r1{background:#1a7f37;color:#fff}.r2{background:#4ac26b}.r3{background:#aceebb}.r5{background:#dafbe1}
.rn{background:#fff8c5}.tie{background:#fb8f44}.miss{background:#cf222e;color:#fff}
.err{background:#6e7781;color:#fff}.none{background:#f6f8fa}
.tags{color:#8c959f;font-size:12px}
footer{margin-top:24px;color:#8c959f;font-size:12px}
</style>
</head>
<body>
<h1>toolfind findability</h1>
<p class="sub">{{.Title}}</p>{{if .Writers}}
<p class="sub">{{.Writers}}</p>{{end}}
<nav><a href="#ranks">rank distributions</a>{{range $i, $t := .By}} · <a href="#by-{{$i}}">{{$t.Title}}</a>{{end}}{{if .PerTool}} · <a href="#per-tool">per tool</a>{{end}} · <a href="#heatmap">heatmap</a></nav>

<div class="wide"><table>
<tr>{{range $i, $h := .Header}}<th{{if eq $i 0}} class="l"{{end}}>{{$h}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if eq $i 0}} class="l mono"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table></div>{{with .Uncapped}}
<p class="sub">{{index . 0}}</p>
<ul class="sub">{{range $i, $l := .}}{{if $i}}<li>{{$l}}</li>{{end}}{{end}}</ul>{{end}}

<h2 id="ranks">Rank distributions</h2>
<p class="sub">Share of queries whose first expected tool is shown at each position (expected counts over tie orders); the red bar is "not shown".</p>
<div class="charts">
{{range $c := .Charts}}<div class="chart"><h3>{{.Client}}</h3>
<svg xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="rank distribution of {{.Client}}">
<line x1="0" y1="{{f .Axis}}" x2="{{.Width}}" y2="{{f .Axis}}" stroke="#d0d7de"/>
{{range .Bars}}<rect class="bar{{if .Miss}} miss{{end}}" x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}"><title>{{.Title}}</title></rect>
{{if .Label}}<text x="{{f .LabelX}}" y="{{f $c.Axis}}" dy="14" text-anchor="middle">{{.Label}}</text>{{end}}{{if .Value}}<text x="{{f .LabelX}}" y="{{f .ValueY}}" text-anchor="middle">{{.Value}}</text>{{end}}
{{end}}</svg></div>
{{end}}</div>
{{range $i, $t := .By}}
<h2 id="by-{{$i}}">{{.Title}}</h2>
{{template "clients" $t}}
{{end}}{{with .PerTool}}
<h2 id="per-tool">{{.Title}}</h2>
{{template "clients" .}}
{{end}}
<h2 id="heatmap">Findability heatmap</h2>
<div class="legend">{{range .Legend}}<span><i class="{{legendClass .}}"></i>{{legendLabel .}}</span>{{end}}</div>
<div class="wide"><table class="heat">
<tr><th>#</th><th class="l">query</th><th class="l">expected</th>{{range .Clients}}<th class="c">{{.}}</th>{{end}}</tr>
{{range .Heat}}<tr><td>{{.N}}</td><td class="q">{{.Query}}{{if .Tags}} <span class="tags">{{.Tags}}</span>{{end}}</td><td class="e mono">{{.Expect}}</td>{{range .Cells}}<td class="c {{.Class}}" title="{{.Title}}">{{.Text}}</td>{{end}}</tr>
{{end}}</table></div>
<footer>Generated by toolfind. Ranks are the clients' simulated search results; where a client breaks ties at random, a cell shows the tie range and the share of orders that show the tool.</footer>
</body>
</html>
{{define "clients"}}<div class="wide"><table class="heat">
<tr>{{range $i, $h := .Header}}{{if lt $i 2}}<th class="l">{{$h}}</th>{{else}}<th class="c">{{$h}}</th>{{end}}{{end}}</tr>
{{range $r, $row := .Rows}}<tr>{{range $i, $c := $row}}{{if eq $i 0}}<td class="l mono">{{$c}}</td>{{else}}<td{{with $.CellTitle $r $i}} title="{{.}}"{{end}}>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>{{end}}`))
})
