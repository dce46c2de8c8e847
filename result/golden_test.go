package result

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenInputs are one result per verdict, generated (not stored) so that
// the golden files show the whole report:
//
//	whole     a small result with structuredContent, an image and _meta:
//	          every client delivers it whole
//	cut       31 lines of 1,000 bytes (31,030 bytes with the newlines):
//	          Grok Build cuts it at 20,000 bytes, the others deliver it
//	replaced  the seed's row B, 50,001 characters: Claude Code saves it and
//	          shows a preview, Codex cuts the middle, Grok Build the tail,
//	          OpenCode delivers it (50,001 bytes, 944 lines)
func goldenInputs(t *testing.T) map[string]*CallResult {
	line := strings.Repeat("0123456789", 100)
	return map[string]*CallResult{
		"whole": mustParse(t, map[string]any{
			"content": []any{
				map[string]any{"type": "text", "text": `{"invoices":[{"id":"inv_1","total":12.5}],"next_cursor":null}`},
				map[string]any{"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "image/png"},
			},
			"structuredContent": map[string]any{"invoices": []any{map[string]any{"id": "inv_1", "total": 12.5}}, "next_cursor": nil},
			"_meta":             map[string]any{"trace": "abc"},
		}),
		"cut":      textResult(t, strings.TrimSuffix(strings.Repeat(line+"\n", 31), "\n")),
		"replaced": textResult(t, seedRows(50_001)),
	}
}

func TestGolden(t *testing.T) {
	for name, r := range goldenInputs(t) {
		ds, err := Deliver(Input{Result: r, Server: "billing", Tool: "list_invoices"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		verdicts := map[Verdict]bool{}
		for _, d := range ds {
			verdicts[d.Verdict] = true
		}
		if !verdicts[Verdict(name)] {
			t.Errorf("%s: no %s verdict", name, name)
		}
		var txt, js bytes.Buffer
		if err := WriteText(&txt, name+".json", r, ds, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&js, ds); err != nil {
			t.Fatal(err)
		}
		golden.Compare(t, filepath.Join("testdata", name+".txt"), txt.Bytes(), *update)
		golden.Compare(t, filepath.Join("testdata", name+".json"), js.Bytes(), *update)
	}
}
