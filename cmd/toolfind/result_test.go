package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resultReport is `toolfind result --format json`.
type resultReport struct {
	Results []struct {
		Client     string   `json:"client"`
		Verdict    string   `json:"verdict"`
		Shown      string   `json:"shown"`
		ShownChars int      `json:"shown_chars"`
		ShownBytes int      `json:"shown_bytes"`
		Advice     []string `json:"advice"`
		Detail     string   `json:"detail"`
		Notes      []string `json:"notes"`
	} `json:"results"`
}

func runResultJSON(t *testing.T, args ...string) resultReport {
	t.Helper()
	out, errOut, code := run(t, append([]string{"result", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep resultReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) == 0 {
		t.Fatal("no results")
	}
	return rep
}

// oneLineJSON is a single-line JSON array of n bytes (ASCII, no character
// that JSON escapes differently in Go and JavaScript): records
// {"id":NNNNNN,"name":"record NNNNNN","status":"open"} then padding in the
// last record's name.
func oneLineJSON(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i := 0; b.Len() < n-200; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		id := strconv.Itoa(100000 + i)
		b.WriteString(`{"id":` + id + `,"name":"record ` + id + `","status":"open"}`)
	}
	last := `,{"id":0,"name":"`
	pad := n - b.Len() - len(last) - len(`"}]`)
	b.WriteString(last + strings.Repeat("z", pad) + `"}]`)
	if b.Len() != n {
		t.Fatalf("fixture %d bytes", b.Len())
	}
	return b.String()
}

// The "done when": `toolfind result --file big.json` on a
// 218,237-character single-line JSON result (the size of the seed's
// 46,253-token list result) reports, per client, what the model gets, as
// the seed ("How to optimise your MCP tools…", "Output caps in detail")
// describes it: refused outright by Claude Code (a file path instead of the
// data), cut to 20 KB by Grok Build, the middle cut out by Codex; OpenCode
// keeps whole lines only, and a single 218,237-byte line is none of them
// (the seed's "cut to 50 KB" holds for multi-line text).
func TestResultDoneWhen(t *testing.T) {
	text := oneLineJSON(t, 218_237)
	quoted, _ := json.Marshal(text)
	file := writeFile(t, "big.json", `{"content":[{"type":"text","text":`+string(quoted)+`}]}`)
	rep := runResultJSON(t, "--file", file)
	if len(rep.Results) != 6 {
		t.Fatalf("%d clients", len(rep.Results))
	}
	byClient := map[string]int{}
	for i, r := range rep.Results {
		byClient[r.Client] = i
	}
	// Copilot CLI: 218,237 bytes > 20,480: saved, a notice and a
	// 500-character preview (218,237 / 1024 = 213.1 KB).
	if c := rep.Results[byClient["copilot@1.0.102"]]; c.Verdict != "replaced" || !strings.HasPrefix(c.Shown, "Output too large to read at once (213.1 KB). Saved to: ") {
		t.Errorf("copilot: %s %q", c.Verdict, c.Shown[:min(len(c.Shown), 120)])
	}

	// Claude Code: estimate round(218,237 / 4) = 54,559 tokens, between
	// 12,500 and 100,000: an exact count is asked for (approximated by the
	// estimate): over 25,000: saved, path only. One text block: plain text,
	// one line.
	c := rep.Results[byClient["claude@2.1.332"]]
	if c.Verdict != "replaced" || !strings.HasPrefix(c.Shown, "Error: result (218,237 characters across 1 line) exceeds maximum allowed tokens. Output has been saved to ") ||
		!strings.Contains(c.Shown, ".\nFormat: Plain text\n") || strings.Contains(c.Shown, `"id":100000`) {
		t.Errorf("claude: %s %q", c.Verdict, c.Shown[:200])
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "token estimate 54,559 > 12,500") {
		t.Errorf("claude notes %q", c.Notes)
	}

	// Codex: JSON.stringify(result) = the file (compact, its member order):
	// 218,237 + 2 × 21,xxx escaped quotes + 39; the first and last 20,000
	// bytes around the marker.
	js := `{"content":[{"type":"text","text":` + string(quoted) + `}]}`
	tokens := (len(js) + 3) / 4
	x := rep.Results[byClient["codex@0.171.0"]]
	want := "Script completed\nWall time 0.0 seconds\nOutput:\nWarning: truncated output (original token count: " + strconv.Itoa(tokens) +
		")\nTotal output lines: 1\n\n" + js[:20_000] + "…" + strconv.Itoa((len(js)-40_000+3)/4) + " tokens truncated…" + js[len(js)-20_000:]
	if x.Verdict != "cut" || x.Shown != want {
		t.Errorf("codex: %s, %d bytes; want %d", x.Verdict, len(x.Shown), len(want))
	}

	// Grok Build: the first 20,000 bytes, then the notice; 218,237 / 1,024 =
	// 213.12 → "213.1 KB"; valid JSON on one long line.
	g := rep.Results[byClient["grok@1.0.0"]]
	wantG := text[:20_000] + "\n\n[MCP output truncated: showing first 19.5 KB of 213.1 KB. Full output written to: ~/.grok/sessions/<session>/mcp/<call_id>.json." +
		" The full output is valid JSON with a very long line, so grep/read_file are ineffective on it — use `bash` to query the saved file.]"
	if g.Verdict != "cut" || g.Shown != wantG || g.ShownBytes != len(wantG) {
		t.Errorf("grok: %s %q", g.Verdict, g.Shown[19_990:])
	}

	// OpenCode 1: the one line is over 51,200 bytes: no line is kept.
	o := rep.Results[byClient["opencode@1.18.33"]]
	wantO := "\n\n...218237 bytes truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ~/.local/share/opencode/tool-output/tool_<id>\n" +
		"Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context."
	if o.Verdict != "replaced" || o.Shown != wantO {
		t.Errorf("opencode: %s %q", o.Verdict, o.Shown)
	}
	for _, r := range rep.Results {
		if len(r.Advice) < 4 || r.ShownBytes != len(r.Shown) {
			t.Errorf("%s: %d advice, %d bytes for %d", r.Client, len(r.Advice), r.ShownBytes, len(r.Shown))
		}
	}

	// The text report names every client and verdict.
	out, errOut, code := run(t, "result", "--file", file)
	for _, s := range []string{"claude@2.1.332  REPLACED", "codex@0.171.0  CUT", "grok@1.0.0  CUT", "opencode@1.18.33  REPLACED", "  advice:\n"} {
		if code != 0 || !strings.Contains(out, s) {
			t.Errorf("exit %d, text report lacks %q: %s", code, s, errOut)
		}
	}
}

// The seed's live case: the data also as structuredContent (so Claude Code
// saves that JSON, no line count: "Error: result (218,237 characters)
// exceeds maximum allowed tokens", as quoted), with the real count the seed
// gives (46,253 tokens).
func TestResultDoneWhenStructured(t *testing.T) {
	text := oneLineJSON(t, 218_237-len(`{"items":}`))
	quoted, _ := json.Marshal(`{"items":` + text + `}`)
	file := writeFile(t, "big.json", `{"content":[{"type":"text","text":`+string(quoted)+`}],"structuredContent":{"items":`+text+`}}`)
	rep := runResultJSON(t, "--file", file, "--client", "claude", "--count-tokens", "46253")
	c := rep.Results[0]
	if c.Verdict != "replaced" || !strings.HasPrefix(c.Shown, "Error: result (218,237 characters) exceeds maximum allowed tokens. Output has been saved to ") ||
		!strings.Contains(c.Shown, ".\nFormat: JSON with schema: {items: [{...}]}\n") {
		t.Errorf("%s %q", c.Verdict, c.Shown[:300])
	}
	if !strings.Contains(strings.Join(c.Advice, "\n"), "same data twice") {
		t.Errorf("advice %q", c.Advice)
	}
}

// A catalog's definition with _meta["anthropic/maxResultSizeChars"] keeps a
// 60,000-character result whole in Claude Code; --max-result-size-chars
// overrides it.
func TestResultDefinitionFromCatalog(t *testing.T) {
	cat := writeFile(t, "cat.json", `{"server":"billing","tools":[{"name":"export","inputSchema":{"type":"object"},"_meta":{"anthropic/maxResultSizeChars":100000}}]}`)
	res := writeFile(t, "r.json", `{"content":[{"type":"text","text":"`+strings.Repeat("a", 60_000)+`"}]}`)
	rep := runResultJSON(t, "--file", res, "--catalog", cat, "--tool", "billing/export", "--client", "claude")
	if r := rep.Results[0]; r.Verdict != "whole" || r.ShownChars != 60_000 {
		t.Errorf("with definition: %s %d", r.Verdict, r.ShownChars)
	}
	rep = runResultJSON(t, "--file", res, "--catalog", cat, "--tool", "export", "--client", "claude", "--max-result-size-chars", "50000")
	if r := rep.Results[0]; r.Verdict != "replaced" {
		t.Errorf("override: %s", r.Verdict)
	}
	rep = runResultJSON(t, "--file", res, "--client", "claude")
	if r := rep.Results[0]; r.Verdict != "replaced" {
		t.Errorf("no definition: %s", r.Verdict)
	}
}

func TestResultUsageErrors(t *testing.T) {
	res := writeFile(t, "r.json", `{"content":[]}`)
	bad := writeFile(t, "bad.json", "{\"content\": [\n  {\"type\": \"text\"}\n]}")
	cat := writeFile(t, "cat.json", `{"server":"billing","tools":[{"name":"export","inputSchema":{"type":"object"}}]}`)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"result"}, "result needs --file RESULT.json"},
		{[]string{"result", "--file", res, "--server", "x"}, "not both"},
		{[]string{"result", "--file", res, "--confirm-call"}, "--args and --confirm-call apply to a live call"},
		{[]string{"result", "--server", "srv", "--tool", "t"}, "add --confirm-call"},
		{[]string{"result", "--server", "srv", "--confirm-call"}, "a live call needs --tool NAME"},
		{[]string{"result", "--server", "srv", "--tool", "t", "--confirm-call", "--args", "[1]"}, `--args "[1]": want a JSON object`},
		{[]string{"result", "--file", bad}, "bad.json:2:3: content[0]: a \"text\" block needs a string \"text\""},
		{[]string{"result", "--file", filepath.Join(t.TempDir(), "none.json")}, "--file: open"},
		{[]string{"result", "--file", res, "--client", "codex-search"}, `unknown client "codex-search"`},
		{[]string{"result", "--file", res, "--format", "xml"}, `--format "xml"`},
		{[]string{"result", "--file", res, "--catalog", cat, "--tool", "nope"}, `--tool: `},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestResultClientRelease: --client takes a release as every command does
