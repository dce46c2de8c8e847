package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/search/intent"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/calib"
)

// item is one model-written call of the calibration set, with what the
// fit needs of it (computed once).
type item struct {
	fam    string
	id     string
	prompt string
	group  string // the leave-one-out group: the corpus (or prompts-<catalog>)
	setup  string
	call   json.RawMessage
	expect []corpus.ToolID
	sim    search.Writable
	// features
	ccands []claude.Candidate
	wcands []intent.WordCand
	ranked []intent.Scored
	labels []float64
	kw     map[string][]json.RawMessage // Claude's keyword calls by options
	model  bool                         // the model's call finds an expected tool
	size   int                          // the model's call's size (callSize)
	verb   bool                         // the prompt verbatim does
}

// fitter holds the set, the simulators per setup and the replay cache.
type fitter struct {
	shared string
	setups map[string]calib.Setup
	sims   map[string]search.Writable // setup + "\x00" + family
	cats   map[string]*corpus.Catalog
	cache  map[string]map[corpus.ToolID]bool // setup, family, call → tools shown (p ≥ 0.5)
	items  map[string][]*item
}

var families3 = []string{"claude", "grok", "codex", "copilot"}

func (f *fitter) catalog(setup string) (*corpus.Catalog, error) {
	if c, ok := f.cats[setup]; ok {
		return c, nil
	}
	s, ok := f.setups[setup]
	if !ok {
		return nil, fmt.Errorf("setup %q is not in the setups file", setup)
	}
	c, err := s.Catalog(f.shared)
	if err != nil {
		return nil, err
	}
	f.cats[setup] = c
	return c, nil
}

func (f *fitter) sim(setup, fam string) (search.Writable, error) {
	k := setup + "\x00" + fam
	if s, ok := f.sims[k]; ok {
		return s, nil
	}
	cat, err := f.catalog(setup)
	if err != nil {
		return nil, err
	}
	// Model-written scripts run without the 2 s wall-clock limit, so that a
	// loaded machine gives the same verdicts.
	sims, err := toolfind.Clients(cat, clientOf[fam], toolfind.ClientOptions{"codex": {"timeout": "5m"}})
	if err != nil {
		return nil, err
	}
	w := sims[0].(search.Writable)
	f.sims[k] = w
	return w, nil
}

// shown replays calls and returns the tools any of them shows with
// probability ≥ 0.5 (a call that fails to replay shows nothing).
func (f *fitter) shown(it *item, calls []json.RawMessage) map[corpus.ToolID]bool {
	out := map[corpus.ToolID]bool{}
	for _, c := range calls {
		k := it.setup + "\x00" + it.fam + "\x00" + string(c)
		got, ok := f.cache[k]
		if !ok {
			got = map[corpus.ToolID]bool{}
			if r, err := it.sim.Replay(context.Background(), c); err == nil {
				for _, h := range r.Hits {
					if h.PWithinLimit >= 0.5 {
						got[h.Tool] = true
					}
				}
			}
			f.cache[k] = got
		}
		for t := range got {
			out[t] = true
		}
	}
	return out
}

func (f *fitter) found(it *item, calls []json.RawMessage) bool {
	s := f.shown(it, calls)
	for _, e := range it.expect {
		if s[e] {
			return true
		}
	}
	return false
}

