// Package intent is the shared core of the deterministic "heuristic"
// writers: it stands in for what a model knows when it reads a prompt and
// decides what to search for. It never decides what a client returns;
// each client's package turns its verdicts into that client's call, using
// only what the client shows its model (see each client's HeuristicCalls).
//
// # Words
//
// A text becomes words this way: camelCase boundaries split
// ("listPullRequests" → list pull requests), everything that is not an
// ASCII letter or digit separates words, words are lowercased, NLTK
// English stop words and the filler words of requests ("please", "want",
// "using", "tool", …: see fillerWords) are dropped, and each word is
// stemmed with the Snowball English stemmer ("movies" → "movi",
// "grouping" → "group"). One-letter words are dropped.
//
// # Keywords
//
// Keywords(prompt) are a prompt's words in order of first appearance,
// duplicates removed: what a model copies from the prompt into a keyword
// query. Each keyword keeps the form the prompt used (lowercased,
// unstemmed) for queries and the stem for matching.
//
// # Ranking tools
//
// An Index holds, per tool, the stems of its name (the server's and the
// tool's), of its description's first MaxDescription characters and,
// when given, of its input schema's property names and descriptions
// (SchemaText). Rank(prompt) scores every tool with BM25 over the three
// fields (k1 = 1.2, b = 0.75; a name stem counts NameWeight = 1 times, a
// description stem once, a schema stem ParamWeight = 0.5 times: tried
// name weights 0.5–5 and schema weights 0–1 on mongodb-accuracy and
// azure-e2e through Claude's select:, these find the most)
// summed over the prompt's distinct stems, each weighted by its inverse
// document frequency ln(1 + (N − df + 0.5)/(df + 0.5)). A prompt stem that
// belongs to a family of common action words (Families: "show" and "list";
// "remove" and "delete"; "group" and "aggregate"; …) also scores the
// family's other stems at half weight: a model knows that "remove" asks
// for a delete tool. Ties keep catalog order.
//
// Worked example (tools "notes/create_note" described "Create a note",
// "notes/delete_note" described "Delete a note"; prompt "please remove my
// old note"): the prompt's stems are remov, old, note ("please" and "my"
// are dropped); "note" is in both names and both descriptions (df 2, idf
// ln(1 + 0.5/2.5) = 0.18); "remov" is in neither, but its family holds
// "delet", found in delete_note's name and description (df 1, idf
// ln(1 + 1.5/1.5) = 0.69, at half weight). So delete_note ranks first.
//
// # Identifiers
//
// A prompt sometimes names an API identifier rather than a word: a token
// with a leading '$' ("$search"), a camelCase boundary ("vectorSearch") or
// an '_' between letters or digits ("US_EAST_1"). A model that knows the
// API knows which operation takes it ($vectorSearch is a stage of an
// aggregation pipeline). The stand-in for that knowledge is the catalog's
// input schemas: SchemaIdentifiers lists what each tool's schema declares
// (property names at any depth, "const" and "enum" strings, '$'-words of
// descriptions), each with how directly (a property name before a value,
// then the shallower property level). Identifiers match lowercased; a
// prompt's "vectorSearch" matches a declared "$vectorSearch", a prompt's
// "$documents" only a '$'-identifier. They do not score in Rank: a client's
// writer asks Declared, Declares and BestDeclarer (Grok's second search
// does).
//
// Worked example (the MongoDB MCP server, prompt "Run a vectorSearch query
// on mflix.movies"): aggregate, explain and export declare $vectorSearch
// as a key, at property levels 2, 4 and 4; create-index declares
// "vectorSearch" as a const value; BestDeclarer picks aggregate.
package intent

import (
	"math"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search/bm25"
)

// Tuning constants of Rank (see the package doc).
const (
	NameWeight     = 1.0
	ParamWeight    = 0.5
	MaxDescription = 2000
	k1             = 1.2
	b              = 0.75
	familyWeight   = 0.5
)

