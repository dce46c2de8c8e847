package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// writerName is the writer a column's report rows name: for a
// written-queries file, who wrote that client's calls in it.
func writerName(col column) string {
	if col.w == nil {
		return col.queryWriter
	}
	if r, ok := col.w.(*writer.Replay); ok {
		if n := r.WriterOf(col.sim.Client().Name); n != "" {
			return n
		}
		return "written (no calls)"
	}
	return col.w.Name()
}

// writtenOutcomes evaluates one query for one column whose model writes
// its calls: the writer's calls are replayed one by one and the query
// counts as found when any call shows an expected tool (package doc,
// "Written calls"). No call is an outcome of its own (NoCall), counted as
// not found and never replaced by the query text.
func writtenOutcomes(ctx context.Context, col column, q *corpus.Query, qi int, sc *scorer) []Outcome {
	wr, ok := col.sim.(search.Writable)
	if !ok {
		o := errorOutcome(col.label, q, fmt.Errorf("%s: %w", col.sim.Client(), writer.ErrNotWritable))
		return []Outcome{withQuery(o, q, qi)}
	}
	calls, err := col.w.Calls(ctx, col.sim, writer.PromptOf(q))
	var nc *writer.NoCallError
	if errors.As(err, &nc) {
		calls, err = nil, nil // the model answered without a search call
	}
	if err != nil {
		o := errorOutcome(col.label, q, err)
		o.Writer = writerName(col)
		return []Outcome{withQuery(o, q, qi)}
	}
	if len(calls) == 0 {
		o := errorOutcome(col.label, q, nil)
		o.NoCall, o.Writer, o.Calls = true, writerName(col), []json.RawMessage{}
		return []Outcome{withQuery(o, q, qi)}
	}
	var primary []Outcome
	var variants [][]Outcome
	for _, c := range calls {
		res, err := safeReplay(ctx, wr, c)
		if err != nil {
			primary = append(primary, errorOutcome(col.label, q, err))
			continue
		}
		outs := outcomes(col, res, nil, q, qi, sc, nil)
		primary = append(primary, outs[0])
		variants = append(variants, outs[1:])
	}
	best := mergeCalls(primary)
	best.Writer, best.Calls = writerName(col), calls
	out := []Outcome{withQuery(best, q, qi)}
	// Variant rows (e.g. OpenCode's catalog) from the first call that has
	// them: they do not depend on the call.
	for _, vs := range variants {
		if len(vs) > 0 {
			for _, v := range vs {
				v.Writer = best.Writer
				out = append(out, v)
			}
			break
		}
	}
	return out
}

func errorOutcome(label string, q *corpus.Query, err error) Outcome {
	o := Outcome{Client: label, Expect: q.Expect, Tools: []ToolOutcome{}}
	if err != nil {
		o.Error = err.Error()
	}
	for _, id := range q.Expect {
		o.Tools = append(o.Tools, ToolOutcome{Tool: id})
	}
	return o
}

// safeReplay runs one call, turning a panic into an error.
func safeReplay(ctx context.Context, w search.Writable, call json.RawMessage) (res search.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked on call %s: %v", w.Client(), string(call), p)
		}
	}()
	return w.Replay(ctx, call)
}

// mergeCalls combines the outcomes of one prompt's calls: the outcome of
// the best call (highest PWithinLimit, then PAt1, then the earliest call)
// with, per expected tool, its best showing over all calls, found-all
// recomputed from those (a call's ties are independent of another's);
// ShownTokens add up (the model reads every result). An error counts only
// when every call failed.
func mergeCalls(os []Outcome) Outcome {
	best := 0
	for i := 1; i < len(os); i++ {
		a, b := os[i], os[best]
		if a.PWithinLimit > b.PWithinLimit+epsilon || (a.PWithinLimit > b.PWithinLimit-epsilon && a.PAt1 > b.PAt1+epsilon) {
			best = i
		}
	}
	m := os[best]
	if len(os) == 1 {
		return m
	}
	m.Tools = append([]ToolOutcome(nil), m.Tools...)
	tokens := 0
	allFailed := true
	if m.ReadTokens > 0 {
		// The model reads the results in order: the calls before the
		// best one, then the best one up to the tool.
		for _, o := range os[:best] {
			m.ReadTokens += o.ShownTokens
		}
	}
	for _, o := range os {
		tokens += o.ShownTokens
		if o.Error == "" {
			allFailed = false
		}
		for j := range o.Tools {
			if j < len(m.Tools) && o.Tools[j].PWithinLimit > m.Tools[j].PWithinLimit {
				m.Tools[j] = o.Tools[j]
			}
		}
	}
	m.ShownTokens = tokens
	if !allFailed {
		m.Error = ""
	}
	pAll := 1.0
	for _, t := range m.Tools {
		pAll *= t.PWithinLimit
	}
	if len(m.Tools) == 0 {
		pAll = 0
	}
	if pAll > m.PAllWithinLimit {
		m.PAllWithinLimit = pAll
		m.FoundAll = pAll > 1-epsilon
	}
	return m
}
