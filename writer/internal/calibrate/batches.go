package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer/calib"
)

// A family is one client whose model writes its own search call, as the
// blind writers are told about it.
type family struct {
	name     string // batch prefix and client name
	client   string // toolfind client spec
	product  string // what the writer is told it runs inside
	tool     string // the search tool the first call goes to
	shape    string // the call's JSON shape
	example  string // one example output line
	catalogs bool   // whether the model sees anything of the connected servers
}

var families = map[string]family{
	"claude": {"claude", "claude", "Claude Code, Anthropic's agentic coding CLI (running in a terminal, with its usual built-in tools for files, shell and the web)",
		"ToolSearch", `{"query": string, "max_results": number (optional)}`,
		`{"id": "p0001", "call": {"query": "..."}}`, true},
	"grok": {"grok", "grok", "Grok Build, xAI's agentic coding CLI (running in a terminal)",
		"search_tool", `{"query": string, "limit": integer (optional)}`,
		`{"id": "p0001", "call": {"query": "..."}}`, true},
	"codex": {"codex", "codex", "Codex CLI, OpenAI's agentic coding CLI, in code mode (you act by running JavaScript through the exec tool)",
		"exec", `{"code": string} (the JavaScript source you send as exec's input)`,
		`{"id": "p0001", "call": {"code": "..."}}`, false},
	// Copilot CLI with the model and API a user gets by default; only
	// setups of more than 30 tools defer (copilot.md §1.1), so a batch
	// keeps only those.
	"copilot": {"copilot", "copilot", "GitHub Copilot CLI, GitHub's agentic coding CLI (running in a terminal, with its usual built-in tools for files and the shell)",
		"tool_search_tool", `{"pattern": string (a JavaScript regular expression), "limit": integer (optional)}`,
		`{"id": "p0001", "call": {"pattern": "..."}}`, true},
}

// setupPlan is one setup of a batch and how many prompts of its home
// corpus it takes.
type setupPlan struct {
	home  string // corpus name
	solo  bool   // only the home corpus's catalog
	extra [2]int // distractor servers, min and max
	n     int    // prompts
	full  bool   // livemcpbench: all 70 servers
}

// plan is the composition of every call batch: solo setups as the
// held-out evaluation runs them, and multi-server setups of 5–70 servers
// as users run them.
var plan = []setupPlan{
	{home: "mongodb-accuracy", solo: true, n: 15},
	{home: "mongodb-accuracy", extra: [2]int{4, 12}, n: 20},
	{home: "azure-e2e", solo: true, n: 40},
	{home: "azure-e2e", extra: [2]int{4, 20}, n: 45},
	{home: "metatool", solo: true, n: 65},
	{home: "metatool", extra: [2]int{4, 14}, n: 65},
	{home: "livemcpbench", full: true, n: 12},
	{home: "livemcpbench", extra: [2]int{4, 30}, n: 10},
}

// sharedServers are the catalogs of ../shared/catalogs a user may have
// connected beside the home server (azure-namespace is azure in another
// mode, never both).
var sharedServers = []string{"chrome-devtools", "everything", "filesystem", "github", "kubernetes", "memory", "mongodb", "notion", "okta", "playwright", "sequential-thinking", "supabase", "zscaler", "azure"}

type generator struct {
	shared  string
	out     string
	corpora map[string]calib.Corpus
	pools   map[string][]calib.Prompt
	lmb     []string // livemcpbench server names
	setups  map[string]calib.Setup
	written []string // corpora of written prompts, sorted
}

