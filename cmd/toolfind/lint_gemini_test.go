package main

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lint --client gemini on our edge catalog: each Gemini CLI rule once,
// at the member that causes it (file:line:col), saying what the CLI does.
func TestLintGemini(t *testing.T) {
	out, errOut, code := run(t, "lint", "--catalog", "../../gemini/testdata/edge.json", "--client", "gemini", "--format", "json", "--min-severity", "info", "--fail-on", "none")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Findings []struct {
			Rule     string `json:"rule"`
			Message  string `json:"message"`
			Location struct {
				Line, Column int
				Server, Tool string
			} `json:"location"`
		} `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	got := map[string]string{}
	msg := map[string]string{}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Rule, "gemini-") || f.Rule == "name-collision" || f.Rule == "duplicate-tool" || f.Rule == "schema" {
			got[f.Rule] = f.Location.Server + "/" + f.Location.Tool + " " + itoa(f.Location.Line) + ":" + itoa(f.Location.Column)
			msg[f.Rule] = f.Message
		}
	}
	assert.Equal(t, map[string]string{
		// bad/broken's "inputSchema": {"type": "string"} (line 48)
		"schema": "bad/broken 48:64",
		// the 77-character tool name (line 26)
		"gemini-name-length": "edge/a_very_long_tool_name_that_goes_well_past_the_sixty_three_character_limit 26:5",
		// a_b/c loses mcp_a_b_c to a/b_c (line 39)
		"name-collision": "a_b/c 39:29",
		// "my server.v2": its rule mcp_my server.v2_* misses mcp_my_server.v2_b_c (line 42)
		"gemini-trust-mismatch": "my server.v2/b_c 42:38",
		// dup lists x twice; Gemini CLI keeps the last (line 43)
		"duplicate-tool": "dup/x 43:29",
	}, got)
	assert.Contains(t, msg["schema"], "gemini@0.61.0: drops all 2 tools of bad")
	assert.Contains(t, msg["gemini-name-length"], "mcp_edge_a_very_long_tool_name...he_sixty_three_character_limit")
	assert.Contains(t, msg["duplicate-tool"], "gemini@0.61.0: keeps definition 2 (the last)")

	// Untrusted servers: with --gemini-trusted edge, every other server's
	// tools are denied in headless runs.
	out, _, _ = run(t, "lint", "--catalog", "../../gemini/testdata/edge.json", "--client", "gemini", "--gemini-trusted", "edge", "--format", "json", "--fail-on", "none")
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	var untrusted []string
	for _, f := range rep.Findings {
		if f.Rule == "gemini-untrusted" {
			untrusted = append(untrusted, f.Location.Server)
		}
	}
	assert.Equal(t, []string{"Zeta", "a", "alpha", "dup", "my server.v2"}, sortedCopy(untrusted))
}

// 600 tools: 608 declarations with the built-ins, over the API's 512.
func TestLintGeminiToolLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"server":"many","tools":[`)
	for i := range 600 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"t` + itoa(i) + `","description":"tool ` + itoa(i) + `","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`)
	}
	b.WriteString(`]}`)
	p := writeFile(t, "many.json", b.String())
	out, _, code := run(t, "lint", "--catalog", p, "--client", "gemini", "--format", "json")
	assert.Equal(t, exitCheckFailed, code)
	var rep struct {
		Findings []struct{ Rule, Severity, Message string } `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	found := false
	for _, f := range rep.Findings {
		if f.Rule == "gemini-tool-limit" {
			found = true
			assert.Equal(t, "error", f.Severity)
			assert.Contains(t, f.Message, "608 function declarations (600 MCP + 8 built-in): the Gemini API refuses more than 512 in one request (400 INVALID_ARGUMENT) and Gemini CLI sends them all, so every model request fails")
		}
	}
	assert.True(t, found, "no gemini-tool-limit finding")
}

func itoa(n int) string { return strconv.Itoa(n) }

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
