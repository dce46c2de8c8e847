package bench_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/internal/golden"
)

// junitCounts reads a JUnit file's totals and its failing test cases
// ("suite: case: message").
func junitCounts(t *testing.T, data []byte) (tests, failures, skipped int, failing []string) {
	t.Helper()
	var v struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &v); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, data)
	}
	for _, s := range v.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failing = append(failing, s.Name+": "+c.Name+": "+c.Failure.Message)
			}
		}
	}
	return v.Tests, v.Failures, v.Skipped, failing
}

// TestGatesJUnitAgreesWithVerdict: the JUnit of a check has one test case
// per gate and fails exactly where a gate fails. The golden report's
// rows: fake@1 and fake-multi@1 found@limit 66.7%, fake-random@1 72.2%
// (as in TestCheck); a 60% minimum passes all three with failures="0",
// though 3 queries of fake@1 are not certainly shown (they are listed in
// the suite's system-out, not as failures); a 70% minimum fails exactly
// the two rows below it.
func TestGatesJUnitAgreesWithVerdict(t *testing.T) {
	rep := goldenReport(t, bench.Options{})
	for _, tc := range []struct {
		min      string
		failures int
		failing  []string
	}{
		{"0.6", 0, nil},
		{"0.7", 2, []string{
			"fake@1: found@limit ≥ 70.0%: found@limit 66.7% < 70.0%",
			"fake-multi@1: found@limit ≥ 70.0%: found@limit 66.7% < 70.0%",
		}},
	} {
		th, err := bench.ParseThreshold(tc.min)
		if err != nil {
			t.Fatal(err)
		}
		gates, err := rep.Gates(bench.Checks{Thresholds: bench.Thresholds{MinFoundAtLimit: th}, AllowErrors: true})
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, g := range gates {
			if g.Failed() {
				failed++
			}
		}
		var buf bytes.Buffer
		if err := rep.WriteJUnitGates(&buf, gates); err != nil {
			t.Fatal(err)
		}
		// 3 client rows × (found@limit, searches); the variant row takes
		// no unnamed threshold and has no failed search.
		tests, failures, _, failing := junitCounts(t, buf.Bytes())
		if tests != 6 || failures != tc.failures || failed != tc.failures || strings.Join(failing, "\n") != strings.Join(tc.failing, "\n") {
			t.Errorf("min %s: %d tests, failures=%d (%d gates failed), failing:\n%s\nwant 6 tests, %d failures:\n%s",
				tc.min, tests, failures, failed, strings.Join(failing, "\n"), tc.failures, strings.Join(tc.failing, "\n"))
		}
		if tc.min == "0.7" {
			golden.Compare(t, filepath.Join("testdata", "check-junit.xml"), buf.Bytes(), *update)
		}
	}
}