// (the default claude@2.1.332, an older release resolved to its profile
// with a note), and labels the row with the profile.
func TestResultClientRelease(t *testing.T) {
	res := writeFile(t, "r.json", `{"content":[{"type":"text","text":"hi"}]}`)
	rep := runResultJSON(t, "--file", res, "--client", "claude@2.1.332,codex")
	require.Len(t, rep.Results, 2)
	assert.Equal(t, "claude@2.1.332", rep.Results[0].Client)
	assert.Equal(t, "codex@0.171.0", rep.Results[1].Client)
	out, errOut, code := run(t, "result", "--file", res, "--client", "claude@2.1.330")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "\nclaude@2.1.329  WHOLE  2 characters, 2 bytes\n")
	assert.Contains(t, errOut, "toolfind: note: claude@2.1.330 uses profile claude@2.1.329")
}

// A live call to a server that cannot be started exits 3 naming the phase.
func TestResultLiveStartError(t *testing.T) {
	_, errOut, code := run(t, "result", "--server", "/nonexistent/server", "--tool", "echo", "--confirm-call")
	if code != 3 || !strings.Contains(errOut, "start") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// everythingServer returns the command line of the npm server-everything
// that .ci/install-npm.sh installs into $TOOLFIND_NPM_DIR (default .ci/npm
// at the module root), or skips.
func everythingServer(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TOOLFIND_NPM_DIR")
	if dir == "" {
		dir = ".ci/npm"
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", "..", dir) // cmd/toolfind → module root
	}
	pkg := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything")
	data, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		t.Skipf("server-everything is not installed in %s (run .ci/install-npm.sh, or set TOOLFIND_NPM_DIR): %v", dir, err)
	}
	var meta struct {
		Bin map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not in PATH: %v", err)
	}
	entry, err := filepath.Abs(filepath.Join(pkg, meta.Bin["mcp-server-everything"]))
	if err != nil {
		t.Fatal(err)
	}
	return node + " " + entry + " stdio"
}

