package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// nestedCatalog has n tools whose input schema's "default" nests k arrays
// deep, and one plain tool.
func nestedCatalog(t *testing.T, n, k int) (path string, size int) {
	var tools []string
	for i := 0; i < n; i++ {
		tools = append(tools, `{"name":"deep`+strings.Repeat("x", i)+`","description":"deep","inputSchema":{"type":"object","properties":{"a":{"type":"array","default":`+
			strings.Repeat("[", k)+strings.Repeat("]", k)+`}}}}`)
	}
	tools = append(tools, `{"name":"plain","description":"Plain tool.","inputSchema":{"type":"object"}}`)
	doc := `{"server":"d","tools":[` + strings.Join(tools, ",") + `]}`
	return writeFile(t, "nested.json", doc), len(doc)
}

// TestDeepSchemaBudget: the 18 KB catalog with an array nested
// 9,000 deep (and five such tools) costs output linear in its size for
// every client, in rank, show and lint; lint names the limit.
func TestDeepSchemaBudget(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{1, 9000}, {5, 9000}, {5, 120}} {
		p, size := nestedCatalog(t, tc.n, tc.k)
		for _, args := range [][]string{
			{"rank", "-q", "deep", "--format", "json", "--catalog", p},
			{"rank", "-q", "deep", "--shown", "--catalog", p},
			{"show", "--catalog", p},
			{"lint", "--catalog", p, "--format", "json", "--fail-on", "none"},
		} {
			out, errOut, code := run(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			// Pretty-printing indents each of at most 128 levels by two
			// spaces: at most ~256 bytes of output per byte of input, over
			// six clients.
			if len(out) > 6*256*size {
				t.Errorf("%d tools %d deep, %v: %d bytes of output for %d bytes of input", tc.n, tc.k, args[0], len(out), size)
			}
		}
	}
	p, _ := nestedCatalog(t, 1, 9000)
	out, _, _ := run(t, "lint", "--catalog", p, "--format", "json")
	var rep struct {
		Findings []struct {
			Severity string `json:"severity"`
			Cause    string `json:"cause"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range rep.Findings {
		found = found || f.Severity == "error" && strings.Contains(f.Cause, "nests deeper than 128 levels of JSON arrays and objects, toolfind's limit (MaxSchemaDepth)")
	}
	if !found {
		t.Errorf("lint does not name the depth limit:\n%s", out)
	}
	// The plain tool is still found by every client.
	r := rankJSONOf(t, "--catalog", p, "--client", "claude,grok,codex-search,opencode", "--query", "plain tool")
	for _, res := range r.Results {
		if len(res.Hits) == 0 || res.Hits[0].Tool != "d/plain" {
			t.Errorf("%s: hits %+v", res.Client, res.Hits)
		}
	}
}

// TestRefExpansionBudget: a 10 kB schema whose $defs reference each other
// 30 times per level, 10 levels deep (30^10 nodes expanded), costs output
// linear in its size for every client; lint names the limit.
func TestRefExpansionBudget(t *testing.T) {
	defs := []string{}
	for i := 0; i < 10; i++ {
		next := `{"type":"string"}`
		if i < 9 {
			next = `{"$ref":"#/$defs/d` + string(rune('0'+i+1)) + `"}`
		}
		var props []string
		for j := 0; j < 30; j++ {
			props = append(props, `"p`+strings.Repeat("x", j)+`":`+next)
		}
		defs = append(defs, `"d`+string(rune('0'+i))+`":{"type":"object","properties":{`+strings.Join(props, ",")+`}}`)
	}
	doc := `{"server":"l","tools":[{"name":"laughs","description":"billion laughs","inputSchema":{"type":"object","properties":{"root":{"$ref":"#/$defs/d0"}},"$defs":{` +
		strings.Join(defs, ",") + `}}},{"name":"plain","description":"Plain tool.","inputSchema":{"type":"object"}}]}`
	p := writeFile(t, "laughs.json", doc)
	for _, args := range [][]string{
		{"rank", "-q", "laughs", "--format", "json", "--catalog", p},
		{"show", "--catalog", p},
	} {
		out, errOut, code := run(t, args...)
		if code != 0 || len(out) > 6*256*len(doc) {
			t.Errorf("%v: exit %d, %d bytes of output for %d of input: %s", args, code, len(out), len(doc), errOut)
		}
	}
	out, _, _ := run(t, "lint", "--catalog", p, "--client", "opencode-codemode")
	// Lines are wrapped to the width: compare the words.
	if want := "its TypeScript type expands past 10000 schema nodes ($ref expansion), toolfind's limit (MaxTypeRenderNodes)"; !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("lint lacks %q:\n%s", want, out)
	}
}
