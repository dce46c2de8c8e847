package bench_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/bench"
)

func ptr(x float64) *float64 { return &x }

func TestParseThreshold(t *testing.T) {
	tests := []struct {
		specs []string
		want  bench.Threshold
		err   string
	}{
		{specs: []string{"0.8"}, want: bench.Threshold{Default: ptr(0.8)}},
		{specs: []string{"80%"}, want: bench.Threshold{Default: ptr(0.8)}},
		{specs: []string{"0.5", "claude=0.9"}, want: bench.Threshold{Default: ptr(0.5), PerClient: map[string]float64{"claude": 0.9}}},
		{specs: []string{"claude=90%, grok@1.0.0=0.7,0.6"}, want: bench.Threshold{Default: ptr(0.6), PerClient: map[string]float64{"claude": 0.9, "grok@1.0.0": 0.7}}},
		{specs: []string{"0.1", "0.2"}, want: bench.Threshold{Default: ptr(0.2)}}, // later wins
		{specs: []string{""}, want: bench.Threshold{}},
		{specs: []string{"1.5"}, err: "outside 0..1"},
		{specs: []string{"-1"}, err: "outside 0..1"},
		{specs: []string{"150%"}, err: "outside 0..1"},
		{specs: []string{"abc"}, err: "not a number"},
		{specs: []string{"NaN"}, err: "not a number"},
		{specs: []string{"=0.5"}, err: "empty client name"},
		{specs: []string{"claude="}, err: "not a number"},
	}
	for _, tt := range tests {
		got, err := bench.ParseThreshold(tt.specs...)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseThreshold(%q) err = %v, want %q", tt.specs, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseThreshold(%q) = %+v, %v; want %+v", tt.specs, got, err, tt.want)
		}
	}
}

