package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// failedListCatalog has a server whose tools/list fails in Claude Code
// (one tool with "properties": null fails the SDK's validation, spec §2)
// next to a good one; servers in the order of the spec §0 example.
const failedListCatalog = `{"servers":[
 {"name":"good","tools":[{"name":"alpha","description":"Good tool.","inputSchema":{"type":"object"}}]},
 {"name":"hostile.server","tools":[{"name":"t","inputSchema":{"type":"object","properties":null}}]},
 {"name":"broken","tools":[{"name":"u","inputSchema":{"type":"object","required":null}}]}]}`

// The no-match text of Claude Code 2.1.329+ when servers' lists failed
// (specs/claude.md §0; this exact text was returned by the real 2.1.332).
const failedListShown = "No matching deferred tools found. Note: these MCP servers are connected, but listing their tools failed, so their tools are unavailable for now: broken; hostile.server. Treat this as a failure to load their tools — do not conclude the server has no tools."

func TestRankFailedListNote(t *testing.T) {
	cat := writeFile(t, "failed.json", failedListCatalog)
	for _, tt := range []struct {
		client, want string
	}{
		{"claude@2.1.332", failedListShown},
		{"claude", failedListShown},
		{"claude@2.1.329", failedListShown},
		{"claude@2.1.328", "No matching deferred tools found"},
	} {
		out, errOut, code := run(t, "rank", "--catalog", cat, "--client", tt.client, "--query", "invoice", "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.client, code, errOut)
		}
		var got rankOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Results) != 1 || got.Results[0].Shown != tt.want {
			t.Errorf("%s: shown\n%q\nwant\n%q", tt.client, got.Results[0].Shown, tt.want)
		}
	}
	// The table with --shown prints it as one line.
	out, _, _ := run(t, "rank", "--catalog", cat, "--client", "claude@2.1.332", "--query", "invoice", "--shown")
	if !strings.Contains(out, "\n  | "+failedListShown+"\n") {
		t.Errorf("table:\n%s", out)
	}
	out, _, _ = run(t, "rank", "--catalog", cat, "--client", "claude@2.1.328", "--query", "invoice", "--shown")
	if strings.Contains(out, "listing their tools failed") {
		t.Errorf("2.1.328 shows the note:\n%s", out)
	}
}

func TestRankReleaseResolution(t *testing.T) {
	tests := []struct {
		client, header, stderr string
	}{
		{"claude@2.1.330", "claude@2.1.329 — ",
			"toolfind: note: claude@2.1.330 uses profile claude@2.1.329, the newest profile not newer than 2.1.330 (it covers 2.1.329 – 2.1.331)\n"},
		{"claude@2.1.333", "claude@2.1.332 — ",
			"toolfind: warning: claude@2.1.333 is newer than every claude profile; using claude@2.1.332, the newest, which may not match it; run `toolfind verify --client claude` to compare it with the installed client\n"},
		{"claude@2.1.332", "claude@2.1.332 — ", ""},
	}
	for _, tt := range tests {
		out, errOut, code := run(t, "rank", "--client", tt.client, "--query", "invoice")
		if code != 0 || !strings.HasPrefix(out, tt.header) || errOut != tt.stderr {
			t.Errorf("%s: exit %d\nstdout %.60q\nstderr %q\nwant   %q", tt.client, code, out, errOut, tt.stderr)
		}
	}
	_, errOut, code := run(t, "rank", "--client", "claude@next", "--query", "invoice")
	if code != exitBadInput || !strings.Contains(errOut, `unknown client "claude@next"`) {
		t.Errorf("claude@next: exit %d, %q", code, errOut)
	}
}

func TestClientsListsReleasesAndVerification(t *testing.T) {
	out, _, code := run(t, "clients")
	for _, want := range []string{
		"claude@2.1.332 (default)\n",
		"\n  releases: 2.1.332 and later\n",
		"claude@2.1.329\n  Claude Code ToolSearch; empty results name the servers whose tools/list failed\n  releases: 2.1.329 – 2.1.331\n  verified: ",
		"claude@2.1.328\n  Claude Code ToolSearch as read from the 2.1.328 bundle\n  releases: 2.1.328\n  verified: the real 2.1.328: 680 recorded queries",
		"grok@1.0.0 (default)\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("clients output lacks %q:\n%s", want, out)
		}
	}
}

// clients fits 100 columns (wrapped lines indented under their entry) and
// lists a client's options once, under its first profile: the claude
// profiles share --claude-builtins.
func TestClientsFitsWidthAndListsOptionsOnce(t *testing.T) {
	t.Setenv("COLUMNS", "")
	out, _, code := run(t, "clients")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
	if n := strings.Count(out, "\n      --claude-builtins "); n != 1 {
		t.Errorf("--claude-builtins listed %d times, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "\n  verified: the real 2.1.328: 680 recorded queries over 15 public MCP catalogs and 28 hostile ones\n    agree\n") {
		t.Errorf("verified line not wrapped under its entry:\n%s", out)
	}
}
