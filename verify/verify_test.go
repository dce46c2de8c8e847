package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolfind/toolfind/search"
)

func TestCompare(t *testing.T) {
	a := func(tools ...string) Answer { return Answer{Tools: tools} }
	txt := func(s string) Answer { return Answer{Text: s} }
	tests := []struct {
		name      string
		real, sim Answer
		match     bool
		diff      string
	}{
		{"same", a("x", "y"), a("x", "y"), true, ""},
		{"order", a("x", "y"), a("y", "x"), false, "position 1: real x, simulated y"},
		{"extra", a("x"), a("x", "y"), false, "real has 1 tool, simulated 2: simulated #2 y is extra"},
		{"missing", a("x", "y", "z"), a("x", "y"), false, "real has 3 tools, simulated 2: real #3 z is missing"},
		{"none vs some", a(), a("x"), false, "real has 0 tools, simulated 1: simulated #1 x is extra"},
		{"tools win over text", Answer{Tools: []string{"x"}, Text: "a"}, Answer{Tools: []string{"x"}, Text: "b"}, true, ""},
		{"same text", txt("No match"), txt("No match"), true, ""},
		// "No match" is 8 characters: they differ at the 9th.
		{"text longer", txt("No match. Note"), txt("No match"), false, `no tools; text differs at character 9: real ". Note", simulated ""`},
		// é is two bytes: character count, not bytes; cut back to a rune start.
		{"multibyte", txt("café A"), txt("cafè A"), false, `no tools; text differs at character 4: real "é A", simulated "è A"`},
		{"long excerpt", txt("a" + strings.Repeat("b", 50)), txt("a"), false,
			`no tools; text differs at character 2: real "` + strings.Repeat("b", 40) + `…", simulated ""`},
	}
	for _, tt := range tests {
		match, diff := Compare(tt.real, tt.sim)
		if match != tt.match || diff != tt.diff {
			t.Errorf("%s: %v %q, want %v %q", tt.name, match, diff, tt.match, tt.diff)
		}
	}
}

func TestSimulated(t *testing.T) {
	r := search.Result{Hits: []search.Hit{{Name: "a"}, {Name: "b"}}, Shown: "<functions>…"}
	if got := Simulated(r); fmt.Sprint(got.Tools) != "[a b]" || got.Text != "" {
		t.Errorf("%+v", got)
	}
	if got := Simulated(search.Result{Shown: "No matching deferred tools found"}); len(got.Tools) != 0 || got.Tools == nil || got.Text != "No matching deferred tools found" {
		t.Errorf("%+v", got)
	}
}

