// Package writer is the model's side of toolfind: in every client the
// model, not the user, writes the search. A Writer turns a prompt into the
// calls one client's model makes (Claude's ToolSearch input, Grok's
// search_tool input, Codex's exec code, OpenCode's execute code); the
// client's simulator replays them (search.Writable.Replay).
//
// Writers:
//
//   - verbatim: the prompt itself as the query — the old baseline, named
//     as such; no model writes this.
//   - heuristic: deterministic and offline; each client's package models
//     how its model writes its call (search.Writable.HeuristicCalls, with
//     worked examples in each package's writable.go).
//   - replay: the calls of a written-queries file (see File).
//
// # The written-queries file
//
// JSON Lines, one model call per line:
//
//		{"id": "q1", "prompt": "Group all the movies by release year",
//		 "client": "claude@2.1.328", "call": {"query": "select:mcp__mongodb__aggregate"},
//		 "expect": ["mongodb/aggregate"], "writer": "heuristic", "category": "read"}
//
//	  - id (string or number, required): the prompt's identity. Several lines
//	    may share an id: several calls for one prompt, by one client or by
//	    several. A prompt counts as found for a client when any of its calls
//	    shows an expected tool.
//	  - prompt (string, required): the user's prompt.
//	  - client (string, required): the client whose model made the call,
//	    "name" or "name@version" (claude, grok, codex, codex-search,
//	    opencode-codemode); lines are matched to simulators by name.
//	  - call (object, required): the search tool's input exactly as the model
//	    sent it. null records a prompt for which that client's model made no
//	    search call (it is counted, never replaced by the prompt).
//	  - expect (array of strings): the tools the prompt should reach, as in
//	    query files (server/tool, server__tool, mcp__server__tool, or a
//	    unique bare name). Lines sharing an id share their expect lists.
//	  - writer (string): who wrote the call (verbatim, heuristic, model,
//	    command, import, or free text).
//	  - every other key is a tag, kept for --by breakdowns.
//
// Blank lines and lines starting with '#' or "//" are skipped. A malformed
// line is an error naming the file, the line and the field; nothing is
// guessed.
package writer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Writer writes the calls one client's model makes for one prompt.
type Writer interface {
	// Name is the writer's name as reports show it ("heuristic").
	Name() string
	// Calls returns the client's calls for the prompt, in order. None (nil
	// with a nil error) means the model made no search call.
	Calls(ctx context.Context, sim search.Simulator, p Prompt) ([]json.RawMessage, error)
}

// Prompt is one prompt to write calls for.
type Prompt struct {
	// ID identifies the prompt (a written file's id, or the query's line).
	ID string
	// Text is the user's prompt.
	Text string
	// Sample numbers repeated requests for the same prompt (--samples):
	// 0 for the first. Writers that ask a model key their caches by it.
	Sample int
}

// ErrNotWritable is returned (wrapped) for a simulator whose model does
// not write calls of its own.
var ErrNotWritable = errors.New("this client's model writes no search call")

// Verbatim is the baseline writer: the prompt as the query.
type Verbatim struct{}

// Name implements Writer.
func (Verbatim) Name() string { return "verbatim" }

// Calls implements Writer.
func (Verbatim) Calls(_ context.Context, sim search.Simulator, p Prompt) ([]json.RawMessage, error) {
	w, ok := sim.(search.Writable)
	if !ok {
		return nil, fmt.Errorf("%s: %w", sim.Client(), ErrNotWritable)
	}
	return []json.RawMessage{w.VerbatimCall(p.Text)}, nil
}

// QueryText is implemented by writers whose call is the prompt itself
// (Verbatim): a bench searches each client with the prompt as a query,
// the way the client searches a query text (with its options, such as
// Codex's strategies and script), instead of replaying a call.
type QueryText interface {
	Writer
	QueryText() bool
}

// QueryText implements QueryText.
func (Verbatim) QueryText() bool { return true }

// Heuristic is the deterministic writer of each client's package.
type Heuristic struct{}

// Name implements Writer.
func (Heuristic) Name() string { return "heuristic" }

