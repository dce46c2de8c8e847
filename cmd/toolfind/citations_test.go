package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/search"
)

// citation matches what a user-facing text must not hold: references to
// files users do not have (the behaviour specs, "§" sections, Markdown
// files), or to how toolfind was built ("oracle" harnesses, the "seed"
// article, a "leaked" source). Sources belong in code comments and
// package docs.
var citation = regexp.MustCompile(`(?i)§|\b[\w-]+\.md\b|oracle|\bseeds?\b|leaked|\bspecs?\b`)

// allowedCitations are words of the patterns that name the user's own
// things: suggest's --seed flag, the README.md toolfind verify writes
// into the user's bundle folder, the Markdown file an example writes.
var allowedCitations = strings.NewReplacer(
	"--seed", "",
	"seed of the --holdout split", "",
	"README.md", "",
	"> approvals.md", "",
)

const citedCatalog = "../../lint/testdata/hostile.json"

// resultFile is a tool result with structuredContent and _meta, whose
// notes in Codex and OpenCode once cited the specs.
const resultFile = "testdata/result-structured.json"

// userOutputs runs the main commands on the demo catalog and returns
// their output (standard output and error), named: the help of the root
// and of every subcommand, clients and each client's entry, bench, rank,
// show and lint.
func userOutputs(t *testing.T) map[string]string {
	t.Helper()
	runs := [][]string{
		{"--help"}, {"clients"}, {"clients", "--format", "json"},
		{"bench"}, {"bench", "--format", "markdown"}, {"bench", "--format", "json"}, {"bench", "--format", "html"}, {"suggest"},
		{"rank", "--query", "invoice"}, {"rank", "--query", "invoice", "--explain", "--shown"},
		{"rank", "--prompt", "find the invoice for order 12", "--by-client", "--explain"},
		{"rank", "--query", "invoice", "--format", "json"},
		{"show"}, {"show", "--surface"}, {"show", "--surface", "--format", "json"}, {"show", "--tool", "invoice_lookup"},
		{"lint"}, {"lint", "--verbose", "--min-severity", "info"}, {"lint", "--format", "sarif"}, {"lint", "--list-rules"},
		{"approvals"},
		// A hostile catalog: names clients refuse, cut descriptions,
		// hidden tools, whose notes once cited the specs.
		{"lint", "--catalog", citedCatalog, "--verbose", "--min-severity", "info", "--fail-on", "none"},
		{"rank", "--catalog", citedCatalog, "--query", "list orders", "--explain", "--shown"},
		{"show", "--catalog", citedCatalog},
		{"result", "--file", resultFile},
	}
	for _, c := range subcommands() {
		runs = append(runs, []string{c.name, "--help"})
	}
	seen := map[string]bool{}
	for _, p := range search.Profiles() {
		if !seen[p.ID.Name] {
			seen[p.ID.Name] = true
			runs = append(runs, []string{"clients", p.ID.Name})
		}
	}
	out := map[string]string{}
	for _, args := range runs {
		stdout, stderr, _ := run(t, args...)
		out[strings.Join(args, " ")] = stdout + stderr
	}
	return out
}

// TestNoSourceCitationsInOutput: no user-facing output cites a spec
// section, a Markdown file, an oracle, the seed article or a leaked
// source (issue 24, point 8).
func TestNoSourceCitationsInOutput(t *testing.T) {
	for name, text := range userOutputs(t) {
		if text == "" {
			t.Errorf("toolfind %s printed nothing", name)
			continue
		}
		for i, line := range strings.Split(text, "\n") {
			if m := citation.FindString(allowedCitations.Replace(line)); m != "" {
				t.Errorf("toolfind %s, line %d cites %q: %s", name, i+1, m, line)
			}
		}
	}
}

// TestCitationPattern: the pattern finds each kind of citation the
// outputs once had, and leaves the user's own words alone.
func TestCitationPattern(t *testing.T) {
	for _, c := range []struct {
		line string
		hit  bool
	}{
		{"exact-name shortcut: limit ignored (grok.md B.2)", true},
		{"the JSON shape is [unverified] (codex.md §7)", true},
		{"verified: real OpenCode 1.18.33 with opencode-oracle (spec §0)", true},
		{"Claude Code ToolSearch as in the seed article", true},
		{"not run: read from the leaked 2.1.88 source", true},
		{"sources: specs/claude.md §1", true},
		{"      --seed uint   seed of the --holdout split (default 1)", false},
		{"the bundle holds a README.md and the catalog", false},
		{"Grok refuses to register \"a.b\"; the tool is skipped", false},
	} {
		got := citation.MatchString(allowedCitations.Replace(c.line))
		if got != c.hit {
			t.Errorf("%q: citation %v, want %v", c.line, got, c.hit)
		}
	}
}
