package opencode

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// laughs is a schema whose definitions reference the next one from each
// of w properties, levels deep: w^levels nodes once expanded.
func laughs(w, levels int) map[string]any {
	defs := map[string]any{}
	for i := 0; i < levels; i++ {
		var next any = map[string]any{"type": "string"}
		if i < levels-1 {
			next = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		}
		props := map[string]any{}
		for j := 0; j < w; j++ {
			props[fmt.Sprintf("p%d", j)] = next
		}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"type": "object", "properties": props}
	}
	return map[string]any{"type": "object", "properties": map[string]any{"root": map[string]any{"$ref": "#/$defs/d0"}}, "$defs": defs}
}

// TestRenderBudget: a schema that expands past MaxTypeRenderNodes renders
// "unknown" and is reported with the limit named; one under it renders in
// full.
func TestRenderBudget(t *testing.T) {
	small, _ := json.Marshal(laughs(2, 3)) // 2^3 leaves: well under the budget
	huge, _ := json.Marshal(laughs(30, 10))
	doc := `{"server":"l","tools":[{"name":"small","inputSchema":` + string(small) + `},{"name":"huge","inputSchema":` + string(huge) + `}]}`
	servers, diags, err := corpus.ParseCatalog("l.json", []byte(doc))
	if err != nil || len(diags) != 0 {
		t.Fatal(err, diags)
	}
	cat := &corpus.Catalog{}
	if err := cat.AddParsed(servers, nil); err != nil {
		t.Fatal(err)
	}
	cat.Revalidate()
	sig, over := SignatureBudget("l.small", servers[0].Tools[0].InputSchema, servers[0].Tools[0].OutputSchema)
	if over != "" || sig == "tools.l.small(input: unknown): Promise<unknown>" {
		t.Errorf("small schema: %q, over %q", sig, over)
	}
	sig, over = SignatureBudget("l.huge", servers[0].Tools[1].InputSchema, servers[0].Tools[1].OutputSchema)
	if over != "inputSchema" || sig != "tools.l.huge(input: unknown): Promise<unknown>" {
		t.Errorf("huge schema: %q, over %q", sig, over)
	}
	s := newCodeMode(cat, profile118())
	want := corpus.Diagnostic{Severity: corpus.Error, Code: "opencode-schema-too-large", Client: "opencode-codemode@1.18.33", File: "l.json",
		Server: "l", Tool: "huge", Field: "inputSchema",
		Message: "its TypeScript type expands past 10000 schema nodes ($ref expansion), toolfind's limit (MaxTypeRenderNodes): shown as unknown here; " +
			"OpenCode's renderer has only its depth limit of 8, so it would expand the type in full"}
	found := false
	for _, d := range s.Problems() {
		found = found || d == want
	}
	if !found {
		t.Errorf("problems %+v\nlack %+v", s.Problems(), want)
	}
}
