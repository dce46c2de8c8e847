package opencode_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/opencode"
	"github.com/toolfind/toolfind/search"
)

func ExampleTokenize() {
	for _, q := range []string{"create issues", "listPullRequests", "tools.github.get_me"} {
		terms := opencode.Tokenize(q)
		var forms []string
		for _, t := range terms {
			forms = append(forms, strings.Join(opencode.Forms(t), "/"))
		}
		fmt.Println(strings.Join(forms, " "))
	}
	// Output:
	// create issues/issu/issue
	// list pull requests/request
	// tools/tool github get me
}

func ExampleSignature() {
	in, _ := ojson.Parse([]byte(`{"type":"object","properties":{
	  "owner":{"type":"string","description":"Repository owner"},
	  "labels":{"type":"array","items":{"type":"string"}}},"required":["owner"]}`))
	fmt.Println(opencode.Signature("github.create_issue", in, ojson.Value{}))
	// Output:
	// tools.github.create_issue(input: {
	//   /** Repository owner */
	//   owner: string,
	//   labels?: Array<string>,
	// }): Promise<unknown>
}

func ExampleRenderPath() {
	fmt.Println(opencode.RenderPath("github.create_issue"))
	fmt.Println(opencode.RenderPath("chrome-devtools.list_pages"))
	fmt.Println(opencode.ToolKey("a.b", "close-ticket"))
	// Output:
	// tools.github.create_issue
	// tools["chrome-devtools"].list_pages
	// a_b_close-ticket
}

func ExampleTruncate() {
	text := strings.Repeat("abcdefghi\n", 3000) // 3,001 lines: the last is empty
	t := opencode.Truncate(text, opencode.TruncateOptions{OutputPath: "/data/tool-output/tool_1"})
	fmt.Println(t.Truncated, t.KeptLines, t.Removed, t.Unit)
	fmt.Println(strings.SplitN(t.Content[t.KeptBytes:], "\n", 5)[2])
	// Output:
	// true 2000 1001 lines
	// ...1001 lines truncated...
}

func ExampleCodeMode() {
	sim := opencode.NewCodeMode(corpus.Demo(), false)
	c := sim.Catalog()
	fmt.Printf("%d of %d tools in the catalog, complete: %v\n", c.Shown, c.Total, c.Complete)
	res, _ := sim.RunSearch(opencode.SearchInput{Query: "read file", Limit: 3})
	// read_file: "read" in path, description and text 8+4+2, "file" 8+4+2.
	for _, it := range res.Items {
		fmt.Println(it.Score, it.Path)
	}
	fmt.Println("remaining", res.Remaining)
	// Output:
	// 19 of 19 tools in the catalog, complete: true
	// 28 tools.files.read_file
	// 14 tools.files.list_directory
	// 14 tools.files.move_file
	// remaining 3
}

func Example_rank() {
	p, _ := search.Lookup("opencode-codemode")
	sim, _ := search.Build(p, corpus.Demo(), nil)
	r, _ := sim.Search(context.Background(), search.Query{Text: "invoice"})
	// Both paths contain "invoice" (+8) and so does their search text (+2);
	// the tie goes by path: "billing.findInvoice" < "billing.invoice_lookup".
	// The demo catalog fits the budget, so every hit is in the catalog.
	for _, h := range r.Hits[:2] {
		fmt.Println(h.Rank, h.Name, h.Score, h.Extra["in_catalog"])
	}
	// Output:
	// 1 tools.billing.findInvoice 10 true
	// 2 tools.billing.invoice_lookup 10 true
}