// TestGatesBaselineRegressionFails: a query that got worse than in the
// baseline is a failing test case of its own; the same query unchanged
// passes (issue 24: a regression that failed the check was a passing
// test case).
func TestGatesBaselineRegressionFails(t *testing.T) {
	base := goldenReport(t, bench.Options{})
	cur := goldenReport(t, bench.Options{})
	for i := range cur.Outcomes {
		if o := &cur.Outcomes[i]; o.Query == "invoice" && o.Client == "fake@1" {
			o.Rank, o.RankWorst, o.RR = 3, 3, 0.333333 // was rank 2
		}
	}
	gates, err := cur.Gates(bench.Checks{Baseline: base, AllowErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cur.WriteJUnitGates(&buf, gates); err != nil {
		t.Fatal(err)
	}
	_, failures, _, failing := junitCounts(t, buf.Bytes())
	want := "fake@1: no worse than the baseline: invoice → billing/invoice_lookup: rank 2 → rank 3"
	if failures != 1 || len(failing) != 1 || failing[0] != want {
		t.Errorf("failures=%d %q, want 1: %q", failures, failing, want)
	}
	// Compare reports the same query.
	if fails := bench.Compare(base, cur); len(fails) != 1 || fails[0].String() != `fake@1: "invoice": rank 2 → rank 3` {
		t.Errorf("Compare: %v", fails)
	}
}

// uncappedReport is a report with one capped and one uncapped row:
// codex's model reads every tool its script prints (found@limit 100% by
// construction, mean rank 98.6).
func uncappedReport() *bench.Report {
	return &bench.Report{QueryCount: 10, Clients: []bench.ClientMetrics{
		{Client: "claude@2.1.332", Limit: 5, Queries: 10, Runs: 10, FoundAtLimit: 0.9, FoundAtLimitBest: 0.9, FoundAtLimitWorst: 0.9,
			FoundAt1: 0.7, MRR: 0.8, MeanRank: 1.4, P95Rank: 3, NotFound: 1, MeanShownTokens: 3821, MeanReadTokens: 3821, P95ReadTokens: 4000},
		{Client: "codex@0.171.0", Limit: 235, Queries: 10, Runs: 10, Uncapped: true, FoundAtLimit: 1, FoundAtLimitBest: 1, FoundAtLimitWorst: 1,
			FoundAt1: 0.009, MRR: 0.041, MeanRank: 98.6, P95Rank: 206, MeanShownTokens: 2234, MeanReadTokens: 983, P95ReadTokens: 2009},
	}}
}

// TestGatesUncapped: a found@limit minimum for every client does not
// judge an uncapped row (skipped, saying why); one named for it is
// refused; the position and tokens gates do judge it.
func TestGatesUncapped(t *testing.T) {
	rep := uncappedReport()
	th := func(f func(...string) (bench.Threshold, error), specs ...string) bench.Threshold {
		x, err := f(specs...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	gates, err := rep.Gates(bench.Checks{Thresholds: bench.Thresholds{MinFoundAtLimit: th(bench.ParseThreshold, "0.85")}})
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for _, g := range gates {
		v := "pass"
		switch {
		case g.Failed():
			v = "FAIL " + g.Failure
		case g.Skipped != "":
			v = "skipped " + g.Skipped
		}
		verdicts = append(verdicts, g.Client+" "+g.Name+": "+v)
	}
	want := []string{
		"claude@2.1.332 found@limit ≥ 85.0%: pass",
		"claude@2.1.332 searches finish without error: pass",
		"codex@0.171.0 found@limit ≥ 85.0%: skipped codex@0.171.0 has no cap on what its model reads: found@limit (100.0%) says only that the tool is somewhere in it, so it cannot fail; where the tool lands (MRR 0.041, mean rank 98.60) and the tokens read to reach it (983) decide",
		"codex@0.171.0 searches finish without error: pass",
	}
	if strings.Join(verdicts, "\n") != strings.Join(want, "\n") {
		t.Errorf("gates:\n%s\nwant\n%s", strings.Join(verdicts, "\n"), strings.Join(want, "\n"))
	}

	// Below the minimum, the tool is missing from what the model reads at
	// all (a script that prints too little, a server whose tools are not
	// declared): that fails. 0.6 < 0.85; missing for 40%.
	rep.Clients[1].FoundAtLimit = 0.6
	if fails, err := rep.Check(bench.Thresholds{MinFoundAtLimit: th(bench.ParseThreshold, "0.85")}); err != nil || len(fails) != 1 ||
		fails[0].String() != "codex@0.171.0: found@limit 60.0% < 85.0%: the tool is not in what the model reads at all for 40.0% of the queries" {
		t.Errorf("uncapped below the minimum: %v %v", fails, err)
	}
	rep.Clients[1].FoundAtLimit = 1

	_, err = rep.Gates(bench.Checks{Thresholds: bench.Thresholds{MinFoundAtLimit: th(bench.ParseThreshold, "codex=0.9")}})
	if !errors.Is(err, bench.ErrUncappedFoundAtLimit) || !strings.HasPrefix(err.Error(), "codex=90.0%: codex@0.171.0 has no cap on what its model reads, so its found@limit (100.0%) says only") {
		t.Errorf("named for the uncapped row: %v", err)
	}
	if _, err := rep.Check(bench.Thresholds{MinFoundAtLimit: th(bench.ParseThreshold, "codex=0.9")}); !errors.Is(err, bench.ErrUncappedFoundAtLimit) {
		t.Errorf("Check: %v", err)
	}

	// Position and reading: 98.60 > 20 fails; 983 ≤ 1,000 passes; MRR
	// 0.041 < 0.5 fails; claude's 3,821 tokens fail a 1,000 maximum for
	// every client.
	fails, err := rep.Check(bench.Thresholds{
		MaxMeanRank:   th(bench.ParseMaximum, "codex=20"),
		MaxReadTokens: th(bench.ParseMaximum, "1000"),
		MinMRR:        th(bench.ParseThreshold, "codex=0.5"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fails {
		got = append(got, f.String())
	}
	wantFails := []string{
		"claude@2.1.332: read tokens 3,821 > 1,000",
		"codex@0.171.0: MRR 0.041 < 0.500; mean rank 98.60 > 20",
	}
	if strings.Join(got, "\n") != strings.Join(wantFails, "\n") {
		t.Errorf("failures:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantFails, "\n"))
	}
}

func TestParseMaximum(t *testing.T) {
	for _, tc := range []struct {
		spec, want, err string
	}{
		{spec: "20", want: "20"},
		{spec: "codex=2.5", want: "codex=2.5"},
		{spec: "0", err: "must be above 0"},
		{spec: "-3", err: "must be above 0"},
		{spec: "ten", err: "not a number"},
		{spec: "Inf", err: "not a number"},
	} {
		th, err := bench.ParseMaximum(tc.spec)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		var got string
		switch {
		case err != nil:
			got = err.Error()
		case th.Default != nil:
			got = strconv.FormatFloat(*th.Default, 'f', -1, 64)
		default:
			for k, v := range th.PerClient {
				got = k + "=" + strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.spec, got, tc.want)
		}
	}
}
