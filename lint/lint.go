// Package lint tells a catalog's maintainer what to fix: one finding per
// cause, where the cause is written (file:line:col of the JSON member), and
// what each client does because of it.
//
// Algorithm:
//
//  1. Gather diagnostics: the catalog's own (corpus validation, re-run on
//     every repeated definition, which corpus.Validate skips), each
//     simulator's (search.Reporter), and the rules of clients not simulated
//     (others.go).
//  2. Place each at its cause (place): a server dropped because of one tool
//     is caused by that tool's schema; a rename or rejection of every tool
//     of a server whose name alone breaks the client's rule is caused by
//     the server name; a client's report on a repeated name belongs to the
//     definition it concerns.
//  3. Group by (rule, cause) and write one Finding: the cause once, and per
//     client its consequence with the affected tools counted and listed
//     compactly. Every diagnostic stays an Occurrence with its own location
//     (the --verbose, JSON and SARIF expansion).
//  4. Add lint's own rules: which definition of a repeated name each client
//     keeps (asked of each client's simulator over that name alone),
//     model-directed text in every text a model reads (ScanText), and the
//     findability rules, computed by running the simulators' searches
//     (findability.go), and the approval rules, computed by the clients'
//     permission checks (approvals.go).
//  5. Apply the configuration (rule selection, per-rule severity) and sort:
//     severity, then file, line and column.
//
// Positions come from internal/jsonpos, built for a file only when a
// finding needs a line there, so loading a catalog never pays for it.
package lint

import (
	"context"
	"os"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Finding is one cause and its consequences.
type Finding struct {
	Rule     string          `json:"rule"`
	Severity corpus.Severity `json:"severity"`
	// Cause says what is wrong, once; Message is the whole line: the cause,
	// each client's consequence and the fix.
	Cause        string        `json:"cause"`
	Message      string        `json:"message"`
	Fix          string        `json:"fix,omitempty"`
	Location     Location      `json:"location"`
	Consequences []Consequence `json:"consequences,omitempty"`
	// Occurrences are every location the cause shows up at (one per tool
	// and client report).
	Occurrences []Occurrence `json:"occurrences"`
	// Text holds the model-directed pieces found (text rules only).
	Text []TextHit `json:"text,omitempty"`
}

// Consequence is what some clients do because of a cause.
type Consequence struct {
	Clients []string        `json:"clients"`
	Effect  string          `json:"effect"`
	Tools   []corpus.ToolID `json:"tools,omitempty"`
}

// Occurrence is one place a cause shows: a client's (or the catalog's)
// report on one tool.
type Occurrence struct {
	Location Location `json:"location"`
	Client   string   `json:"client,omitempty"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

// Options configure Run.
type Options struct {
	// ReadFile reads a catalog file back for positions; nil is os.ReadFile.
	// A source it cannot read (a live server) is located by server and tool.
	ReadFile func(string) ([]byte, error)
	// Config selects rules and sets severities; the zero Config runs every
	// rule that is on by default.
	Config Config
}

// Report is the result of Run.
type Report struct {
	Findings []*Finding `json:"findings"`
}

// Run lints cat as the given simulators see it.
func Run(ctx context.Context, cat *corpus.Catalog, sims []search.Simulator, opts Options) (*Report, error) {
	read := opts.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	loc := newLocator(read)
	dd := definitions(cat)

	diags := append([]corpus.Diagnostic(nil), cat.Diagnostics...)
	repeats, defsOf := validateRepeats(cat, dd)
	explicit := map[int]*corpus.Tool{}
	for i, t := range defsOf {
		explicit[len(diags)+i] = t
	}
	diags = append(diags, repeats...)
	for _, sim := range sims {
		rep, ok := sim.(search.Reporter)
		if !ok {
			continue
		}
		for _, d := range rep.Problems() {
			if d.Client == "" {
				d.Client = sim.Client().String()
			}
			diags = append(diags, d)
		}
	}
	diags = append(diags, Check(cat)...)

	findings := group(place(cat, diags, dd, explicit), dd, loc, cat)
	keep := keepers(cat, sims, dd)
	for _, f := range findings {
		if f.Rule == RuleDuplicate {
			describeDuplicate(f, keep, cat, dd)
		}
	}
	cfg := opts.Config
	if cfg.enabled(RuleInjection) || cfg.enabled(RuleHiddenUnicode) || cfg.enabled(RuleEncoded) {
		findings = append(findings, textFindings(cat, dd, keep, loc)...)
	}
	findings = append(findings, approvalFindings(cat, sims, dd, loc, cfg)...)
	ff, err := findability(ctx, cat, sims, dd, loc, cfg, collectCuts(diags))
	if err != nil {
		return nil, err
	}
	findings = append(findings, ff...)

	var out []*Finding
	for _, f := range findings {
		if !cfg.enabled(f.Rule) {
			continue
		}
		if sev, ok := cfg.severity(f.Rule); ok {
			f.Severity = sev
		}
		f.Message = message(f)
		if f.Occurrences == nil {
			f.Occurrences = []Occurrence{{Location: f.Location, Code: f.Rule, Message: f.Cause}}
		}
		out = append(out, f)
	}
	sortFindings(out)
	return &Report{Findings: out}, nil
}

// validateRepeats runs the catalog's own checks on the second and later
// definitions of each repeated name, which corpus.Validate skips: each is
// validated alone as a one-tool server. It returns the diagnostics and,
// for each, the definition it concerns.
func validateRepeats(cat *corpus.Catalog, dd defs) ([]corpus.Diagnostic, []*corpus.Tool) {
	var out []corpus.Diagnostic
	var of []*corpus.Tool
	for _, s := range cat.Servers {
		for _, t := range s.Tools {
			list := dd[s][t.Name]
			if len(list) < 2 || list[0] == t {
				continue
			}
			one := &corpus.Catalog{Servers: []*corpus.Server{{Name: s.Name, Source: s.Source, Tools: []*corpus.Tool{t}}}}
			for _, d := range corpus.Validate(one) {
				if suppressed[d.Code] {
					continue
				}
				out = append(out, d)
				of = append(of, t)
			}
		}
	}
	return out, of
}