func TestThresholdFor(t *testing.T) {
	th := bench.Threshold{Default: ptr(0.5), PerClient: map[string]float64{
		"claude": 0.9, "claude@2.1.283": 0.7, "codex [regex]": 0.3,
	}}
	tests := []struct {
		label string
		want  float64
		ok    bool
	}{
		{"claude@2.1.328", 0.9, true},         // by name
		{"claude@2.1.283", 0.7, true},         // the exact profile wins
		{"grok@1.0.0", 0.5, true},             // the default
		{"codex@0.171.0 [regex]", 0.3, true},  // a variant named for it
		{"codex@0.171.0 [literal]", 0, false}, // variants take no default
		{"claude@2.1.328 [regex]", 0, false},  // nor their client's value
		{"codex@0.171.0", 0.5, true},          // the client row takes the default
		{"opencode@1.18.33", 0.5, true},       // …as every client row does
		{"fake-multi@1 [names]", 0, false},    // …but no variant row
		{"fake@1", 0.5, true},                 // …
		{"fake-random@1", 0.5, true},          // …
	}
	for _, tt := range tests {
		got, ok := th.For(tt.label)
		if got != tt.want || ok != tt.ok {
			t.Errorf("For(%q) = %v, %v; want %v, %v", tt.label, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCheck(t *testing.T) {
	rep := goldenReport(t, bench.Options{})
	// fake@1: found@limit 66.7%, MRR 0.537; fake-random@1: 72.2%, 0.630.
	found, _ := bench.ParseThreshold("0.7", "fake-multi=0.5")
	mrr, _ := bench.ParseThreshold("fake-random=0.7")
	fails, err := rep.Check(bench.Thresholds{MinFoundAtLimit: found, MinMRR: mrr})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fails {
		got = append(got, f.String())
	}
	want := []string{
		"fake@1: found@limit 66.7% < 70.0%",
		"fake-random@1: MRR 0.630 < 0.700",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("failures:\n got %q\nwant %q", got, want)
	}
	// Met exactly: no failure.
	exact, _ := bench.ParseThreshold("fake=0.666667")
	if fails, _ := rep.Check(bench.Thresholds{MinFoundAtLimit: exact}); len(fails) != 0 {
		t.Errorf("threshold met exactly: %v", fails)
	}
	// A threshold for an absent client is an error, not a silent pass.
	typo, _ := bench.ParseThreshold("claud=0.9")
	if _, err := rep.Check(bench.Thresholds{MinMRR: typo}); err == nil || !strings.Contains(err.Error(), "claud") {
		t.Errorf("typo err = %v", err)
	}
}

func TestCompare(t *testing.T) {
	base := goldenReport(t, bench.Options{})
	var buf bytes.Buffer
	if err := base.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	saved, err := bench.ReadReport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if fails := bench.Compare(saved, base); len(fails) != 0 {
		t.Errorf("a report compared with itself: %v", fails)
	}
	// Make query 1 worse for fake@1 and better for fake-random@1.
	cur := goldenReport(t, bench.Options{})
	for i := range cur.Outcomes {
		o := &cur.Outcomes[i]
		if o.Query == "invoice" && o.Client == "fake@1" {
			o.Rank, o.RankWorst, o.RR = 3, 3, 0.333333
		}
		if o.Query == "invoice" && o.Client == "fake-random@1" {
			o.Rank, o.RankWorst, o.RR = 1, 1, 1
		}
		if o.Query == "ticket" && o.Client == "fake-random@1" && o.Expect[0] == "tickets/addComment" {
			o.PWithinLimit, o.Rank, o.RankWorst = 0, 4, 4
		}
		// Variant rows are not compared.
		if o.Query == "invoice" && o.Client == "fake-multi@1 [names]" {
			o.PWithinLimit, o.RR = 0, 0
		}
	}
	var got []string
	for _, f := range bench.Compare(saved, cur) {
		got = append(got, f.String())
	}
	want := []string{
		`fake@1: "invoice": rank 2 → rank 3`,
		`fake-random@1: "ticket": rank 1-4 (shown 75.0%) → rank 4 (not shown)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("regressions:\n got %q\nwant %q", got, want)
	}
	// A new client version is matched by client name.
	for i := range cur.Outcomes {
		cur.Outcomes[i].Client = strings.Replace(cur.Outcomes[i].Client, "fake@1", "fake@2", 1)
	}
	fails := bench.Compare(saved, cur)
	if len(fails) != 2 || fails[0].Client != "fake@2" {
		t.Errorf("across versions: %v", fails)
	}
}

func TestReadReportErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[]`, "not a toolfind bench JSON report"},
		{`{"clients": []}`, `"clients" and "outcomes" are required`},
		{`{"clients": [], "outcomes": [{"query": "x"}]}`, "outcomes[0]: missing client"},
		{`{"clients": [], "outcomes": [{"client": "c", "p_within_limit": 2}]}`, "outside 0..1"},
		{`{"clients": {}, "outcomes": []}`, "clients:"},
		{`{"clients": [], "outcomes": 3}`, "outcomes:"},
	} {
		_, err := bench.ReadReport(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadReport(%s) err = %v, want %q", c.in, err, c.want)
		}
	}
}

// TestJUnitWellFormed parses the JUnit output back.
func TestJUnitWellFormed(t *testing.T) {
	rep := goldenReport(t, bench.Options{})
	rep.Outcomes[0].Query = "bad \x01 control ]]> chars"
	rep.Outcomes[0].OutrankedBy = append(rep.Outcomes[0].OutrankedBy, "s/\x02]]>")
	rep.Outcomes[0].Found = false
	var buf bytes.Buffer
	if err := rep.WriteJUnit(&buf); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Tests  int `xml:"tests,attr"`
		Suites []struct {
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("JUnit output does not parse: %v", err)
	}
	n := 0
	for _, s := range v.Suites {
		n += len(s.Cases)
	}
	// One case per outcome of a client row; the variant row
	// (fake-multi@1 [names]) is left out: 10 queries × 3 clients.
	if n != 30 || v.Tests != n || len(v.Suites) != 3 {
		t.Errorf("%d test cases (tests=%d) in %d suites, want 30 in 3", n, v.Tests, len(v.Suites))
	}
}

func FuzzReadReport(f *testing.F) {
	rep := goldenReport(f, bench.Options{By: []string{"category"}, PerTool: true})
	// A small seed (a large one makes the fuzzer spend its time minimising
	// it): two outcomes of a real report, compact.
	small := *rep
	small.Outcomes = []bench.Outcome{rep.Outcomes[4], rep.Outcomes[5]}
	small.Clients = rep.Clients[:2]
	small.By, small.PerTool = nil, nil
	seed, err := json.Marshal(&small)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"clients": [], "outcomes": []}`))
	f.Add([]byte(`{"clients": [{"client": "a"}], "outcomes": [{"client": "a", "query": "q", "expect": ["s/t"], "p_within_limit": 0.5, "rr": 0.25}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := bench.ReadReport(bytes.NewReader(data))
		if err != nil {
			return
		}
		// Whatever parses can be compared and rendered without a panic.
		bench.Compare(r, r)
		bench.Compare(r, rep)
		for _, f := range bench.Formats {
			if err := r.Write(&bytes.Buffer{}, f); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		th, _ := bench.ParseThreshold("0.5")
		if _, err := r.Check(bench.Thresholds{MinFoundAtLimit: th, MinMRR: th}); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"0.8", "80%", "claude=0.9,grok=70%", "=", "a=b=c", "1e-3", "0x1p-2", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := bench.ParseThreshold(s)
		if err != nil {
			return
		}
		check := func(x float64) {
			if !(x >= 0 && x <= 1) {
				t.Fatalf("ParseThreshold(%q) accepted %v", s, x)
			}
		}
		if th.Default != nil {
			check(*th.Default)
		}
		for _, x := range th.PerClient {
			check(x)
		}
	})
}
