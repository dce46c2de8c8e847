package opencode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// TestRendererAgainstBun differentially tests the schema renderer against
// OpenCode's own renderer run by the OpenCode binary's embedded Bun
// (BUN_BE_BUN=1). Development only: OPENCODE_BIN is the opencode binary
// fetched by opencode-oracle and OPENCODE_RENDER_JS a harness that reads
// schemas as JSON lines on stdin and prints a JSON array of rendered types
// (the renderer is OpenCode's code and is not stored in this repository).
func TestRendererAgainstBun(t *testing.T) {
	bin, js := os.Getenv("OPENCODE_BIN"), os.Getenv("OPENCODE_RENDER_JS")
	if bin == "" || js == "" {
		t.Skip("set OPENCODE_BIN and OPENCODE_RENDER_JS to compare the renderer with OpenCode's own")
	}
	var schemas []string
	if _, err := os.Stat(sharedCatalogs); err == nil {
		for _, tool := range loadShared(t, "*").Tools() {
			schemas = append(schemas, string(tool.InputSchemaRaw))
			if len(tool.OutputSchemaRaw) > 0 {
				schemas = append(schemas, string(tool.OutputSchemaRaw))
			}
		}
	}
	if cat, err := corpus.Load("../../shared/corpora/livemcpbench/catalogs"); err == nil {
		for _, tool := range cat.Tools() {
			if len(tool.InputSchemaRaw) > 0 {
				schemas = append(schemas, string(tool.InputSchemaRaw))
			}
			if len(tool.OutputSchemaRaw) > 0 {
				schemas = append(schemas, string(tool.OutputSchemaRaw))
			}
		}
	}
	rng := rand.New(rand.NewSource(int64(len(os.Getenv("OPENCODE_RENDER_SEED")) + 1)))
	n := 5000
	for i := 0; i < n; i++ {
		g := &schemaGen{rng: rng}
		v := g.schema(0)
		b, _ := json.Marshal(v)
		schemas = append(schemas, string(b))
	}
	var in bytes.Buffer
	for i, s := range schemas {
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(s)); err != nil {
			t.Fatal(err)
		}
		schemas[i] = c.String()
		in.Write(c.Bytes())
		in.WriteByte('\n')
	}
	cmd := exec.Command(bin, js)
	cmd.Env = append(os.Environ(), "BUN_BE_BUN=1")
	cmd.Stdin = &in
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	var want []string
	if err := json.Unmarshal(out.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, s := range schemas {
		v, err := ojson.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := schemaType(v); got != want[i] {
			bad++
			if bad <= 5 {
				t.Errorf("schema %s\n got: %s\nwant: %s", s, got, want[i])
			}
		}
	}
	unknown := 0
	for _, w := range want {
		if w == "unknown" {
			unknown++
		}
	}
	t.Logf("%d schemas, %d differ (%d render as unknown)", len(schemas), bad, unknown)
}

// schemaGen makes random, often malformed, JSON schemas.
type schemaGen struct{ rng *rand.Rand }

func (g *schemaGen) pick(xs ...any) any { return xs[g.rng.Intn(len(xs))] }

func (g *schemaGen) str() string {
	parts := []string{"a", "b", "id", "foo-bar", "1st", "10", "2", "$x", "_y", "with space", "ü", "*/", " ", "\n", "line\nnext", "  pad  ", "😀", "Ω", "\t", "NaN", "Infinity", "constructor", "__proto__", "toString", "x~1y", "q\"uote"}
	n := g.rng.Intn(3) + 1
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(parts[g.rng.Intn(len(parts))])
	}
	return b.String()
}

func (g *schemaGen) scalar() any {
	return g.pick(nil, true, false, 0, 1, -1.5, 1e21, 2.5e-7, "", g.str(), []any{}, map[string]any{})
}

func (g *schemaGen) schema(depth int) any {
	if depth > 5 || g.rng.Intn(12) == 0 {
		return g.scalar()
	}
	m := map[string]any{}
	keys := []string{"type", "properties", "required", "description", "default", "format", "minItems", "maxItems", "deprecated",
		"enum", "const", "anyOf", "oneOf", "allOf", "$ref", "additionalProperties", "items", "$defs", "definitions"}
	for _, k := range keys {
		if g.rng.Intn(5) != 0 {
			continue
		}
		switch k {
		case "type":
			m[k] = g.pick("object", "string", "number", "integer", "boolean", "null", "array", "object", []any{"string", "null"}, []any{"array", "object"}, 5, nil, "bogus")
		case "properties":
			p := map[string]any{}
			for i := g.rng.Intn(4); i > 0; i-- {
				p[g.str()] = g.schema(depth + 1)
			}
			m[k] = g.pick(p, p, p, "ab", 3, nil, []any{g.schema(depth + 1)})
		case "required":
			m[k] = g.pick([]any{"a", "b", "id", "10"}, []any{g.str()}, "ab", 4, nil, []any{1, "a"})
		case "description", "format":
			m[k] = g.pick(g.str(), g.str(), g.str(), 5, nil, true)
		case "default":
			m[k] = g.scalar()
		case "minItems", "maxItems":
			m[k] = g.pick(0, 1, 2.5, 1e21, "3", nil)
		case "deprecated":
			m[k] = g.pick(true, false, "yes")
		case "enum":
			m[k] = g.pick([]any{"a", 1, nil}, []any{"NaN"}, []any{}, map[string]any{"x": 1}, "abc", 0)
		case "const":
			m[k] = g.scalar()
		case "anyOf", "oneOf", "allOf":
			var alts []any
			for i := g.rng.Intn(4); i > 0; i-- {
				alts = append(alts, g.schema(depth+1))
			}
			m[k] = g.pick(alts, alts, alts, nil, map[string]any{}, "x", 0, []any{map[string]any{"type": "number"}, map[string]any{"type": "string", "enum": []any{"Infinity"}}},
				[]any{map[string]any{"type": "object"}, map[string]any{"type": "array"}})
		case "$ref":
			m[k] = g.pick("#/$defs/A", "#/$defs/B", "#/definitions/A", "#/definitions/x~1y", "#/$defs/constructor", "#/$defs/Missing", "#/$defs/", "http://x/y", "", 5, nil, true, "#/$defs/A/b")
		case "additionalProperties":
			m[k] = g.pick(true, false, nil, map[string]any{}, g.schema(depth+1), []any{}, "x")
		case "items":
			m[k] = g.pick(g.schema(depth+1), nil, false, []any{g.schema(depth + 1)}, map[string]any{})
		case "$defs", "definitions":
			d := map[string]any{}
			for _, name := range []string{"A", "B", "x/y"} {
				if g.rng.Intn(2) == 0 {
					d[name] = g.pick(g.schema(depth+1), map[string]any{"$ref": "#/$defs/A"}, map[string]any{"type": "object", "properties": map[string]any{"next": map[string]any{"$ref": "#/$defs/" + name}}}, nil, false)
				}
			}
			m[k] = g.pick(d, d, d, nil, "AB", []any{map[string]any{"type": "string"}})
		}
	}
	if depth == 0 && g.rng.Intn(3) > 0 {
		m["type"] = "object"
	}
	_ = fmt.Sprint
	return m
}
