package opencode

import (
	"sort"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/search"
)

// CatalogBudget is the token budget of the code mode catalog (§C.2 step 3,
// confirmed in §0: `catalogBudget` default 2000).
const CatalogBudget = 2000

// descriptionCut: a first description line longer than this many UTF-16
// units is cut to descriptionKeep units plus "..." (§C.2 step 2, §0).
const (
	descriptionCut  = 120
	descriptionKeep = 119
)

// searchSignature is the line that advertises the search function under a
// partial catalog in 1.18.33 (§0: "the section ends with `Search returns
// complete callable signatures:` and the multi-line signature of
// tools.$codemode.search"), as captured with opencode-oracle.
const searchSignature = "tools.$codemode.search(input: {\n  query?: string,\n  namespace?: string,\n  limit?: number,\n  offset?: number,\n}): Promise<{\n  items: Array<{\n      path: string,\n      description: string,\n      signature: string,\n    }>,\n  remaining: number,\n  next: {\n      offset: number,\n    } | null,\n}>"

// searchSignatureV2 is the global search() of the v2 sources (§C.2), whose
// exact signature text is not known: the spec writes it "search(input: …): …".
const searchSignatureV2 = "search(input: …): …"

// FirstLine is the description part of a catalog line (§C.2 step 2): the
// first line of the tool description, trimmed (JavaScript trim); longer
// than 120 UTF-16 units, its first 119 units plus "...".
func FirstLine(description string) string {
	first, _, _ := strings.Cut(description, "\n")
	first = search.JSTrim(first)
	if utf16Len(first) > descriptionCut {
		return sliceUTF16(first, descriptionKeep) + "..."
	}
	return first
}

// lineTokens is Tokens(CatalogLine(signature, description)) without
// building the line: its parts are joined at ASCII characters, so their
// UTF-16 lengths add up.
func lineTokens(signature, description string) int {
	n := len("  - ") + utf16Len(signature)
	if d := FirstLine(description); d != "" {
		n += len(" // ") + utf16Len(d)
	}
	return roundQuarter(n)
}

// CatalogLine is one tool's line in the catalog (§C.2 step 2):
// "  - {signature} // {first line}", or "  - {signature}" when the first
// line is empty. The signature may span several lines.
func CatalogLine(signature, description string) string {
	d := FirstLine(description)
	if d == "" {
		return "  - " + signature
	}
	return "  - " + signature + " // " + d
}

// NamespaceSummary is one namespace line of the catalog.
type NamespaceSummary struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
	Shown int    `json:"shown"`
}

// Catalog is the planned "## Available tools" section of code mode.
type Catalog struct {
	// Text is the section exactly as the model reads it, from
	// "## Available tools" to its end (no trailing newline).
	Text string `json:"text"`
	// Complete is true when every tool is shown.
	Complete bool `json:"complete"`
	Shown    int  `json:"shown"`
	Total    int  `json:"total"`
	// Used is the budget spent on the shown lines, of Budget.
	Used       int                `json:"used"`
	Budget     int                `json:"budget"`
	Namespaces []NamespaceSummary `json:"namespaces"`
	// Tokens is the section's size by OpenCode's estimate.
	Tokens int `json:"tokens"`
}

// CatalogItem is one tool offered to Plan: its unrendered path
// ("namespace.tool") and its catalog line.
type CatalogItem struct {
	Path string
	Line string
}

// planStyle holds what differs between the 1.18.33 and v2 sections.
type planStyle struct {
	header string // the partial header's "find the rest with …"
	advert string // the search signature shown under a partial list
}

var style118 = planStyle{header: "tools.$codemode.search", advert: searchSignature}

