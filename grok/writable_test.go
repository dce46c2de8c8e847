package grok

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search/intent"
)

func TestServersReminderDemo(t *testing.T) {
	s := New(corpus.Demo(), Options{})
	// B.1: alphabetical, "(1 tool)" singular, instructions on one line.
	want := "Connected MCP servers:\n" +
		"- accounts (1 tool): Account records for the finance team.\n" +
		"- billing (6 tools): Billing records. Look records up by ID before exporting them.\n"
	if got := s.ServersReminder(); !strings.HasPrefix(got, want) {
		t.Errorf("reminder:\n%s", got)
	}
}

func TestHeuristicCallsGrok(t *testing.T) {
	s := New(corpus.Demo(), Options{})
	tests := []struct{ prompt, want string }{
		// The weather server fits best; its name leads; then the keywords.
		{"Are there any storm alerts in Texas today?", `{"query":"weather storm alerts texas today"}`},
		// "ticket" has the server's stem and is not repeated; "remove" is
		// in no tool name and no demo name holds a word of its family
		// (delete, drop, erase…), so nothing is added.
		{"remove the ticket about printers", `{"query":"tickets remove printers"}`},
	}
	for _, tt := range tests {
		calls := s.HeuristicCallsWith(tt.prompt, handModel())
		if len(calls) != 1 || string(calls[0]) != tt.want {
			t.Errorf("HeuristicCalls(%q) = %s, want %s", tt.prompt, calls, tt.want)
		}
	}
	r, err := s.Replay(context.Background(), json.RawMessage(`{"query":"weather alerts","limit":1}`))
	if err != nil || r.Limit != 1 || len(r.Hits) != 1 || r.Hits[0].Tool != "weather/get_alerts" {
		t.Errorf("replay: %v %+v", err, r.Hits)
	}
	if _, err := s.Replay(context.Background(), json.RawMessage(`{"limit":1}`)); err == nil || err.Error() != `call: field "query" is missing` {
		t.Errorf("missing query: %v", err)
	}
}

// followCatalog is a small database server: aggregate and explain take a
// $vectorSearch stage (at property levels 2 and 4), create-index has
// "vectorSearch" as a value, and collection-schema comes last in catalog
// order (it is the one a tie cut at the limit leaves out).
func followCatalog(t *testing.T) *Simulator {
	t.Helper()
	const cat = `{"server": "db", "tools": [
 {"name": "find", "description": "Run a find query against a collection",
  "inputSchema": {"type": "object", "properties": {"filter": {"type": "object"}}}},
 {"name": "aggregate", "description": "Aggregate the documents of a collection",
  "inputSchema": {"type": "object", "properties": {"pipeline": {"type": "array", "items": {"anyOf": [
    {"type": "object", "properties": {"$vectorSearch": {"type": "object"}}},
    {"type": "object", "properties": {"$match": {"type": "object"}}}]}}}}},
 {"name": "explain", "description": "Describe the winning plan of a method",
  "inputSchema": {"type": "object", "properties": {"method": {"type": "object", "properties": {"arguments": {"type": "object", "properties": {"pipeline": {"type": "array", "items": {"type": "object", "properties": {"$vectorSearch": {"type": "object"}}}}}}}}}}},
 {"name": "create-index", "description": "Create an index for a collection",
  "inputSchema": {"type": "object", "properties": {"kind": {"enum": ["regular", "vectorSearch"]}}}},
 {"name": "drop-collection", "description": "Removes a collection from the database"},
 {"name": "list-collections", "description": "List all collections for a database"},
 {"name": "search-knowledge", "description": "Search the knowledge base"},
 {"name": "run-script", "description": "Run a script on the server"},
 {"name": "vector-store", "description": "Keep embeddings"},
 {"name": "query-history", "description": "Show the query history"},
 {"name": "collection-schema", "description": "Describe the schema for a collection"}
]}`
	servers, _, err := corpus.ParseCatalog("follow.json", []byte(cat))
	if err != nil {
		t.Fatal(err)
	}
	c := &corpus.Catalog{}
	if err := c.Add(servers...); err != nil {
		t.Fatal(err)
	}
	return New(c, Options{})
}

