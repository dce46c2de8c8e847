package codexjs

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
)

// Version is the Codex CLI release both profiles reproduce (§0).
const Version = "0.171.0"

func init() {
	search.Register(search.Profile{
		ID:       search.ClientID{Name: "codex", Version: Version},
		Default:  true,
		Summary:  "Codex code mode: the model filters ALL_TOOLS with JavaScript (run in goja); one result per strategy",
		Verified: "real Codex 0.171.0: ALL_TOOLS entries on 85 public MCP catalogs, 25 strategy runs and 18 script behaviours byte for byte",
		Options: []search.Option{
			{Name: "script", Kind: search.FileOption, Usage: "JavaScript file run as an extra exec strategy (primary when given); globals QUERY and TERMS hold the query", QueryOnly: true},
			{Name: "strategies", Kind: search.StringOption, Default: "all-terms,any-term,name,dump", Usage: "comma list of built-in strategies (all-terms, any-term, name, dump); the first is primary", QueryOnly: true},
			{Name: "plugin", Kind: search.BoolOption, Default: "false", Usage: "treat every server as an Agent Plugin (1,000-byte descriptions, 8,000/64,000-byte budgets)"},
			{Name: "console", Kind: search.BoolOption, Default: "false", Usage: "compatibility: give scripts a console whose log/info/warn/error append text items (Codex has no console)"},
			{Name: "timeout", Kind: search.StringOption, Default: "2s", Usage: "wall-clock limit per script run (Go duration)"},
			{Name: "engine", Kind: search.StringOption, Default: "native", Usage: "how built-in strategies run: native (Go, proven equal to goja) or goja"},
		},
		New: func(cat *corpus.Catalog, opts search.Options) (search.Simulator, error) {
			return NewCodeMode(cat, opts)
		},
	})
}

// compiled is the per-catalog state shared by every query: ALL_TOOLS, the
// JSON of every entry (slices of the dump's pieces), the lowercase text of
// the entries that are not ASCII, the identifier index and, once a run
// needs JavaScript, the session of the process's engine (package jsbox).
type compiled struct {
	all     *AllTools
	entries []Entry
	json    []string
	// dump is JSON.stringify(ALL_TOOLS) as pieces: "[", the entries'
	// JSON with their commas in blocks, "]".
	dump []string
	// lower is lowerEntry of the entries that are not ASCII ("" for the
	// others, lowercased when a filter reads them).
	lower   []string
	byIdent map[string]int
	limits  Limits
	console bool
	js      jsbox.Lazy[jsbox.Codex] // opened on the first run that needs JavaScript
}

func compile(cat *corpus.Catalog, plugin bool, limits Limits, console bool) *compiled {
	at := BuildAllTools(cat, plugin)
	n := len(at.Entries)
	c := &compiled{all: at, entries: at.Entries, byIdent: make(map[string]int, n), limits: limits, console: console}
	c.json = make([]string, n)
	c.lower = make([]string, n)
	// The dump is written in blocks of consecutive entries, on every core,
	// each block sized up front; each entry's JSON is a slice of its block.
	blocks := make([]string, (n+parallelChunk-1)/parallelChunk)
	parallelChunks(n, func() func(from, to int) {
		return func(from, to int) {
			size := 0
			for _, e := range at.Entries[from:to] {
				size += len(`,{"name":,"description":}`) + ojson.JSStringLen(e.Name) + ojson.JSStringLen(e.Description)
			}
			var b strings.Builder
			b.Grow(size)
			for i := from; i < to; i++ {
				e := &at.Entries[i]
				if i > 0 {
					b.WriteByte(',')
				}
				start := b.Len()
				e.appendJSON(&b)
				c.json[i] = b.String()[start:]
				if !ascii.Is(e.Name) || !ascii.Is(e.Description) {
					c.lower[i] = lowerEntry(e.Name, e.Description)
				}
			}
			blocks[from/parallelChunk] = b.String()
		}
	})
	c.dump = append(make([]string, 0, len(blocks)+2), "[")
	for _, b := range blocks {
		if b != "" {
			c.dump = append(c.dump, b)
		}
	}
	c.dump = append(c.dump, "]")
	for i := range at.Entries {
		c.byIdent[at.Entries[i].Name] = i
	}
	return c
}

