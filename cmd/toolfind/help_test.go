package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// longestLine is the length in characters of out's longest line, and the
// line.
func longestLine(out string) (int, string) {
	n, line := 0, ""
	for _, l := range strings.Split(out, "\n") {
		if c := utf8.RuneCountInString(l); c > n {
			n, line = c, l
		}
	}
	return n, line
}

// TestHelpFitsColumns: every command's help fits $COLUMNS (it was 199–235
// columns whatever the width: pflag's flag list is not wrapped), prose,
// flags and examples alike; and 100 columns when $COLUMNS is unset and
// the output is not a terminal.
func TestHelpFitsColumns(t *testing.T) {
	commands := [][]string{{}, {"rank"}, {"bench"}, {"check"}, {"show"}, {"lint"}, {"snapshot"}, {"write"},
		{"suggest"}, {"result"}, {"queries"}, {"queries", "import"}, {"verify"}, {"clients"}, {"version"}, {"mcp"}}
	for _, columns := range []string{"100", "72", ""} {
		t.Setenv("COLUMNS", columns)
		width := map[string]int{"100": 100, "72": 72, "": 100}[columns]
		for _, c := range commands {
			out, errOut, code := run(t, append(c, "--help")...)
			require.Equal(t, 0, code, "%v: %s", c, errOut)
			n, line := longestLine(out)
			assert.LessOrEqual(t, n, width, "COLUMNS=%q %v --help: %q", columns, c, line)
		}
	}
}

// TestHelpClientFlags: the client options are listed by client in their
// own section, not among every command's flags; 'clients NAME' explains
// them.
func TestHelpClientFlags(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	out, _, code := run(t, "rank", "--help")
	require.Equal(t, 0, code)
	flags, clientSection, ok := strings.Cut(out, "\nClient flags ('toolfind clients NAME' explains them):\n")
	require.True(t, ok, out)
	assert.NotContains(t, flags, "--claude-builtins")
	assert.NotContains(t, flags, "--codex-engine")
	assert.Contains(t, flags, "\nGlobal flags:\n      --catalog PATH")
	assert.Contains(t, clientSection, "  claude: --claude-builtins, --claude-max-description\n")
	assert.Contains(t, clientSection, "  grok: --grok-partial\n")

	out, _, code = run(t, "clients", "grok")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "grok@1.0.0 (default)\n")
	assert.Contains(t, out, "  flags:\n      --grok-partial ")
	assert.NotContains(t, out, "claude@")
	// A client flag still works on every command.
	_, errOut, code := run(t, "rank", "--client", "grok", "--grok-partial", "-q", "invoice")
	assert.Equal(t, 0, code, errOut)
}