// load reads the blind set (dest/<family>.jsonl) and the older blind sets
// (writer/testdata/calibration and heldout, solo setups).
func (f *fitter) load(dest string) error {
	setups, err := calib.ReadSetups(filepath.Join(dest, "setups.json"))
	if os.IsNotExist(err) {
		setups, err = map[string]calib.Setup{}, nil
	}
	if err != nil {
		return err
	}
	f.setups = setups
	cs, err := calib.Corpora(f.shared)
	if err != nil {
		return err
	}
	for _, c := range cs {
		f.setups["solo-"+c.Name] = calib.Setup{Name: "solo-" + c.Name, Files: c.Files}
	}
	type src struct {
		path string
		old  bool
	}
	var srcs []src
	for _, fam := range families3 {
		srcs = append(srcs, src{filepath.Join(dest, fam+".jsonl"), false})
	}
	for _, p := range []string{"calibration/metatool.jsonl", "calibration/livemcpbench.jsonl", "heldout/mongodb.jsonl", "heldout/azure.jsonl"} {
		srcs = append(srcs, src{filepath.Join(dest, "..", filepath.FromSlash(p)), true})
	}
	held, err := calib.HeldOut(f.shared)
	if err != nil {
		return err
	}
	short := map[string]string{"mongodb": "mongodb-accuracy", "azure": "azure-e2e", "metatool": "metatool", "livemcpbench": "livemcpbench"}
	for _, s := range srcs {
		lines, err := writer.ReadFile(s.path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		for _, l := range lines {
			fam := search.ParseClientID(l.Client).Name
			if _, ok := clientOf[fam]; !ok || l.Call == nil {
				continue
			}
			var group, setup string
			if s.old {
				name, num, _ := strings.Cut(l.ID, "-")
				n, _ := strconv.Atoi(num)
				group = short[name]
				if held[group][n-1] {
					return fmt.Errorf("%s: %s is a held-out line", s.path, l.ID)
				}
				setup = "solo-" + group
			} else {
				json.Unmarshal(l.Tags["corpus"], &group)
				json.Unmarshal(l.Tags["setup"], &setup)
			}
			w, err := f.sim(setup, fam)
			if err != nil {
				return err
			}
			cat, _ := f.catalog(setup)
			res := corpus.NewResolver(cat)
			it := &item{fam: fam, id: l.ID, prompt: l.Prompt, group: group, setup: setup, call: l.Call, sim: w}
			for _, e := range l.Expect {
				id, err := res.Resolve(e)
				if err != nil {
					return fmt.Errorf("%s:%d: expect %q: %v", s.path, l.Num, e, err)
				}
				it.expect = append(it.expect, id)
			}
			f.items[fam] = append(f.items[fam], it)
		}
	}
	return nil
}

// prepare computes each item's candidates, labels and the model's and
// the verbatim prompt's verdicts.
func (f *fitter) prepare(fam string) {
	for _, it := range f.items[fam] {
		it.model = f.found(it, []json.RawMessage{it.call})
		it.size = callSize(it.call)
		it.verb = f.found(it, []json.RawMessage{it.sim.VerbatimCall(it.prompt)})
		switch fam {
		case "claude":
			s := it.sim.(*claude.Simulator)
			it.ccands = s.WriterCandidates(it.prompt)
			picked := claudePicks(it.call)
			for _, c := range it.ccands {
				it.labels = append(it.labels, b2f(picked[strings.ToLower(c.Name)]))
			}
		case "grok":
			s := it.sim.(grokSim)
			it.ranked = s.Ranked(it.prompt)
			it.wcands = s.CandidatesFor(it.prompt, it.ranked)
			q := queryOf(it.call)
			stems, low := stemSet(q), strings.ToLower(q)
			for _, c := range it.wcands {
				l := stems[c.Stem]
				if c.Kind == intent.KindServer {
					l = strings.Contains(low, c.Form) || allIn(intent.Words(c.Form), stems)
				}
				it.labels = append(it.labels, b2f(l))
			}
		case "copilot":
			s := it.sim.(grokSim)
			it.ranked = s.Ranked(it.prompt)
			it.wcands = s.CandidatesFor(it.prompt, it.ranked)
			terms := patternTerms(it.call)
			for _, c := range it.wcands {
				it.labels = append(it.labels, b2f(termHit(c, terms)))
			}
		case "codex":
			s := it.sim.(codexSim)
			it.wcands = s.WriterCandidates(it.prompt)
			terms := codeTerms(it.call)
			for _, c := range it.wcands {
				it.labels = append(it.labels, b2f(termHit(c, terms)))
			}
		}
	}
}

type grokSim interface {
	Ranked(string) []intent.Scored
	CandidatesFor(string, []intent.Scored) []intent.WordCand
	CallsFor(string, []intent.Scored, []intent.WordCand, *intent.Logit) []json.RawMessage
}

type codexSim interface {
	WriterCandidates(string) []intent.WordCand
	CallsFor(string, []intent.WordCand, *intent.Logit) []json.RawMessage
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func allIn(ws []intent.Word, set map[string]bool) bool {
	for _, w := range ws {
		if !set[w.Stem] {
			return false
		}
	}
	return len(ws) > 0
}

// claudePicks are the names a "select:" query loads, lowercased.
func claudePicks(call json.RawMessage) map[string]bool {
	q := strings.TrimSpace(queryOf(call))
	out := map[string]bool{}
	if !strings.HasPrefix(q, "select:") {
		return out
	}
	for _, n := range strings.Split(q[len("select:"):], ",") {
		if n = strings.TrimSpace(n); n != "" {
			out[strings.ToLower(n)] = true
		}
	}
	return out
}

func queryOf(call json.RawMessage) string {
	var c struct {
		Query string `json:"query"`
		Code  string `json:"code"`
	}
	json.Unmarshal(call, &c)
	if c.Code != "" {
		return c.Code
	}
	return c.Query
}

func stemSet(q string) map[string]bool {
	m := map[string]bool{}
	for _, w := range intent.Words(q) {
		m[w.Stem] = true
	}
	return m
}

var (
	jsString = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`(?:[^`\\\\]|\\\\.)*`")
	jsRegex  = regexp.MustCompile(`(?:^|[=(,:!&|?;{}\[])\s*/((?:[^/\\\n]|\\.)+)/[a-z]*`)
	alnum    = regexp.MustCompile(`[a-z0-9]+`)
)

// patternTerms are the letter and digit runs of a tool_search_tool
// pattern, lowercased: the words it matches on.
func patternTerms(call json.RawMessage) []string {
	var c struct {
		Pattern string `json:"pattern"`
	}
	json.Unmarshal(call, &c)
	return alnum.FindAllString(strings.ToLower(c.Pattern), -1)
}

// codeTerms are the words a model's script filters on: the lowercase
// letter and digit runs of its string literals (not templates, not
// messages of more than three words) and its regular-expression literals.
func codeTerms(call json.RawMessage) []string {
	code := queryOf(call)
	var lits []string
	for _, l := range jsString.FindAllString(code, -1) {
		// A template or a message ("No match among …") is output, not a
		// filter.
		if !strings.Contains(l, "${") && len(strings.Fields(l)) <= 3 {
			lits = append(lits, l)
		}
	}
	for _, m := range jsRegex.FindAllStringSubmatch(code, -1) {
		lits = append(lits, m[1])
	}
	var out []string
	for _, l := range lits {
		out = append(out, alnum.FindAllString(strings.ToLower(l), -1)...)
	}
	return out
}

// termHit says whether the model's terms hold the candidate: a term of
// three or more characters that begins with the candidate's stem, or that
// the candidate's form begins with.
func termHit(c intent.WordCand, terms []string) bool {
	for _, t := range terms {
		if len(t) < 3 {
			continue
		}
		if strings.HasPrefix(t, c.Stem) || strings.HasPrefix(c.Form, t) {
			return true
		}
	}
	return false
}

// calls is the heuristic's calls for an item under model m.
func (f *fitter) calls(it *item, m *intent.Logit) []json.RawMessage {
	switch it.fam {
	case "claude":
		// CallsFor, with the keyword search cached per prompt and
		// options (it does not depend on the weights).
		if pick := claude.Select(m, it.ccands); len(pick) > 0 {
			return claude.SelectCall(pick)
		}
		k := fmt.Sprint(m.Options["kw_server"], m.Options["kw_words"])
		if c, ok := it.kw[k]; ok {
			return c
		}
		if it.kw == nil {
			it.kw = map[string][]json.RawMessage{}
		}
		c := it.sim.(*claude.Simulator).KeywordCall(it.prompt, m)
		it.kw[k] = c
		return c
	case "grok", "copilot":
		return it.sim.(grokSim).CallsFor(it.prompt, it.ranked, it.wcands, m)
	default:
		return it.sim.(codexSim).CallsFor(it.prompt, it.wcands, m)
	}
}

func features(fam string) []string {
	if fam == "claude" {
		return claude.WriterFeatures
	}
	return intent.WordFeatures
}

// grid is the decision rules tried for a family: thresholds, maxima and
// (Grok) whether the second search is written.
func grid(fam string) []*intent.Logit {
	var out []*intent.Logit
	switch fam {
	case "claude":
		for _, kw := range [][2]float64{{0, 4}, {1, 4}} {
			for _, th := range []float64{0.02, 0.05, 0.1, 0.2, 0.3} {
				for _, more := range []float64{0, 0.05, 0.1, 0.2} {
					for _, rel := range []float64{0, 0.5, 0.7} {
						for _, mx := range []int{2, 3, 5} {
							out = append(out, &intent.Logit{Threshold: th, Max: mx, Options: map[string]float64{"more": more, "min_rel": rel, "kw_server": kw[0], "kw_words": kw[1]}})
						}
					}
				}
			}
		}
	case "grok":
		// mode 1: the former writer's query (intent.Index.KeywordQuery)
		// instead of the fitted words.
		for _, fu := range []float64{0, 1} {
			out = append(out, &intent.Logit{Threshold: 1, Max: 7, Options: map[string]float64{"follow_up": fu, "mode": 1}})
		}
		for _, fu := range []float64{0, 1} {
			for _, mw := range []float64{0, 1, 2} {
				for _, th := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6} {
					for _, mx := range []int{3, 4, 5, 6, 8} {
						out = append(out, &intent.Logit{Threshold: th, Max: mx, Options: map[string]float64{"follow_up": fu, "min_words": mw}})
					}
				}
			}
		}
	case "copilot":
		// mode 0: the first tools' names; mode 1: the fitted words.
		for _, n := range []float64{1, 2, 3, 4, 5} {
			out = append(out, &intent.Logit{Threshold: 1, Max: 0, Options: map[string]float64{"mode": 0, "names": n}})
		}
		for _, mw := range []float64{0, 1} {
			for _, th := range []float64{0.2, 0.3, 0.4, 0.5, 0.6} {
				for _, mx := range []int{1, 2, 3, 4, 6} {
					out = append(out, &intent.Logit{Threshold: th, Max: mx, Options: map[string]float64{"mode": 1, "min_words": mw}})
				}
			}
		}
	default:
		// mode 1: the former writer's terms (every keyword's stem and
		// their family words) instead of the fitted ones.
		out = append(out, &intent.Logit{Threshold: 1, Max: 8, Options: map[string]float64{"mode": 1}})
		for _, th := range []float64{0.2, 0.3, 0.4, 0.5, 0.6} {
			for _, mx := range []int{3, 4, 6, 8, 10} {
				out = append(out, &intent.Logit{Threshold: th, Max: mx})
			}
		}
	}
	return out
}

// train fits the family's model on items: the logistic weights on every
// candidate, then the decision rule of the grid that agrees with the
// model's verdicts on the most items (the first such in grid order).
func (f *fitter) train(fam string, items []*item, trained string) *intent.Logit {
	var X [][]float64
	var y []float64
	for _, it := range items {
		n := len(it.labels)
		for i := 0; i < n; i++ {
			if fam == "claude" {
				X = append(X, it.ccands[i].X)
			} else {
				X = append(X, it.wcands[i].X)
			}
			y = append(y, it.labels[i])
		}
	}
	base := intent.FitLogit(features(fam), X, y, 1e-3, 1, 1500)
	best, bestAgree := (*intent.Logit)(nil), math.Inf(-1)
	for _, g := range grid(fam) {
		m := *base
		m.Threshold, m.Max, m.Options = g.Threshold, g.Max, g.Options
		// Agreement on found, less sizePenalty per name or word the
		// heuristic's first call writes more or fewer than the model's:
		// among rules that agree alike, the one that writes calls like
		// the model's.
		agree := 0.0
		for _, it := range items {
			calls := f.calls(it, &m)
			if f.found(it, calls) == it.model {
				agree++
			}
			if len(calls) > 0 {
				agree -= sizePenalty * math.Abs(float64(callSize(calls[0])-it.size))
			}
		}
		if agree > bestAgree {
			mm := m
			best, bestAgree = &mm, agree
		}
	}
	best.Trained = trained
	return best
}

// sizePenalty is what one name or word more or fewer than the model's
// call costs a decision rule, in agreed prompts.
const sizePenalty = 0.02

// callSize is how much a call asks for: the names of a "select:", else
// the words of a query, else the words of a script's literals.
func callSize(call json.RawMessage) int {
	if p := claudePicks(call); len(p) > 0 {
		return len(p)
	}
	var c struct {
		Query string `json:"query"`
		Code  string `json:"code"`
	}
	json.Unmarshal(call, &c)
	if c.Code != "" {
		n := 0
		for _, t := range codeTerms(call) {
			if len(t) >= 3 {
				n++
			}
		}
		return n
	}
	return len(strings.Fields(c.Query))
}

// row is one line of the leave-one-catalog-out table.
type row struct {
	Family    string  `json:"family"`
	Group     string  `json:"group"`
	Prompts   int     `json:"prompts"`
	Model     float64 `json:"model"`
	Heuristic float64 `json:"heuristic"`
	Verbatim  float64 `json:"verbatim"`
	Agreement float64 `json:"agreement"`
}

func round3(v float64) float64 { return float64(int(v*1000+0.5)) / 1000 }

// loco fits without each group in turn and scores that group.
func (f *fitter) loco(fam string) []row {
	groups := map[string][]*item{}
	for _, it := range f.items[fam] {
		groups[it.group] = append(groups[it.group], it)
	}
	var names []string
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	var rows []row
	var all row
	all.Family, all.Group = fam, "all (each group left out)"
	for _, g := range names {
		var train []*item
		for _, it := range f.items[fam] {
			if it.group != g {
				train = append(train, it)
			}
		}
		m := f.train(fam, train, "")
		r := row{Family: fam, Group: g, Prompts: len(groups[g])}
		agree := 0
		for _, it := range groups[g] {
			h := f.found(it, f.calls(it, m))
			r.Model += b2f(it.model)
			r.Heuristic += b2f(h)
			r.Verbatim += b2f(it.verb)
			if h == it.model {
				agree++
			}
		}
		all.Prompts += r.Prompts
		all.Model += r.Model
		all.Heuristic += r.Heuristic
		all.Verbatim += r.Verbatim
		all.Agreement += float64(agree)
		n := float64(r.Prompts)
		r.Model, r.Heuristic, r.Verbatim, r.Agreement = round3(r.Model/n), round3(r.Heuristic/n), round3(r.Verbatim/n), round3(float64(agree)/n)
		rows = append(rows, r)
	}
	n := float64(all.Prompts)
	all.Model, all.Heuristic, all.Verbatim, all.Agreement = round3(all.Model/n), round3(all.Heuristic/n), round3(all.Verbatim/n), round3(all.Agreement/n)
	return append(rows, all)
}

// fitFile is where each family's fitted model is embedded.
var fitFile = map[string]string{"claude": "claude/writer_fit.json", "grok": "grok/writer_fit.json", "codex": "codexjs/writer_fit.json", "copilot": "copilot/writer_fit.json"}

// fitOutput is what the fit derives: each family's model and the
// leave-one-out rows.
type fitOutput struct {
	models map[string]*intent.Logit
	res    results
}

// fitAll fits every family of fams on the set in dest and, unless
// noLOCO, scores each group with a fit that left it out.
func fitAll(shared, dest string, fams []string, noLOCO bool, progress func(string)) (*fitOutput, error) {
	f := &fitter{shared: shared, sims: map[string]search.Writable{}, cats: map[string]*corpus.Catalog{}, cache: map[string]map[corpus.ToolID]bool{}, items: map[string][]*item{}}
	if err := f.load(dest); err != nil {
		return nil, err
	}
	out := &fitOutput{models: map[string]*intent.Logit{}}
	for _, fam := range fams {
		if len(f.items[fam]) == 0 {
			continue
		}
		f.prepare(fam)
		m := f.train(fam, f.items[fam], fmt.Sprintf("%d model-written calls of writer/testdata/calib (go run ./writer/internal/calibrate fit)", len(f.items[fam])))
		out.models[fam] = m
		progress(fmt.Sprintf("%s: %d calls, fitted (threshold %g, max %d)", fam, len(f.items[fam]), m.Threshold, m.Max))
		if noLOCO {
			continue
		}
		rows := f.loco(fam)
		out.res.set(fam, rows)
		for _, r := range rows {
			progress(fmt.Sprintf("  %-28s %4d model %.3f heuristic %.3f verbatim %.3f agreement %.3f", r.Group, r.Prompts, r.Model, r.Heuristic, r.Verbatim, r.Agreement))
		}
	}
	return out, nil
}

// modelJSON is a fitted model as its embedded file holds it.
func modelJSON(m *intent.Logit) []byte {
	b, _ := json.MarshalIndent(m, "", "  ")
	return append(b, '\n')
}

func runFit(args []string) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	shared := fs.String("shared", "../shared", "the shared folder")
	dest := fs.String("dest", "writer/testdata/calib", "the calibration set")
	only := fs.String("family", "claude,grok,codex,copilot", "families to fit")
	noLOCO := fs.Bool("no-loco", false, "fit on everything only (skip the leave-one-out table)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	out, err := fitAll(*shared, *dest, strings.Split(*only, ","), *noLOCO, func(s string) { fmt.Fprintln(os.Stderr, s) })
	if err != nil {
		return err
	}
	for fam, m := range out.models {
		if err := os.WriteFile(fitFile[fam], modelJSON(m), 0o644); err != nil {
			return err
		}
	}
	if *noLOCO {
		return nil
	}
	res := results{}
	if b, err := os.ReadFile(filepath.Join(*dest, "loco.json")); err == nil {
		json.Unmarshal(b, &res)
	}
	for _, fam := range families3 {
		var rows []row
		for _, r := range out.res.Rows {
			if r.Family == fam {
				rows = append(rows, r)
			}
		}
		if len(rows) > 0 {
			res.set(fam, rows)
		}
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	if err := os.WriteFile(filepath.Join(*dest, "loco.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := writeAgreements("writer/agreement.json", res); err != nil {
		return err
	}
	return writeReadmeTable(filepath.Join(*dest, "README.md"), res)
}

// results are the leave-one-out rows of every family.
type results struct {
	Rows []row `json:"rows"`
}

func (r *results) set(fam string, rows []row) {
	var keep []row
	for _, x := range r.Rows {
		if x.Family != fam {
			keep = append(keep, x)
		}
	}
	r.Rows = append(keep, rows...)
	sort.SliceStable(r.Rows, func(i, j int) bool {
		return familyOrder(r.Rows[i].Family) < familyOrder(r.Rows[j].Family)
	})
}

func familyOrder(f string) int {
	for i, x := range families3 {
		if x == f {
			return i
		}
	}
	return len(families3)
}

// writeAgreements writes each family's overall leave-one-out agreement,
// by client name, for writer.Label.
func writeAgreements(path string, res results) error {
	m := map[string]writer.Agreement{}
	for _, r := range res.Rows {
		if strings.HasPrefix(r.Group, "all") {
			m[search.ParseClientID(clientOf[r.Family]).Name] = writer.Agreement{Agreement: r.Agreement, Prompts: r.Prompts}
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
