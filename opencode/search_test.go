package opencode

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"create issues", []string{"create", "issues"}},
		{"createIssue", []string{"create", "issue"}},                 // "eI" gets a space
		{"getHTTPStatus", []string{"get", "httpstatus"}},             // only "tH"; "PS" is upper-upper
		{"aBcD", []string{"a", "bc", "d"}},                           // "aB" then "cD": matches do not overlap
		{"a1B2C", []string{"a1", "b2", "c"}},                         // digits count as lower
		{"list_pull-requests", []string{"list", "pull", "requests"}}, // _ and - split
		{"tools.github.get_me", []string{"tools", "github", "get", "me"}},
		{"  *  ", nil}, // "*" is a separator
		{"", nil},
		{"Ünïcode İs", []string{"n", "code", "i", "s"}}, // Ü, ï split; İ lowers to i + U+0307
		{"x__y", []string{"x", "y"}},
	} {
		if got := Tokenize(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"issues", []string{"issues", "issu", "issue"}}, // > 3 and "es"; > 2 and "s"
		{"files", []string{"files", "fil", "file"}},
		{"yes", []string{"yes", "ye"}}, // 3 letters: no "-es" form
		{"gas", []string{"gas", "ga"}},
		{"as", []string{"as"}}, // 2 letters: no "-s" form
		{"es", []string{"es"}},
		{"create", []string{"create"}},
	} {
		if got := Forms(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Forms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// specCatalog is §C.2's worked example.
func specCatalog(t testing.TB) *corpus.Catalog {
	t.Helper()
	servers, _, err := corpus.ParseCatalog("spec.json", []byte(`{"servers": [
	 {"name": "github", "tools": [
	   {"name": "create_issue", "description": "Create an issue", "inputSchema": {"type": "object"}},
	   {"name": "list_issues", "description": "List issues", "inputSchema": {"type": "object"}}]},
	 {"name": "linear", "tools": [
	   {"name": "save_issue", "description": "Save an issue", "inputSchema": {"type": "object"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	cat := &corpus.Catalog{}
	if err := cat.Add(servers...); err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestSearchSpecExample is §C.2's worked example "create issues".
func TestSearchSpecExample(t *testing.T) {
	s := newCodeMode(specCatalog(t), profile118())
	res := s.runSearch(SearchInput{Query: "create issues"})
	type row struct {
		path  string
		score int
	}
	var got []row
	for _, it := range res.Items {
		got = append(got, row{it.Path, it.Score})
	}
	want := []row{
		{"tools.github.create_issue", 28}, // create: 8+4+2; issues (issue): 8+4+2
		{"tools.github.list_issues", 14},  // issues: path 8, description 4, text 2
		{"tools.linear.save_issue", 14},   // issue: 8+4+2; ties with list_issues, "github" < "linear"
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if res.Remaining != 0 || res.Next != -1 {
		t.Errorf("remaining %d next %d, want 0 and null", res.Remaining, res.Next)
	}
	// The +20 needs the form to be the whole last segment.
	res = s.runSearch(SearchInput{Query: "issues"})
	if res.Items[0].Score != 14 {
		t.Errorf("issues: top score %d, want 14 (no last-segment match)", res.Items[0].Score)
	}
	// Exact lookups: the path, "tools." + path, or the rendered path.
	for _, q := range []string{"github.list_issues", "  tools.github.list_issues ", "tools.github.list_issues"} {
		res = s.runSearch(SearchInput{Query: q})
		if len(res.Items) != 1 || res.Items[0].Path != "tools.github.list_issues" || !res.Exact {
			t.Errorf("%q: %+v, want the exact tool alone", q, res.Items)
		}
	}
	// Browsing: no terms keeps everything, in path order.
	res = s.runSearch(SearchInput{Query: " ", Limit: 2})
	if len(res.Items) != 2 || res.Remaining != 1 || res.Next != 2 {
		t.Errorf("browse: %d items remaining %d next %d, want 2, 1, 2", len(res.Items), res.Remaining, res.Next)
	}
	res = s.runSearch(SearchInput{Query: "", Offset: 2})
	if len(res.Items) != 1 || res.Items[0].Path != "tools.linear.save_issue" || res.Remaining != 0 {
		t.Errorf("offset 2: %+v remaining %d", res.Items, res.Remaining)
	}
	ns := "linear"
	res = s.runSearch(SearchInput{Query: "issue", Namespace: &ns})
	if len(res.Items) != 1 || res.Items[0].Path != "tools.linear.save_issue" {
		t.Errorf("namespace linear: %+v", res.Items)
	}
}

// TestSearchGithub checks the scores behind the oracle-verified order of
// "create issues" on github.json and on github + filesystem + memory.
func TestSearchGithub(t *testing.T) {
	s := newCodeMode(loadShared(t, "github"), profile118())
	res := s.runSearch(SearchInput{Query: "create issues"})
	var scores []int
	var paths []string
	for _, it := range res.Items {
		scores = append(scores, it.Score)
		paths = append(paths, strings.TrimPrefix(it.Path, "tools.github."))
	}
	wantPaths := []string{"create_issue", "assign_copilot_to_issue", "assign_copilot_to_issue_with_intent", "issue_write",
		"set_issue_fields", "issue_dependency_write", "add_issue_comment", "add_issue_comment_reaction", "add_issue_reaction", "add_sub_issue"}
	if !reflect.DeepEqual(paths, wantPaths) || !reflect.DeepEqual(scores, []int{28, 20, 20, 20, 20, 16, 14, 14, 14, 14}) || res.Remaining != 34 {
		t.Errorf("got %v %v remaining %d", paths, scores, res.Remaining)
	}
	m := newCodeMode(loadShared(t, "github", "filesystem", "memory"), profile118())
	res = m.runSearch(SearchInput{Query: "create issues"})
	if res.Items[6].Path != "tools.filesystem.create_directory" || res.Remaining != 38 {
		t.Errorf("merged: 7th %s remaining %d, want filesystem.create_directory and 38", res.Items[6].Path, res.Remaining)
	}
}

var (
	camelRe = regexp.MustCompile(`([a-z0-9])([A-Z])`)
	splitRe = regexp.MustCompile(`[^a-z0-9]+`)
)

// refTokenize is the JavaScript tokenizer transcribed with regexps:
// q.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/)
// without empty terms and "*".
func refTokenize(q string) []string {
	q = camelRe.ReplaceAllString(q, "$1 $2")
	var out []string
	for _, p := range splitRe.Split(jsLower(q), -1) {
		if p != "" && p != "*" {
			out = append(out, p)
		}
	}
	return out
}

// refTool is one tool as refSearch reads it, built literally from the
// catalog entry.
type refTool struct {
	path, lp, ld, text string
}

func refTools(s *CodeMode) []refTool {
	var out []refTool
	for _, e := range s.entries {
		desc := toolDescription(e.tool)
		out = append(out, refTool{path: e.path, lp: jsLower(e.path), ld: jsLower(desc),
			text: jsLower(strings.Join(append([]string{e.path, desc}, propertyText(e.tool.InputSchema)...), "\n"))})
	}
	return out
}

// refSearch is a slow, literal search(): per tool and term, the four
// signals as written in §C.2; sorted with LocaleCompare.
func refSearch(tools []refTool, query string, limit int) ([]string, []int, int) {
	type row struct {
		path  string
		score int
	}
	var rows []row
	terms := refTokenize(query)
	for _, tool := range tools {
		lp, ld, text := tool.lp, tool.ld, tool.text
		score := 0
		for _, term := range terms {
			forms := []string{term}
			if strings.HasSuffix(term, "es") && len(term) > 3 {
				forms = append(forms, term[:len(term)-2])
			}
			if strings.HasSuffix(term, "s") && len(term) > 2 {
				forms = append(forms, term[:len(term)-1])
			}
			some := func(f func(string) bool) bool {
				for _, x := range forms {
					if f(x) {
						return true
					}
				}
				return false
			}
			if some(func(x string) bool { return lp == x || strings.HasSuffix(lp, "."+x) }) {
				score += 20
			}
			if some(func(x string) bool { return strings.Contains(lp, x) }) {
				score += 8
			}
			if some(func(x string) bool { return strings.Contains(ld, x) }) {
				score += 4
			}
			if some(func(x string) bool { return strings.Contains(text, x) }) {
				score += 2
			}
		}
		if len(terms) == 0 || score > 0 {
			rows = append(rows, row{tool.path, score})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].score != rows[j].score {
			return rows[i].score > rows[j].score
		}
		return search.LocaleCompare(rows[i].path, rows[j].path) < 0
	})
	n := min(limit, len(rows))
	var paths []string
	var scores []int
	for _, r := range rows[:n] {
		paths = append(paths, RenderPath(r.path))
		scores = append(scores, r.score)
	}
	return paths, scores, len(rows) - n
}

// TestSearchMatchesReference runs the labelled corpora's queries over the
// 15 shared catalogs through the fast path and the reference.
func TestSearchMatchesReference(t *testing.T) {
	cat := loadShared(t, "*")
	s := newCodeMode(cat, profile118())
	ref := refTools(s)
	queries := []string{"create issues", "list pull requests", "read file", "memory search", "getHTTPStatus", "", "navigate_page"}
	files, _ := filepath.Glob("../../shared/corpora/*/queries.jsonl")
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 0; sc.Scan() && n < 12; n++ {
			var q struct{ Query string }
			if json.Unmarshal(sc.Bytes(), &q) == nil {
				queries = append(queries, q.Query)
			}
		}
		fh.Close()
	}
	if testing.Short() {
		queries = queries[:10]
	}
	for _, q := range queries {
		for _, limit := range []int{10, 50}[:1+len(q)%2] {
			res := s.runSearch(SearchInput{Query: q, Limit: limit})
			var paths []string
			var scores []int
			for _, it := range res.Items {
				paths = append(paths, it.Path)
				scores = append(scores, it.Score)
			}
			rp, rs, rrem := refSearch(ref, q, limit)
			if !reflect.DeepEqual(paths, rp) || !reflect.DeepEqual(scores, rs) || res.Remaining != rrem {
				t.Fatalf("query %q limit %d:\nfast %v %v %d\n ref %v %v %d", q, limit, paths, scores, res.Remaining, rp, rs, rrem)
			}
		}
	}
	t.Logf("%d queries agree", len(queries))
}

func TestSearchResultJSON(t *testing.T) {
	r := SearchResult{Items: []SearchItem{{Path: `tools["a-b"].c`, Description: "Line one\n\"quoted\"", Signature: "tools[\"a-b\"].c(input: {}): Promise<unknown>"}}, Remaining: 3, Next: 1}
	want := `{
  "items": [
    {
      "path": "tools[\"a-b\"].c",
      "description": "Line one\n\"quoted\"",
      "signature": "tools[\"a-b\"].c(input: {}): Promise<unknown>"
    }
  ],
  "remaining": 3,
  "next": {
    "offset": 1
  }
}`
	if got := r.JSON(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	empty := SearchResult{Next: -1}
	if got := empty.JSON(); got != "{\n  \"items\": [],\n  \"remaining\": 0,\n  \"next\": null\n}" {
		t.Errorf("empty: %q", got)
	}
	// The same as a generic JSON.stringify(value, null, 2).
	var v any
	if err := json.Unmarshal([]byte(r.JSON()), &v); err != nil {
		t.Fatal(err)
	}
}

func TestRunSearchValidates(t *testing.T) {
	s := newCodeMode(specCatalog(t), profile118())
	if _, err := s.RunSearch(SearchInput{Limit: -1}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("limit -1: %v", err)
	}
	if _, err := s.RunSearch(SearchInput{Offset: -2}); err == nil || !strings.Contains(err.Error(), "offset") {
		t.Errorf("offset -2: %v", err)
	}
}

// TestIndexEntryLowercase: the lowercased path and description, kept as
// slices of the search text when it holds them, are jsLower's, on the
// demo, every shared catalog and hand-made cases (uppercase, non-ASCII,
// İ, a description that is not a prefix).
func TestIndexEntryLowercase(t *testing.T) {
	cats := []*corpus.Catalog{corpus.Demo()}
	if _, err := os.Stat(sharedCatalogs); err == nil {
		cats = append(cats, loadShared(t, "*"))
	}
	for _, cat := range cats {
		for _, ie := range newCodeMode(cat, profile118()).index {
			if ie.lpath != jsLower(ie.e.path) || ie.ldesc != jsLower(ie.desc) {
				t.Fatalf("%s: lpath %q ldesc %q", ie.e.path, ie.lpath, ie.ldesc)
			}
		}
	}
	for _, tc := range []struct{ text, s, want string }{
		{"abc\nrest", "ABC", "abc"},
		{"xyz", "ABC", "abc"},
		{"i\u0307x", "İX", "i\u0307x"},
		{"ab", "ABC", "abc"},
		{"café", "CAFÉ", "café"},
	} {
		if got := lowerIn(tc.text, 0, tc.s); got != tc.want {
			t.Errorf("lowerIn(%q, %q) = %q, want %q", tc.text, tc.s, got, tc.want)
		}
	}
}
