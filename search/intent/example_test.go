package intent_test

import (
	"fmt"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search/intent"
)

// A prompt names "vectorSearch"; two tools' input schemas take a
// $vectorSearch stage, one directly in its pipeline, one inside a nested
// argument, and a third has it as a value: the direct one is what a model
// that knows the API reaches for.
func ExampleIndex_BestDeclarer() {
	schemas := map[string]string{
		"aggregate":    `{"properties": {"pipeline": {"items": {"properties": {"$vectorSearch": {}}}}}}`,
		"explain":      `{"properties": {"method": {"properties": {"pipeline": {"items": {"properties": {"$vectorSearch": {}}}}}}}}`,
		"create-index": `{"properties": {"type": {"enum": ["vectorSearch"]}}}`,
	}
	var docs []intent.Doc
	for _, name := range []string{"explain", "create-index", "aggregate"} {
		v, _ := ojson.Parse([]byte(schemas[name]))
		docs = append(docs, intent.Doc{Server: "db", Tool: name, Identifiers: intent.SchemaIdentifiers(v)})
	}
	ix := intent.NewIndex(docs)
	prompt := "Run a vectorSearch query on the movies"
	ids := ix.Declared(prompt)
	best := ix.BestDeclarer(ids, ix.Rank(prompt))
	fmt.Println(ids, docs[best].Tool, docs[best].Identifiers["$vectorsearch"])
	// Output: [vectorsearch] aggregate {true 2}
}