// Word is one word of a text: the lowercased form as written and its stem.
type Word struct {
	Form, Stem string
}

// fillerWords are words of requests that name no capability, made on
// first use (not at start-up).
var fillerWords = sync.OnceValue(func() map[string]bool {
	return setOf(`please want would like need needs could can help using use via tool tools
 mcp server servers also give tell let me us know thing things something anything way ask
 able try make sure want wanted wants kindly quick quickly just currently current
 e g eg ie etc many much`)
})

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// phrases are two-word idioms that name an action a single word names
// better: "set up" asks to create. ("how many" → count was tried: it
// sends "how many collections" to count, not to list-collections.)
var phrases = [...]struct{ first, second, word string }{
	{"set", "up", "create"},
	{"look", "up", "find"},
	{"sign", "in", "login"},
	{"log", "in", "login"},
	{"get", "rid", "delete"},
	{"find", "out", "get"},
	{"spin", "up", "create"},
	{"tear", "down", "delete"},
}

// phrase returns the word of the idiom "first second", if it is one.
func phrase(first, second string) (string, bool) {
	for _, p := range phrases {
		if p.first == first && p.second == second {
			return p.word, true
		}
	}
	return "", false
}

// Words splits text into its words (see the package doc), in order, with
// duplicates kept. A two-word idiom (phrases: "set up", "look up", …)
// adds its word in its place.
func Words(text string) []Word {
	var out []Word
	raws := splitRaw(text)
	for i, raw := range raws {
		w := strings.ToLower(raw)
		if i+1 < len(raws) {
			if p, ok := phrase(w, strings.ToLower(raws[i+1])); ok {
				out = append(out, Word{Form: p, Stem: bm25.Stem(p)})
			}
		}
		if len(w) < 2 || bm25.IsStopWord(w) || fillerWords()[w] {
			continue
		}
		out = append(out, Word{Form: w, Stem: bm25.Stem(w)})
	}
	return out
}

// Keywords are the prompt's distinct words in order of first appearance
// (by stem).
func Keywords(prompt string) []Word {
	seen := map[string]bool{}
	var out []Word
	for _, w := range Words(prompt) {
		if !seen[w.Stem] {
			seen[w.Stem] = true
			out = append(out, w)
		}
	}
	return out
}

// splitRaw cuts text at every non-alphanumeric ASCII byte and at camelCase
// boundaries (a lowercase letter or digit followed by an uppercase one).
func splitRaw(text string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, text[start:i])
			start = -1
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		alnum := c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
		if !alnum {
			flush(i)
			continue
		}
		if start >= 0 && c >= 'A' && c <= 'Z' {
			p := text[i-1]
			if p >= 'a' && p <= 'z' || p >= '0' && p <= '9' {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(text))
	return out
}

// Families are groups of action and object words that a model treats as
// one intent. Words are given unstemmed; they are stemmed on use.
var Families = [][]string{
	{"list", "show", "display", "enumerate", "all", "browse", "overview"},
	{"create", "add", "new", "make", "insert", "generate", "build", "open", "register", "provision", "setup", "deploy", "configure"},
	{"delete", "remove", "drop", "erase", "destroy", "purge", "clear", "discard"},
	{"update", "modify", "change", "edit", "set", "rename", "patch", "alter", "adjust"},
	{"search", "find", "look", "query", "lookup", "filter", "locate", "match"},
	{"get", "read", "fetch", "retrieve", "view", "inspect", "describe", "details", "info", "information", "check"},
	{"count", "number", "total"},
	{"run", "execute", "invoke", "trigger", "start", "launch"},
	{"stop", "halt", "cancel", "kill", "terminate", "abort"},
	{"send", "post", "publish", "notify", "message"},
	{"group", "aggregate", "aggregation", "summarize", "statistics", "stats", "pipeline", "average", "sum"},
	{"download", "export", "save"},
	{"upload", "import", "load"},
	{"write", "store", "save"},
	{"log", "logs", "logging", "warnings", "errors", "events"},
	{"schema", "structure", "fields", "columns"},
	{"index", "indexes", "indices"},
	{"user", "users", "account", "member", "people"},
	{"file", "files", "document", "documents"},
	{"database", "databases", "db"},
	{"collection", "collections", "table", "tables"},
	{"explain", "plan", "performance", "perform", "slow", "optimize", "latency"},
	{"size", "storage", "usage", "space", "stats"},
	{"suggest", "suggestion", "recommend", "recommendation", "advice", "advisor", "insights"},
	{"navigate", "goto", "visit", "url", "page", "website"},
	{"click", "press", "tap"},
	{"type", "fill", "enter"},
	{"screenshot", "capture", "snapshot"},
}