func newGenerator(shared, out string) (*generator, error) {
	held, err := calib.HeldOut(shared)
	if err != nil {
		return nil, err
	}
	cs, err := calib.Corpora(shared)
	if err != nil {
		return nil, err
	}
	g := &generator{shared: shared, out: out, corpora: map[string]calib.Corpus{}, pools: map[string][]calib.Prompt{}, setups: map[string]calib.Setup{}}
	for _, c := range cs {
		g.corpora[c.Name] = c
		p, err := calib.Pool(shared, c, held)
		if err != nil {
			return nil, err
		}
		g.pools[c.Name] = p
		if c.Name == "livemcpbench" {
			for _, f := range c.Files {
				g.lmb = append(g.lmb, strings.TrimSuffix(filepath.Base(f), ".json"))
			}
		}
	}
	// Prompts written one tool at a time for the catalogs with no corpus
	// (ingested into writer/testdata/calib/prompts).
	written, _ := filepath.Glob(filepath.Join("writer", "testdata", "calib", "prompts", "*.jsonl"))
	for _, w := range written {
		cat := strings.TrimSuffix(filepath.Base(w), ".jsonl")
		abs, _ := filepath.Abs(w)
		c := calib.Corpus{Name: "prompts-" + cat, Queries: abs, Files: []string{"catalogs/" + cat + ".json"}}
		p, err := calib.Pool(shared, c, nil)
		if err != nil {
			return nil, err
		}
		g.corpora[c.Name] = c
		g.pools[c.Name] = p
		g.written = append(g.written, c.Name)
	}
	if prev, err := calib.ReadSetups(filepath.Join(out, "keys", "setups.json")); err == nil {
		g.setups = prev
	}
	return g, nil
}

// serverFile is the catalog file of a distractor server: a shared
// catalog, else a livemcpbench one.
func serverFile(name string, lmb bool) string {
	if lmb {
		return "corpora/livemcpbench/catalogs/" + name + ".json"
	}
	return "catalogs/" + name + ".json"
}

// distractors picks n servers not in have, from the shared catalogs and
// livemcpbench's, never two of one name.
func (g *generator) distractors(r *rand.Rand, have map[string]bool, n int, homeLMB bool) []string {
	type cand struct {
		name string
		lmb  bool
	}
	var cands []cand
	for _, s := range sharedServers {
		cands = append(cands, cand{s, false})
	}
	for _, s := range g.lmb {
		cands = append(cands, cand{s, true})
	}
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	var out []string
	for _, c := range cands {
		if len(out) == n {
			break
		}
		if have[c.name] {
			continue
		}
		// Big catalogs as distractors at most now and then.
		if (c.name == "azure" || c.name == "zscaler") && r.IntN(3) != 0 {
			continue
		}
		have[c.name] = true
		out = append(out, serverFile(c.name, c.lmb))
	}
	return out
}

// takes hands out each corpus's prompts in a shuffled order per family,
// batch after batch, wrapping around.
type takes struct {
	order map[string][]calib.Prompt
	next  map[string]int
}

func (g *generator) takes(fam string) *takes {
	t := &takes{order: map[string][]calib.Prompt{}, next: map[string]int{}}
	var names []string
	for n := range g.pools {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := append([]calib.Prompt(nil), g.pools[n]...)
		r := rand.New(rand.NewPCG(seed(fam, n), 7))
		r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		t.order[n] = p
	}
	return t
}

func (t *takes) take(corpus string, n int) []calib.Prompt {
	p := t.order[corpus]
	out := make([]calib.Prompt, 0, n)
	for len(out) < n && len(p) > 0 {
		out = append(out, p[t.next[corpus]%len(p)])
		t.next[corpus]++
	}
	return out
}

func seed(parts ...string) uint64 {
	var h uint64 = 14695981039346656037
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	return h
}

// group is one setup of a batch with its prompts.
type group struct {
	setup   calib.Setup
	prompts []calib.Prompt
}

