package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig(".toolfind.yaml", []byte("lint:\n  min-severity: info\n  fail-on: warning\n  rules:\n    server-name: warning\n    own-name-tie: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MinSeverity != "info" || cfg.FailOn != "warning" {
		t.Errorf("cfg %+v", cfg)
	}
	if sev, ok := cfg.severity(RuleServerName); !ok || sev != corpus.Warning {
		t.Errorf("server-name severity %v %v, want warning", sev, ok)
	}
	if cfg.enabled(RuleTie) || !cfg.enabled(RuleSchema) {
		t.Error("own-name-tie should be off and schema on")
	}
	if _, err := ParseConfig("e.yaml", nil); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		yaml, want string
	}{
		{"lint:\n  rules:\n    nope: error\n", `c.yaml: line 3: nope: unknown rule`},
		{"lint:\n  rules:\n    schema: loud\n", `c.yaml: line 3: schema: "loud": want off, on, info, warning or error`},
		{"lint:\n  min-severity: loud\n", `c.yaml: line 2: min-severity: severity "loud"`},
		{"lint:\n  colour: red\n", `c.yaml: yaml: unmarshal errors:`},
		{"lint: [\n", `c.yaml: yaml:`},
	}
	for _, tt := range tests {
		_, err := ParseConfig("c.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.yaml, err, tt.want)
		}
	}
}

func TestConfigSet(t *testing.T) {
	var c Config
	if err := c.Set([]string{"all"}, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Set([]string{"schema"}, true); err != nil {
		t.Fatal(err)
	}
	if !c.enabled(RuleSchema) || c.enabled(RuleServerName) {
		t.Error("--disable all --enable schema should leave only schema on")
	}
	c = Config{Rules: map[string]string{RuleSchema: "info"}}
	if err := c.Set([]string{RuleSchema}, true); err != nil || c.Rules[RuleSchema] != "info" {
		t.Errorf("--enable keeps a configured severity: %v %q", err, c.Rules[RuleSchema])
	}
	if err := c.Set([]string{"bogus"}, true); err == nil || !strings.Contains(err.Error(), `unknown rule "bogus"`) {
		t.Errorf("unknown rule: %v", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("lint:\n  rules:\n    schema: info\n"))
	f.Add([]byte("lint: {min-severity: error}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("f.yaml", data)
		if err == nil {
			if cerr := cfg.check(); cerr != nil {
				t.Fatalf("accepted a config that fails check: %v", cerr)
			}
		}
	})
}

// TestRulesDocumented: every rule has a summary and a spec source, and the
// codes lint maps go to known rules.
func TestRulesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.ID] || r.Summary == "" || r.Source == "" {
			t.Errorf("rule %+v: duplicate or undocumented", r)
		}
		seen[r.ID] = true
	}
	for code, cr := range codeRule {
		if !seen[cr.rule] {
			t.Errorf("code %s maps to unknown rule %s", code, cr.rule)
		}
	}
}

// TestRulesInDocs: docs/lint-rules.md has a row for every rule.
func TestRulesInDocs(t *testing.T) {
	data, err := os.ReadFile("../docs/lint-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		if !strings.Contains(string(data), "| `"+r.ID+"` |") {
			t.Errorf("docs/lint-rules.md has no row for %s", r.ID)
		}
	}
}

// TestEveryClientCodeMapped: every diagnostic code the simulators emit
// (read from their sources) has a rule, so no client finding falls into
// "other" unnoticed.
func TestEveryClientCodeMapped(t *testing.T) {
	re := regexp.MustCompile(`"((?:claude|grok|codex|opencode)-[a-z-]+)"`)
	clientNames := map[string]bool{"codex-search": true, "opencode-codemode": true}
	for _, dir := range []string{"../claude", "../grok", "../codexjs", "../opencode"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				if _, ok := codeRule[m[1]]; !ok && !clientNames[m[1]] {
					t.Errorf("%s: code %q has no lint rule (lint/rules.go codeRule)", f, m[1])
				}
			}
		}
	}
}
