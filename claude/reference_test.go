package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// refSearch is a slow, obviously-correct ToolSearch written straight from
// spec §1 over the simulator's pool: loops over every tool, strings.Contains
// for parts, and a compiled regexp per term for \bterm\b (Go's \b is ASCII,
// as JavaScript's without the u flag). It returns "name score" per hit.
func refSearch(s *Simulator, query string, limit int) []string {
	if limit <= 0 {
		limit = 5
	}
	text, _ := search.SliceUTF16(query, 16384)
	out := []string{}
	// select:
	if m := regexp.MustCompile(`^[sS][eE][lL][eE][cC][tT]:(?s:(.+))$`).FindStringSubmatch(text); m != nil && !strings.ContainsAny(m[1], "\n\r\u2028\u2029") {
		var names []string
		for _, n := range strings.Split(m[1], ",") {
			if n = strings.TrimFunc(n, search.IsJSSpace); n != "" {
				names = append(names, n)
			}
		}
		if len(names) > 64 {
			names = names[:64]
		}
		seen := map[string]bool{}
		add := func(name string) {
			if !seen[name] {
				seen[name] = true
				out = append(out, name+" 0")
			}
		}
		for _, n := range names {
			var found *entry
			for _, e := range append(append([]*entry{}, s.deferred...), s.pool...) {
				if e.name == n {
					found = e
					break
				}
			}
			if found != nil {
				add(found.name)
				continue
			}
			if s.prof.Coarse {
				for _, e := range s.pool {
					if e.mcp && (e.tool.Name == n || sanitize(e.tool.Name) == n) {
						add(e.name)
					}
				}
			}
		}
		return out
	}
	q := strings.TrimFunc(text, search.IsJSSpace)
	if q == "" {
		return out
	}
	ql := jsLower(q)
	all := append(append([]*entry{}, s.deferred...), s.pool...)
	if s.prof.Coarse {
		for _, e := range all {
			if e.name == q {
				return []string{e.name + " 0"}
			}
		}
	}
	for _, e := range all {
		if strings.ToLower(e.name) == ql {
			return []string{e.name + " 0"}
		}
	}
	if strings.HasPrefix(ql, "mcp__") && utf8.RuneCountInString(ql) > 5 {
		for _, e := range s.deferred {
			if strings.HasPrefix(strings.ToLower(e.name), ql) && len(out) < limit {
				out = append(out, e.name+" 0")
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	words := strings.FieldsFunc(ql, search.IsJSSpace)
	if len(words) > 32 {
		words = words[:32]
	}
	var req, opt []string
	for _, w := range words {
		if strings.HasPrefix(w, "+") && len(w) > 1 {
			req = append(req, w[1:])
		} else {
			opt = append(opt, w)
		}
	}
	terms := append(append([]string{}, req...), opt...)
	re := func(t string) wordRe {
		if r, ok := wordREs.Load(t); ok {
			return wordRe{r.(*regexp.Regexp), t}
		}
		r := regexp.MustCompile(`\b` + regexp.QuoteMeta(t) + `\b`)
		wordREs.Store(t, r)
		return wordRe{r, t}
	}
	type scored struct {
		e *entry
		s int
	}
	var list []scored
	for _, e := range s.deferred {
		inAny := func(list []string, t string) (eq, sub bool) {
			for _, p := range list {
				eq = eq || p == t
				sub = sub || strings.Contains(p, t)
			}
			return
		}
		ok := true
		for _, t := range req {
			_, ps := inAny(e.parts, t)
			_, cs := inAny(e.coarse, t)
			if !(ps || cs || re(t).MatchString(lowDesc(e)) || e.hasHint && re(t).MatchString(e.hint)) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		w := map[bool][4]int{true: {12, 6, 12, 4}, false: {10, 5, 10, 3}}[e.mcp]
		total := 0
		for _, t := range terms {
			pe, ps := inAny(e.parts, t)
			ce, cs := inAny(e.coarse, t)
			if pe {
				total += w[0]
			} else if ps {
				total += w[1]
			}
			if ce {
				total += w[2]
			} else if cs {
				total += w[3]
			}
			if total == 0 && strings.Contains(e.fullName(), t) {
				total += 3
			}
			if e.hasHint && re(t).MatchString(e.hint) {
				total += 4
			}
			if re(t).MatchString(lowDesc(e)) {
				total += 2
			}
		}
		if total > 0 {
			list = append(list, scored{e, total})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].s > list[j].s })
	for i, x := range list {
		if i == limit {
			break
		}
		out = append(out, fmt.Sprintf("%s %d", x.e.name, x.s))
	}
	return out
}

// wordREs caches the reference's compiled \bterm\b expressions.
var wordREs sync.Map

// wordRe is \bterm\b; a text that does not contain the term cannot match,
// which spares the regexp most texts.
type wordRe struct {
	re   *regexp.Regexp
	term string
}

func (w wordRe) MatchString(s string) bool {
	return strings.Contains(s, w.term) && w.re.MatchString(s)
}

// hostile is a small catalog with punctuation, case and non-ASCII in names,
// hints and descriptions, to give the fuzzers something to hit.
const hostile = `{"servers":[
 {"name":"my.server x","tools":[
  {"name":"weird name!","description":"C++ & c# (v1.2) one-shot foo_bar foo-bar","inputSchema":{"type":"object"}},
  {"name":"sendMessage","description":"Send İstanbul naïve ünïcode σς","inputSchema":{"type":"object"},"_meta":{"anthropic/searchHint":"  Chat\n\tDM   send "}},
  {"name":"a.b_c-d","description":"dots.and_underscores-and-dashes","inputSchema":{"type":"object"}}]},
 {"name":"A","tools":[{"name":"x","description":"upper server","inputSchema":{"type":"object"}},
  {"name":"always","description":"loaded up front","inputSchema":{"type":"object"},"_meta":{"anthropic/alwaysLoad":true}}]},
 {"name":"a","tools":[{"name":"x","description":"lower server x","inputSchema":{"type":"object"}},
  {"name":"X","description":"UPPER TOOL","inputSchema":{"type":"object"}}]}]}`

func refCatalogs(t testing.TB) map[string]*Simulator {
	demoCat := corpus.Demo()
	hostileCat := catalogOf(t, hostile)
	sims := map[string]*Simulator{}
	for _, p := range []Profile{V2_1_328, V2_1_283, V2_1_88} {
		sims["demo@"+p.Version] = New(demoCat, p, DefaultOptions())
		sims["hostile@"+p.Version] = New(hostileCat, p, DefaultOptions())
		sims["hostile-nobuiltins@"+p.Version] = New(hostileCat, p, Options{})
	}
	return sims
}

func checkAgainstRef(t *testing.T, sims map[string]*Simulator, query string, limit int) {
	t.Helper()
	keys := make([]string, 0, len(sims))
	for k := range sims {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := sims[k]
		r, err := s.Search(context.Background(), search.Query{Text: query, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		got := names(r)
		want := refSearch(s, query, limit)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %q limit %d:\n fast %q\n  ref %q", k, query, limit, got, want)
		}
	}
}

var refQueries = []string{
	"invoice", "billing", "customer", "notes", "+billing digest", "find invoice", "billing notes",
	"c++", "c#", "v1.2", "one-shot", "foo_bar", "foo-bar", "foo", "bar", "send", "sendmessage", "chat dm",
	"istanbul", "i̇stanbul", "naïve", "σς", "x", "X", "a", "upper", "+upper x", "+nothing x", "my", "server",
	"my.server", "name!", "weird", "dots.and_underscores-and-dashes", "and", "dashes", "b_c-d", "c-d",
	"mcp__a", "mcp__A__", "mcp__my_server_x__a", "select:x", "select:X,x,weird name!,nope", "select:always",
	"always", "mcp__a__always", "read", "webfetch", "fetch", "web", "cron job", "+cron schedule",
	"select:a\nb", "  ", "+", "++", "+ +", "\u00a0invoice\u2028billing", "truncated", "the", "ti",
	strings.Repeat("invoice ", 40), "select:" + strings.Repeat("x,", 70),
}

// TestReferenceAgrees checks the fast path against the slow reference on a
// table of queries over the demo and a hostile catalog, all profiles.
func TestReferenceAgrees(t *testing.T) {
	sims := refCatalogs(t)
	for _, q := range refQueries {
		for _, limit := range []int{0, 1, 3, 100} {
			checkAgainstRef(t, sims, q, limit)
		}
	}
}

// TestReferenceAgreesShared checks the fast path against the reference on
// all 15 shared catalogs merged, for every word of the demo queries and a
// sample of words from the catalogs' own descriptions.
func TestReferenceAgreesShared(t *testing.T) {
	cat := sharedCatalog(t)
	s := map[string]*Simulator{"shared": New(cat, V2_1_328, DefaultOptions()), "shared@2.1.88": New(cat, V2_1_88, Options{})}
	queries := append([]string{}, refQueries...)
	n := 0
	for _, tool := range cat.Tools() {
		n++
		if n%29 != 0 {
			continue
		}
		words := strings.Fields(strings.ToLower(tool.Description))
		if len(words) > 3 {
			queries = append(queries, strings.Join(words[:3], " "), "+"+words[1]+" "+tool.Name)
		}
		queries = append(queries, tool.Name, strings.ToUpper(tool.Name))
	}
	if testing.Short() {
		queries = queries[:len(queries)/4]
	}
	for _, q := range queries {
		checkAgainstRef(t, s, q, 10)
	}
}

// FuzzSearch: for any query, the fast path returns exactly what the slow
// reference returns (demo and hostile catalogs, all profiles).
func FuzzSearch(f *testing.F) {
	for _, q := range refQueries {
		f.Add(q, 5)
	}
	sims := refCatalogs(f)
	f.Fuzz(func(t *testing.T, query string, limit int) {
		if limit < 0 || limit > 1000 {
			limit = 5
		}
		checkAgainstRef(t, sims, query, limit)
	})
}

// FuzzCatalog: any server name, tool name, description and hint is loaded
// without a panic, and searching for any query agrees with the reference.
func FuzzCatalog(f *testing.F) {
	f.Add("billing", "invoice_lookup", "Looks up one record by ID.", "invoice export", "invoice")
	f.Add("my.server x", "weird name!", "C++ (v1.2) one-shot", "  DM \n chat", "c++")
	f.Add("İ", "😀", "naïve \u2028 x", "", "select:😀")
	f.Add("a", "", "", "x", "mcp__a__")
	f.Fuzz(func(t *testing.T, server, tool, desc, hint, query string) {
		if server == "" {
			server = "s"
		}
		js, err := json.Marshal(map[string]any{"servers": []any{map[string]any{"name": server, "tools": []any{
			map[string]any{"name": tool, "description": desc, "inputSchema": map[string]any{"type": "object"},
				"_meta": map[string]any{"anthropic/searchHint": hint}},
			map[string]any{"name": "other", "description": hint, "inputSchema": map[string]any{"type": "object"}},
		}}}})
		if err != nil {
			return
		}
		servers, diags, err := corpus.ParseCatalog("fuzz.json", js)
		if err != nil {
			return
		}
		cat := &corpus.Catalog{Diagnostics: diags}
		if cat.Add(servers...) != nil {
			return
		}
		sims := map[string]*Simulator{}
		for _, p := range []Profile{V2_1_328, V2_1_88} {
			sims[p.Version] = New(cat, p, DefaultOptions())
		}
		checkAgainstRef(t, sims, query, 5)
		for _, s := range sims {
			if _, ok := s.View(corpus.NewToolID(server, tool)); !ok && len(s.Problems()) == 0 {
				t.Fatalf("tool %q/%q neither viewable nor reported", server, tool)
			}
		}
	})
}

// lowDesc is the lowercase listed description spec §1 searches (an ASCII
// one is kept in its own case, see entry.descFold).
func lowDesc(e *entry) string {
	if e.descFold {
		return strings.ToLower(e.desc)
	}
	return e.desc
}