// Calls implements Writer.
func (Heuristic) Calls(_ context.Context, sim search.Simulator, p Prompt) ([]json.RawMessage, error) {
	w, ok := sim.(search.Writable)
	if !ok {
		return nil, fmt.Errorf("%s: %w", sim.Client(), ErrNotWritable)
	}
	return w.HeuristicCalls(p.Text), nil
}

// ByName returns a built-in writer: verbatim or heuristic.
func ByName(name string) (Writer, error) {
	switch name {
	case "verbatim":
		return Verbatim{}, nil
	case "heuristic":
		return Heuristic{}, nil
	}
	return nil, fmt.Errorf("unknown writer %q (known: verbatim, heuristic)", name)
}

// Replay is the writer backed by a written-queries file: it returns the
// calls recorded for (prompt id, client name).
type Replay struct {
	calls map[replayKey][]json.RawMessage
	// writers names who wrote each client's calls (client name → writer
	// names, sorted, joined by "+").
	writers map[string]string
}

type replayKey struct{ id, client string }

// NewReplay indexes the lines' calls.
func NewReplay(lines []Line) *Replay {
	r := &Replay{calls: map[replayKey][]json.RawMessage{}, writers: map[string]string{}}
	ws := map[string]map[string]bool{}
	for _, l := range lines {
		name := search.ParseClientID(l.Client).Name
		k := replayKey{l.ID, name}
		if l.Call != nil {
			r.calls[k] = append(r.calls[k], l.Call)
		} else if _, ok := r.calls[k]; !ok {
			r.calls[k] = nil
		}
		if ws[name] == nil {
			ws[name] = map[string]bool{}
		}
		w := l.Writer
		if w == "" {
			w = "unnamed"
		}
		ws[name][w] = true
	}
	for c, set := range ws {
		var names []string
		for n := range set {
			names = append(names, n)
		}
		sort.Strings(names)
		r.writers[c] = strings.Join(names, "+")
	}
	return r
}

// Covering is implemented by writers that have calls for only some
// prompts and clients (a written-queries file): a prompt a writer does
// not cover for a client is no call of that client's model, it was never
// asked of it, so a bench scores each client over the prompts covered
// for it only.
type Covering interface {
	Writer
	Covers(sim search.Simulator, p Prompt) bool
}

// Covers implements Covering: whether the file has a line for the prompt
// and the simulator's client (a line with a null call included: the
// model was asked and made no call).
func (r *Replay) Covers(sim search.Simulator, p Prompt) bool {
	_, ok := r.calls[replayKey{p.ID, sim.Client().Name}]
	return ok
}

// Name implements Writer.
func (r *Replay) Name() string { return "written" }

// WriterOf names who wrote a client's calls in the file ("" when the file
// has none for it).
func (r *Replay) WriterOf(client string) string { return r.writers[client] }

// Calls implements Writer: the recorded calls, none when the file has no
// line for this prompt and client.
func (r *Replay) Calls(_ context.Context, sim search.Simulator, p Prompt) ([]json.RawMessage, error) {
	return r.calls[replayKey{p.ID, sim.Client().Name}], nil
}