// TestSplitCommandLine: an example too long for the width is broken at
// blanks outside quotes, each line but the last ending in a backslash.
func TestSplitCommandLine(t *testing.T) {
	line := `  toolfind write --queries q.jsonl --writer command --writer-command 'python3 my_model.py' --out w.jsonl`
	// 2 + "toolfind write --queries q.jsonl --writer command" (49) = 51;
	// adding " --writer-command" (17) and " \" (2) would make 70 > 60.
	assert.Equal(t, []string{
		`  toolfind write --queries q.jsonl --writer command \`,
		`      --writer-command 'python3 my_model.py' --out w.jsonl`,
	}, splitCommandLine(line, 60))
	assert.Equal(t, []string{"  short"}, splitCommandLine("  short", 60))
}

// TestReflow: prose paragraphs over the width are rewrapped ("one two
// three four" is 18 of 20 columns); indented
// lines keep their indentation; paragraphs that fit are kept as written.
func TestReflow(t *testing.T) {
	in := "one two three four five six\n\nkept\nas is\n\n  - an indented item that is long"
	assert.Equal(t, "one two three four\nfive six\n\nkept\nas is\n\n  - an indented item\n    that is long", reflow(in, 20))
}

func TestVersionFlagAndJSON(t *testing.T) {
	out, _, code := run(t, "--version")
	assert.Equal(t, 0, code)
	assert.Equal(t, "toolfind (devel)\n", out) // a test binary records no version or commit

	out, _, code = run(t, "version", "--format", "json")
	require.Equal(t, 0, code)
	var v struct {
		Version  string `json:"version"`
		Profiles []struct {
			Client  string `json:"client"`
			Default bool   `json:"default"`
		} `json:"profiles"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, "(devel)", v.Version)
	assert.Contains(t, v.Profiles, struct {
		Client  string `json:"client"`
		Default bool   `json:"default"`
	}{"claude@2.1.332", true})
}

func TestClientsJSON(t *testing.T) {
	out, _, code := run(t, "clients", "claude", "--format", "json")
	require.Equal(t, 0, code)
	var v struct {
		Clients []clientJSON `json:"clients"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotEmpty(t, v.Clients)
	c := v.Clients[0]
	assert.Equal(t, "claude@2.1.332", c.Client)
	assert.True(t, c.Default)
	assert.Equal(t, "2.1.332 and later", c.Releases)
	assert.Contains(t, c.Options, optionJSON{Flag: "--claude-builtins", Kind: "bool", Default: "true",
		Usage: "include Claude Code 2.1.328's deferred built-in tools (WebFetch, CronCreate, …) in the search pool"})
	for _, c := range v.Clients {
		assert.Equal(t, "claude", c.Name)
	}

	_, errOut, code := run(t, "clients", "claud")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown client "claud" (did you mean "claude"?)`)
}

// TestFormatVocabulary: every command calls its human-readable format
// "text"; "table" (rank's and bench's old name) still reads as text; a
// typo is answered with the nearest format.
func TestFormatVocabulary(t *testing.T) {
	text, _, code := run(t, "rank", "-q", "invoice")
	require.Equal(t, 0, code)
	for _, f := range []string{"text", "table", "TEXT"} {
		out, errOut, code := run(t, "rank", "-q", "invoice", "--format", f)
		assert.Equal(t, 0, code, errOut)
		assert.Equal(t, text, out, "--format %s", f)
	}
	tests := []struct{ args, want string }{
		{"rank -q x --format jsno", `--format "jsno": want text or json (did you mean "json"?) (see 'toolfind rank --help')`},
		{"bench --format tabel", `--format "tabel": want text, json, markdown, junit or html (did you mean "text"?)`},
		{"bench --format htlm", `(did you mean "html"?)`},
		{"lint --format pdf", `--format "pdf": want text, json or sarif (see`},
		{"rank -q x --limit x", `--limit "x": want a whole number (see 'toolfind rank --help')`},
		{"rank -q x --timeout 5", `--timeout "5": want a duration such as 30s, 2m or 1h30m`},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, strings.Fields(tt.args)...)
		assert.Equal(t, 2, code, tt.args)
		assert.Contains(t, errOut, tt.want, tt.args)
	}
}

// TestCompletion: the shell completion offers the values of --client
// (after the entries already typed), --format and --writer.
func TestCompletion(t *testing.T) {
	complete := func(args ...string) []string {
		out, errOut, code := run(t, append([]string{"__complete"}, args...)...)
		require.Equal(t, 0, code, errOut)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[:len(lines)-1] // the last line is the directive
	}
	assert.Equal(t, []string{"claude,codex", "claude,codex-search", "claude,copilot", "claude,codex@0.171.0", "claude,codex-search@0.171.0", "claude,copilot@1.0.102"},
		complete("rank", "--client", "claude,co"))
	assert.Contains(t, complete("rank", "--client", ""), "all")
	assert.Equal(t, []string{"text", "json", "markdown", "junit", "html"}, complete("bench", "--format", ""))
	assert.Equal(t, []string{"text", "json", "sarif"}, complete("lint", "--format", ""))
	assert.Equal(t, []string{"verbatim", "heuristic"}, complete("rank", "--writer", ""))
	assert.Equal(t, []string{"verbatim", "heuristic", "model", "command"}, complete("write", "--writer", ""))
	assert.Contains(t, complete("clients", ""), "opencode-codemode")
}