// Live calls against the real server-everything report exactly as a file
// would: a 60,000-character echo is saved by Claude Code with a preview;
// get-structured-content shows the structuredContent; get-tiny-image keeps
// its image.
func TestResultLiveEverything(t *testing.T) {
	srv := everythingServer(t)
	msg := strings.Repeat("m", 60_000)
	rep := runResultJSON(t, "--server", srv, "--tool", "echo", "--args", `{"message":"`+msg+`"}`, "--confirm-call")
	byClient := map[string]string{}
	for _, r := range rep.Results {
		byClient[r.Client] = r.Verdict
	}
	// "Echo: " + 60,000 = 60,006 characters: Claude over 50,000 (estimate
	// 15,002, counted ≈ under 25,000): replaced with a preview; Codex
	// 60,045-byte JSON: cut; Grok: cut; OpenCode: one line over 51,200:
	// replaced.
	want := map[string]string{"claude@2.1.332": "replaced", "codex@0.171.0": "cut", "grok@1.0.0": "cut", "opencode@1.18.33": "replaced"}
	for c, v := range want {
		if byClient[c] != v {
			t.Errorf("echo: %s %s, want %s", c, byClient[c], v)
		}
	}
	if c := rep.Results[0]; !strings.HasPrefix(c.Shown, "<persisted-output>\nOutput too large (58.6KB).") ||
		!strings.Contains(c.Shown, "\"text\": \"Echo: mmmm") {
		t.Errorf("claude echo: %q", c.Shown[:200])
	}

	rep = runResultJSON(t, "--server", srv, "--tool", "get-structured-content", "--args", `{"location":"Chicago"}`, "--confirm-call", "--client", "claude,codex")
	if c := rep.Results[0]; c.Verdict != "whole" || !strings.HasPrefix(c.Shown, `{"temperature":`) {
		t.Errorf("structured: %s %q", c.Verdict, c.Shown)
	}
	if x := rep.Results[1]; !strings.Contains(x.Shown, `"structuredContent":{"temperature":`) || !strings.Contains(x.Shown, `{"content":[{"type":"text","text":"{\"temperature\":`) {
		t.Errorf("codex structured: %q", x.Shown)
	}

	out, errOut, code := run(t, "result", "--server", srv, "--tool", "get-tiny-image", "--confirm-call", "--client", "claude")
	if code != 0 || !strings.Contains(out, "blocks: text (") || !strings.Contains(out, "image image/png (") {
		t.Errorf("image: exit %d %s\n%s", code, errOut, out)
	}
}

