package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// actionCatalog is the fixture repository's catalog; desc is make_doc's
// description.
func actionCatalog(desc string) string {
	return `{"server": "billing", "tools": [
 {"name": "make_doc", "description": "` + desc + `", "inputSchema": {"type": "object", "properties": {"customer": {"type": "string"}}}},
 {"name": "send_mail", "description": "Send an email message to a customer", "inputSchema": {"type": "object"}},
 {"name": "list_customers", "description": "List every customer of the account", "inputSchema": {"type": "object"}}]}
`
}

// TestActionScript runs the GitHub Action's script on a fixture
// repository: a clean change passes with the report in the job summary; a
// change that drops the words users search for fails, and the summary
// names the regression and carries the suggested edits.
func TestActionScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not in PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not in PATH")
	}
	script, err := filepath.Abs("../../.github/action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := filepath.Join(bin, "toolfind")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\n"+asToolfindEnv+"=1 exec '"+self+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, gitEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) {
		git("add", "-A")
		git("commit", "-q", "-m", msg)
	}
	git("init", "-q", "-b", "main")
	write("catalog.json", actionCatalog("Create an invoice for a customer and return its number"))
	write("queries.jsonl", `{"query": "new invoice", "expect": ["billing/make_doc"]}
{"query": "email the customer", "expect": ["billing/send_mail"]}
`)
	commit("catalog and queries")

	runAction := func() (string, string, int) {
		t.Helper()
		summary := filepath.Join(t.TempDir(), "summary.md")
		cmd := exec.Command(bash, script)
		cmd.Dir = repo
		cmd.Env = append(gitEnv, "TOOLFIND="+wrapper, "INPUT_CATALOG=catalog.json", "INPUT_QUERIES=queries.jsonl",
			"INPUT_CLIENT=claude,grok", "INPUT_BASE=HEAD^", "GITHUB_STEP_SUMMARY="+summary, "GITHUB_BASE_REF=")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		data, rerr := os.ReadFile(summary)
		if rerr != nil {
			t.Fatalf("no job summary: %v (stderr %s)", rerr, stderr.String())
		}
		return string(data), stderr.String(), code
	}

	// A clean change: another tool, the old ones as they were.
	write("catalog.json", strings.Replace(actionCatalog("Create an invoice for a customer and return its number"), `]}`,
		`, {"name": "get_rate", "description": "Get the exchange rate of a currency", "inputSchema": {"type": "object"}}]}`, 1))
	commit("add get_rate")
	summary, stderr, code := runAction()
	if code != 0 {
		t.Fatalf("clean change: exit %d\nsummary:\n%s\nstderr:\n%s", code, summary, stderr)
	}
	for _, want := range []string{"## toolfind: findability of `catalog.json`", "Compared with `HEAD^`", "claude@", "grok@"} {
		if !strings.Contains(summary, want) {
			t.Errorf("clean change: the summary has no %q:\n%s", want, summary)
		}
	}
	if strings.Contains(summary, "### Regression") {
		t.Errorf("clean change: a regression in the summary:\n%s", summary)
	}

	// A regression: make_doc's description loses "invoice".
	write("catalog.json", strings.Replace(actionCatalog("Make a document"), `]}`,
		`, {"name": "get_rate", "description": "Get the exchange rate of a currency", "inputSchema": {"type": "object"}}]}`, 1))
	commit("shorter description")
	summary, stderr, code = runAction()
	if code != 1 {
		t.Fatalf("regression: exit %d, want 1\nsummary:\n%s\nstderr:\n%s", code, summary, stderr)
	}
	for _, want := range []string{`WORSE grok@1.0.0: "new invoice": rank 1 → not found`, "### Regression: what to change (`toolfind suggest`)", "make_doc"} {
		if !strings.Contains(summary, want) {
			t.Errorf("regression: the summary has no %q:\n%s", want, summary)
		}
	}
	if !strings.Contains(stderr, "findability got worse than in HEAD^") {
		t.Errorf("regression: stderr %q", stderr)
	}
}