// Clients lists the client names the file has calls for, sorted.
func (r *Replay) Clients() []string {
	var out []string
	for c := range r.writers {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Write runs a writer over prompts for each simulator that writes calls
// and returns the lines, prompt-major (every client's lines for the first
// prompt, then the second…). Simulators whose model never searches
// (search.NoSearch) get no lines. A prompt for which a client's model
// makes no call gets one line with a null call; when the writer says why
// (a *NoCallError), the reason is the line's "no_call" tag. A writer that
// implements Concurrent is asked for that many prompts at once; the lines
// keep their order. The first error ends the run.
func Write(ctx context.Context, w Writer, sims []search.Simulator, qs *corpus.QuerySet) ([]Line, error) {
	type job struct {
		q   *corpus.Query
		sim search.Simulator
	}
	var jobs []job
	for i := range qs.Queries {
		for _, sim := range sims {
			if search.SearchesNothing(sim) {
				continue
			}
			jobs = append(jobs, job{&qs.Queries[i], sim})
		}
	}
	results := make([][]Line, len(jobs))
	errs := make([]error, len(jobs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := func(i int) {
		j := jobs[i]
		if err := ctx.Err(); err != nil {
			errs[i] = err
			return
		}
		p := PromptOf(j.q)
		calls, err := w.Calls(ctx, j.sim, p)
		base := Line{ID: p.ID, Prompt: j.q.Text, Client: j.sim.Client().String(), Expect: j.q.ExpectRaw, Writer: w.Name(), Tags: tagsOf(j.q)}
		var nc *NoCallError
		switch {
		case errors.As(err, &nc):
			base.Tags = withTag(base.Tags, "no_call", nc.Reason)
			results[i] = []Line{base}
		case err != nil:
			errs[i] = fmt.Errorf("%s:%d: %s: %w", j.q.File, j.q.Line, j.sim.Client(), err)
			cancel()
		case len(calls) == 0:
			results[i] = []Line{base}
		default:
			for _, c := range calls {
				l := base
				l.Call = c
				results[i] = append(results[i], l)
			}
		}
	}
	workers := 1
	if c, ok := w.(Concurrent); ok && c.Concurrency() > 1 {
		workers = c.Concurrency()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				run(i)
			}
		}()
	}
	wg.Wait()
	var firstCancel error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if !errors.Is(err, context.Canceled) {
			return nil, err
		}
		if firstCancel == nil {
			firstCancel = err
		}
	}
	if firstCancel != nil {
		return nil, firstCancel
	}
	var out []Line
	for _, r := range results {
		out = append(out, r...)
	}
	return out, nil
}

// PromptOf is the prompt of a query: its "id" tag when it has one, else
// its line number.
func PromptOf(q *corpus.Query) Prompt {
	id := q.Tags["id"]
	if id == "" {
		id = fmt.Sprint(q.Line)
	}
	p := Prompt{ID: id, Text: q.Text}
	if n, err := strconv.Atoi(q.Tags[SampleTag]); err == nil && n > 1 {
		p.Sample = n - 1
	}
	return p
}

func tagsOf(q *corpus.Query) map[string]json.RawMessage {
	if len(q.Tags) == 0 {
		return nil
	}
	t := map[string]json.RawMessage{}
	for k, v := range q.Tags {
		if k == "id" {
			continue
		}
		b, _ := json.Marshal(v)
		t[k] = b
	}
	return t
}

// Rank writes each simulator's calls for one prompt with w and replays
// them: one result per call, each carrying its Call and Writer, in
// simulator order. A simulator whose model never searches is searched
// with the prompt (its answer does not depend on it); one whose model
// makes no call gets a result with no hits and a note saying so.
func Rank(ctx context.Context, w Writer, sims []search.Simulator, prompt string, limit int) ([]search.Result, error) {
	var out []search.Result
	for _, sim := range sims {
		wr, ok := sim.(search.Writable)
		if !ok || search.SearchesNothing(sim) {
			r, err := sim.Search(ctx, search.Query{Text: prompt, Limit: limit})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sim.Client(), err)
			}
			out = append(out, r)
			continue
		}
		calls, err := w.Calls(ctx, sim, Prompt{ID: "1", Text: prompt})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sim.Client(), err)
		}
		if len(calls) == 0 {
			out = append(out, search.Result{Client: sim.Client().String(), Hits: []search.Hit{}, Writer: w.Name(),
				Notes: []string{"the " + w.Name() + " writer made no search call for this prompt"}})
			continue
		}
		for _, c := range calls {
			r, err := wr.Replay(ctx, c)
			if err != nil {
				return nil, fmt.Errorf("%s: call %s: %w", sim.Client(), string(c), err)
			}
			r.Call, r.Writer = c, w.Name()
			for i := range r.Variants {
				r.Variants[i].Call, r.Variants[i].Writer = c, w.Name()
			}
			out = append(out, r)
		}
	}
	return out, nil
}
