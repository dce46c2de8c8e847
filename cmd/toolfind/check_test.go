package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckThresholds(t *testing.T) {
	// The fakes fail one query each on purpose; failing on that is
	// TestCodexScriptRunErrors's job.
	base := []string{"check", "--client", fakes, "--queries", goldenQueries, "--allow-errors"}
	// fake@1 and fake-multi@1: found@limit 66.7%, MRR 0.537;
	// fake-random@1: found@limit 72.2%, MRR 0.630.
	tests := []struct {
		name  string
		args  []string
		code  int
		lines []string // on stderr: whole lines, or starts of lines ending in "…"
	}{
		{"all pass", []string{"--min-found-at-limit", "0.6", "--min-mrr", "0.5"}, 0, []string{"check passed: 3 clients"}},
		{"one threshold for all", []string{"--min-found-at-limit", "70%"}, 1, []string{
			"FAIL fake@1: found@limit 66.7% < 70.0%",
			"FAIL fake-multi@1: found@limit 66.7% < 70.0%",
			"toolfind: check failed: 2 clients below threshold",
		}},
		{"per client", []string{"--min-mrr", "0.5", "--min-mrr", "fake-random=0.7"}, 1, []string{
			"FAIL fake-random@1: MRR 0.630 < 0.700",
			"toolfind: check failed: 1 client below threshold",
		}},
		{"both metrics on one line", []string{"--min-found-at-limit", "fake=0.9", "--min-mrr", "fake=0.9"}, 1, []string{
			"FAIL fake@1: found@limit 66.7% < 90.0%; MRR 0.537 < 0.900",
		}},
		{"variant row by name", []string{"--min-found-at-limit", "fake-multi [names]=0.9"}, 1, []string{
			"FAIL fake-multi@1 [names]: found@limit 62.5% < 90.0%",
		}},
		{"nothing to check", nil, 2, []string{"toolfind: check needs --min-found-at-limit, --min-mrr, --max-mean-rank, --max-read-tokens or --baseline"}},
		{"bad threshold", []string{"--min-mrr", "2"}, 2, []string{`toolfind: --min-mrr "2": 2 is outside 0..1 (0%..100%)`}},
		{"unknown client in threshold", []string{"--min-mrr", "claud=0.5"}, 2, []string{`toolfind: threshold for claud: no such client in the report…`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := cli(t, append(append([]string{}, base...), tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errOut)
			}
			for _, l := range tt.lines {
				if p, partial := strings.CutSuffix(l, "…"); partial && strings.Contains(errOut, p) || strings.Contains(errOut, l+"\n") {
					continue
				}
				t.Errorf("stderr lacks line %q:\n%s", l, errOut)
			}
			if tt.code != 2 && !strings.Contains(out, "CLIENT") {
				t.Errorf("the report is not written:\n%s", out)
			}
		})
	}
}

func TestCheckBaseline(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "base.json")
	base := []string{"check", "--client", fakes, "--queries", goldenQueries, "--quiet", "--allow-errors"}
	// Save a baseline, then compare with it: nothing got worse.
	if _, errOut, code := cli(t, append(base, "--min-mrr", "0", "--save-baseline", saved)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := cli(t, append(base, "--baseline", saved)...); code != 0 {
		t.Fatalf("same run vs its baseline: exit %d: %s", code, errOut)
	}
	// A baseline where fake@1 found "invoice" at rank 1: now worse.
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	better := strings.Replace(string(data), `"client": "fake@1",
      "limit": 3,
      "rank": 2,
      "rank_worst": 2,`, `"client": "fake@1",
      "limit": 3,
      "rank": 1,
      "rank_worst": 1,`, 1)
	better = strings.Replace(better, `"rr": 0.5,`, `"rr": 1,`, 1)
	if better == string(data) {
		t.Fatal("test setup: baseline not edited")
	}
	edited := filepath.Join(dir, "better.json")
	if err := os.WriteFile(edited, []byte(better), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := cli(t, append(base, "--baseline", edited, "--format", "json")...)
	if code != exitCheckFailed {
		t.Errorf("exit %d, want 1; stderr %q", code, errOut)
	}
	for _, want := range []string{
		`WORSE fake@1: "invoice": rank 1 → rank 2` + "\n",
		"toolfind: check failed: 1 query worse than the baseline\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// A broken baseline is bad input.
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte(`{"clients": []}`), 0o644)
	if _, errOut, code := cli(t, append(base, "--baseline", junk)...); code != exitBadInput || !strings.Contains(errOut, junk) {
		t.Errorf("junk baseline: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := cli(t, append(base, "--baseline", filepath.Join(dir, "absent.json"))...); code != exitBadInput || !strings.Contains(errOut, "--baseline") {
		t.Errorf("absent baseline: exit %d, stderr %q", code, errOut)
	}
}
