package lint

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Findability rules, all computed by running the simulators:
//
//   - own-name-not-found: the tool's own name, split into words ("get
//     invoice" for get_invoice or getInvoice), is searched in each client
//     that has a search (Claude ToolSearch, Grok search_tool, Codex
//     tool_search, OpenCode code mode's search()); flagged when no client
//     that shows the tool returns it within its default limit.
//   - own-name-tie: the same search with TieLimit results; flagged when, in
//     every client that returns the tool, at least TieMany tools share its
//     score (Grok's tie band, Claude's equal scores kept in pool order).
//   - builtin-outranks: a Claude Code built-in comes before the tool in
//     Claude's result for those words.
//   - claude-name-unrelated: no word of the name (NameWords: the name as a
//     model reads it in Claude's deferred list, claude.md background §2) is
//     a whole word (search.ContainsWord, the JavaScript \b Claude matches
//     with, claude.md §1) of the description's first sentence, nor, from
//     3 letters on, inside its words run together ("appservice" matches
//     "App Service", "get" matches "Gets").
//   - distinguishing-words-cut: the description has words that no sibling
//     tool of its server uses, and none of them is in what a client shows
//     its model (search.Viewer) — they fell after that client's cut.
//
// Clients are searched cheapest first and a rule stops asking as soon as
// its answer is settled, so the slow searches run only for the few tools
// the fast ones miss.
const (
	TieMany  = 3  // tools sharing the score, the tool included
	TieLimit = 50 // results asked for when measuring a tie
)

// searchOrder is the order clients are asked in (cheapest first); clients
// not listed have no search of their own (OpenCode eager loads every tool,
// Codex code mode's model writes a script).
var searchOrder = []string{"claude", "grok", "codex-search", "opencode-codemode"}

// NameWords splits a tool name into its words, lowercased: on every
// character that is not a letter or digit and at lower-to-upper case
// changes.
func NameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}

type searcher struct {
	sim  search.Simulator
	view search.Viewer
	name string
}

func findability(ctx context.Context, cat *corpus.Catalog, sims []search.Simulator, dd defs, loc *locator, cfg Config, cut cutReports) ([]*Finding, error) {
	var searchers []searcher
	var claudeSim search.Simulator
	for _, name := range searchOrder {
		for _, s := range sims {
			if s.Client().Name != name {
				continue
			}
			v, _ := s.(search.Viewer)
			searchers = append(searchers, searcher{s, v, name})
			if name == "claude" && claudeSim == nil {
				claudeSim = s
			}
			break
		}
	}
	// Each client's default limit, as its answer to a default search says.
	limits := make([]int, len(searchers))
	for i, s := range searchers {
		res, err := s.sim.Search(ctx, search.Query{Text: "limit"})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.sim.Client(), err)
		}
		limits[i] = res.Limit
	}
	tools := cat.UniqueTools()
	// The searches run in parallel (Search is safe for concurrent use);
	// findings are collected per tool and emitted in catalog order.
	searched := make([][]*Finding, len(tools))
	if cfg.enabled(RuleNotFound) || cfg.enabled(RuleTie) || cfg.enabled(RuleBuiltinOutranks) {
		var wg sync.WaitGroup
		var firstErr error
		var mu sync.Mutex
		next := make(chan int)
		for w := 0; w < runtime.GOMAXPROCS(0); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					words := NameWords(tools[i].Name)
					if len(words) == 0 {
						continue
					}
					fs, err := searchRules(ctx, cat, tools[i], strings.Join(words, " "), searchers, limits, cfg)
					if err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
						continue
					}
					searched[i] = fs
				}
			}()
		}
		for i := range tools {
			if ctx.Err() != nil {
				break
			}
			next <- i
		}
		close(next)
		wg.Wait()
		if firstErr != nil {
			return nil, firstErr
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	var out []*Finding
	for i, t := range tools {
		s := cat.Server(t.Server)
		def := defNumber(dd, s, t)
		for _, f := range searched[i] {
			f.Location = loc.locate(where{server: s, tool: t, def: def, path: []string{"name"}})
			out = append(out, f)
		}
		if claudeSim != nil && cfg.enabled(RuleNameUnrelated) {
			if f := nameUnrelated(t, claudeSim); f != nil {
				f.Location = loc.locate(where{server: s, tool: t, def: def, path: []string{"description"}})
				out = append(out, f)
			}
		}
	}
	if cfg.enabled(RuleCutDistinct) {
		out = append(out, cutDistinct(cat, sims, dd, loc, cut)...)
	}
	return out, nil
}

