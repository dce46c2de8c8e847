package jsonpos_test

import (
	"fmt"

	"github.com/toolfind/toolfind/internal/jsonpos"
)

// Build indexes a document once; Lookup and LineCol then place any member.
func ExampleBuild() {
	doc := []byte("{\n  \"tools\": [\n    {\"name\": \"get_invoice\", \"description\": \"Get one invoice.\"}\n  ]\n}")
	ix, err := jsonpos.Build(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := ix.Lookup(jsonpos.Pointer("tools", "0", "description"))
	line, col := ix.LineCol(p.Start())
	fmt.Printf("%d:%d\n", line, col)
	// Output: 3:29
}
