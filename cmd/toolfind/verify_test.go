package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/fakeclient"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/verify"
)

// A deliberately wrong profile, registered only in this test binary:
// 2.1.332 with descriptions cut to 8 characters, so description matches
// are lost.
func init() {
	wrong := claude.V2_1_332
	wrong.Version, wrong.ListCap = "0-test-wrong", 8
	search.Register(search.Profile{
		ID:      search.ClientID{Name: "claude", Version: wrong.Version},
		Summary: "test only: a wrong simulation",
		New: func(cat *corpus.Catalog, _ search.Options) (search.Simulator, error) {
			return claude.New(cat, wrong, claude.DefaultOptions()), nil
		},
	})
}

// fakeClaude builds the fake client (verify/claudecode/testdata) once per
// version.
func fakeClaude(t *testing.T, version string) string {
	return fakeclient.Build(t, "../../verify/claudecode/testdata/fakeclaude", "claude-"+version, "-X main.version="+version)
}

var elapsed = regexp.MustCompile(`, \d+\.\ds\)`)

func TestVerifyFakeClient(t *testing.T) {
	bin := fakeClaude(t, "2.1.330")
	cat := writeFile(t, "failed.json", failedListCatalog)
	queries := writeFile(t, "q.jsonl", `{"query":"alpha"}`+"\n"+`{"query":"invoice","max_results":2}`+"\n")
	out, errOut, code := run(t, "verify", "--client", "claude", "--binary", bin, "--catalog", cat, "--queries", queries, "--query", "select:alpha")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	want := `[1/3] match  "alpha" (default max_results)
  real:      mcp__good__alpha
  simulated: mcp__good__alpha
[2/3] match  "invoice" (max_results 2)
  real:      (none) "` + strings.ReplaceAll(failedListShown, `"`, `\"`) + `"
  simulated: (none) "` + strings.ReplaceAll(failedListShown, `"`, `\"`) + `"
[3/3] match  "select:alpha" (default max_results)
  real:      mcp__good__alpha
  simulated: mcp__good__alpha
ToolSearch input schema requires: real [query, max_results], simulated [query, max_results]: match
claude 2.1.330: 3/3 match (profile claude@2.1.329)
`
	if got := elapsed.ReplaceAllString(out, ")"); got != want {
		t.Errorf("stdout\n%s\nwant\n%s", got, want)
	}
	for _, w := range []string{
		"toolfind: note: claude@2.1.330 uses profile claude@2.1.329, the newest profile not newer than 2.1.330 (it covers 2.1.329 – 2.1.331)\n",
		"toolfind: verifying Claude Code 2.1.330 (" + bin + ") against claude@2.1.329: 3 servers, 3 queries, 2 at a time\n",
	} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
}

func TestVerifyWrongProfileMismatch(t *testing.T) {
	bin := fakeClaude(t, "2.1.332")
	bundle := filepath.Join(t.TempDir(), "repro")
	out, errOut, code := run(t, "verify", "--client", "claude@0-test-wrong", "--binary", bin, "--query", "invoice", "--query", "billing", "--bundle", bundle)
	if code != exitCheckFailed {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitCheckFailed, out, errOut)
	}
	got := elapsed.ReplaceAllString(out, ")")
	for _, w := range []string{
		"[1/2] MISMATCH  \"invoice\" (default max_results)\n" +
			"  real:      mcp__billing__invoice_lookup, mcp__billing__findInvoice, mcp__billing__export, mcp__billing__digest\n" +
			"  simulated: mcp__billing__invoice_lookup, mcp__billing__findInvoice, mcp__billing__export\n" +
			"  first difference: real has 4 tools, simulated 3: real #4 mcp__billing__digest is missing\n",
		"[2/2] match  \"billing\" (default max_results)\n",
		"claude 2.1.332: 1/2 match, 1 mismatch (profile claude@0-test-wrong)\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("stdout lacks %q:\n%s", w, got)
		}
	}
	if !strings.Contains(errOut, "toolfind: reproduction written to "+bundle) {
		t.Errorf("stderr %s", errOut)
	}
	real, err := os.ReadFile(filepath.Join(bundle, verify.BundleReal))
	if err != nil || !strings.HasPrefix(string(real), `{"query":"invoice","tools":["mcp__billing__invoice_lookup","mcp__billing__findInvoice","mcp__billing__export","mcp__billing__digest"]}`) {
		t.Errorf("real.jsonl %q %v", real, err)
	}
	// The bundle's catalog reproduces the mismatch by itself.
	out, _, code = run(t, "verify", "--client", "claude@0-test-wrong", "--binary", bin,
		"--catalog", filepath.Join(bundle, verify.BundleCatalog), "--queries", filepath.Join(bundle, verify.BundleQueries), "--format", "json")
	var rep verify.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitCheckFailed || rep.Mismatch != 1 || rep.Matched != 1 {
		t.Errorf("rerun from the bundle: exit %d, %v, %+v", code, err, rep)
	}
}

func TestVerifyWithoutBuiltins(t *testing.T) {
	bin := fakeClaude(t, "2.1.332")
	out, errOut, code := run(t, "verify", "--client", "claude", "--binary", bin, "--query", "notes", "--claude-builtins=false", "--format", "json")
	var rep verify.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || rep.Matched != 1 ||
		strings.Join(rep.Outcomes[0].Real.Tools, ",") != "mcp__accounts__add_notes" {
		t.Errorf("exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
}

func TestVerifyUsage(t *testing.T) {
	emptyPath := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--query", "x"}, `verify checks one client: --client claude, gemini or copilot (or NAME@VERSION); got "all"`},
		{[]string{"verify", "--client", "grok", "--query", "x"}, `got "grok"`},
		{[]string{"verify", "--client", "claude,grok", "--query", "x"}, `got "claude,grok"`},
		{[]string{"verify", "--client", "claude"}, "verify needs --queries FILE or --query Q"},
		{[]string{"verify", "--client", "claude", "--query", "x", "--parallel", "0"}, "--parallel 0: must be 1 or more"},
		{[]string{"verify", "--client", "claude", "--query", "x", "--format", "xml"}, `--format "xml": want text or json`},
		{[]string{"verify", "--client", "claude", "--query", "x", "--query-timeout", "0s"}, "--query-timeout 0s"},
		{[]string{"verify", "--client", "claude", "--queries", filepath.Join(emptyPath, "none.jsonl")}, "none.jsonl"},
		{[]string{"verify", "--client", "claude", "--query", "x"}, "no claude on PATH (give --binary)"},
	}
	t.Setenv("PATH", emptyPath)
	for _, tt := range tests {
		_, errOut, code := run(t, tt.args...)
		if code != exitBadInput || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want %q", tt.args, code, errOut, tt.want)
		}
	}
}