// session is the engine's session over ALL_TOOLS, opened on first use
// with every entry's binding on the tools global.
func (c *compiled) session() (jsbox.Codex, error) {
	return c.js.Get(func(e jsbox.Engine) (jsbox.Codex, error) {
		tools := make([]jsbox.CodexTool, len(c.entries))
		for i, e := range c.entries {
			t := jsbox.CodexTool{Name: e.Name, Description: e.Description, CallName: e.Name}
			if e.Tool != nil {
				t.Tool = string(e.Tool.ID())
				// Codex's argument errors print namespace+name without a
				// separator (observed: tool `mcp__probedup`).
				t.CallName = e.Namespace + e.ToolName
			}
			t.Freeform = e.Name == "apply_patch" // §1.5: apply_patch is a freeform tool
			tools[i] = t
		}
		return e.Codex(jsbox.CodexSetup{Tools: tools, Limits: c.limits, Console: c.console})
	})
}

// exec runs one exec input in the engine's session.
func (c *compiled) exec(ctx context.Context, run jsbox.CodexRun) (ExecOutput, error) {
	js, err := c.session()
	if err != nil {
		return ExecOutput{}, fmt.Errorf("codex: %w", err)
	}
	o, err := js.Exec(ctx, run)
	if err != nil {
		return ExecOutput{}, fmt.Errorf("codex: %w", err)
	}
	return ExecOutput{Status: o.Status, Items: o.Items, Calls: o.Calls, Error: o.Error, TimedOut: o.TimedOut, Notices: o.Notices}, nil
}

// lowerEntry is jsLower(name + "\n" + description), the text the
// all-terms and any-term filters search (toLowerCase is ASCII lowercasing
// on ASCII text).
func lowerEntry(name, description string) string {
	if !ascii.Is(name) || !ascii.Is(description) {
		return jsLower(name + "\n" + description)
	}
	b := make([]byte, 0, len(name)+1+len(description))
	b = ascii.AppendLower(b, name)
	b = append(b, '\n')
	return string(ascii.AppendLower(b, description))
}

// CodeMode simulates Codex code mode over one catalog.
type CodeMode struct {
	c          *compiled
	strategies []Strategy
	script     *userScript
	engine     string
	dumpOnce   sync.Once
	dumpRes    search.Result
	// The heuristic writer's index over the MCP tools (fitted.go).
	intentOnce sync.Once
	intent     *intent.Index
}

// NewCodeMode builds the simulator; opts are the registered options.
func NewCodeMode(cat *corpus.Catalog, opts search.Options) (*CodeMode, error) {
	plugin, err := opts.Bool("plugin", false)
	if err != nil {
		return nil, err
	}
	console, err := opts.Bool("console", false)
	if err != nil {
		return nil, err
	}
	timeout, err := time.ParseDuration(opts.String("timeout", "2s"))
	if err != nil || timeout <= 0 {
		return nil, fmt.Errorf("option timeout: %q is not a positive Go duration (e.g. 2s)", opts.String("timeout", ""))
	}
	engine := opts.String("engine", "native")
	if engine != "native" && engine != "goja" {
		return nil, fmt.Errorf("option engine: %q is not native or goja", engine)
	}
	m := &CodeMode{engine: engine}
	known := map[string]Strategy{}
	var names []string
	for _, s := range builtinStrategies {
		known[s.Name] = s
		names = append(names, s.Name)
	}
	for _, n := range strings.Split(opts.String("strategies", "all-terms,any-term,name,dump"), ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		s, ok := known[n]
		if !ok {
			return nil, fmt.Errorf("option strategies: unknown strategy %q (known: %s)", n, strings.Join(names, ", "))
		}
		m.strategies = append(m.strategies, s)
	}
	src, hasScript := opts["script"]
	if hasScript && strings.TrimSpace(src) == "" {
		return nil, &search.OptionError{Option: "script", Err: errors.New("the script is empty")}
	}
	if len(m.strategies) == 0 && !hasScript {
		return nil, fmt.Errorf("option strategies: no strategy selected")
	}
	m.c = compile(cat, plugin, Limits{Timeout: timeout}.WithDefaults(), console)
	if hasScript {
		// A script that cannot run at all is the user's mistake, reported
		// before any query (it would fail every search the same way).
		m.script = newUserScript(src)
		if u := m.script; u.rejected != "" {
			return nil, &search.OptionError{Option: "script", Line: 1, Err: fmt.Errorf("Codex rejects it: %s", u.rejected)}
		}
		js, err := m.c.session()
		if err != nil {
			return nil, fmt.Errorf("option script: %w", err)
		}
		ce, err := js.Compile(context.Background(), m.script.prag.code)
		if err != nil {
			return nil, fmt.Errorf("option script: %w", err)
		}
		if ce != nil {
			line := ce.Line
			if line > 0 && m.script.prag.code != src {
				line++ // the pragma line
			}
			return nil, &search.OptionError{Option: "script", Line: line, Column: ce.Column, Err: errors.New(ce.Message)}
		}
	}
	return m, nil
}