// familyForms maps a stem to the unstemmed words of its families. It is
// built on first use: stemming every family word costs about 1,500
// allocations, which a process that never ranks by intent (toolfind
// version, lint, ...) should not pay at start-up.
var familyForms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, fam := range Families {
		for _, w := range fam {
			s := bm25.Stem(w)
			for _, o := range fam {
				if o != w && bm25.Stem(o) != s && !contains(m[s], o) {
					m[s] = append(m[s], o)
				}
			}
		}
	}
	return m
})

// familyOf maps a stem to the stems of familyForms[stem], in order,
// duplicates dropped (what Related returns). Built on first use.
var familyOf = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for s, forms := range familyForms() {
		for _, f := range forms {
			if st := bm25.Stem(f); !contains(m[s], st) {
				m[s] = append(m[s], st)
			}
		}
	}
	return m
})

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Related returns the other stems of the families a stem belongs to.
func Related(stem string) []string { return familyOf()[stem] }

// Doc is one tool as the index sees it.
type Doc struct {
	Server, Tool, Description string
	// Params is the text of the input schema (SchemaText), a third field
	// weighted ParamWeight.
	Params string
	// Identifiers are the API identifiers the tool's input schema
	// declares (SchemaIdentifiers); they do not score in Rank (see
	// BestDeclarer).
	Identifiers map[string]Declaration
}

// Index ranks a fixed list of tools for prompts. It is safe for concurrent
// use once built.
type Index struct {
	n                 int
	name, desc, param []map[string]int
	nameLen           []int
	descLen           []int
	paramLen          []int
	avgName           float64
	avgDesc           float64
	avgParam          float64
	df                map[string]int
	nameDF            map[string]int // tools whose name holds the stem
	ident             []map[string]Declaration
	declarers         map[string][]int // identifier → the docs declaring it, in order
}

// NewIndex builds the index over docs, in order.
func NewIndex(docs []Doc) *Index {
	ix := &Index{n: len(docs), df: map[string]int{}, nameDF: map[string]int{}, declarers: map[string][]int{}}
	ix.ident = make([]map[string]Declaration, len(docs))
	ix.name = make([]map[string]int, len(docs))
	ix.desc = make([]map[string]int, len(docs))
	ix.nameLen = make([]int, len(docs))
	ix.descLen = make([]int, len(docs))
	ix.param = make([]map[string]int, len(docs))
	ix.paramLen = make([]int, len(docs))
	var sumN, sumD, sumP int
	for i, d := range docs {
		nm := map[string]int{}
		for _, w := range Words(d.Server + " " + d.Tool) {
			nm[w.Stem]++
			ix.nameLen[i]++
		}
		dm := map[string]int{}
		desc := d.Description
		if len(desc) > MaxDescription {
			desc = desc[:MaxDescription]
		}
		for _, w := range Words(desc) {
			dm[w.Stem]++
			ix.descLen[i]++
		}
		pm := map[string]int{}
		for _, w := range Words(d.Params) {
			pm[w.Stem]++
			ix.paramLen[i]++
		}
		ix.name[i], ix.desc[i], ix.param[i] = nm, dm, pm
		ix.ident[i] = d.Identifiers
		for id := range d.Identifiers {
			ix.declarers[id] = append(ix.declarers[id], i)
		}
		sumN += ix.nameLen[i]
		sumD += ix.descLen[i]
		sumP += ix.paramLen[i]
		seen := map[string]bool{}
		for s := range nm {
			seen[s] = true
			ix.nameDF[s]++
		}
		for s := range dm {
			seen[s] = true
		}
		for s := range pm {
			seen[s] = true
		}
		for s := range seen {
			ix.df[s]++
		}
	}
	if len(docs) > 0 {
		ix.avgName = float64(sumN) / float64(len(docs))
		ix.avgDesc = float64(sumD) / float64(len(docs))
		ix.avgParam = float64(sumP) / float64(len(docs))
	}
	return ix
}

