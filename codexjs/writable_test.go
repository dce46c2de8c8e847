package codexjs

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// The heuristic writer's and the verbatim baseline's code run natively on
// replay; goja must print the same bytes and find the same tools.
func TestWrittenCodeNativeMatchesGoja(t *testing.T) {
	cats := demoAndShared(t)
	prompts := []string{"Find the invoice for ACME and export it", "list all pull requests", "Group all the movies by release year", "search ÄÖÜ ſtrange Kelvin", "delete the cluster"}
	for name, cat := range cats {
		native, _ := NewCodeMode(cat, search.Options{})
		gj, _ := NewCodeMode(cat, search.Options{"engine": "goja", "timeout": "60s"}) // a loaded machine must not turn a slow run into a difference
		for _, p := range prompts {
			for _, call := range append(native.HeuristicCalls(p), native.VerbatimCall(p)) {
				a, err := native.Replay(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				b, err := gj.Replay(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				if a.Shown != b.Shown || len(a.Hits) != len(b.Hits) {
					t.Errorf("%s %q %s: native and goja differ:\n%q\n%q", name, p, call, clipS(a.Shown), clipS(b.Shown))
					continue
				}
				for i := range a.Hits {
					if a.Hits[i].Tool != b.Hits[i].Tool {
						t.Errorf("%s %q: hit %d %s vs %s", name, p, i, a.Hits[i].Tool, b.Hits[i].Tool)
					}
				}
			}
		}
	}
}

func clipS(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func TestHeuristicCallsDemo(t *testing.T) {
	m, _ := NewCodeMode(corpus.Demo(), search.Options{})
	calls := m.HeuristicCalls("Please remove the old tickets")
	if len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}
	var c struct{ Code string }
	if err := json.Unmarshal(calls[0], &c); err != nil {
		t.Fatal(err)
	}
	// Keywords remov, old, ticket (stems), then remove's family stems
	// (delet, drop, eras, destroy, purg…) up to eight, three letters or more.
	want := "const re = /remov|old|ticket|delet|drop|eras|destroy|purg/i;\n" +
		"text(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => t.name).join(\"\\n\"));"
	if c.Code != want {
		t.Errorf("code =\n%s\nwant\n%s", c.Code, want)
	}
	r, err := m.Replay(context.Background(), calls[0])
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range r.Hits {
		names = append(names, string(h.Tool))
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "tickets/close-ticket") {
		t.Errorf("hits %s lack tickets/close-ticket", got)
	}
}

func TestReplayErrors(t *testing.T) {
	m, _ := NewCodeMode(corpus.Demo(), search.Options{})
	for call, want := range map[string]string{
		`[]`:           "call: not a JSON object: []",
		`{}`:           `call: field "code" is missing`,
		`{"code": 42}`: `call: field "code": not a string: 42`,
	} {
		if _, err := m.Replay(context.Background(), json.RawMessage(call)); err == nil || err.Error() != want {
			t.Errorf("Replay(%s) = %v, want %q", call, err, want)
		}
	}
}