// Client implements search.Simulator.
func (m *CodeMode) Client() search.ClientID { return search.ClientID{Name: "codex", Version: Version} }

// AllTools returns the simulated ALL_TOOLS.
func (m *CodeMode) AllTools() *AllTools { return m.c.all }

// Search runs every strategy for the query: the user script (when given)
// or the first built-in strategy is the Result, the others its Variants.
func (m *CodeMode) Search(ctx context.Context, q search.Query) (search.Result, error) {
	terms := Terms(q.Text)
	var results []search.Result
	if m.script != nil {
		if err := ctx.Err(); err != nil {
			return search.Result{}, err
		}
		r, err := m.runScript(ctx, m.script, q.Text, terms)
		if err != nil {
			return search.Result{}, err
		}
		results = append(results, r)
	}
	for _, s := range m.strategies {
		if err := ctx.Err(); err != nil {
			return search.Result{}, err
		}
		r, err := m.runStrategy(ctx, s, q.Text, terms)
		if err != nil {
			return search.Result{}, err
		}
		results = append(results, r)
	}
	res := results[0]
	res.Variants = results[1:]
	return res, nil
}

// userScript is an exec input split at its pragma.
type userScript struct {
	prag     pragma
	rejected string // parse_exec_source's message: the whole output
}

func newUserScript(src string) *userScript {
	p, msg := parseExecSource(src)
	if msg != "" {
		return &userScript{rejected: msg}
	}
	return &userScript{prag: p}
}

// RunScript runs any exec input (pragma allowed) for a query and returns
// the result as the model would get it. A run the engine could not make
// (package jsbox: no engine, a crashed child) is a result whose Error says
// why.
func (m *CodeMode) RunScript(src, query string) search.Result {
	r, err := m.runScript(context.Background(), newUserScript(src), query, Terms(query))
	if err != nil {
		return search.Result{Client: m.Client().String(), Strategy: "script", Hits: []search.Hit{}, Error: err.Error()}
	}
	return r
}

func (m *CodeMode) runScript(ctx context.Context, u *userScript, query string, terms []string) (search.Result, error) {
	if u.rejected != "" {
		// A rejected input: the message is the whole output (§1.1).
		return search.Result{Client: m.Client().String(), Strategy: "script", Hits: []search.Hit{},
			Shown: u.rejected, ShownTokens: approxTokens(len(u.rejected)),
			Notes: []string{"Codex rejected the exec input"}, Extra: map[string]any{"status": "rejected"}}, nil
	}
	budget := DefaultMaxOutputTokens
	if u.prag.maxOutputTokens != nil {
		budget = int(*u.prag.maxOutputTokens)
	}
	yield := float64(defaultYieldMs)
	if u.prag.yieldTimeMs != nil {
		yield = float64(*u.prag.yieldTimeMs)
	}
	// A fresh runtime per run: Codex evaluates every exec in a fresh
	// isolate (§1.6), and a user script may change ALL_TOOLS, the
	// prototypes or globalThis.
	out, err := m.c.exec(ctx, jsbox.CodexRun{Code: u.prag.code, Query: query, Terms: terms, YieldMs: yield})
	if err != nil {
		return search.Result{}, err
	}
	out.MaxOutputTokens = budget
	return m.c.result(m.Client().String(), "script", out), nil
}

func (m *CodeMode) runStrategy(ctx context.Context, s Strategy, query string, terms []string) (search.Result, error) {
	if s.Name == "dump" && m.engine == "native" {
		m.dumpOnce.Do(func() { m.dumpRes = m.c.result(m.Client().String(), "dump", m.nativeOutput(s, terms)) })
		return cloneResult(m.dumpRes), nil
	}
	if m.engine == "native" {
		return m.c.result(m.Client().String(), s.Name, m.nativeOutput(s, terms)), nil
	}
	// A trusted built-in program may run on a reused runtime.
	out, err := m.c.exec(ctx, jsbox.CodexRun{Code: s.Source, Query: query, Terms: terms, YieldMs: defaultYieldMs, Trusted: true})
	if err != nil {
		return search.Result{}, err
	}
	out.MaxOutputTokens = DefaultMaxOutputTokens
	return m.c.result(m.Client().String(), s.Name, out), nil
}

