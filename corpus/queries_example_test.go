package corpus_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolfind/toolfind/corpus"
)

// A command that loads its queries once maps the file instead of copying
// it into the heap; the queries are the same.
func ExampleLoadQueriesWith() {
	path := filepath.Join(os.TempDir(), "toolfind-example-queries.jsonl")
	lines := "# billing\n" + `{"query": "refund an invoice", "expect": ["billing__invoice_lookup"], "category": "billing"}` + "\n"
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		panic(err)
	}
	defer os.Remove(path)
	qs, err := corpus.LoadQueries(path, corpus.Demo())
	if err != nil {
		panic(err)
	}
	for _, q := range qs.Queries {
		fmt.Println(q.Line, q.Text, q.Expect, q.Tags["category"])
	}
	// Output:
	// 2 refund an invoice [billing/invoice_lookup] billing
}
