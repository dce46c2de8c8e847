package intent

import (
	"github.com/toolfind/toolfind/ojson"
	"reflect"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want string // form/stem pairs
	}{
		// "please" and "my" are filler and stop words; "movies" stems to movi.
		{"Please list my movies", "list/list movies/movi"},
		// camelCase splits; "Requests" stems to request.
		{"listPullRequests", "list/list pull/pull requests/request"},
		// non-ASCII letters separate words; one-letter words drop, and
		// "ve" is an NLTK stop word.
		{"a naïve b-c db", "na/na db/db"},
	}
	for _, tt := range tests {
		var got []string
		for _, w := range Words(tt.in) {
			got = append(got, w.Form+"/"+w.Stem)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Words(%q) = %q, want %q", tt.in, strings.Join(got, " "), tt.want)
		}
	}
}

// The package doc's worked example: "remove" reaches delete_note through
// its family.
func TestRankFamilyExample(t *testing.T) {
	ix := NewIndex([]Doc{
		{Server: "notes", Tool: "create_note", Description: "Create a note"},
		{Server: "notes", Tool: "delete_note", Description: "Delete a note"},
	})
	// df("note") = 2 → idf ln(1 + 0.5/2.5); df("delet") = 1 → ln(1 + 1.5/1.5).
	if got, want := ix.IDF("note"), 0.1823215567939546; got != want {
		t.Errorf("IDF(note) = %v, want %v", got, want)
	}
	if got, want := ix.IDF("delet"), 0.6931471805599453; got != want {
		t.Errorf("IDF(delet) = %v, want %v", got, want)
	}
	r := ix.Rank("please remove my old note")
	if len(r) != 2 || r[0].Doc != 1 || r[1].Doc != 0 {
		t.Fatalf("Rank = %+v, want delete_note (1) then create_note (0)", r)
	}
	if r[0].NameMatches != 2 { // note, and delet via the family
		t.Errorf("NameMatches = %d, want 2", r[0].NameMatches)
	}
}

func TestKeywordQuery(t *testing.T) {
	ix := NewIndex([]Doc{
		{Server: "web", Tool: "pwa_check", Description: "Turn a website into a progressive web app"},
		{Server: "web", Tool: "ping", Description: "Ping a host"},
	})
	tests := []struct {
		server, prompt string
		max            int
		want           string
	}{
		// "can", "you", "my", "into", "a" are filler or stop words. Only
		// "web" is in a tool's name (the server's); turn, websit, progress
		// and app are in a description. Max 4: web, then the first three
		// description words; printed in prompt order.
		{"", "Can you turn my website into a progressive web app?", 4, "turn website progressive web"},
		// The server leads and takes one of the three words; "ping" is in
		// a name, "host" in a description, "now" a stop word.
		{"web", "ping the web host now", 3, "web ping host"},
		// "erase" is in no name, but no tool name holds a word of its
		// family (delete, remove…) either: nothing is added.
		{"", "erase host", 4, "erase host"},
	}
	for _, tt := range tests {
		if got := ix.KeywordQuery(tt.server, tt.prompt, ix.Rank(tt.prompt), tt.max); got != tt.want {
			t.Errorf("KeywordQuery(%q, %q, %d) = %q, want %q", tt.server, tt.prompt, tt.max, got, tt.want)
		}
	}
}

func TestKeywordQueryAddsFamilyWord(t *testing.T) {
	ix := NewIndex([]Doc{
		{Server: "db", Tool: "aggregate", Description: "Run an aggregation pipeline"},
		{Server: "db", Tool: "find", Description: "Find documents"},
	})
	// "group" is in no tool name; the first word of its family that a
	// tool name holds is "aggregate"; it comes before the prompt's words.
	if got, want := ix.KeywordQuery("", "group the movies by year", ix.Rank("group the movies by year"), 4), "aggregate group movies year"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRelatedIsSymmetric(t *testing.T) {
	for s, rel := range familyOf() {
		for _, r := range rel {
			if !reflect.DeepEqual(contains(familyOf()[r], s), true) {
				t.Errorf("%s → %s but not back", s, r)
			}
		}
	}
}

// TestRelatedBuiltOnFirstUse checks the tables that are built lazily
// (familyForms, familyOf) on their first use: "save" is in two families,
// {download export save} and {write store save}, so its forms are the
// other words of both in the order of Families, and Related gives their
// stems; "list" is in one family of seven words.
func TestRelatedBuiltOnFirstUse(t *testing.T) {
	if got, want := familyForms()["save"], []string{"download", "export", "write", "store"}; !reflect.DeepEqual(got, want) {
		t.Errorf("familyForms()[save] = %q, want %q", got, want)
	}
	if got, want := Related("save"), []string{"download", "export", "write", "store"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Related(save) = %q, want %q", got, want)
	}
	// 7 words - "list" itself = 6; enumerate, browse stem to enumer, brows.
	if got, want := Related("list"), []string{"show", "display", "enumer", "all", "brows", "overview"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Related(list) = %q, want %q", got, want)
	}
	if got := Related("invoice"); got != nil {
		t.Errorf("Related(invoice) = %q, want nil (in no family)", got)
	}
}

func BenchmarkRank(b *testing.B) {
	var docs []Doc
	for i := 0; i < 500; i++ {
		docs = append(docs, Doc{Server: "srv", Tool: "tool_" + strings.Repeat("x", i%7) + "_list_items", Description: "List the items of a collection with filters and paging"})
	}
	ix := NewIndex(docs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix.Rank("show me every item in the collection, newest first")
	}
}

func TestPhrases(t *testing.T) {
	var got []string
	for _, w := range Words("Set up a cluster, then look up docs") {
		got = append(got, w.Form)
	}
	// "set up" adds create; "up" and "then" are stop words; "set" stays.
	if g := strings.Join(got, " "); g != "create set cluster find look docs" {
		t.Errorf("Words = %q", g)
	}
}

func TestSchemaText(t *testing.T) {
	v, err := ojson.Parse([]byte(`{"type":"object","properties":{
		"pipeline":{"type":"array","description":"Stages such as $vectorSearch","items":{"type":"object","properties":{"stage":{"type":"string"}}}},
		"limit":{"type":"number"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	// Depth first in document order: pipeline, its description, the
	// items' properties, then limit.
	if got, want := SchemaText(v), "pipeline Stages such as $vectorSearch stage limit "; got != want {
		t.Errorf("SchemaText = %q, want %q", got, want)
	}
	if got := SchemaText(ojson.Value{}); got != "" {
		t.Errorf("absent schema: %q", got)
	}
	// A 10,000-deep schema costs at most 8 levels and MaxSchemaText bytes.
	deep := strings.Repeat(`{"properties":{"a":`, 10000) + "{}" + strings.Repeat("}}", 10000)
	if dv, err := ojson.Parse([]byte(deep)); err == nil {
		if got := SchemaText(dv); got != strings.Repeat("a ", 9) {
			t.Errorf("deep: %q", got)
		}
	}
}