// searchRules runs own-name-not-found, own-name-tie and builtin-outranks
// for one tool. Each client is searched once, for TieLimit results; the
// tool is "returned" when its best rank is within the client's default
// limit (limits[i], learnt from a default search).
func searchRules(ctx context.Context, cat *corpus.Catalog, t *corpus.Tool, q string, searchers []searcher, limits []int, cfg Config) ([]*Finding, error) {
	id := t.ID()
	var out []*Finding
	var misses []Consequence
	found := false
	tiedEverywhere, tieChecked := cfg.enabled(RuleTie), false
	var ties []Consequence
	shownAnywhere := false
	for i, s := range searchers {
		needTie := tiedEverywhere
		needBuiltin := s.name == "claude" && cfg.enabled(RuleBuiltinOutranks)
		if found && !needTie && !needBuiltin {
			break
		}
		// The default limit first; TieLimit results only when the tool is
		// past it or its tie may run past it.
		res, err := s.sim.Search(ctx, search.Query{Text: q, Limit: limits[i]})
		if err != nil {
			return nil, fmt.Errorf("%s: searching %q: %w", s.sim.Client(), q, err)
		}
		hit, ok := res.Find(id)
		if !ok || (needTie && tieMayGrow(res, hit)) {
			if res, err = s.sim.Search(ctx, search.Query{Text: q, Limit: TieLimit}); err != nil {
				return nil, fmt.Errorf("%s: searching %q: %w", s.sim.Client(), q, err)
			}
			hit, ok = res.Find(id)
		}
		if !ok && s.view != nil {
			if _, shown := s.view.View(id); !shown {
				continue // dropped or hidden: reported by the client's own rule
			}
		}
		shownAnywhere = true
		if ok && hit.Rank <= limits[i] {
			found = true
		} else {
			effect := fmt.Sprintf("does not return it for %q", q)
			if ok {
				effect = fmt.Sprintf("ranks it %d for %q, past its limit of %d", hit.Rank, q, limits[i])
			}
			misses = append(misses, Consequence{Clients: []string{s.sim.Client().String()}, Effect: effect, Tools: []corpus.ToolID{id}})
		}
		if needBuiltin && ok {
			var above []string
			for _, h := range res.Hits {
				if h.Rank >= hit.Rank {
					break
				}
				if h.Tool.Server() == claude.BuiltinServer {
					above = append(above, h.Tool.Tool())
				}
			}
			if len(above) > 0 {
				out = append(out, &Finding{Rule: RuleBuiltinOutranks, Severity: corpus.Warning,
					Cause:        fmt.Sprintf("%s: Claude Code's built-in %s %s it for its own name's words %q (rank %d)", id, strings.Join(above, ", "), plural(len(above), "outranks", "outrank"), q, hit.Rank),
					Consequences: []Consequence{{Clients: []string{s.sim.Client().String()}, Effect: fmt.Sprintf("returns %s first", strings.Join(above, ", ")), Tools: []corpus.ToolID{id}}}})
			}
		}
		if needTie {
			var band []corpus.ToolID
			if ok {
				band = tieBand(res, hit)
			}
			tieChecked = true
			if len(band) < TieMany {
				tiedEverywhere = false
			} else {
				var others []corpus.ToolID
				for _, b := range band {
					if b != id {
						others = append(others, b)
					}
				}
				ties = append(ties, Consequence{Clients: []string{s.sim.Client().String()},
					Effect: fmt.Sprintf("ties it at rank %d with %s", hit.Rank, toolsPhrase(others, cat.Server(t.Server), nil)), Tools: append([]corpus.ToolID{id}, others...)})
			}
		}
	}
	if !shownAnywhere {
		return out, nil
	}
	if !found && len(misses) > 0 {
		out = append(out, &Finding{Rule: RuleNotFound, Severity: corpus.Warning,
			Cause:        fmt.Sprintf("%s: no client's search returns it for its own name's words %q", id, q),
			Consequences: misses})
	}
	if tieChecked && tiedEverywhere && len(ties) > 0 {
		out = append(out, &Finding{Rule: RuleTie, Severity: corpus.Warning,
			Cause:        fmt.Sprintf("%s: ties with other tools for its own name's words %q in every client", id, q),
			Consequences: ties})
	}
	return out, nil
}

// tieMayGrow reports whether more results could join hit's tie: the
// result is full and its last hit has hit's score (or the client reports a
// tie band reaching the end).
func tieMayGrow(res search.Result, hit search.Hit) bool {
	if len(res.Hits) == 0 || len(res.Hits) < res.Limit {
		return false
	}
	last := res.Hits[len(res.Hits)-1]
	return last.Score == hit.Score || hit.RankWorst >= len(res.Hits)
}

// tieBand lists the tools that share hit's score (the tool included), in
// result order.
func tieBand(res search.Result, hit search.Hit) []corpus.ToolID {
	var out []corpus.ToolID
	for _, h := range res.Hits {
		if h.Score == hit.Score {
			out = append(out, h.Tool)
		}
	}
	return out
}

// firstSentence is the description up to the first ". ", "\n" or the end.
func firstSentence(desc string) string {
	end := len(desc)
	if i := strings.Index(desc, ". "); i >= 0 && i < end {
		end = i
	}
	if i := strings.IndexByte(desc, '\n'); i >= 0 && i < end {
		end = i
	}
	return desc[:end]
}

