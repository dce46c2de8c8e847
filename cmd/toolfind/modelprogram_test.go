package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modelProgram is the toolfind-model program the --writer model tests
// run, built once per test process on first use into a folder of the
// temporary directory named by this checkout (so a rerun finds it up to
// date and go build only checks it).
var modelProgram struct {
	once sync.Once
	path string
	err  error
	skip bool
}

// useModelProgram builds toolfind-model (once) and points
// TOOLFIND_MODEL_PROGRAM at it for the test.
func useModelProgram(t *testing.T) string {
	t.Helper()
	modelProgram.once.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			modelProgram.skip, modelProgram.err = true, err
			return
		}
		wd, err := os.Getwd()
		if err != nil {
			modelProgram.err = err
			return
		}
		sum := sha256.Sum256([]byte(wd))
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("toolfind-test-%x", sum[:6]))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			modelProgram.err = err
			return
		}
		p := filepath.Join(dir, modelProgramName)
		if out, err := exec.Command(gobin, "build", "-o", p, "../toolfind-model").CombinedOutput(); err != nil {
			modelProgram.err = fmt.Errorf("go build ../toolfind-model: %v\n%s", err, out)
			return
		}
		modelProgram.path = p
	})
	if modelProgram.skip {
		t.Skipf("no go command to build toolfind-model: %v", modelProgram.err)
	}
	require.NoError(t, modelProgram.err)
	t.Setenv("TOOLFIND_MODEL_PROGRAM", modelProgram.path)
	return modelProgram.path
}

// The point of toolfind-model: the toolfind command links neither SDK.
func TestToolfindLinksNoSDK(t *testing.T) {
	deps := toolfindDeps(t)
	require.Contains(t, deps, "github.com/toolfind/toolfind/writer/model/remote")
	for _, d := range deps {
		assert.False(t, strings.Contains(d, "openai-go") || strings.Contains(d, "anthropic-sdk-go"), "cmd/toolfind imports %s", d)
	}
}

func TestFindModelProgram(t *testing.T) {
	checkFindProgram(t, modelHelper, findModelProgram)
	// Nowhere: the error says how to install it.
	t.Setenv("TOOLFIND_MODEL_PROGRAM", "")
	t.Setenv("PATH", t.TempDir())
	_, err := findModelProgram("")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "go install github.com/toolfind/toolfind/cmd/toolfind-model@latest")
	assert.Contains(t, err.Error(), "go install ./cmd/...")
}

// checkFindProgram checks a helper program's lookup: its flag, then its
// variable, then PATH; a flag or variable naming what cannot run is an
// error saying why.
func checkFindProgram(t *testing.T, h helper, find func(string) (string, error)) {
	t.Helper()
	dir := t.TempDir()
	exe := writeProgram(t, dir, "tm", "exit 0")
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, nil, 0o644))
	onPath := t.TempDir()
	inPath := writeProgram(t, onPath, h.name, "exit 0")

	t.Setenv("PATH", onPath)
	t.Setenv(h.env, "")
	p, err := find("")
	require.NoError(t, err)
	assert.Equal(t, inPath, p, "on PATH")
	t.Setenv(h.env, exe)
	p, err = find("")
	require.NoError(t, err)
	assert.Equal(t, exe, p, "the environment before PATH")
	p, err = find(inPath)
	require.NoError(t, err)
	assert.Equal(t, inPath, p, "the flag before the environment")

	for _, tt := range []struct{ flag, env, want string }{
		{filepath.Join(dir, "none"), "", h.flag + " " + filepath.Join(dir, "none") + ": no such file"},
		{"", plain, h.env + " " + plain + ": not executable"},
		{dir, "", h.flag + " " + dir + ": a folder, not a program"},
	} {
		t.Setenv(h.env, tt.env)
		_, err := find(tt.flag)
		assert.EqualError(t, err, tt.want)
	}
}

// writeProgram writes an executable shell script.
func writeProgram(t *testing.T, dir, name, script string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	return p
}

// Through the command: a missing program is a usage error; one that dies
// at once is an error naming its exit and last words; a run the cache
// answers starts no program at all.
func TestWriteModelProgramErrors(t *testing.T) {
	program := useModelProgram(t)
	t.Setenv("OPENAI_API_KEY", stubKey)
	q := writeFile(t, "q.jsonl", twoPrompts)
	args := []string{"write", "--writer", "model", "--model-url", "http://127.0.0.1:9/v1", "--model", "m", "--client", "claude", "--queries", q}

	t.Setenv("TOOLFIND_MODEL_PROGRAM", "")
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir())
	_, errOut, code := run(t, append(args, "--no-cache")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--writer model runs the toolfind-model program")
	t.Setenv("PATH", path)

	dying := writeProgram(t, t.TempDir(), "dying", "echo 'panic: out of luck' >&2; exit 3")
	_, errOut, code = run(t, append(args, "--no-cache", "--model-program", dying)...)
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "model writer: dying exited before it was ready (exit status 3): panic: out of luck")

	notIt := writeProgram(t, t.TempDir(), "chatty", "echo hello; while read l; do :; done")
	_, errOut, code = run(t, append(args, "--no-cache", "--model-program", notIt)...)
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, `model writer: chatty is not toolfind-model (`+notIt+`): its line 1 is not the protocol`)

	// A cache that holds every answer: the dying program is never run.
	stub := newAPIStub(t, `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function",
	  "function":{"name":"ToolSearch","arguments":"{\"query\":\"invoice\"}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`)
	t.Setenv("TOOLFIND_MODEL_PROGRAM", program)
	cache := filepath.Join(t.TempDir(), "c.jsonl")
	cached := []string{"write", "--writer", "model", "--model-url", stub.srv.URL, "--model", "m", "--client", "claude", "--queries", q, "--cache", cache}
	_, errOut, code = run(t, cached...)
	require.Equal(t, 0, code, errOut)
	_, errOut, code = run(t, append(cached, "--model-program", dying)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "2 answers (2 cached, 0 requests sent)")
	assert.Equal(t, int64(2), stub.n.Load())
}
