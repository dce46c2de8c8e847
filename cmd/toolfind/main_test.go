package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the CLI in-process and returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"rank without query", []string{"rank"}, "toolfind: rank needs --query"},
		{"rank bad format", []string{"rank", "--query", "x", "--format", "xml"}, `--format "xml": want text or json (see 'toolfind rank --help')`},
		{"negative limit", []string{"rank", "--query", "x", "--limit", "-1"}, "--limit -1"},
		{"unknown flag", []string{"rank", "--qery", "x"}, "unknown flag: --qery"},
		{"unknown client", []string{"rank", "--query", "x", "--client", "cursor"}, `--client: unknown client "cursor"; known:`},
		{"missing catalog", []string{"rank", "--query", "x", "--catalog", "nope.json"}, "nope.json"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"argument to a flags-only command", []string{"rank", "search files"}, "toolfind: toolfind rank takes no arguments, only flags: \"search files\" is not one (see 'toolfind rank --help')\n"},
		{"lint bad fail-on", []string{"lint", "--fail-on", "bogus"}, `--fail-on: severity "bogus"`},
		{"lint unknown rule", []string{"lint", "--disable", "nope"}, `--disable: unknown rule "nope"`},
		{"show unknown tool", []string{"show", "--tool", "nope"}, `--tool: "nope" matches no tool`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d; stderr %q", code, exitBadInput, errOut)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.want)
			}
		})
	}
}

func TestBadCatalogNamesFileLineAndColumn(t *testing.T) {
	p := writeFile(t, "broken.json", "{\n  \"server\": \"x\",\n  \"tools\": [,]\n}")
	_, errOut, code := run(t, "rank", "--query", "x", "--catalog", p)
	if code != exitBadInput || !strings.Contains(errOut, p+":3:13: invalid JSON") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "toolfind (devel)\n  built with go") {
		t.Errorf("exit %d, out %q", code, out)
	}
}

// TestRankStreamsLargeCatalogs: past streamTools tools rank builds and
// searches the clients as a stream (a few at a time); the output is the same as building every
// client first, for the compact view, --by-client and JSON, and --timing
// names the merged phase.
func TestRankStreamsLargeCatalogs(t *testing.T) {
	for _, args := range [][]string{
		{"rank", "--query", "create invoice"},
		{"rank", "--query", "issue", "--by-client", "--explain"},
		{"rank", "--query", "search", "--format", "json", "--client", "claude,grok,codex-search"},
	} {
		want, _, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		saved := streamTools
		streamTools = 0
		got, stderr, code := run(t, append(args, "--timing")...)
		streamTools = saved
		if code != 0 {
			t.Fatalf("%v streamed: exit %d", args, code)
		}
		if got != want {
			t.Errorf("%v: streamed output differs:\n%s\nbuilt first:\n%s", args, got, want)
		}
		if !strings.Contains(stderr, "build+search") || !strings.Contains(stderr, " at a time") {
			t.Errorf("%v: --timing does not name the streamed phase:\n%s", args, stderr)
		}
	}
}