func nameUnrelated(t *corpus.Tool, sim search.Simulator) *Finding {
	if v, ok := sim.(search.Viewer); ok {
		if _, shown := v.View(t.ID()); !shown {
			return nil
		}
	}
	if v, ok := t.MetaBool("anthropic/alwaysLoad"); ok && v {
		return nil // loaded up front with its description (claude.md §2)
	}
	first := search.JSLower(firstSentence(t.Description))
	if strings.TrimSpace(first) == "" {
		return nil // description-missing says it
	}
	parts := NameWords(t.Name)
	squashed := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, first)
	for _, p := range parts {
		// A whole word; or, from 3 letters, inside the words run together
		// ("appservice" in "App Service", "get" in "Gets").
		if search.ContainsWord(first, p) || (len(p) >= 3 && strings.Contains(squashed, p)) {
			return nil
		}
	}
	return &Finding{Rule: RuleNameUnrelated, Severity: corpus.Info,
		Cause: fmt.Sprintf("%s: no word of the name (%s) is in the description's first sentence %q", t.ID(), strings.Join(parts, ", "), clipText(firstSentence(t.Description), 80)),
		Consequences: []Consequence{{Clients: []string{sim.Client().String()},
			Effect: "lists only the name until ToolSearch loads the tool, so its model cannot tell what it does", Tools: []corpus.ToolID{t.ID()}}}}
}

// cutReports are, per client, the tools whose description it reported cut
// (claude-description-cut, grok-description-cut, …).
type cutReports map[string]map[corpus.ToolID]bool

// cutCodes are the client codes that report a cut description.
var cutCodes = map[string]bool{"claude-description-cut": true, "claude-description-cut-loaded": true, "grok-description-cut": true, "codex-plugin-description-cut": true}

func (c cutReports) any(id corpus.ToolID) bool {
	for _, m := range c {
		if m[id] {
			return true
		}
	}
	return false
}

func collectCuts(ds []corpus.Diagnostic) cutReports {
	out := cutReports{}
	for _, d := range ds {
		if cutCodes[d.Code] {
			if out[d.Client] == nil {
				out[d.Client] = map[corpus.ToolID]bool{}
			}
			out[d.Client][corpus.NewToolID(d.Server, d.Tool)] = true
		}
	}
	return out
}

// cutDistinct finds descriptions whose distinguishing words (in no sibling
// tool's description) are all missing from what a client that reported
// cutting the description shows.
func cutDistinct(cat *corpus.Catalog, sims []search.Simulator, dd defs, loc *locator, cut cutReports) []*Finding {
	var out []*Finding
	for _, s := range cat.Servers {
		var firsts []*corpus.Tool
		for _, t := range s.Tools {
			if dd[s][t.Name][0] == t {
				firsts = append(firsts, t)
			}
		}
		if len(firsts) < 2 {
			continue
		}
		count := map[string]int{}
		words := make([]map[string]bool, len(firsts))
		for i, t := range firsts {
			words[i] = wordSet(t.Description)
			for w := range words[i] {
				count[w]++
			}
		}
		for i, t := range firsts {
			if !cut.any(t.ID()) {
				continue
			}
			var dist []string
			for w := range words[i] {
				if count[w] == 1 {
					dist = append(dist, w)
				}
			}
			if len(dist) == 0 {
				continue
			}
			sort.Strings(dist)
			var cons []Consequence
			for _, sim := range sims {
				v, ok := sim.(search.Viewer)
				if !ok || !cut[sim.Client().String()][t.ID()] {
					continue
				}
				view, ok := v.View(t.ID())
				if !ok {
					continue
				}
				shown := strings.ToLower(view.Text)
				if strings.Contains(shown, strings.ToLower(t.Description)) {
					continue
				}
				lost := true
				for _, w := range dist {
					if strings.Contains(shown, w) {
						lost = false
						break
					}
				}
				if lost {
					cons = append(cons, Consequence{Clients: []string{sim.Client().String()}, Effect: "shows none of them", Tools: []corpus.ToolID{t.ID()}})
				}
			}
			if len(cons) == 0 {
				continue
			}
			show := dist
			if len(show) > 5 {
				show = append(append([]string(nil), show[:5]...), fmt.Sprintf("… +%d", len(dist)-5))
			}
			f := &Finding{Rule: RuleCutDistinct, Severity: corpus.Warning,
				Cause:        fmt.Sprintf("%s: the words only its description has (%s) come after what clients show", t.ID(), strings.Join(show, ", ")),
				Consequences: mergeClients(cons),
				Location:     loc.locate(where{server: s, tool: t, def: defNumber(dd, s, t), path: []string{"description"}})}
			out = append(out, f)
		}
	}
	return out
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 4 {
			out[w] = true
		}
	}
	return out
}

// mergeClients joins consequences with the same effect.
func mergeClients(cs []Consequence) []Consequence {
	var out []Consequence
	index := map[string]int{}
	for _, c := range cs {
		if i, ok := index[c.Effect]; ok {
			out[i].Clients = append(out[i].Clients, c.Clients...)
			continue
		}
		index[c.Effect] = len(out)
		out = append(out, c)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
