package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/claude"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/fakeclient"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/claudecode/messagesapi"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

func TestMain(m *testing.M) {
	fakeclient.ServeStub()
	os.Exit(m.Run())
}

// fakeClaude builds testdata/fakeclaude reporting the given version.
func fakeClaude(t *testing.T, version string) string {
	return fakeclient.Build(t, "./testdata/fakeclaude", "claude-"+version, "-X main.version="+version)
}

func runner(t *testing.T, bin string, cat *corpus.Catalog) *Runner {
	t.Helper()
	servers, err := mcpstub.FromCatalog(cat)
	if err != nil {
		t.Fatal(err)
	}
	stub, env := fakeclient.Stub()
	return &Runner{Binary: bin, Servers: servers, StubCommand: stub, StubEnv: env}
}

// failedList is the demo catalog plus a server whose tools/list fails
// Claude Code's validation ("properties": null, spec §2).
func failedList(t *testing.T) *corpus.Catalog {
	t.Helper()
	cat := corpus.Demo()
	servers, diags, err := corpus.ParseCatalog("broken.json", []byte(`{"server":"broken","tools":[{"name":"t","inputSchema":{"type":"object","properties":null}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.AddParsed(servers, diags); err != nil {
		t.Fatal(err)
	}
	cat.Revalidate()
	return cat
}

var demoQueries = []verify.Query{
	{Text: "invoice"},                 // max_results left out: the client's default 5
	{Text: "billing", Limit: 10},      // a tie in pool order
	{Text: "zzzqqq"},                  // the failed-list note
	{Text: "customer_lookup"},         // note + the always-loaded reminder
	{Text: "select:ledger,add_notes"}, // select: in name order
	{Text: "notes"},                   // built-ins take slots
}

func TestVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fake client")
	}
	got, err := Version(context.Background(), fakeClaude(t, "2.1.330"))
	if err != nil || got != "2.1.330" {
		t.Errorf("Version = %q, %v", got, err)
	}
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("#!/bin/sh\necho 'Claude Code, latest'\n"), 0o755)
	if _, err := Version(context.Background(), junk); err == nil || !strings.Contains(err.Error(), `"Claude Code, latest" does not start with a release number`) {
		t.Errorf("junk version: %v", err)
	}
	if _, err := Version(context.Background(), filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing binary accepted")
	}
}

// TestVersionRelativeBinary: a relative path is the user's, from the
// current folder, though the client runs in a throwaway one (it failed
// with "fork/exec ../x/claude: no such file or directory").
func TestVersionRelativeBinary(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "x"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "work"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x", "claude"), []byte("#!/bin/sh\necho '2.1.332 (Claude Code)'\n"), 0o755))
	t.Chdir(filepath.Join(dir, "work"))
	got, err := Version(context.Background(), "../x/claude")
	require.NoError(t, err)
	assert.Equal(t, "2.1.332", got)
	abs, err := ResolveBinary("../x/claude")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "x", "claude"), abs)
	// A bare name is looked up in PATH.
	t.Setenv("PATH", filepath.Join(dir, "x"))
	abs, err = ResolveBinary("claude")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "x", "claude"), abs)
	_, err = ResolveBinary("no-such-claude")
	assert.ErrorContains(t, err, "no no-such-claude on PATH")
}

func TestInput(t *testing.T) {
	for _, tt := range []struct {
		q    verify.Query
		want string
	}{
		{verify.Query{Text: "invoice"}, `{"query":"invoice"}`},
		{verify.Query{Text: "a <b>", Limit: 3}, `{"max_results":3,"query":"a \u003cb\u003e"}`},
	} {
		if got := string(Input(tt.q)); got != tt.want {
			t.Errorf("Input(%+v) = %s, want %s", tt.q, got, tt.want)
		}
	}
}

func TestAnswer(t *testing.T) {
	c := &messagesapi.Capture{Content: json.RawMessage(`[{"type":"tool_reference","tool_name":"a"},{"type":"tool_reference","tool_name":"b"}]`),
		Extra: []json.RawMessage{json.RawMessage(`{"type":"text","text":"Tool loaded."}`)}}
	if got, err := answer(c); err != nil || fmt.Sprint(got.Tools) != "[a b]" || got.Text != "" {
		t.Errorf("%+v %v", got, err)
	}
	c = &messagesapi.Capture{Content: json.RawMessage(`"No matching deferred tools found"`),
		Extra: []json.RawMessage{json.RawMessage(`{"type":"text","text":"<system-reminder>\nx\n</system-reminder>"}`), json.RawMessage(`{"type":"image"}`)}}
	if got, err := answer(c); err != nil || len(got.Tools) != 0 || got.Text != "No matching deferred tools found\n\n<system-reminder>\nx\n</system-reminder>" {
		t.Errorf("answer %+v %v", got, err)
	}
	c = &messagesapi.Capture{Content: json.RawMessage(`"bad input"`), IsError: true}
	if _, err := answer(c); err == nil || err.Error() != "the client reported a tool error: bad input" {
		t.Errorf("is_error: %v", err)
	}
}

// TestFakeClientMatches: the whole loop (stub servers, emulated model API,
// the client's next request) with a client that answers as the simulator.
func TestFakeClientMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fake client")
	}
	cat := failedList(t)
	r := runner(t, fakeClaude(t, "2.1.332"), cat)
	rep, err := verify.Run(context.Background(), r, claude.New(cat, claude.V2_1_332, claude.DefaultOptions()), demoQueries, verify.Options{Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	rep.Client = "claude 2.1.332"
	if c := rep.Schema; c == nil || fmt.Sprint(c.Real, c.Simulated, c.Match) != "[query] [query] true" || !rep.Agrees() {
		t.Errorf("schema check %+v", c)
	}
	if rep.Summary() != "claude 2.1.332: 6/6 match (profile claude@2.1.332)" {
		for _, o := range rep.Outcomes {
			t.Logf("%+v real %+v sim %+v", o, o.Real, o.Simulated)
		}
		t.Fatal(rep.Summary())
	}
	want := [][]string{
		{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"},
		{"mcp__billing__digest", "mcp__billing__export", "mcp__billing__findInvoice", "mcp__billing__invoice_lookup", "mcp__billing__ledger", "mcp__accounts__add_notes"},
		{},
		{},
		{"mcp__billing__ledger", "mcp__accounts__add_notes"},
		{"mcp__accounts__add_notes", "WebFetch", "WebSearch"},
	}
	for i, o := range rep.Outcomes {
		if fmt.Sprint(o.Real.Tools) != fmt.Sprint(want[i]) {
			t.Errorf("%q: real %q, want %q", o.Query.Text, o.Real.Tools, want[i])
		}
	}
	note := "No matching deferred tools found. Note: these MCP servers are connected, but listing their tools failed, so their tools are unavailable for now: broken. Treat this as a failure to load their tools — do not conclude the server has no tools."
	if rep.Outcomes[2].Real.Text != note || rep.Outcomes[3].Real.Text != note+"\n\n<system-reminder>\nAlready available in this conversation: mcp__billing__customer_lookup. Call it directly.\n</system-reminder>" {
		t.Errorf("texts:\n%q\n%q", rep.Outcomes[2].Real.Text, rep.Outcomes[3].Real.Text)
	}
}

// TestWrongSimulationMismatches: a deliberately wrong, test-only profile
// (descriptions cut to 8 characters) and the 2.1.328 profile (no note)
// against a client that answers as 2.1.332; and a client that disagrees
// with the simulation (the fake's "reverse" mode).
func TestWrongSimulationMismatches(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fake client")
	}
	cat := failedList(t)
	wrong := claude.V2_1_332
	wrong.Version, wrong.ListCap = "0-test-wrong", 8
	tests := []struct {
		name  string
		sim   search.Simulator
		mode  string
		query verify.Query
		diff  string
	}{
		// digest scores only by "invoice" in its description, cut away at 8.
		{"wrong cap", claude.New(cat, wrong, claude.DefaultOptions()), "", verify.Query{Text: "invoice"},
			"real has 4 tools, simulated 3: real #4 mcp__billing__digest is missing"},
		{"no note in 2.1.328", claude.New(cat, claude.V2_1_328, claude.DefaultOptions()), "", verify.Query{Text: "zzz"},
			`no tools; text differs at character 33: real ". Note: these MCP servers are connected,…", simulated ""`},
		{"client reverses", claude.New(cat, claude.V2_1_332, claude.DefaultOptions()), "reverse", verify.Query{Text: "invoice"},
			"position 1: real mcp__billing__digest, simulated mcp__billing__invoice_lookup"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runner(t, fakeClaude(t, "2.1.332"), cat)
			if tt.mode != "" {
				r.Env = []string{"FAKE_CLAUDE_MODE=" + tt.mode}
			}
			rep, err := verify.Run(context.Background(), r, tt.sim, []verify.Query{tt.query}, verify.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if o := rep.Outcomes[0]; rep.Mismatch != 1 || o.Match || o.Diff != tt.diff {
				t.Errorf("outcome %+v\ndiff %q\nwant %q", o, o.Diff, tt.diff)
			}
		})
	}
}

// TestSchemaMismatch: a client offering ToolSearch with max_results
// required (as before 2.1.332) against the 2.1.332 profile.
func TestSchemaMismatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fake client")
	}
	cat := corpus.Demo()
	r := runner(t, fakeClaude(t, "2.1.332"), cat)
	r.Env = []string{"FAKE_CLAUDE_MODE=schema-old"}
	rep, err := verify.Run(context.Background(), r, claude.New(cat, claude.V2_1_332, claude.DefaultOptions()), []verify.Query{{Text: "invoice"}}, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep.Client = "claude 2.1.332"
	if c := rep.Schema; c == nil || fmt.Sprint(c.Real, c.Simulated, c.Match) != "[query max_results] [query] false" || rep.Agrees() ||
		rep.Summary() != "claude 2.1.332: 1/1 match, search tool schema differs (profile claude@2.1.332)" {
		t.Errorf("%+v %s", rep.Schema, rep.Summary())
	}
}

func TestClientFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fake client")
	}
	cat := corpus.Demo()
	sim := claude.New(cat, claude.V2_1_332, claude.DefaultOptions())
	for _, tt := range []struct {
		mode    string
		timeout time.Duration
		want    string
	}{
		{"crash", 0, "claude made no model request; claude: exit status 1; stderr: fakeclaude: crashed on purpose"},
		{"no-toolsearch", 0, "no model request offered ToolSearch (tool search off?); tools offered: Read"},
		{"error", 0, "the client reported a tool error: InputValidationError: on purpose"},
		{"hang", 2 * time.Second, "timed out after 2s: context deadline exceeded"},
		// The demo's first server by name is accounts.
		{"skip-server", 0, "Claude Code searched before these servers had listed their tools: accounts (slow to start;"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			r := runner(t, fakeClaude(t, "2.1.332"), cat)
			r.Env = []string{"FAKE_CLAUDE_MODE=" + tt.mode}
			start := time.Now()
			rep, err := verify.Run(context.Background(), r, sim, []verify.Query{{Text: "invoice"}}, verify.Options{Timeout: tt.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if o := rep.Outcomes[0]; rep.Failed != 1 || !strings.HasPrefix(o.Error, tt.want) {
				t.Errorf("error %q, want prefix %q", o.Error, tt.want)
			}
			if tt.mode == "hang" && time.Since(start) > time.Minute {
				t.Error("the hanging client was not killed at the timeout")
			}
		})
	}
}

// TestWithoutBuiltins: --claude-builtins=false is the real client with
// Claude Code's deferred built-ins disallowed.
func TestWithoutBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fake client")
	}
	cat := corpus.Demo()
	r := runner(t, fakeClaude(t, "2.1.332"), cat)
	r.Args = []string{"--disallowedTools", strings.Join(claude.DeferredBuiltins(claude.V2_1_332), ",")}
	rep, err := verify.Run(context.Background(), r, claude.New(cat, claude.V2_1_332, claude.Options{}), []verify.Query{{Text: "notes"}}, verify.Options{})
	if err != nil || rep.Matched != 1 || fmt.Sprint(rep.Outcomes[0].Real.Tools) != "[mcp__accounts__add_notes]" {
		t.Errorf("%v %+v", err, rep.Outcomes)
	}
}

// TestRealClaudeCode runs an installed Claude Code when
// TOOLFIND_CLAUDE_BIN names it; its version picks the profile.
func TestRealClaudeCode(t *testing.T) {
	bin := os.Getenv("TOOLFIND_CLAUDE_BIN")
	if bin == "" {
		t.Skip("set TOOLFIND_CLAUDE_BIN to a Claude Code executable to run this test")
	}
	release, err := Version(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	p, res, err := search.LookupRelease("claude@" + release)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Claude Code %s, profile %s %s%s", release, p.ID, res.Note, res.Warning)
	cat := failedList(t)
	sim, err := search.Build(p, cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Run(context.Background(), runner(t, bin, cat), sim, demoQueries, verify.Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep.Client = "claude " + release
	for _, o := range rep.Outcomes {
		if !o.Match {
			t.Errorf("%q: %s%s", o.Query.Text, o.Diff, o.Error)
		}
	}
	if c := rep.Schema; c == nil || !c.Match {
		t.Errorf("ToolSearch schema check: %+v", c)
	} else {
		t.Logf("ToolSearch requires %v (real) / %v (profile)", c.Real, c.Simulated)
	}
	t.Log(rep.Summary())

	// A deliberately wrong, test-only profile is caught, with its first
	// difference.
	wrong := claude.V2_1_332
	wrong.Version, wrong.ListCap = "0-test-wrong", 8
	rep, err = verify.Run(context.Background(), runner(t, bin, cat), claude.New(cat, wrong, claude.DefaultOptions()), []verify.Query{{Text: "invoice"}}, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; o.Match || o.Diff != "real has 4 tools, simulated 3: real #4 mcp__billing__digest is missing" {
		t.Errorf("wrong profile: %+v", o)
	}
}