func (m *CodeMode) nativeOutput(s Strategy, terms []string) ExecOutput {
	return ExecOutput{Status: "Script completed", pieces: s.native(m.c, terms), MaxOutputTokens: DefaultMaxOutputTokens}
}

func cloneResult(r search.Result) search.Result {
	r.Hits = append([]search.Hit(nil), r.Hits...)
	r.Notes = append([]string(nil), r.Notes...)
	extra := make(map[string]any, len(r.Extra))
	for k, v := range r.Extra {
		extra[k] = v
	}
	r.Extra = extra
	return r
}

// Finished applies §2's truncation and the second cap to an exec output
// and returns the items the model receives, header first.
func Finished(out ExecOutput) []string {
	header := out.Status + "\nWall time 0.0 seconds\nOutput:\n"
	var items []string
	if out.pieces != nil {
		items = truncateRopeItems(out.pieces, out.MaxOutputTokens)
	} else {
		items = truncateTextItems(out.Items, policy{n: out.MaxOutputTokens})
	}
	return secondCap(append([]string{header}, items...), DefaultMaxOutputTokens)
}

// truncateRopeItems is truncateTextItems with a token policy for items
// held as pieces.
func truncateRopeItems(items [][]string, tokens int) []string {
	var joined rope
	for _, it := range items {
		if joined.n > 0 {
			joined.add("\n")
		}
		for _, p := range it {
			joined.add(p)
		}
	}
	if joined.n <= tokens*BytesPerToken {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = strings.Join(it, "")
		}
		return out
	}
	return []string{warningHeader(approxTokens(joined.n), joined.lines()) + joined.truncateMiddleTokens(tokens)}
}

// ShownText joins the finished items: the header item followed by the
// output items separated by newlines (§0).
func ShownText(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return items[0] + strings.Join(items[1:], "\n")
}

// found is one catalog tool whose name appears in a text.
type found struct {
	entry  int
	offset int
}

// scanNames lists the catalog entries whose identifier appears in text as
// a whole identifier ([A-Za-z0-9_$] on neither side), in order of first
// appearance.
func (c *compiled) scanNames(text string) []found {
	var out []found
	var seen map[int]bool
	c.eachName(text, func(e, offset int) {
		if seen == nil {
			seen = map[int]bool{}
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, found{e, offset})
		}
	})
	return out
}