// Scored is one tool's score: Doc is its position in the index.
type Scored struct {
	Doc   int
	Score float64
	// Matched are the prompt stems (or their family members) found in
	// the tool's name.
	NameMatches int
}

// IDF is the inverse document frequency of a stem in the index.
func (ix *Index) IDF(stem string) float64 {
	df := float64(ix.df[stem])
	return math.Log(1 + (float64(ix.n)-df+0.5)/(df+0.5))
}

// DF is the number of tools whose name or description holds the stem.
func (ix *Index) DF(stem string) int { return ix.df[stem] }

func tfNorm(tf, l int, avg float64) float64 {
	if tf == 0 {
		return 0
	}
	norm := 1.0
	if avg > 0 {
		norm = 1 - b + b*float64(l)/avg
	}
	return float64(tf) * (k1 + 1) / (float64(tf) + k1*norm)
}

// Rank scores every tool for the prompt and returns those scoring above
// zero, best first (ties in index order).
func (ix *Index) Rank(prompt string) []Scored {
	type qterm struct {
		stem string
		w    float64
	}
	var terms []qterm
	seen := map[string]bool{}
	for _, w := range Keywords(prompt) {
		if !seen[w.Stem] {
			seen[w.Stem] = true
			terms = append(terms, qterm{w.Stem, 1})
		}
	}
	direct := len(terms)
	for i := 0; i < direct; i++ {
		for _, r := range Related(terms[i].stem) {
			if !seen[r] {
				seen[r] = true
				terms = append(terms, qterm{r, familyWeight})
			}
		}
	}
	var out []Scored
	for d := 0; d < ix.n; d++ {
		var s float64
		nm := 0
		for _, t := range terms {
			if ix.df[t.stem] == 0 {
				continue
			}
			tn := tfNorm(ix.name[d][t.stem], ix.nameLen[d], ix.avgName)
			td := tfNorm(ix.desc[d][t.stem], ix.descLen[d], ix.avgDesc)
			tp := tfNorm(ix.param[d][t.stem], ix.paramLen[d], ix.avgParam)
			if tn == 0 && td == 0 && tp == 0 {
				continue
			}
			if tn > 0 {
				nm++
			}
			s += t.w * ix.IDF(t.stem) * (NameWeight*tn + td + ParamWeight*tp)
		}
		if s > 0 {
			out = append(out, Scored{Doc: d, Score: s, NameMatches: nm})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// KeywordQuery is the short query a model writes for a keyword or BM25
// search tool: the server's name when given (the model can see which
// server does the job), then the prompt's most telling keywords, max words
// in all, printed in the prompt's order. A model abstracts a request into
// the words that name an action and an object; the stand-in here is the
// index. Keywords found in the name or description of the three tools
// that ranked (the index's Rank of the prompt, computed once by the
// caller) puts first come first (the words that point at the tool the
// model has in mind), then keywords that occur in some tool's name, then
// those that occur only in descriptions, then the rest, each group in
// prompt order. A keyword that no tool name holds may bring one word of its
// family (Families), the first in the family's order that a tool name
// holds ("group" → "aggregate"; "remove" → "delete"): a model knows the
// domain's word for an action. The words are the prompt's own or plain
// English synonyms, never a tool's name copied.
//
//	KeywordQuery("", "Please group the movies by year", ranked, 3) over tools
//	aggregate and find: "aggregate group movies"
func (ix *Index) KeywordQuery(server, prompt string, ranked []Scored, max int) string {
	var words []string
	seen := map[string]bool{}
	if server != "" {
		for _, w := range Words(server) {
			seen[w.Stem] = true
		}
		words = append(words, strings.ToLower(server))
		max--
	}
	var cands []Word
	for _, w := range Keywords(prompt) {
		if !seen[w.Stem] {
			seen[w.Stem] = true
			cands = append(cands, w)
		}
	}
	if max <= 0 || len(cands) == 0 {
		return strings.Join(words, " ")
	}
	top := ranked
	if len(top) > 3 {
		top = top[:3]
	}
	// Each keyword's priority, computed once: 3 in a top tool's name or
	// description, 2 in some tool's name, 1 in some description, 0 else.
	prio := make([]int, len(cands))
	for i, c := range cands {
		switch {
		case ix.inAny(top, c.Stem):
			prio[i] = 3
		case ix.nameDF[c.Stem] > 0:
			prio[i] = 2
		case ix.df[c.Stem] > 0:
			prio[i] = 1
		}
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return prio[order[a]] > prio[order[b]] })
	if len(order) > max {
		order = order[:max]
	}
	sort.Ints(order)
	var related []string
	for _, i := range order {
		if len(related) == MaxRelated || ix.nameDF[cands[i].Stem] > 0 {
			continue
		}
		for _, f := range familyForms()[cands[i].Stem] {
			st := bm25.Stem(f)
			if ix.nameDF[st] > 0 && !seen[st] {
				seen[st] = true
				related = append(related, f)
				break
			}
		}
	}
	words = append(words, related...)
	for _, i := range order {
		words = append(words, cands[i].Form)
	}
	return strings.Join(words, " ")
}

// inAny reports whether one of the scored tools holds the stem in its
// name or description.
func (ix *Index) inAny(tools []Scored, stem string) bool {
	for _, t := range tools {
		if ix.name[t.Doc][stem] > 0 || ix.desc[t.Doc][stem] > 0 {
			return true
		}
	}
	return false
}

// MaxRelated bounds the family words KeywordQuery adds.
const MaxRelated = 1

// BestServer is the server of the best-ranked tool, or "" when nothing
// matches; servers[i] is the server of doc i.
func BestServer(ranked []Scored, servers []string) string {
	if len(ranked) == 0 {
		return ""
	}
	return servers[ranked[0].Doc]
}

// MaxSchemaText bounds SchemaText.
const MaxSchemaText = 1000

// SchemaText is the words a tool's input schema adds to what a model knows
// of the tool: its property names and property descriptions, depth-first
// in document order, at most MaxSchemaText bytes, at most 8 levels deep.
func SchemaText(schema ojson.Value) string {
	var b strings.Builder
	var walk func(v ojson.Value, depth int)
	walk = func(v ojson.Value, depth int) {
		if depth > 8 || b.Len() >= MaxSchemaText || v.Kind != ojson.Object {
			return
		}
		if props, ok := v.Get("properties"); ok && props.Kind == ojson.Object {
			for _, m := range props.Members() {
				if b.Len() >= MaxSchemaText {
					return
				}
				b.WriteString(m.Key)
				b.WriteByte(' ')
				if d, ok := m.Value.Get("description"); ok && d.Kind == ojson.String {
					b.WriteString(d.Str())
					b.WriteByte(' ')
				}
				walk(m.Value, depth+1)
			}
		}
		if items, ok := v.Get("items"); ok {
			walk(items, depth+1)
		}
	}
	walk(schema, 0)
	s := b.String()
	if len(s) > MaxSchemaText {
		s = s[:MaxSchemaText]
	}
	return s
}
