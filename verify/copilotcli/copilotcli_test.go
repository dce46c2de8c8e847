package copilotcli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/fakeclient"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// fakeBinary builds testdata/fakecopilot.
func fakeBinary(t *testing.T) string {
	return fakeclient.Build(t, "./testdata/fakecopilot", "copilot", "")
}

func probeCatalog(t *testing.T) *corpus.Catalog {
	t.Helper()
	var tools []string
	for i := range 20 {
		tools = append(tools, fmt.Sprintf(`{"name":"filler_%02d","description":"Filler %d.","inputSchema":{"type":"object","properties":{"q":{"type":"string","minLength":1}}}}`, i, i))
	}
	doc := `{"servers":[{"name":"tier","tools":[
	 {"name":"zz_target","description":"none"},
	 {"name":"aa_other","description":"mentions target"},
	 {"name":"ab_x","description":"p","inputSchema":{"type":"object","properties":{"target_p":{"type":"string"}}}}]},
	 {"name":"sx.dot","tools":[` + strings.Join(tools, ",") + `]}]}`
	servers, _, err := corpus.ParseCatalog("probe.json", []byte(doc))
	require.NoError(t, err)
	return &corpus.Catalog{Servers: servers}
}

func runner(t *testing.T, bin string, cat *corpus.Catalog, api copilot.API, env ...string) (*Runner, *copilot.Simulator) {
	servers, err := mcpstub.FromCatalog(cat)
	require.NoError(t, err)
	sim := copilot.New(cat, copilot.Options{Model: "claude-sonnet-4.5", API: api, Offline: true})
	return &Runner{Binary: bin, Servers: servers, StubCommand: []string{"true"}, Model: "claude-sonnet-4.5", API: api,
		Env: env, Grace: 5 * time.Second}, sim
}

func TestVersion(t *testing.T) {
	v, err := Version(context.Background(), fakeBinary(t))
	require.NoError(t, err)
	assert.Equal(t, "1.0.102", v)
}

// Against the fake CLI: the capture and every search agree on both wires
// with the CLI's own search; a CLI that disagrees is reported, naming
// the difference.
func TestVerifyFake(t *testing.T) {
	bin := fakeBinary(t)
	cat := probeCatalog(t)
	queries := []verify.Query{{Text: "target"}, {Text: "filler", Limit: 2}, {Text: "("}, {Text: "nomatch"}}
	for _, api := range []copilot.API{copilot.Anthropic, copilot.OpenAI} {
		r, sim := runner(t, bin, cat, api)
		c, err := r.Capture(context.Background())
		require.NoError(t, err, api)
		rep := CompareEntries(sim, c.Tools)
		assert.True(t, rep.Agrees(), "%s: %+v", api, rep)
		assert.Equal(t, 23, rep.Real) // 3 + 20 MCP tools; 17 builtins and tool_search_tool left out
		want := map[copilot.API]string{copilot.Anthropic: "deferred", copilot.OpenAI: "reminder-only"}[api]
		assert.Equal(t, want, rep.RealMode)
		vr, err := verify.Run(context.Background(), r, sim, queries, verify.Options{Parallel: 2})
		require.NoError(t, err)
		assert.Equal(t, 4, vr.Matched, "%s: %+v", api, vr.Outcomes)
		assert.Equal(t, []string{"tier-zz_target", "tier-aa_other", "tier-ab_x"}, vr.Outcomes[0].Real.Tools)
		assert.Equal(t, "Error: Invalid regex pattern '(': Unbalanced parenthesis", vr.Outcomes[2].Real.Text)
	}

	r, sim := runner(t, bin, cat, copilot.Anthropic, "FAKE_COPILOT_MODE=reverse")
	vr, err := verify.Run(context.Background(), r, sim, queries[:1], verify.Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, vr.Mismatch)
	assert.Equal(t, "position 1: real tier-ab_x, simulated tier-zz_target", vr.Outcomes[0].Diff)

	for mode, diff := range map[string]string{"describe": "differs", "extra": "zz-extra: sent by the CLI, not by the simulation"} {
		r, sim := runner(t, bin, cat, copilot.Anthropic, "FAKE_COPILOT_MODE="+mode)
		c, err := r.Capture(context.Background())
		require.NoError(t, err)
		rep := CompareEntries(sim, c.Tools)
		assert.False(t, rep.Agrees(), mode)
		require.NotEmpty(t, rep.Diffs, mode)
		assert.Contains(t, rep.Diffs[0], diff, mode)
	}

	r, _ = runner(t, bin, cat, copilot.Anthropic, "FAKE_COPILOT_MODE=crash")
	_, err = r.Capture(context.Background())
	assert.ErrorContains(t, err, "crashing as asked")
}

// A model and wire without tool search: the query fails saying so.
func TestVerifyNoSearch(t *testing.T) {
	bin := fakeBinary(t)
	cat := probeCatalog(t)
	servers, _ := mcpstub.FromCatalog(cat)
	r := &Runner{Binary: bin, Servers: servers, StubCommand: []string{"true"}, Model: "gpt-4.1", API: copilot.OpenAI}
	_, err := r.Run(context.Background(), verify.Query{Text: "x"})
	assert.ErrorContains(t, err, "no model request offered tool_search_tool")
}

func TestAnswer(t *testing.T) {
	a, err := Answer(json.RawMessage(`[{"type":"tool_reference","tool_name":"a-b"},{"type":"tool_reference","tool_name":"c"}]`))
	require.NoError(t, err)
	assert.Equal(t, []string{"a-b", "c"}, a.Tools)
	a, err = Answer(json.RawMessage(`"No tools found matching pattern 'x'."`))
	require.NoError(t, err)
	assert.Equal(t, "No tools found matching pattern 'x'.", a.Text)
	a, err = Answer(json.RawMessage(`[{"type":"text","text":"Error: "},{"type":"text","text":"bad"}]`))
	require.NoError(t, err)
	assert.Equal(t, "Error: bad", a.Text)
	_, err = Answer(json.RawMessage(`{}`))
	assert.Error(t, err)
}

func TestRealMode(t *testing.T) {
	for tools, want := range map[string]string{
		`[{"name":"a","input_schema":{}}]`:                                            "full",
		`[{"name":"a","defer_loading":true},{"name":"tool_search_tool"}]`:             "deferred",
		`[{"type":"function","function":{"name":"tool_search_tool"}}]`:                "reminder-only",
		`[{"type":"namespace","name":"s","tools":[]},{"type":"tool_search"}]`:         "hosted",
		`[{"type":"function","function":{"name":"a"}},{"type":"custom","name":"ap"}]`: "full",
	} {
		var raw []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(tools), &raw))
		assert.Equal(t, want, RealMode(raw), tools)
	}
}

// FuzzAnswer: any result content gives an answer or an error, never a
// panic.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{`"x"`, `[]`, `[{"type":"tool_reference"}]`, `null`, `[1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { _, _ = Answer(json.RawMessage(s)) })
}