// namesIn lists, in no particular order, the catalog entries whose
// identifier appears whole in one of the pieces (scanned on every core).
func (c *compiled) namesIn(pieces []string) []int {
	var (
		mu    sync.Mutex
		lists [][]int
	)
	parallelChunksOf(len(pieces), 8, func() func(from, to int) {
		seen := make([]bool, len(c.entries))
		var list []int
		mu.Lock()
		k := len(lists)
		lists = append(lists, nil)
		mu.Unlock()
		return func(from, to int) {
			for _, p := range pieces[from:to] {
				c.eachName(p, func(e, _ int) {
					if !seen[e] {
						seen[e] = true
						list = append(list, e)
					}
				})
			}
			mu.Lock()
			lists[k] = list
			mu.Unlock()
		}
	})
	if len(lists) == 1 {
		return lists[0]
	}
	seen := make([]bool, len(c.entries))
	var out []int
	for _, l := range lists {
		for _, e := range l {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// eachName calls fn with the entry and byte offset of every occurrence in
// text of a catalog tool's identifier as a whole identifier. Every MCP
// identifier starts with "mcp__" (§1.3a), so only identifiers containing
// it are looked up.
func (c *compiled) eachName(text string, fn func(entry, offset int)) {
	for off := 0; ; {
		k := strings.Index(text[off:], mcpPrefix)
		if k < 0 {
			return
		}
		i := off + k
		for i > 0 && isIdentByte(text[i-1]) {
			i--
		}
		j := off + k + len(mcpPrefix)
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		off = j
		if e, ok := c.byIdent[text[i:j]]; ok && c.entries[e].Tool != nil {
			fn(e, i)
		}
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

// result turns an exec output into the strategy's Result: the finished
// text is Shown; a tool is found when its name is visible in it, ranked
// by first appearance.
func (c *compiled) result(client, strategy string, out ExecOutput) search.Result {
	items := Finished(out)
	shown := ShownText(items)
	body := strings.Join(items[1:], "\n")
	visible := c.scanNames(body)
	printedBytes := 0
	var flat []string // every printed piece; no name spans two
	if out.pieces == nil {
		flat = out.Items
	}
	for _, it := range out.pieces {
		flat = append(flat, it...)
	}
	for _, p := range flat {
		printedBytes += len(p)
	}
	nItems := len(out.Items)
	if out.pieces != nil {
		nItems = len(out.pieces)
	}
	if nItems > 1 {
		printedBytes += nItems - 1 // the newlines between items
	}
	printed := c.namesIn(flat)
	res := search.Result{
		Client:      client,
		Strategy:    strategy,
		Hits:        make([]search.Hit, 0, len(visible)),
		Shown:       shown,
		ShownTokens: approxTokens(len(shown)),
		// No cap (codex.md §1.4, §2): the model reads whatever its script
		// prints, up to the output truncation.
		Uncapped: true,
	}
	for i, f := range visible {
		e := c.entries[f.entry]
		at := len(items[0]) + f.offset
		res.Hits = append(res.Hits, search.Hit{
			Rank: i + 1, RankWorst: i + 1, PWithinLimit: 1,
			Tool: e.Tool.ID(), Name: e.Name,
			Why:        []string{fmt.Sprintf("name visible at byte %d of the output", at)},
			ReadTokens: approxTokens(at + len(e.Name)),
		})
	}
	res.Limit = len(res.Hits)
	truncated := printedBytes > out.MaxOutputTokens*BytesPerToken || len(body) < printedBytes
	visSet := make(map[int]bool, len(visible))
	for _, f := range visible {
		visSet[f.entry] = true
	}
	var hidden []string
	for _, e := range printed {
		if !visSet[e] {
			hidden = append(hidden, c.entries[e].Name)
		}
	}
	calls := out.Calls
	if calls == nil {
		calls = []Call{}
	}
	res.Extra = map[string]any{
		"status":        out.Status,
		"calls":         calls,
		"truncated":     truncated,
		"output_bytes":  printedBytes,
		"printed_tools": len(printed),
		"hidden_tools":  len(hidden),
	}
	if len(hidden) > 0 {
		sort.Strings(hidden)
		res.Extra["hidden"] = hidden
	}
	if out.Error != "" {
		res.Extra["error"] = out.Error
		res.Notes = append(res.Notes, out.Error)
	}
	res.Error, res.TimedOut = runError(out), out.TimedOut
	if truncated {
		res.Notes = append(res.Notes, fmt.Sprintf("output truncated: %d tokens printed, %d-token budget; %d of %d printed tools hidden",
			approxTokens(printedBytes), out.MaxOutputTokens, len(hidden), len(printed)))
	}
	if len(out.Calls) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d tool call(s) recorded, none executed", len(out.Calls)))
	}
	res.Notes = append(res.Notes, out.Notices...)
	return res
}

// runError is a run's failure for search.Result.Error: the simulator's
// reason for stopping it (time, memory, output limit), else the script's
// own error (the "Script error:" item without that heading), else "".
func runError(out ExecOutput) string {
	if out.Error != "" {
		return strings.TrimPrefix(out.Error, "toolfind: ")
	}
	if out.Status != "Script failed" {
		return ""
	}
	for _, it := range out.Items {
		if msg, ok := strings.CutPrefix(it, "Script error:\n"); ok {
			// One line: the message and the innermost frame.
			first, rest, _ := strings.Cut(msg, "\n")
			if frame, ok := strings.CutPrefix(strings.TrimLeft(rest, " "), "at "); ok {
				frame, _, _ = strings.Cut(frame, "\n")
				first += " (at " + frame + ")"
			}
			return first
		}
	}
	return "the script failed"
}

// View implements search.Viewer: the tool's ALL_TOOLS entry as a dump
// prints it.
func (m *CodeMode) View(id corpus.ToolID) (search.ToolView, bool) {
	e, ok := m.c.all.Entry(id)
	if !ok {
		return search.ToolView{}, false
	}
	text := e.JSON()
	return search.ToolView{Tool: id, Name: e.Name, Text: text, Tokens: approxTokens(len(text))}, true
}

// Problems implements search.Reporter.
func (m *CodeMode) Problems() []corpus.Diagnostic {
	ps := m.c.all.Problems()
	for i := range ps {
		ps[i].Client = m.Client().String()
	}
	return ps
}
