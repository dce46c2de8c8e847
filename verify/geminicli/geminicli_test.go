package geminicli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/internal/fakeclient"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

func TestMain(m *testing.M) {
	fakeclient.ServeStub()
	os.Exit(m.Run())
}

// fakeGemini builds testdata/fakegemini.
func fakeGemini(t *testing.T) string {
	return fakeclient.Build(t, "./testdata/fakegemini", "gemini", "")
}

func edge(t *testing.T) *corpus.Catalog {
	t.Helper()
	cat, err := corpus.Load("../../gemini/testdata/edge.json")
	require.NoError(t, err)
	return cat
}

func newRunner(t *testing.T, cat *corpus.Catalog, cfg gemini.Config, mode string) *Runner {
	t.Helper()
	servers, err := mcpstub.FromCatalog(cat)
	require.NoError(t, err)
	stub, env := fakeclient.Stub()
	r := &Runner{Binary: fakeGemini(t), Servers: servers, StubCommand: stub, StubEnv: env,
		Trusted: cfg.Trusted, AllTrusted: cfg.AllTrusted, YOLO: cfg.YOLO}
	if mode != "" {
		r.Env = []string{"FAKE_GEMINI_MODE=" + mode}
	}
	return r
}

// A client that behaves as simulated agrees on every tool, the order and
// the instructions: testdata/edge.json, headless, every server trusted
// (my server.v2's tool is denied and bad's are refused, on both sides).
func TestVerifyAgrees(t *testing.T) {
	cat := edge(t)
	cfg := gemini.Config{AllTrusted: true}
	sim := gemini.New(cat, cfg)
	rep, err := Verify(context.Background(), newRunner(t, cat, cfg, ""), sim, cat, nil)
	require.NoError(t, err)
	assert.True(t, rep.Agrees(), rep.Summary())
	assert.Equal(t, 20, rep.Matched)
	assert.Equal(t, sim.Declarations().Names(), rep.Order.Real)
	assert.True(t, rep.Instructions.Match)
	for i, o := range rep.Tools {
		assert.Equal(t, Match, o.Declaration, o.Name)
		assert.Equal(t, Match, o.Result, o.Name)
		// tool i returned Suite[i % 6]: the second is the 100,000-character text
		if i%len(Suite()) == 1 && !strings.Contains(o.RealResponse, "Output too large.") {
			t.Errorf("%s: the long result was not cut: %.80s", o.Name, o.RealResponse)
		}
	}
	// edge/lookup has an outputSchema: the suite's result has no
	// structuredContent, so the SDK's refusal comes back
	for _, o := range rep.Tools {
		if o.Name == "mcp_edge_lookup" {
			assert.Contains(t, o.RealResponse, "has an output schema but did not return structured content")
		}
	}
	rep.Client = "gemini 0.61.0"
	assert.Equal(t, "gemini 0.61.0: 20/20 tools match (profile gemini@0.61.0)", rep.Summary())
}

// --yolo and one result for every tool (--result).
func TestVerifyYOLOWithResult(t *testing.T) {
	cat := edge(t)
	cfg := gemini.Config{YOLO: true}
	sim := gemini.New(cat, cfg)
	res := json.RawMessage(`{"content":[{"type":"text","text":"same for all"}]}`)
	rep, err := Verify(context.Background(), newRunner(t, cat, cfg, ""), sim, cat, res)
	require.NoError(t, err)
	assert.True(t, rep.Agrees(), rep.Summary())
	assert.Equal(t, 21, rep.Matched) // my server.v2's tool too
	for _, o := range rep.Tools {
		if o.Name == "mcp_edge_lookup" { // outputSchema, no structuredContent
			assert.Contains(t, o.SimulatedResponse, "has an output schema")
		} else {
			assert.Equal(t, `{"output":"<untrusted_context>\nsame for all\n</untrusted_context>"}`, o.SimulatedResponse, o.Name)
		}
	}
}

// A client that differs is caught, check by check.
func TestVerifyDisagrees(t *testing.T) {
	cat := edge(t)
	cfg := gemini.Config{AllTrusted: true}
	sim := gemini.New(cat, cfg)
	for _, c := range []struct {
		mode  string
		check func(t *testing.T, rep *Report)
	}{
		{"reverse", func(t *testing.T, rep *Report) {
			assert.False(t, rep.Order.Match)
			assert.Equal(t, "position 9: real mcp_Zeta_z, simulated mcp_a_b_c", rep.Order.Diff)
			assert.Equal(t, 20, rep.Matched) // each declaration and result still agrees
		}},
		{"no-instructions", func(t *testing.T, rep *Report) {
			assert.False(t, rep.Instructions.Match)
			assert.Equal(t, `at character 1: real "", simulated "<loaded_context>\n<project_context>\nThe following a…"`, rep.Instructions.Diff)
		}},
		{"cut", func(t *testing.T, rep *Report) {
			// Suite[1] went to tools 2, 8, 14 and 20 of the request
			assert.Equal(t, 4, rep.Mismatched)
			o := rep.Tools[1]
			assert.Equal(t, Mismatch, o.Result)
			// {"output":"Output too large. Showing first  is 43 characters
			assert.Equal(t, `at character 44: real "6,000 and last 24,000 characters. For full output …", simulated "8,000 and last 32,000 characters. For full output …"`, o.ResultDiff)
		}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			rep, err := Verify(context.Background(), newRunner(t, cat, cfg, c.mode), sim, cat, nil)
			require.NoError(t, err)
			assert.False(t, rep.Agrees())
			c.check(t, rep)
		})
	}
}

func TestVerifyFailures(t *testing.T) {
	cat := edge(t)
	cfg := gemini.Config{AllTrusted: true}
	sim := gemini.New(cat, cfg)
	_, err := Verify(context.Background(), newRunner(t, cat, cfg, "crash"), sim, cat, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the client made no model request that declared functions; gemini: exit status 1")
	assert.Contains(t, err.Error(), "stderr: fakegemini: crashing as asked")
	// a client that never asks its model: stopped when the context ends
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err = Verify(ctx, newRunner(t, cat, cfg, "hang"), sim, cat, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stopped: context deadline exceeded")
	_, err = Version(context.Background(), filepath.Join(t.TempDir(), "none"))
	assert.Error(t, err)
	v, err := Version(context.Background(), fakeGemini(t))
	require.NoError(t, err)
	assert.Equal(t, "0.61.0", v)
}