// callBatches writes batches first..last of a family.
func (g *generator) callBatches(fam family, first, last int, written bool) error {
	t := g.takes(fam.name)
	plan := plan
	prefix := fam.name
	if written {
		// Batches over the written prompts: per catalog, a solo setup and
		// one with 4–20 other servers, about 290 prompts a batch.
		plan = nil
		per := 290 / max(2*len(g.written), 1)
		for _, c := range g.written {
			plan = append(plan, setupPlan{home: c, solo: true, n: per}, setupPlan{home: c, extra: [2]int{4, 20}, n: per})
		}
		prefix = fam.name + "-w"
	}
	// Batches before first consume their prompts too, so batch k is the
	// same whichever range is asked for.
	for k := 1; k <= last; k++ {
		r := rand.New(rand.NewPCG(seed(fam.name, fmt.Sprint(k)), 11))
		var groups []group
		for i, sp := range plan {
			prompts := t.take(sp.home, sp.n)
			name := fmt.Sprintf("%s-%d-%s", prefix, k, setupLetter(i))
			c := g.corpora[sp.home]
			var files []string
			switch {
			case sp.solo || sp.full:
				files = append(files, c.Files...)
			case sp.home == "livemcpbench":
				have := map[string]bool{}
				for _, p := range prompts {
					for _, e := range p.Expect {
						srv, _, _ := strings.Cut(e, "__")
						if !have[srv] {
							have[srv] = true
							files = append(files, serverFile(srv, true))
						}
					}
				}
				total := sp.extra[0] + r.IntN(sp.extra[1]-sp.extra[0]+1)
				if total > len(files) {
					files = append(files, g.distractors(r, have, total-len(files), true)...)
				}
			default:
				have := map[string]bool{}
				for _, f := range c.Files {
					have[strings.TrimSuffix(filepath.Base(f), ".json")] = true
				}
				files = append(files, c.Files...)
				n := sp.extra[0] + r.IntN(sp.extra[1]-sp.extra[0]+1)
				files = append(files, g.distractors(r, have, n, false)...)
			}
			if !sp.solo && !sp.full {
				r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
			}
			groups = append(groups, group{calib.Setup{Name: name, Files: files}, prompts})
		}
		if k < first {
			continue
		}
		if err := g.writeCallBatch(fam, fmt.Sprintf("%s-%d", prefix, k), groups); err != nil {
			return err
		}
	}
	return calib.WriteSetups(filepath.Join(g.out, "keys", "setups.json"), g.setups)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeCallBatch renders one batch file, its answer key and its setups.
func (g *generator) writeCallBatch(fam family, batch string, groups []group) error {
	var b strings.Builder
	var keys []calib.Key
	id := 0
	var toolsText string
	var body strings.Builder
	setups := 0
	for _, gr := range groups {
		cat, err := gr.setup.Catalog(g.shared)
		if err != nil {
			return err
		}
		sims, err := toolfind.Clients(cat, fam.client, nil)
		if err != nil {
			return err
		}
		sf, err := sims[0].(search.Writable).Surface(nil)
		if err != nil {
			return err
		}
		if !hasTool(sf, fam.tool) {
			// The client does not defer this setup's tools (Copilot at 30
			// tools or fewer): there is no first search to write.
			fmt.Fprintf(os.Stderr, "%s: setup %s has no %s, skipped (%d prompts)\n", batch, gr.setup.Name, fam.tool, len(gr.prompts))
			continue
		}
		tt := surfaceTools(sf)
		if toolsText == "" {
			toolsText = tt
		} else if tt != toolsText {
			return fmt.Errorf("%s: the %s tool definitions differ between setups", batch, fam.tool)
		}
		g.setups[gr.setup.Name] = gr.setup
		setups++
		if fam.catalogs {
			tools := 0
			for _, s := range cat.Servers {
				tools += len(s.Tools)
			}
			fmt.Fprintf(&body, "\n## Setup %d (%s connected)\n\n", setups, plural(len(cat.Servers), "MCP server"))
			b := &body
			b.WriteString("For every prompt of this setup the conversation starts with this text (the model reads it before the user's request):\n\n")
			for _, c := range sf.Context {
				fmt.Fprintf(b, "<%s>\n%s\n</%s>\n\n", c.Role, strings.TrimRight(c.Text, "\n"), c.Role)
			}
			b.WriteString("### Prompts of this setup\n")
		}
		for _, p := range gr.prompts {
			id++
			pid := fmt.Sprintf("p%04d", id)
			keys = append(keys, calib.Key{ID: pid, Batch: batch, Client: fam.name, Setup: gr.setup.Name, Prompt: p})
			fmt.Fprintf(&body, "\n#### %s\n~~~text\n%s\n~~~\n", pid, strings.TrimRight(p.Text, "\n"))
		}
	}
	fmt.Fprintf(&b, "# Batch %s: write the first %s call, blind\n\n", batch, fam.tool)
	fmt.Fprintf(&b, "You are the model inside %s. A user has just started a fresh session and typed one request. ", fam.product)
	if fam.catalogs {
		fmt.Fprintf(&b, "Before you act, this is everything you are shown about finding tools: the tool definitions below (the same for every prompt), and the text the client puts at the start of the conversation, which depends on the MCP servers the user has connected. Prompts are grouped by setup (the servers connected); each setup gives that text.\n\n")
	} else {
		fmt.Fprintf(&b, "Before you act, this is everything you are shown about finding tools: the tool definition below. The client shows no MCP tool or server name before you search; the user has connected some MCP servers whose tools are reachable through `ALL_TOOLS` and `tools`.\n\n")
	}
	fmt.Fprintf(&b, "For each prompt, write the input of the first `%s` call you would make to handle the request. Your first action must be a call of `%s` (the client requires it); what you load, search for or run is up to you, exactly as you would do it for real.\n\n", fam.tool, fam.tool)
	fmt.Fprintf(&b, "Rules:\n\n")
	fmt.Fprintf(&b, "- Work only from this file. Do not open any other file, do not run programs, do not search the web.\n")
	fmt.Fprintf(&b, "- Treat each prompt on its own, as a fresh session. Write what you would really send; there is no answer to guess.\n")
	fmt.Fprintf(&b, "- Output: create the file `/work/calib/out/%s.jsonl` with one line per prompt, in the order given, each a JSON object `{\"id\": \"<prompt id>\", \"call\": <the %s input>}`. The input's shape: %s. Example line:\n\n      %s\n\n", batch, fam.tool, fam.shape, fam.example)
	fmt.Fprintf(&b, "- Every one of the %d prompt ids (p0001 to p%04d) appears exactly once. Check the file parses as JSON Lines when you are done.\n\n", id, id)
	fmt.Fprintf(&b, "## The tools you can call\n\n%s", toolsText)
	if !fam.catalogs {
		b.WriteString("\n## Prompts\n")
	}
	b.WriteString(body.String())
	if err := os.WriteFile(filepath.Join(g.out, "batches", batch+".md"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	if err := calib.WriteJSONL(filepath.Join(g.out, "keys", batch+".jsonl"), keys); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d prompts, %d setups, %d bytes\n", batch, id, setups, b.Len())
	return os.WriteFile(filepath.Join(g.out, "batches", batch+".ready"), nil, 0o644)
}

// hasTool says whether the surface offers the named tool.
func hasTool(sf search.Surface, name string) bool {
	for _, t := range sf.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// surfaceTools renders the surface's tool definitions.
func surfaceTools(sf search.Surface) string {
	var b strings.Builder
	for _, t := range sf.Tools {
		fmt.Fprintf(&b, "### `%s`\n\nDescription:\n\n~~~text\n%s\n~~~\n\nInput schema:\n\n~~~json\n%s\n~~~\n\n", t.Name, t.Description, string(t.InputSchema))
	}
	return b.String()
}

func runBatches(args []string) error {
	fs := flag.NewFlagSet("batches", flag.ContinueOnError)
	shared := fs.String("shared", "../shared", "the shared folder (catalogs, corpora)")
	out := fs.String("out", "/work/calib", "the calibration work folder (batches/, keys/, out/)")
	famName := fs.String("family", "claude", "client family: claude, grok, codex or copilot")
	first := fs.Int("first", 1, "first batch number")
	last := fs.Int("last", 1, "last batch number")
	written := fs.Bool("written", false, "batches over the prompts written for catalogs with no corpus (<family>-w-N)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fam, ok := families[*famName]
	if !ok {
		return fmt.Errorf("unknown family %q (known: claude, grok, codex, copilot)", *famName)
	}
	g, err := newGenerator(*shared, *out)
	if err != nil {
		return err
	}
	return g.callBatches(fam, *first, *last, *written)
}

// plural is "1 thing" or "n things".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// setupLetter names the i-th setup of a batch: a … z, then aa, ab, …
func setupLetter(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return string(rune('a'+i/26-1)) + string(rune('a'+i%26))
}