// PlanCatalog chooses which tools the code mode catalog shows and renders
// the section (§C.2 steps 1–6, confirmed by §0), for items in path order:
//
//  1. Group by namespace (the path up to the first "."); namespaces in
//     localeCompare order.
//  2. A line costs round(UTF-16 length / 4); namespace lines are free.
//  3. Each namespace queues its tools by cost, then path (localeCompare).
//  4. Rounds: each namespace still active, in order, takes its cheapest
//     queued line if used + cost <= budget, else drops out for good; a
//     namespace whose queue empties leaves too. Repeat while any is active.
//  5. Output: per namespace "- ns (N tools)", "(N tools, K shown)" or
//     "(N tools, none shown)" ("1 tool" singular), then its chosen lines
//     in path order.
//
// The header reads "(COMPLETE list - …)" when everything fits, else
// "(PARTIAL - K of N shown; find the rest with tools.$codemode.search)"
// followed at the end by the search function's signature. shown[i] tells
// whether items[i] made it.
func PlanCatalog(items []CatalogItem, budget int) (Catalog, []bool) {
	paths := make([]string, len(items))
	cost := make([]int, len(items))
	for i, it := range items {
		paths[i], cost[i] = it.Path, Tokens(it.Line)
	}
	return planCatalog(paths, cost, func(i int) string { return items[i].Line }, nil, budget, style118)
}

// planCatalog is PlanCatalog over the items' paths, costs (Tokens of each
// line) and lines, which it asks for only for the lines it shows.
// pathRanks, when not nil, are the paths' places in localeCompare order
// (localeRanks), already computed by the caller.
func planCatalog(paths []string, cost []int, line func(i int) string, pathRanks []int32, budget int, st planStyle) (Catalog, []bool) {
	type ns struct {
		name   string
		key    string // collation key of name
		all    []int  // item indices in path order
		queue  []int
		picked map[int]bool
	}
	byName := map[string]*ns{}
	var order []*ns
	for i, path := range paths {
		name, _, _ := strings.Cut(path, ".")
		g := byName[name]
		if g == nil {
			g = &ns{name: name, picked: map[int]bool{}}
			byName[name] = g
			order = append(order, g)
		}
		g.all = append(g.all, i)
	}
	names := make([]string, len(order))
	for i, g := range order {
		names[i] = g.name
	}
	for i, k := range search.LocaleKeys(names) {
		order[i].key = string(k)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].key < order[j].key })
	if pathRanks == nil {
		pathRanks = localeRanks(paths)
	}
	for _, g := range order {
		g.queue = append([]int(nil), g.all...)
		sort.SliceStable(g.queue, func(a, b int) bool {
			x, y := g.queue[a], g.queue[b]
			if cost[x] != cost[y] {
				return cost[x] < cost[y]
			}
			return pathRanks[x] < pathRanks[y]
		})
	}
	used := 0
	var active []*ns
	for _, g := range order {
		if len(g.queue) > 0 {
			active = append(active, g)
		}
	}
	for len(active) > 0 {
		var next []*ns
		for _, g := range active {
			i := g.queue[0]
			if used+cost[i] > budget {
				continue // drops out for good
			}
			g.queue = g.queue[1:]
			g.picked[i] = true
			used += cost[i]
			if len(g.queue) > 0 {
				next = append(next, g)
			}
		}
		active = next
	}
	shown := make([]bool, len(paths))
	c := Catalog{Total: len(paths), Used: used, Budget: budget}
	for _, g := range order {
		c.Shown += len(g.picked)
	}
	c.Complete = c.Shown == c.Total
	var b strings.Builder
	if c.Total == 0 {
		b.WriteString("## Available tools\n\nNo tools are currently available.")
	} else {
		if c.Complete {
			b.WriteString("## Available tools (COMPLETE list - every tool is shown below with its full call signature)\n")
		} else {
			b.WriteString("## Available tools (PARTIAL - " + strconv.Itoa(c.Shown) + " of " + strconv.Itoa(c.Total) + " shown; find the rest with " + st.header + ")\n")
		}
		for _, g := range order {
			n, k := len(g.all), len(g.picked)
			count := strconv.Itoa(n) + " tools"
			if n == 1 {
				count = "1 tool"
			}
			switch {
			case k == 0:
				count += ", none shown"
			case k < n:
				count += ", " + strconv.Itoa(k) + " shown"
			}
			b.WriteString("\n- " + g.name + " (" + count + ")")
			for _, i := range g.all {
				if g.picked[i] {
					shown[i] = true
					b.WriteByte('\n')
					b.WriteString(line(i))
				}
			}
			c.Namespaces = append(c.Namespaces, NamespaceSummary{Name: g.name, Tools: n, Shown: k})
		}
		if !c.Complete {
			b.WriteString("\n\nSearch returns complete callable signatures:\n- " + st.advert)
		}
	}
	c.Text = b.String()
	c.Tokens = Tokens(c.Text)
	return c, shown
}
