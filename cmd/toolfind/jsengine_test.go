package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/jsbox/gojabox"
)

// The point of toolfind-js: the toolfind command links no JavaScript
// engine (goja and what it brings: regexp2, pprof's profile, sourcemap).
func TestToolfindLinksNoGoja(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/toolfind/toolfind/jsbox/remote")
	for _, d := range deps {
		for _, engine := range []string{"github.com/dop251/", "github.com/dlclark/regexp2", "github.com/google/pprof", "github.com/go-sourcemap", "jsbox/gojabox"} {
			assert.False(t, strings.Contains(d, engine), "cmd/toolfind imports %s", d)
		}
	}
}

func TestFindJSProgram(t *testing.T) {
	dir := t.TempDir()
	exe := writeProgram(t, dir, "tj", "exit 0")
	onPath := t.TempDir()
	inPath := writeProgram(t, onPath, jsHelper.name, "exit 0")

	t.Setenv("PATH", onPath)
	t.Setenv(jsHelper.env, "")
	p, err := jsHelper.find("")
	require.NoError(t, err)
	assert.Equal(t, inPath, p, "on PATH")
	t.Setenv(jsHelper.env, exe)
	p, err = jsHelper.find("")
	require.NoError(t, err)
	assert.Equal(t, exe, p, "the environment before PATH")
	t.Setenv(jsHelper.env, filepath.Join(dir, "none"))
	_, err = jsHelper.find("")
	assert.EqualError(t, err, "TOOLFIND_JS_PROGRAM "+filepath.Join(dir, "none")+": no such file")

	t.Setenv(jsHelper.env, "")
	t.Setenv("PATH", t.TempDir())
	_, err = jsHelper.find("")
	assert.EqualError(t, err, "this run needs JavaScript (a Codex or OpenCode code-mode script to run, or --codex-engine goja) "+
		"and runs it in the toolfind-js program (it holds the goja engine), found neither beside toolfind nor on PATH: "+
		"install it with `go install github.com/toolfind/toolfind/cmd/toolfind-js@latest` (or `go install ./cmd/...` in a checkout), "+
		"or give TOOLFIND_JS_PROGRAM=PATH")
}

// Through the command: a run that needs JavaScript without toolfind-js
// is a usage error saying how to install it; a run that needs none does
// not look for it; a program that dies is an error naming its exit and
// last words.
func TestJSProgramErrors(t *testing.T) {
	script := writeFile(t, "s.js", "text(ALL_TOOLS.length)\n")
	rank := []string{"rank", "--client", "codex", "--codex-script", script, "-q", "invoice"}

	t.Setenv(jsHelper.env, "")
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir())
	out, errOut, code := run(t, rank...)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "toolfind: this run needs JavaScript")
	assert.Contains(t, errOut, "go install github.com/toolfind/toolfind/cmd/toolfind-js@latest")
	assert.Equal(t, 1, strings.Count(errOut, "toolfind:"), errOut)

	for _, args := range [][]string{
		{"rank", "--client", "codex", "-q", "invoice"},
		{"rank", "--client", "codex,opencode-codemode", "--writer", "heuristic", "--prompt", "send an invoice"},
	} {
		_, errOut, code = run(t, args...)
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
	}
	_, errOut, code = run(t, "rank", "--client", "codex", "--codex-engine", "goja", "-q", "invoice")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "toolfind: this run needs JavaScript")
	t.Setenv("PATH", path)

	dying := writeProgram(t, t.TempDir(), "dying", "echo 'panic: out of luck' >&2; exit 3")
	t.Setenv(jsHelper.env, dying)
	_, errOut, code = run(t, rank...)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "dying exited before it was ready (exit status 3): panic: out of luck")
}

// The same bytes whether scripts run in toolfind-js or in this process:
// rank of a Codex script, Codex's built-in strategies in goja, and bench
// of model-written Codex and OpenCode scripts (the first 30 lines of each
// client's in the held-out azure set).
func TestJSProgramOutput(t *testing.T) {
	script := writeFile(t, "s.js", "const hits = ALL_TOOLS.filter(t => /invoice/i.test(t.description));\ntext(hits.map(t => t.name).join('\\n'))\n")
	runs := [][]string{
		{"rank", "--client", "codex", "--codex-script", script, "-q", "invoice", "--format", "json"},
		{"rank", "--client", "codex", "--codex-engine", "goja", "-q", "send an invoice", "--format", "json"},
	}
	if data, err := os.ReadFile("../../writer/testdata/heldout/azure.jsonl"); err == nil {
		n := map[string]int{}
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			for _, c := range []string{`"client": "codex@`, `"client": "opencode-codemode@`} {
				if strings.Contains(l, c) && n[c] < 30 {
					n[c]++
					lines = append(lines, l)
				}
			}
		}
		written := writeFile(t, "written.jsonl", strings.Join(lines, "\n")+"\n")
		catalog := sharedDir(t, "catalogs", "azure.json")
		runs = append(runs, []string{"bench", "--written", written, "--catalog", catalog, "--codex-timeout", "60s", "--format", "json"})
	}
	for _, args := range runs {
		child, errOut, code := run(t, args...)
		require.Equal(t, exitOK, code, "%q: %s", args, errOut)
		inProcessJS = gojabox.New()
		local, errOut2, code2 := run(t, args...)
		inProcessJS = nil
		require.Equal(t, exitOK, code2, "%q: %s", args, errOut2)
		assert.Equal(t, local, child, "%q", args)
		assert.Equal(t, errOut2, errOut, "%q", args)
		assert.Contains(t, child, `"codex@0.171.0"`, "%q", args)
	}
}