func names(s *Simulator, docs []int) string {
	var out []string
	for _, d := range docs {
		out = append(out, s.entries[d].tool.Name)
	}
	return strings.Join(out, " ")
}

// handModel is a word model written by hand for these tests (the fitted
// one changes with the calibration set): the best server, z = -6 + 20 =
// 14; every prompt keyword, z = -6 + 6 = 0 and more for a word in a top
// tool (+1), in some tool name (+1), in descriptions only (+0.5), early
// in the prompt (+0.5/position); a family word z = -6 + 5 + its catalog
// terms; a tool-name word never (z ≤ -4). P ≥ 0.5 is z ≥ 0; the seven most
// probable are taken; a second search when the first shows nothing fit.
func handModel() *intent.Logit {
	w := map[string]float64{"server_first": 20, "is_prompt_word": 6, "in_top3": 1, "in_any_name": 1, "desc_only": 0.5, "position": 0.5, "is_related": 5}
	m := &intent.Logit{Features: intent.WordFeatures, Bias: -6, Threshold: 0.5, Max: 7, Options: map[string]float64{"follow_up": 1}}
	for _, f := range intent.WordFeatures {
		m.Weights = append(m.Weights, w[f])
	}
	return m
}

// checkCalls asserts the heuristic writer's calls for a prompt, in order,
// under handModel.
func checkCalls(t *testing.T, s *Simulator, prompt string, want []string) {
	t.Helper()
	var got []string
	for _, c := range s.HeuristicCallsWith(prompt, handModel()) {
		got = append(got, string(c))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HeuristicCalls(%q) =\n%q\nwant\n%q", prompt, got, want)
	}
}

func TestHeuristicFollowUp(t *testing.T) {
	s := followCatalog(t)
	tests := []struct {
		prompt string
		want   []string
	}{
		// First call: the server, then the keywords (KeywordQuery; "on"
		// and "the" are stop words, "vectorSearch" splits in two). Its
		// five results are the five tools whose documents hold run,
		// vector, search or query (checked below).
		// None takes "vectorSearch"; aggregate (a key at level 2) beats
		// explain (a key at level 4) and create-index (a value): the
		// second call names aggregate.
		{"Run a vectorSearch query on the movies", []string{
			`{"query":"db run vector search query movies"}`,
			`{"query":"db aggregate"}`}},
		// The intent index ranks collection-schema first ("field" is in
		// the family of "schema"), and the first call, which adds
		// "schema" for "field", shows it: one call.
		{"What type of value is stored in the title field?", []string{
			`{"query":"db schema type value stored title field"}`}},
		// No identifier, and list-collections (the intent's first) is
		// the first result: one call.
		{"list all the collections", []string{`{"query":"db list collections"}`}},
	}
	for _, tt := range tests {
		checkCalls(t, s, tt.prompt, tt.want)
	}
	// What the first call of the first prompt shows, in score order.
	if got := names(s, s.shownDocs("db run vector search query movies")); got != "search-knowledge find vector-store run-script query-history" {
		t.Errorf("shown: %s", got)
	}
}