func TestParseQueries(t *testing.T) {
	qs, err := ParseQueries("q.jsonl", strings.NewReader("\xef\xbb\xbf{\"query\":\"invoice\"}\n\n# comment\n"+
		`{"query":"billing","max_results":10,"expect":["billing/ledger"]}`+"\n"+`{"query":"x","limit":3}`+"\n"+`{"query":"y","max_results":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(qs); got != "[{invoice 0 1} {billing 10 4} {x 3 5} {y 0 6}]" {
		t.Errorf("queries %s", got)
	}
	for _, tt := range []struct{ in, err string }{
		{"", "q.jsonl: no queries"},
		{"[1]", "q.jsonl:1: not a JSON object"},
		{`{"max_results":2}`, `q.jsonl:1: "query": missing`},
		{"\n" + `{"query":7}`, `q.jsonl:2: "query": must be a string`},
		{`{"query":"a","max_results":0}`, `q.jsonl:1: "max_results": 0 is not a whole number of 1 or more`},
		{`{"query":"a","limit":"5"}`, `q.jsonl:1: "limit": "5" is not a whole number of 1 or more`},
		{`{"query":"a","max_results":2.5}`, `q.jsonl:1: "max_results": 2.5 is not`},
	} {
		if _, err := ParseQueries("q.jsonl", strings.NewReader(tt.in)); err == nil || !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("%q: %v, want %q", tt.in, err, tt.err)
		}
	}
	if _, err := ReadQueries(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Error("missing file accepted")
	}
}

// TestParseQueriesLineLimit: a line of MaxQueryLine bytes (1 MiB =
// 1,048,576, its "\r\n" not counted) loads; one byte more, with or without
// a line ending after it, is an error naming the file, the line and the
// limit.
func TestParseQueriesLineLimit(t *testing.T) {
	fits := `{"query":"` + strings.Repeat("a", MaxQueryLine-len(`{"query":""}`)) + `"}`
	if qs, err := ParseQueries("q.jsonl", strings.NewReader("{\"query\":\"x\"}\n"+fits+"\r\n")); err != nil || len(qs) != 2 {
		t.Fatalf("a line of exactly %d bytes: %v", MaxQueryLine, err)
	}
	const want = "q.jsonl:2: line is longer than 1048576 bytes (1 MiB), the limit for one query line"
	over := `{"query":"` + strings.Repeat("a", MaxQueryLine+1-len(`{"query":""}`)) + `"}`
	for name, in := range map[string]string{
		"one byte over, newline":    "{\"query\":\"x\"}\n" + over + "\n{\"query\":\"y\"}\n",
		"one byte over, CRLF":       "{\"query\":\"x\"}\n" + over + "\r\n",
		"one byte over, no newline": "{\"query\":\"x\"}\n" + over,
		"far over":                  "{\"query\":\"x\"}\n" + strings.Repeat("a", 3*MaxQueryLine) + "\n",
	} {
		if _, err := ParseQueries("q.jsonl", strings.NewReader(in)); err == nil || err.Error() != want {
			t.Errorf("%s: error %v\nwant %s", name, err, want)
		}
	}
}

func FuzzParseQueries(f *testing.F) {
	for _, s := range []string{`{"query":"a","max_results":3}`, "#\n{}", `{"query":"a","limit":1e3}`, "\xef\xbb\xbf[", `{"query":"\u0000"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := ParseQueries("f", strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, q := range qs {
			if q.Limit < 0 || q.Line < 1 {
				t.Fatalf("%+v", q)
			}
		}
	})
}

// fakeClient answers from a table; "slow" waits for the context; "fail"
// fails.
type fakeClient struct {
	answers map[string]Answer
	running atomic.Int32
	peak    atomic.Int32
}

func (f *fakeClient) Run(ctx context.Context, q Query) (Answer, error) {
	n := f.running.Add(1)
	defer f.running.Add(-1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(5 * time.Millisecond)
	switch q.Text {
	case "slow":
		<-ctx.Done()
		return Answer{}, ctx.Err()
	case "fail":
		return Answer{}, errors.New("client crashed")
	}
	return f.answers[q.Text], nil
}

// tableSim returns fixed hits per query.
type tableSim map[string][]string

func (s tableSim) Client() search.ClientID { return search.ClientID{Name: "claude", Version: "9.9.9"} }
func (s tableSim) Search(ctx context.Context, q search.Query) (search.Result, error) {
	r := search.Result{Shown: "nothing"}
	for _, n := range s[q.Text] {
		r.Hits = append(r.Hits, search.Hit{Name: n})
	}
	return r, nil
}

func TestRun(t *testing.T) {
	client := &fakeClient{answers: map[string]Answer{
		"a": {Tools: []string{"x", "y"}}, "b": {Tools: []string{"y", "x"}}, "c": {Text: "nothing"},
	}}
	sim := tableSim{"a": {"x", "y"}, "b": {"x", "y"}}
	qs := []Query{{Text: "a"}, {Text: "b"}, {Text: "c"}, {Text: "fail"}, {Text: "slow"}, {Text: "a", Limit: 1}}
	var calls []int
	rep, err := Run(context.Background(), client, sim, qs, Options{Parallel: 3, Timeout: 50 * time.Millisecond,
		Progress: func(done, total int, o Outcome) {
			if total != 6 {
				t.Errorf("total %d", total)
			}
			calls = append(calls, done)
		}})
	if err != nil {
		t.Fatal(err)
	}
	rep.Client = "claude 9.9.9"
	if got := rep.Summary(); got != "claude 9.9.9: 3/6 match, 1 mismatch, 2 failed (profile claude@9.9.9)" {
		t.Errorf("summary %q", got)
	}
	if fmt.Sprint(calls) != "[1 2 3 4 5 6]" {
		t.Errorf("progress calls %v", calls)
	}
	if p := client.peak.Load(); p < 2 || p > 3 {
		t.Errorf("peak parallelism %d, want 2 or 3 of 3", p)
	}
	want := []string{"match", "position 1: real y, simulated x", "match", "error client crashed", "error timed out after 50ms: context deadline exceeded", "match"}
	for i, o := range rep.Outcomes {
		got := "match"
		switch {
		case o.Error != "":
			got = "error " + o.Error
		case !o.Match:
			got = o.Diff
		}
		if o.Query != qs[i] || got != want[i] {
			t.Errorf("outcome %d (%+v): %q, want %q", i, o.Query, got, want[i])
		}
	}
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	client := &fakeClient{}
	sim := tableSim{}
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	rep, err := Run(ctx, client, sim, []Query{{Text: "slow"}, {Text: "slow"}, {Text: "slow"}}, Options{})
	if !errors.Is(err, context.Canceled) || rep.Failed != 3 || rep.Outcomes[0].Error != "interrupted" || rep.Outcomes[2].Error != "not run: interrupted" {
		t.Errorf("%v %+v", err, rep.Outcomes)
	}
}

func TestWriteBundle(t *testing.T) {
	rep := &Report{Client: "claude 2.1.332", Profile: "claude@2.1.328", Matched: 1, Mismatch: 1, Failed: 1, Outcomes: []Outcome{
		{Query: Query{Text: "a", Limit: 3}, Real: &Answer{Tools: []string{"x"}}, Simulated: &Answer{Tools: []string{"x"}}, Match: true},
		{Query: Query{Text: "zzz"}, Real: &Answer{Tools: []string{}, Text: "No match. Note"}, Simulated: &Answer{Tools: []string{}, Text: "No match"}, Diff: "no tools; text differs"},
		{Query: Query{Text: "slow"}, Simulated: &Answer{Tools: []string{"y"}}, Error: "timed out"},
	}}
	dir := filepath.Join(t.TempDir(), "repro")
	err := WriteBundle(dir, Bundle{Catalog: []byte(`{"servers":[]}`), Report: rep, Command: "toolfind verify --client claude@2.1.328 --catalog catalog.json --queries queries.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for name, want := range map[string]string{
		BundleCatalog: `{"servers":[]}` + "\n",
		BundleQueries: `{"query":"a","max_results":3}` + "\n" + `{"query":"zzz"}` + "\n" + `{"query":"slow"}` + "\n",
		BundleReal: `{"query":"a","max_results":3,"tools":["x"]}` + "\n" + `{"query":"zzz","tools":[],"text":"No match. Note"}` + "\n" +
			`{"query":"slow","tools":[],"error":"timed out"}` + "\n",
		BundleSimulated: `{"query":"a","max_results":3,"tools":["x"]}` + "\n" + `{"query":"zzz","tools":[],"text":"No match"}` + "\n" +
			`{"query":"slow","tools":["y"]}` + "\n",
		BundleReadme: "# toolfind verify: claude 2.1.332: 1/3 match, 1 mismatch, 1 failed (profile claude@2.1.328)\n\n" +
			"Real client claude 2.1.332 against simulator profile claude@2.1.328, query by query.\n\n" +
			"- query 2 \"zzz\": mismatch: no tools; text differs\n- query 3 \"slow\": failed: timed out\n\n" +
			"Files: catalog.json (the catalog as served), queries.jsonl, real.jsonl and simulated.jsonl (one line per query), report.json.\n\n" +
			"Rerun from this folder:\n\n    toolfind verify --client claude@2.1.328 --catalog catalog.json --queries queries.jsonl\n",
	} {
		if got := read(name); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	if !strings.Contains(read(BundleReport), `"profile": "claude@2.1.328"`) {
		t.Error("report.json")
	}
	// The queries file reads back as the same queries.
	qs, err := ReadQueries(filepath.Join(dir, BundleQueries))
	if err != nil || fmt.Sprint(qs) != "[{a 3 1} {zzz 0 2} {slow 0 3}]" {
		t.Errorf("%v %v", qs, err)
	}
	if err := WriteBundle(dir, Bundle{Report: rep}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("second write into the same folder: %v", err)
	}
}
