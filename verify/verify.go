// Package verify checks a simulator against the real client a user runs:
// the same catalog and queries go through both, and each answer is
// compared.
//
// The real side is a Client, one per catalog (package verify/claudecode
// drives Claude Code: stub MCP servers serving the catalog byte for byte,
// an emulated model API that makes the search call, the result read from
// the client's next request). The simulated side is any search.Simulator.
//
// # Comparison
//
// An Answer is the ordered list of tool names the search returned and,
// when it returned none, the text the model reads instead. Two answers
// match when the lists are equal, and, when both are empty, the texts are
// equal too (so a note such as Claude Code's failed-list note is checked).
// A mismatch names its first difference:
//
//	position 2: real mcp__b__x, simulated mcp__a__y
//	real has 3 tools, simulated 4: simulated #4 mcp__a__z is extra
//	real has 4 tools, simulated 3: real #4 mcp__a__z is missing
//	no tools; text differs at character 34: real "…", simulated "…"
//
// # Queries
//
// JSON Lines, one object per line: {"query": "…", "max_results": 5}.
// "max_results" (or "limit") is optional: without it the call leaves the
// client's default to apply. Other keys (expect, category, …) are ignored,
// so toolfind's query sets can be used as they are.
package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolfind/toolfind/search"
)

// Query is one search call, made the same way on both sides.
type Query struct {
	Text string `json:"query"`
	// Limit is max_results; 0 leaves it out of the call.
	Limit int `json:"max_results,omitempty"`
	// Line is the query's line in its file (0 when not from a file).
	Line int `json:"-"`
}

// Answer is what one side returned for a query.
type Answer struct {
	// Tools are the returned tool names in order.
	Tools []string `json:"tools"`
	// Text is what the model reads when no tool was returned (e.g. "No
	// matching deferred tools found" and any note); empty otherwise.
	Text string `json:"text,omitempty"`
	// SearchRequired is the "required" list of the search tool's input
	// schema as the real client offered it to the model (real side only;
	// nil when unknown). It is checked once per run (Report.Schema).
	SearchRequired []string `json:"search_required,omitempty"`
}

// SchemaCheck compares the "required" list of the search tool's input
// schema: what the real client offered, and what the simulator's surface
// (search.Writable) shows (specs/claude.md §0: 2.1.332 requires only
// "query").
type SchemaCheck struct {
	Real      []string `json:"real"`
	Simulated []string `json:"simulated"`
	Match     bool     `json:"match"`
}

// Client is the real client bound to one catalog: Run makes one search
// call through it. It must be safe for concurrent use, kill everything it
// started before returning, and honour ctx (the per-query timeout).
type Client interface {
	Run(ctx context.Context, q Query) (Answer, error)
}