// followUp's two rules on given first queries.
func TestFollowUpRules(t *testing.T) {
	s := followCatalog(t)
	ix, _ := s.intentIndex()
	tests := []struct {
		prompt, first, shown, want string
	}{
		// Rule 1 is met (aggregate is shown and takes $vectorSearch);
		// rule 2: the intent's first tool for the prompt is find, and
		// find is not shown: search for it.
		{"Run a vectorSearch query on the movies", "db aggregate",
			"aggregate vector-store drop-collection list-collections search-knowledge", "db find"},
		// Only the server word "db" matches, in every document; BM25
		// favours the shortest. collection-schema, the intent's first, is
		// not among them: search for it.
		{"What type of value is stored in the title field?", "db value stored title",
			"vector-store aggregate drop-collection list-collections search-knowledge", "db collection schema"},
		// "schema" puts collection-schema first: nothing more to find.
		{"What type of value is stored in the title field?", "db schema title",
			"collection-schema vector-store aggregate drop-collection list-collections", ""},
		// The intent's first is shown: no second call.
		{"list all the collections", "db list collections",
			"list-collections drop-collection collection-schema aggregate find", ""},
	}
	for _, tt := range tests {
		if got := names(s, s.shownDocs(tt.first)); got != tt.shown {
			t.Errorf("shownDocs(%q) = %s, want %s", tt.first, got, tt.shown)
		}
		if got := s.followUp(ix, "db", tt.prompt, tt.first, ix.Rank(tt.prompt)); got != tt.want {
			t.Errorf("followUp(%q, %q) = %q, want %q", tt.prompt, tt.first, got, tt.want)
		}
	}
}

// Worked examples on the MongoDB MCP server (prompts of mongodb-accuracy).
func TestHeuristicCallsMongoDB(t *testing.T) {
	s := New(sharedCatalog(t, "mongodb.json"), Options{})
	tests := []struct {
		prompt string
		want   []string
	}{
		// The first call shows find, search-knowledge,
		// list-knowledge-sources, atlas-get-performance-advisor and
		// drop-index; none takes vectorSearch. aggregate takes
		// $vectorSearch as a pipeline stage (level 2), explain and export
		// inside method/exportTarget arguments (level 4), create-index as
		// an index type value.
		{"Run a vectorSearch query on musicfy.songs on path 'title_embeddings' using the index 'titles' with the model voyage-3-large to find all 'hammer of justice' songs.", []string{
			`{"query":"mongodb run vector search query index find"}`,
			`{"query":"mongodb aggregate"}`}},
		// $match is declared by aggregate, explain, export and
		// atlas-streams-manage, $documents by aggregate-db alone (in its
		// pipeline's description): the rarer wins. ("$gt" is declared by
		// no tool.)
		// (The first query's words: "find" for "query", then the
		// keywords a tool's name or description holds.)
		{"I want to test this query: { $match: { age: { $gt: 28 } } }. I don't have a collection yet. Can you test it using $documents with these records: {name: 'Alice', age: 25}", []string{
			`{"query":"mongodb find query match collection documents name"}`,
			`{"query":"mongodb aggregate db"}`}},
		// No identifier; the intent index ranks collection-schema first,
		// and the first call, which adds "schema" for "field", shows it:
		// one call.
		{"What is the type of value stored in title field in movies collection in mflix database?", []string{
			`{"query":"mongodb schema type value stored collection database"}`}},
		// The intent index puts db-stats first ("group" is in the family
		// of "statistics" and "stats"), aggregate 0.96 of it; the first
		// call shows aggregate-db, aggregate, export, mongodb-logs and
		// disconnect, not db-stats: a second call, which the first made
		// unnecessary (a limit of rule 2).
		{"Group all the movies by release year", []string{
			`{"query":"mongodb aggregate group movies release year"}`,
			`{"query":"mongodb db stats"}`}},
		// count is the intent's first and the first result: one call.
		{"Count number of documents in 'mflix.movies' namespace.", []string{
			`{"query":"mongodb count number documents mflix movies namespace"}`}},
	}
	for _, tt := range tests {
		checkCalls(t, s, tt.prompt, tt.want)
	}
}

// The embedded fitted model is the one HeuristicCalls uses, and it reads.
func TestHeuristicCallsUseFittedModel(t *testing.T) {
	s := New(corpus.Demo(), Options{})
	for _, p := range []string{"Are there any storm alerts in Texas today?", "remove the ticket about printers", ""} {
		got, want := s.HeuristicCalls(p), s.HeuristicCallsWith(p, WriterModel())
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %s, want %s", p, got, want)
		}
	}
}
