package writer

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolfind/toolfind/corpus"
)

// NoCallError is returned (possibly wrapped) by a writer's Calls when the
// model answered without a usable search call: it wrote text instead, it
// called another tool, or its call's input was not a JSON object. It is a
// fact about the model, not a failure of the run: Write records a line
// with a null call and the reason in its "no_call" tag, and bench counts
// the prompt as one with no call.
type NoCallError struct {
	// Reason says what the model did instead, e.g. "answered in text
	// without a tool call" or "invalid input: …".
	Reason string
}

func (e *NoCallError) Error() string { return "no search call: " + e.Reason }

// Concurrent is implemented by writers that serve several prompts at once
// (a model API): Write asks that many at a time.
type Concurrent interface {
	Concurrency() int
}

// SampleTag is the tag that numbers a prompt's samples (1, 2, …) after
// ExpandSamples; PromptOf reads it into Prompt.Sample.
const SampleTag = "sample"

// ExpandSamples repeats every query n times, for writers that ask a model
// several times to measure its own variance (--samples). Copy k (1-based)
// gets the id "<id>#k" and the tag sample=k, so each sample is a prompt of
// its own in the written file and in reports (break down with --by
// sample). n ≤ 1 returns qs unchanged. A query that already has a sample
// tag is an error.
func ExpandSamples(qs *corpus.QuerySet, n int) (*corpus.QuerySet, error) {
	if n <= 1 {
		return qs, nil
	}
	out := &corpus.QuerySet{Source: qs.Source}
	for i := range qs.Queries {
		q := &qs.Queries[i]
		if _, ok := q.Tags[SampleTag]; ok {
			return nil, fmt.Errorf("%s:%d: the query already has a %q tag; --samples would overwrite it", q.File, q.Line, SampleTag)
		}
		id := PromptOf(q).ID
		for k := 1; k <= n; k++ {
			c := *q
			c.Tags = make(map[string]string, len(q.Tags)+2)
			for key, v := range q.Tags {
				c.Tags[key] = v
			}
			c.Tags["id"] = id + "#" + strconv.Itoa(k)
			c.Tags[SampleTag] = strconv.Itoa(k)
			out.Queries = append(out.Queries, c)
		}
	}
	return out, nil
}

func withTag(tags map[string]json.RawMessage, key, value string) map[string]json.RawMessage {
	t := make(map[string]json.RawMessage, len(tags)+1)
	for k, v := range tags {
		t[k] = v
	}
	b, _ := json.Marshal(value)
	t[key] = b
	return t
}