// Outcome is one query's comparison.
type Outcome struct {
	Query     Query   `json:"query"`
	Real      *Answer `json:"real,omitempty"`
	Simulated *Answer `json:"simulated,omitempty"`
	// Match is true when the answers agree; Diff names the first
	// difference otherwise. Error is set when a side gave no answer.
	Match   bool          `json:"match"`
	Diff    string        `json:"diff,omitempty"`
	Error   string        `json:"error,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Report is a whole verify run.
type Report struct {
	// Client names the real client and its release, e.g. "claude 2.1.332".
	Client string `json:"client"`
	// Profile is the simulator's profile, e.g. "claude@2.1.332".
	Profile  string    `json:"profile"`
	Outcomes []Outcome `json:"outcomes"`
	Matched  int       `json:"matched"`
	Mismatch int       `json:"mismatched"`
	Failed   int       `json:"failed"`
	// Schema is set when both sides say what the search tool's input
	// schema requires.
	Schema *SchemaCheck `json:"schema,omitempty"`
}

// Agrees reports whether every query matched and the schema check, if
// any, agreed.
func (r *Report) Agrees() bool {
	return r.Mismatch == 0 && r.Failed == 0 && (r.Schema == nil || r.Schema.Match)
}

// Summary is the one-line verdict: "claude 2.1.332: 48/48 match", with
// mismatches and failures counted when there are any.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%s: %d/%d match", r.Client, r.Matched, len(r.Outcomes))
	if r.Mismatch > 0 {
		s += fmt.Sprintf(", %d mismatch", r.Mismatch)
	}
	if r.Failed > 0 {
		s += fmt.Sprintf(", %d failed", r.Failed)
	}
	if r.Schema != nil && !r.Schema.Match {
		s += ", search tool schema differs"
	}
	return s + " (profile " + r.Profile + ")"
}

// Options of Run.
type Options struct {
	// Parallel is how many queries run at once (default 1).
	Parallel int
	// Timeout bounds each query's real run (default 3 minutes).
	Timeout time.Duration
	// Progress, when set, is called once per finished query, from one
	// goroutine at a time, with the number finished so far.
	Progress func(done, total int, o Outcome)
}

// DefaultTimeout is the per-query limit when Options.Timeout is 0.
const DefaultTimeout = 3 * time.Minute

// Run asks both sides every query and compares. Queries run up to
// Parallel at a time; Outcomes keep the input order. A query the real
// client fails on is counted as failed, not as a mismatch. Run returns an
// error only when ctx ends; the report so far comes with it.
func Run(ctx context.Context, real Client, sim search.Simulator, queries []Query, opts Options) (*Report, error) {
	if opts.Parallel < 1 {
		opts.Parallel = 1
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	rep := &Report{Profile: sim.Client().String(), Outcomes: make([]Outcome, len(queries))}
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range min(opts.Parallel, max(len(queries), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o := runOne(ctx, real, sim, queries[i], opts.Timeout)
				mu.Lock()
				rep.Outcomes[i] = o
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(queries), o)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range queries {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for i, o := range rep.Outcomes {
		if o.Real == nil && o.Error == "" {
			rep.Outcomes[i] = Outcome{Query: queries[i], Error: "not run: interrupted"}
		}
	}
	for _, o := range rep.Outcomes {
		switch {
		case o.Error != "":
			rep.Failed++
		case o.Match:
			rep.Matched++
		default:
			rep.Mismatch++
		}
	}
	rep.Schema = schemaCheck(sim, rep.Outcomes)
	return rep, ctx.Err()
}

// schemaCheck compares the first real answer's search-tool "required"
// list with the simulator's surface, when both are known.
func schemaCheck(sim search.Simulator, outcomes []Outcome) *SchemaCheck {
	w, ok := sim.(search.Writable)
	if !ok {
		return nil
	}
	var real []string
	for _, o := range outcomes {
		if o.Real != nil && o.Real.SearchRequired != nil {
			real = o.Real.SearchRequired
			break
		}
	}
	if real == nil {
		return nil
	}
	sf, err := w.Surface(nil)
	if err != nil || len(sf.Tools) == 0 {
		return nil
	}
	var schema struct {
		Required []string `json:"required"`
	}
	if json.Unmarshal(sf.Tools[0].InputSchema, &schema) != nil {
		return nil
	}
	sim0 := append([]string{}, schema.Required...)
	return &SchemaCheck{Real: real, Simulated: sim0, Match: slices.Equal(real, sim0)}
}

func runOne(ctx context.Context, real Client, sim search.Simulator, q Query, timeout time.Duration) Outcome {
	o := Outcome{Query: q}
	res, err := sim.Search(ctx, search.Query{Text: q.Text, Limit: q.Limit})
	if err != nil {
		o.Error = "simulator: " + err.Error()
		return o
	}
	s := Simulated(res)
	o.Simulated = &s
	qctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	a, err := real.Run(qctx, q)
	o.Elapsed = time.Since(start)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			o.Error = "interrupted"
		case errors.Is(qctx.Err(), context.DeadlineExceeded):
			o.Error = fmt.Sprintf("timed out after %s: %v", timeout, err)
		default:
			o.Error = err.Error()
		}
		return o
	}
	o.Real = &a
	o.Match, o.Diff = Compare(a, s)
	return o
}

// Simulated is a simulator result as an Answer: the hits' names, and when
// there is none, the text the model reads.
func Simulated(r search.Result) Answer {
	a := Answer{Tools: make([]string, 0, len(r.Hits))}
	for _, h := range r.Hits {
		a.Tools = append(a.Tools, h.Name)
	}
	if len(a.Tools) == 0 {
		a.Text = r.Shown
	}
	return a
}

// Compare reports whether two answers agree and, if not, their first
// difference (see the package documentation).
func Compare(real, sim Answer) (bool, string) {
	for i := 0; i < min(len(real.Tools), len(sim.Tools)); i++ {
		if real.Tools[i] != sim.Tools[i] {
			return false, fmt.Sprintf("position %d: real %s, simulated %s", i+1, real.Tools[i], sim.Tools[i])
		}
	}
	switch n, m := len(real.Tools), len(sim.Tools); {
	case n < m:
		return false, fmt.Sprintf("real has %d %s, simulated %d: simulated #%d %s is extra", n, tools(n), m, n+1, sim.Tools[n])
	case n > m:
		return false, fmt.Sprintf("real has %d %s, simulated %d: real #%d %s is missing", n, tools(n), m, m+1, real.Tools[m])
	case n > 0:
		return true, ""
	}
	if real.Text == sim.Text {
		return true, ""
	}
	at := 0
	for at < len(real.Text) && at < len(sim.Text) && real.Text[at] == sim.Text[at] {
		at++
	}
	for at > 0 && (at < len(real.Text) && !utf8.RuneStart(real.Text[at]) || at < len(sim.Text) && !utf8.RuneStart(sim.Text[at])) {
		at--
	}
	return false, fmt.Sprintf("no tools; text differs at character %d: real %q, simulated %q",
		utf8.RuneCountInString(real.Text[:at])+1, excerpt(real.Text[at:]), excerpt(sim.Text[at:]))
}

// excerpt is the start of s, at most 40 characters, "…" when cut.
func excerpt(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	r := []rune(s)
	return string(r[:40]) + "…"
}

func tools(n int) string {
	if n == 1 {
		return "tool"
	}
	return "tools"
}

// FormatTools joins tool names for display: "a, b, c" or "(none)".
func FormatTools(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}
