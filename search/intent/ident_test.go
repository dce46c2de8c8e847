package intent

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

func TestPromptIdentifiers(t *testing.T) {
	tests := []struct{ prompt, want string }{
		// '$' is kept and lowercased; "plot_embeddings" has '_' between
		// letters; "movies" and "path" are plain words.
		{"Run a $search query on path 'plot_embeddings' of movies", "$search plot_embeddings"},
		// camelCase; "MongoDB" is camelCase too; a repeat is dropped.
		{"use vectorSearch on MongoDB, vectorSearch again", "vectorsearch mongodb"},
		// In JSON: "{ $match: { age: { $gt: 28 } } }" gives $match and $gt
		// ("age" is a plain word); "$1" is no identifier (a digit after
		// '$'); "ab" is shorter than 3 bytes; "a_b" has '_' between
		// letters.
		{"{ $match: { age: { $gt: 28 } } } costs $1, ab, a_b", "$match $gt a_b"},
		// Trailing or doubled '_' is not between letters; "ID" has no
		// lowercase before the capital.
		{"name_ __init ID", ""},
		// A '$' inside a token starts a new one.
		{"x$lookup", "$lookup"},
	}
	for _, tt := range tests {
		if got := strings.Join(PromptIdentifiers(tt.prompt), " "); got != tt.want {
			t.Errorf("PromptIdentifiers(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
	}
}

func mustParse(t testing.TB, s string) ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSchemaIdentifiers(t *testing.T) {
	schema := mustParse(t, `{"type": "object", "properties": {
		"pipeline": {"type": "array", "description": "Stages; the first may be `+"`$documents`"+`.",
			"items": {"anyOf": [{"properties": {"$match": {"type": "object"}}}]}},
		"kind": {"enum": ["regular", "vectorSearch"]},
		"method": {"properties": {"arguments": {"properties": {"$match": {}}}}},
		"xy": {"const": "y"}
	}}`)
	want := map[string]Declaration{
		// Top-level properties: level 1.
		"pipeline": {Key: true, Level: 1},
		"kind":     {Key: true, Level: 1},
		"method":   {Key: true, Level: 1},
		"xy":       {Key: true, Level: 1},
		// A '$'-word of pipeline's description: a value at its level,
		// declared with and without '$'.
		"$documents": {Level: 1},
		"documents":  {Level: 1},
		// Under pipeline's items' anyOf: level 2 (items and anyOf add
		// none); the deeper declaration under method.arguments (level 3)
		// is not as direct and is dropped.
		"$match": {Key: true, Level: 2},
		"match":  {Key: true, Level: 2},
		// arguments is a property of method: level 2.
		"arguments": {Key: true, Level: 2},
		// enum values of kind (level 1), lowercased; "y" is too short.
		"regular":      {Level: 1},
		"vectorsearch": {Level: 1},
	}
	if got := SchemaIdentifiers(schema); !reflect.DeepEqual(got, want) {
		t.Errorf("SchemaIdentifiers =\n%v\nwant\n%v", got, want)
	}
	if got := SchemaIdentifiers(ojson.Value{}); len(got) != 0 {
		t.Errorf("absent schema: %v", got)
	}
}

// The package doc's worked example, in small: the tool that declares the
// rarest identifier most directly.
func TestBestDeclarer(t *testing.T) {
	schemas := []string{
		// 0 find: takes a filter only.
		`{"properties": {"filter": {}}}`,
		// 1 aggregate: $vectorSearch as a stage key, level 2.
		`{"properties": {"pipeline": {"items": {"properties": {"$vectorSearch": {}, "$match": {}}}}}}`,
		// 2 explain: the same stage inside method.arguments.pipeline: level 4.
		`{"properties": {"method": {"properties": {"arguments": {"properties": {"pipeline": {"items": {"properties": {"$vectorSearch": {}}}}}}}}}}`,
		// 3 create-index: "vectorSearch" as an enum value, level 1.
		`{"properties": {"kind": {"enum": ["vectorSearch"]}}}`,
		// 4 aggregate-db: "$documents" in a description, level 1.
		`{"properties": {"pipeline": {"description": "first stage: $documents"}}}`,
	}
	docs := make([]Doc, len(schemas))
	for i, s := range schemas {
		docs[i] = Doc{Server: "db", Tool: []string{"find", "aggregate", "explain", "create-index", "aggregate-db"}[i], Identifiers: SchemaIdentifiers(mustParse(t, s))}
	}
	ix := NewIndex(docs)
	tests := []struct {
		prompt   string
		declared string
		ranked   []Scored
		want     int
	}{
		// vectorsearch: declared by 1 (key, 2), 2 (key, 4), 3 (value, 1):
		// a key beats a value, then level 2 beats 4.
		{"Run a vectorSearch query", "vectorsearch", nil, 1},
		// The ranking does not override directness.
		{"Run a vectorSearch query", "vectorsearch", []Scored{{Doc: 3}, {Doc: 2}, {Doc: 1}}, 1},
		// "$match" is declared by 1 only (with its '$'); "$documents" by 4
		// only: equally rare, so the first in the prompt wins.
		{"test { $match: {} } with $documents", "$match $documents", nil, 1},
		{"test $documents then { $match: {} }", "$documents $match", nil, 4},
		// "match" without '$' is no identifier; "documents" neither.
		{"match the documents", "", nil, -1},
		// A prompt's '$'-identifier matches only '$'-declarations:
		// "$filter" does not find find's plain "filter" property.
		{"use $filter", "", nil, -1},
	}
	for _, tt := range tests {
		ids := ix.Declared(tt.prompt)
		if got := strings.Join(ids, " "); got != tt.declared {
			t.Errorf("Declared(%q) = %q, want %q", tt.prompt, got, tt.declared)
		}
		if got := ix.BestDeclarer(ids, tt.ranked); got != tt.want {
			t.Errorf("BestDeclarer(%q) = %d, want %d", tt.prompt, got, tt.want)
		}
	}
	// Ties in directness follow the ranking, then index order: "pipeline"
	// is a level-1 key of 1 and 4 (and a level-3 key of 2).
	if got := ix.BestDeclarer([]string{"pipeline"}, nil); got != 1 {
		t.Errorf("BestDeclarer(pipeline) = %d, want 1 (index order)", got)
	}
	if got := ix.BestDeclarer([]string{"pipeline"}, []Scored{{Doc: 4}, {Doc: 1}}); got != 4 {
		t.Errorf("BestDeclarer(pipeline, ranked 4 first) = %d, want 4", got)
	}
	if !ix.Declares(2, []string{"filter", "vectorsearch"}) || ix.Declares(0, []string{"vectorsearch"}) {
		t.Error("Declares")
	}
}

func FuzzIdentifiers(f *testing.F) {
	f.Add(`{"properties": {"pipeline": {"items": {"anyOf": [{"properties": {"$match": {}}}]}}, "k": {"enum": ["A_B", 1]}}}`, "Run $search with vectorSearch")
	f.Add(`{"description": "$$ $ $1 $a"}`, "$ $$ _a_ a__b")
	f.Fuzz(func(t *testing.T, schema, prompt string) {
		for _, id := range PromptIdentifiers(prompt) {
			if id != strings.ToLower(id) || len(id) < 3 {
				t.Fatalf("prompt identifier %q", id)
			}
		}
		v, err := ojson.Parse([]byte(schema))
		if err != nil {
			return
		}
		ids := SchemaIdentifiers(v)
		if len(ids) > MaxIdentifiers {
			t.Fatalf("%d identifiers", len(ids))
		}
		for id := range ids {
			if id != strings.ToLower(id) || len(strings.TrimPrefix(id, "$")) < 2 {
				t.Fatalf("schema identifier %q", id)
			}
		}
	})
}