// --file - reads standard input; --full prints a long shown text whole.
func TestResultStdinAndFull(t *testing.T) {
	text := strings.Repeat("s", 25_000)
	var out, errOut strings.Builder
	code := Main([]string{"result", "--file", "-", "--client", "grok", "--full"}, strings.NewReader(`{"content":[{"type":"text","text":"`+text+`"}]}`), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// The 20,000 kept bytes are printed whole on one quoted line.
	if !strings.HasPrefix(out.String(), "result standard input: 1 block of text (25,000 characters, 25,000 bytes)\n") ||
		!strings.Contains(out.String(), "    | "+strings.Repeat("s", 20_000)+"\n") || strings.Contains(out.String(), "not printed") {
		t.Errorf("output:\n%s", head(out.String(), 400))
	}
}

func head(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// TestResultInputLimit: --file /dev/zero and an endless standard input
// are refused after result.MaxInputBytes (16 MiB = 16,777,216 bytes), exit
// 2, naming the input and the limit, not read whole.
func TestResultInputLimit(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, errOut, code := run(t, "result", "--file", "/dev/zero")
		if want := "toolfind: --file: /dev/zero: the result is larger than 16777216 bytes (16 MiB), the limit for one tool result\n"; code != 2 || errOut != want {
			t.Errorf("/dev/zero: exit %d, %q\nwant 2, %q", code, errOut, want)
		}
	}
	var out, errOut strings.Builder
	code := Main([]string{"result", "--file", "-"}, io.LimitReader(zeroReader{}, 1<<30), &out, &errOut)
	if want := "toolfind: --file: standard input: the result is larger than 16777216 bytes (16 MiB), the limit for one tool result\n"; code != 2 || errOut.String() != want {
		t.Errorf("standard input: exit %d, %q\nwant 2, %q", code, errOut.String(), want)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
