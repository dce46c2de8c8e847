package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// catalogOf parses a catalog written inline, as corpus.Load would.
func catalogOf(t testing.TB, js string) *corpus.Catalog {
	t.Helper()
	servers, diags, err := corpus.ParseCatalog("test.json", []byte(js))
	if err != nil {
		t.Fatalf("catalog: %v", err)
	}
	cat := &corpus.Catalog{Diagnostics: diags}
	if err := cat.Add(servers...); err != nil {
		t.Fatal(err)
	}
	cat.Diagnostics = append(cat.Diagnostics, corpus.Validate(cat)...)
	return cat
}

func run(t testing.TB, s *Simulator, query string, limit int) search.Result {
	t.Helper()
	r, err := s.Search(context.Background(), search.Query{Text: query, Limit: limit})
	if err != nil {
		t.Fatalf("Search(%q): %v", query, err)
	}
	return r
}

// names returns "name score" per hit.
func names(r search.Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, fmt.Sprintf("%s %g", h.Name, h.Score))
	}
	return out
}

func hitNames(r search.Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.Name)
	}
	return out
}

func demo(t testing.TB, prof Profile, opts Options) *Simulator {
	t.Helper()
	return New(corpus.Demo(), prof, opts)
}

// TestWorkedExamples reproduces spec §4 exactly (scores and tie order).
func TestWorkedExamples(t *testing.T) {
	s := demo(t, V2_1_328, DefaultOptions())
	tests := []struct {
		query string
		limit int
		want  []string
	}{
		// invoice_lookup: part "invoice" 12 + coarse "invoice_lookup" contains 4 = 16
		// findInvoice: part "findinvoice" contains 6 + coarse contains 4 = 10
		// export: hint "invoice export" has the word 4; digest: description 2
		// ledger: "invoices" is not the word "invoice" → 0, left out
		{"invoice", 0, []string{"mcp__billing__invoice_lookup 16", "mcp__billing__findInvoice 10",
			"mcp__billing__export 4", "mcp__billing__digest 2"}},
		// billing's five tools: part 12 + coarse 12 = 24 each, pool order;
		// add_notes: description "Adds billing notes." 2
		{"billing", 10, []string{"mcp__billing__digest 24", "mcp__billing__export 24",
			"mcp__billing__findInvoice 24", "mcp__billing__invoice_lookup 24",
			"mcp__billing__ledger 24", "mcp__accounts__add_notes 2"}},
		// default max_results 5 cuts the sixth
		{"billing", 0, []string{"mcp__billing__digest 24", "mcp__billing__export 24",
			"mcp__billing__findInvoice 24", "mcp__billing__invoice_lookup 24", "mcp__billing__ledger 24"}},
		// customer_lookup is always loaded: not deferred, not searched
		{"customer", 0, []string{}},
		// oracle (2.1.328): add_notes 12+4+2 = 18, then the built-ins whose
		// descriptions have the word "notes" (2 each, built-ins in name order)
		{"notes", 0, []string{"mcp__accounts__add_notes 18", "WebFetch 2", "WebSearch 2"}},
	}
	for _, tt := range tests {
		r := run(t, s, tt.query, tt.limit)
		if got := names(r); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q limit %d:\n got %q\nwant %q", tt.query, tt.limit, got, tt.want)
		}
		for i, h := range r.Hits {
			if h.Rank != i+1 || h.RankWorst != i+1 || h.PWithinLimit != 1 {
				t.Errorf("%q hit %d: rank %d-%d p %g", tt.query, i, h.Rank, h.RankWorst, h.PWithinLimit)
			}
		}
	}
}

func TestWhy(t *testing.T) {
	s := demo(t, V2_1_328, DefaultOptions())
	r := run(t, s, "invoice", 0)
	want := [][]string{
		{`invoice: part "invoice" +12; coarse "invoice_lookup" contains +4`},
		{`invoice: part "findinvoice" contains +6; coarse "findinvoice" contains +4`},
		{`invoice: hint +4`},
		{`invoice: description +2`},
	}
	for i, h := range r.Hits {
		if !reflect.DeepEqual(h.Why, want[i]) {
			t.Errorf("hit %d (%s) why %q, want %q", i, h.Name, h.Why, want[i])
		}
	}
	r = run(t, s, "+billing digest", 0)
	if got, want := r.Hits[0].Why, []string{`+billing: part "billing" +12; coarse "billing" +12`,
		`digest: part "digest" +12; coarse "digest" +12`}; !reflect.DeepEqual(got, want) {
		t.Errorf("required why %q, want %q", got, want)
	}
}

// seed is the seed article's catalog: the demo's servers accounts and
// billing (the oracle's testdata/billing.json).
func seed(t testing.TB) *Simulator {
	cat := corpus.Demo()
	cat.Servers = cat.Servers[:2]
	if cat.Servers[0].Name != "accounts" || cat.Servers[1].Name != "billing" {
		t.Fatal("demo catalog changed")
	}
	return New(cat, V2_1_328, DefaultOptions())
}

// TestShortcuts: the exact-name, prefix and select: paths of spec §1, with
// the answers the real 2.1.328 gave on the seed catalog (recorded with the
// oracle, built-ins in the pool).
func TestShortcuts(t *testing.T) {
	s := seed(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"invoice invoice", []string{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"}},
		{"+invoice lookup", []string{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"}},
		{"mcp__billing", []string{"mcp__billing__digest", "mcp__billing__export", "mcp__billing__findInvoice", "mcp__billing__invoice_lookup", "mcp__billing__ledger"}},
		{"MCP__BILLING__F", []string{"mcp__billing__findInvoice"}},
		{"mcp__billing__invoice_lookup", []string{"mcp__billing__invoice_lookup"}},
		{"MCP__BILLING__INVOICE_LOOKUP", []string{"mcp__billing__invoice_lookup"}},
		{"read", []string{"Read"}},
		{"webfetch", []string{"WebFetch"}},
		{"select:invoice_lookup", []string{"mcp__billing__invoice_lookup"}},
		{"select:mcp__billing__customer_lookup", []string{"mcp__billing__customer_lookup"}},
		{"select:Read", []string{"Read"}},
		{"select:mcp__billing__digest,Read,nope,digest", []string{"mcp__billing__digest", "Read"}},
		{"select:MCP__BILLING__INVOICE", []string{}},
		{"SELECT:export", []string{"mcp__billing__export"}},
		{"select:customer_lookup", []string{"mcp__billing__customer_lookup"}},
		{"customer_lookup", []string{}},
		{"mcp__billing__customer_lookup", []string{"mcp__billing__customer_lookup"}},
		{"mcp__", []string{}},
		{"  invoice  ", []string{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"}},
		{"+", []string{}},
		{"+ invoice", []string{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"}},
		{"fetch", []string{"WebFetch"}},
		{"select:WebFetch", []string{"WebFetch"}},
		{"select: ,digest, ", []string{"mcp__billing__digest"}},
		{"mcp__billing__customer", []string{}},
		// "." stops at the newline: a keyword query; "b" is in "billing"
		{"select:a\nb", []string{"mcp__billing__digest", "mcp__billing__export", "mcp__billing__findInvoice", "mcp__billing__invoice_lookup", "mcp__billing__ledger"}},
		// NBSP is whitespace for JavaScript's \s
		{"invoice\u00a0lookup", []string{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"}},
		{"truncated", []string{}},
		{"customer", []string{}},
		{"lookup", []string{"mcp__billing__invoice_lookup"}},
		{"Customer_Lookup", []string{}},
		{"customer email", []string{}},
		// the built-ins' descriptions have "read" and "file"
		{"read file", []string{"Monitor", "NotebookEdit", "SendMessage", "CronCreate", "WebFetch"}},
		{"bash", []string{"Bash"}},
		{"edit", []string{"Edit"}},
		{"agent", []string{"Agent"}},
		// the regexp is anchored at the raw query's start
		{" select:digest", []string{}},
		{"select:digest ", []string{"mcp__billing__digest"}},
		{"mcp__billing__digest extra", []string{"Monitor"}},
		{"+customer", []string{}},
		{"email address", []string{"SendMessage"}},
		{"finds a customer", []string{"CronCreate", "TaskStop", "SendMessage", "WebSearch", "mcp__accounts__add_notes"}},
		{"toolsearch", []string{"ToolSearch"}},
		{"select:ToolSearch", []string{"ToolSearch"}},
		{"select:mcp__billing__digest,mcp__billing__digest,digest", []string{"mcp__billing__digest"}},
	}
	for _, tt := range tests {
		r := run(t, s, tt.query, 0)
		if got := hitNames(r); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %q\nwant %q", tt.query, got, tt.want)
		}
		if len(r.Hits) == 0 && r.Shown != NoMatch && tt.query != "customer_lookup" {
			t.Errorf("%q: shown %q, want %q", tt.query, r.Shown, NoMatch)
		}
	}
	// the reminder the real CLI adds for the bare name of a loaded tool
	r := run(t, s, "customer_lookup", 0)
	want := NoMatch + "\n\n<system-reminder>\nAlready available in this conversation: mcp__billing__customer_lookup. Call it directly.\n</system-reminder>"
	if r.Shown != want {
		t.Errorf("customer_lookup shown %q, want %q", r.Shown, want)
	}
}

// TestTieOrder: equal scores keep pool order, which is localeCompare order
// (ICU). The expected order was produced by Node 22's localeCompare and is
// frozen here; it covers case, "_", "-", digits and their mixes.
func TestTieOrder(t *testing.T) {
	servers := []string{"a", "A", "a_b", "a-b", "ab", "a1", "A1", "a10", "a2", "b", "B"}
	tools := []string{"-x", "0x", "x", "X", "x_", "x__y", "x_1", "x_y", "x-", "x-1", "x-y", "x0", "x1", "x10", "x9", "xy", "xY", "XY"}
	type tool struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	type server struct {
		Name  string `json:"name"`
		Tools []tool `json:"tools"`
	}
	mk := func(n string) tool {
		return tool{n, "tie", map[string]any{"type": "object"}}
	}
	var ss []server
	for _, s := range servers {
		ss = append(ss, server{s, []tool{mk("x")}})
	}
	var tt []tool
	for _, n := range tools {
		tt = append(tt, mk(n))
	}
	ss = append(ss, server{"t", tt})
	data, _ := json.Marshal(map[string]any{"servers": ss})
	s := New(catalogOf(t, string(data)), V2_1_328, DefaultOptions())
	got := hitNames(run(t, s, "tie", 100))
	want := []string{"mcp__a__x", "mcp__A__x", "mcp__a_b__x", "mcp__a-b__x", "mcp__a1__x", "mcp__A1__x",
		"mcp__a10__x", "mcp__a2__x", "mcp__ab__x", "mcp__b__x", "mcp__B__x", "mcp__t__-x", "mcp__t__0x",
		"mcp__t__x", "mcp__t__X", "mcp__t__x_", "mcp__t__x__y", "mcp__t__x_1", "mcp__t__x_y", "mcp__t__x-",
		"mcp__t__x-1", "mcp__t__x-y", "mcp__t__x0", "mcp__t__x1", "mcp__t__x10", "mcp__t__x9", "mcp__t__xy",
		"mcp__t__xY", "mcp__t__XY"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tie order\n got %q\nwant %q", got, want)
	}
}

// TestLocalePairs: single comparisons frozen from Node's localeCompare.
func TestLocalePairs(t *testing.T) {
	for _, p := range []struct {
		a, b string
		want int
	}{
		{"a", "A", -1}, {"a_b", "a-b", -1}, {"a-b", "a.b", -1}, {"a.b", "ab", -1},
		{"a1", "a10", -1}, {"a10", "a2", -1}, {"x_1", "x1", -1}, {"Read", "read", 1},
		{"WebFetch", "webfetch", 1}, {"_", "-", -1}, {"-", ".", -1}, {".", "0", -1},
		{"0", "a", -1}, {"9", "a", -1}, {"a_", "a", 1}, {"a", "a_", -1},
		{"mcp__a__x", "mcp__A__x", -1}, {"mcp__A__x", "mcp__a_b__x", -1},
		{"mcp__a_b__x", "mcp__a-b__x", -1}, {"mcp__a-b__x", "mcp__a.b__x", -1}, {"mcp__a.b__x", "mcp__ab__x", -1},
	} {
		if got := search.LocaleCompare(p.a, p.b); got != p.want {
			t.Errorf("LocaleCompare(%q, %q) = %d, want %d", p.a, p.b, got, p.want)
		}
	}
}

// TestBuiltinsWinTies: built-ins come before MCP tools in the pool, so they
// win ties (spec §1).
func TestBuiltinsWinTies(t *testing.T) {
	cat := catalogOf(t, `{"server":"aaa","tools":[{"name":"n","description":"my notes","inputSchema":{"type":"object"}}]}`)
	r := run(t, New(cat, V2_1_328, DefaultOptions()), "notes", 0)
	if got, want := names(r), []string{"WebFetch 2", "WebSearch 2", "mcp__aaa__n 2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if r.Hits[0].Tool != "builtin/WebFetch" {
		t.Errorf("built-in id %q", r.Hits[0].Tool)
	}
	r = run(t, New(cat, V2_1_328, Options{Builtins: false}), "notes", 0)
	if got, want := names(r), []string{"mcp__aaa__n 2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("without built-ins: got %q, want %q", got, want)
	}
}

// TestBuiltinScoring: built-in weights and camelCase parts (spec §1).
func TestBuiltinScoring(t *testing.T) {
	s := New(&corpus.Catalog{}, V2_1_328, DefaultOptions())
	tests := []struct {
		q    string
		want []string
	}{
		// WebFetch: parts [web fetch], coarse [webfetch]; "fetch": part 10 +
		// coarse contains 3 (+ hint/description words, from the word sets)
		{"fetch url", nil},
		// exact name of a deferred built-in, case-insensitively
		{"notebookedit", []string{"NotebookEdit 0"}},
		// the query "cron" is a part of CronCreate/CronDelete/CronList
		{"+cron", nil},
	}
	for _, tt := range tests {
		r := run(t, s, tt.q, 20)
		if tt.want != nil && !reflect.DeepEqual(names(r), tt.want) {
			t.Errorf("%q: got %q, want %q", tt.q, names(r), tt.want)
		}
		// every hit's score must equal the sum its explanation states
		for _, h := range r.Hits {
			if h.Score == 0 {
				continue
			}
			if sum := whySum(h.Why); float64(sum) != h.Score {
				t.Errorf("%q %s: score %g but why %q sums to %d", tt.q, h.Name, h.Score, h.Why, sum)
			}
		}
	}
	r := run(t, s, "+cron", 20)
	// CronDelete: part "cron" +10; coarse "crondelete" contains +3 (built-in
	// weights); its hint and description have the word: +4 +2 = 19.
	// CronList and CronCreate follow (their word sets differ).
	if got, want := names(r), []string{"CronDelete 19", "CronList 19", "CronCreate 15"}; !reflect.DeepEqual(got[:3], want) {
		t.Errorf("+cron: %q, want %q first", got, want)
	}
	if got, want := r.Hits[0].Why, []string{`+cron: part "cron" +10; coarse "crondelete" contains +3; hint +4; description +2`}; !reflect.DeepEqual(got, want) {
		t.Errorf("CronDelete why %q, want %q", got, want)
	}
}

func whySum(why []string) int {
	sum := 0
	for _, w := range why {
		for _, f := range strings.Fields(w) {
			var n int
			if _, err := fmt.Sscanf(f, "+%d", &n); err == nil && strings.HasPrefix(f, "+") && !strings.ContainsAny(f[1:], "abcdefghijklmnopqrstuvwxyz:") {
				sum += n
			}
		}
	}
	return sum
}

// TestProfiles: what differs between releases (spec header, §3).
func TestProfiles(t *testing.T) {
	long := strings.Repeat("a ", 1500) + "needle " + strings.Repeat("b ", 1500) // needle at 3,000
	cat := catalogOf(t, fmt.Sprintf(`{"server":"srv","tools":[
		{"name":"long_tool","description":%q,"inputSchema":{"type":"object"}},
		{"name":"sendMessage","description":"x","inputSchema":{"type":"object"}}]}`, long))
	for _, tt := range []struct {
		prof Profile
		q    string
		want []string
	}{
		// 2.1.328 searches 4,096 characters: the needle at 3,000 is found
		{V2_1_328, "needle", []string{"mcp__srv__long_tool 2"}},
		// 2.1.283 and 2.1.88 search 2,048
		{V2_1_283, "needle", []string{}},
		{V2_1_88, "needle", []string{}},
		// coarse parts: "sendmessage" part 12 + coarse "sendmessage" 12 = 24;
		// legacy: part only = 12
		{V2_1_328, "sendmessage", []string{"mcp__srv__sendMessage 24"}},
		{V2_1_88, "sendmessage", []string{"mcp__srv__sendMessage 12"}},
		// "srv": part 12 + coarse 12 (both tools, pool order), legacy 12
		{V2_1_328, "srv", []string{"mcp__srv__long_tool 24", "mcp__srv__sendMessage 24"}},
		{V2_1_88, "srv", []string{"mcp__srv__long_tool 12", "mcp__srv__sendMessage 12"}},
		// the truncation marker is searched too
		{V2_1_283, "truncated", []string{"mcp__srv__long_tool 2"}},
	} {
		r := run(t, New(cat, tt.prof, Options{}), tt.q, 0)
		if got := names(r); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %q: got %q, want %q", tt.prof.Version, tt.q, got, tt.want)
		}
	}
	// 2.1.283 defers ten built-ins, not Monitor (observed with the oracle)
	var bis []string
	for _, e := range New(&corpus.Catalog{}, V2_1_283, DefaultOptions()).deferred {
		bis = append(bis, e.name)
	}
	if want := []string{"CronCreate", "CronDelete", "CronList", "EnterWorktree", "ExitWorktree", "NotebookEdit",
		"SendMessage", "TaskStop", "WebFetch", "WebSearch"}; !reflect.DeepEqual(bis, want) {
		t.Errorf("2.1.283 built-ins %q, want %q", bis, want)
	}
	// max-description option: 10 characters cut "needle" out for 2.1.328
	r := run(t, New(cat, V2_1_328, Options{MaxDescription: 10}), "needle", 0)
	if len(r.Hits) != 0 {
		t.Errorf("max-description 10: %q", names(r))
	}
	// Recorded with the oracle and CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH:
	// needleone at 3,000, needletwo at 4,500.
	one := strings.Repeat("a ", 1500) + "needleone " + strings.Repeat("b ", 100)
	two := strings.Repeat("a ", 2250) + "needletwo " + strings.Repeat("b ", 100)
	env := catalogOf(t, fmt.Sprintf(`{"server":"env","tools":[
		{"name":"t1","description":%q,"inputSchema":{"type":"object","properties":{}}},
		{"name":"t2","description":%q,"inputSchema":{"type":"object","properties":{}}}]}`, one, two))
	for _, tt := range []struct {
		cap  int
		want map[string][]string
	}{
		{0, map[string][]string{"needleone": {"mcp__env__t1"}, "needletwo": {}, "truncated": {"mcp__env__t2"}}},
		{2000, map[string][]string{"needleone": {}, "needletwo": {}, "truncated": {"mcp__env__t1", "mcp__env__t2"}}},
		{8000, map[string][]string{"needleone": {"mcp__env__t1"}, "needletwo": {"mcp__env__t2"}, "truncated": {}}},
	} {
		s := New(env, V2_1_328, Options{Builtins: true, MaxDescription: tt.cap})
		for q, want := range tt.want {
			if got := hitNames(run(t, s, q, 0)); !reflect.DeepEqual(got, want) {
				t.Errorf("cap %d %q: %q, want %q", tt.cap, q, got, want)
			}
		}
	}
}

// TestLegacyQuirk: 2.1.88 could not find a tool by its pasted name
// (background §3, oh-my-claudecode issue #814); 2.1.328 finds it by the
// coarse part.
func TestLegacyQuirk(t *testing.T) {
	cat := catalogOf(t, `{"server":"plugin_oh-my-claudecode_x","tools":[
		{"name":"ask_codex","description":"Ask Codex.","inputSchema":{"type":"object"}}]}`)
	if r := run(t, New(cat, V2_1_88, Options{}), "ask_codex", 0); len(r.Hits) != 0 {
		t.Errorf("2.1.88 found %q", names(r))
	}
	// coarse "ask_codex" equals the term: 12
	if got := names(run(t, New(cat, V2_1_328, Options{}), "ask_codex", 0)); !reflect.DeepEqual(got, []string{"mcp__plugin_oh-my-claudecode_x__ask_codex 12"}) {
		t.Errorf("2.1.328: %q", got)
	}
	// "my" is inside the part "oh-my-claudecode" (hyphens never split): +6,
	// and inside the coarse server name: +4
	if got := names(run(t, New(cat, V2_1_328, Options{}), "my", 0)); !reflect.DeepEqual(got, []string{"mcp__plugin_oh-my-claudecode_x__ask_codex 10"}) {
		t.Errorf("my: %q", got)
	}
}

// TestSlackExample is background §3's worked example.
func TestSlackExample(t *testing.T) {
	cat := catalogOf(t, `{"servers":[
		{"name":"slack","tools":[
			{"name":"send_message","description":"Send a message to a Slack channel","inputSchema":{"type":"object"}},
			{"name":"list_channels","description":"List channels","inputSchema":{"type":"object"}}]},
		{"name":"github","tools":[{"name":"create_issue","description":"Create an issue","inputSchema":{"type":"object"}}]}]}`)
	// send_message: slack 12+12+2, send 12+4+2 = 44; list_channels: 12+12 = 24
	if got, want := names(run(t, New(cat, V2_1_328, Options{}), "slack send", 0)), []string{"mcp__slack__send_message 44", "mcp__slack__list_channels 24"}; !reflect.DeepEqual(got, want) {
		t.Errorf("2.1.328: %q, want %q", got, want)
	}
	// 2.1.88: 14 + 14 = 28 and 12
	if got, want := names(run(t, New(cat, V2_1_88, Options{}), "slack send", 0)), []string{"mcp__slack__send_message 28", "mcp__slack__list_channels 12"}; !reflect.DeepEqual(got, want) {
		t.Errorf("2.1.88: %q, want %q", got, want)
	}
}

// TestPoolRules: spec §2, plus the cases probed on 2.1.328 with the oracle.
func TestPoolRules(t *testing.T) {
	const ok = `{"name":"ok","description":"probe tool","inputSchema":{"type":"object","properties":{}}}`
	tests := []struct {
		name string
		bad  string // the second tool of server "srv"
		want []string
	}{
		{"no inputSchema", `{"name":"bad","description":"probe tool"}`, nil},
		{"inputSchema string", `{"name":"bad","description":"probe tool","inputSchema":"x"}`, nil},
		{"properties null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":null}}`, nil},
		{"properties list", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":[]}}`, nil},
		{"required null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","required":null}}`, nil},
		{"required number", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","required":[1]}}`, nil},
		{"no type", `{"name":"bad","description":"probe tool","inputSchema":{"properties":{}}}`, nil},
		{"type string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"string"}}`, nil},
		{"type array", `{"name":"bad","description":"probe tool","inputSchema":{"type":["object"]}}`, nil},
		{"description number", `{"name":"bad","description":5,"inputSchema":{"type":"object"}}`, nil},
		{"description null", `{"name":"bad","description":null,"inputSchema":{"type":"object"}}`, nil},
		{"title number", `{"name":"bad","title":5,"description":"probe tool","inputSchema":{"type":"object"}}`, nil},
		{"title null", `{"name":"bad","title":null,"description":"probe tool","inputSchema":{"type":"object"}}`, nil},
		{"annotations hint string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}`, nil},
		{"annotations title number", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"annotations":{"title":5}}`, nil},
		{"annotations null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"annotations":null}`, nil},
		{"_meta array", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":[1]}`, nil},
		{"_meta null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":null}`, nil},
		{"outputSchema string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"outputSchema":"x"}`, nil},
		{"outputSchema null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"outputSchema":null}`, nil},
		{"icons string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"icons":"x"}`, nil},
		{"name number", `{"name":5,"description":"probe tool","inputSchema":{"type":"object"}}`, nil},
		{"not an object", `7`, nil},
		// kept
		{"outputSchema array type", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"no description", `{"name":"bad","inputSchema":{"type":"object"}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"unknown annotation", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"annotations":{"foo":"bar"}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"property true", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a":true}}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"nested bad key", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"b c":{}}}}}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"required unknown", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{},"required":["zz"]}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"key 64", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"` + strings.Repeat("k", 64) + `":{}}}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"alwaysLoad string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":{"anthropic/alwaysLoad":"true","anthropic/searchHint":5}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"visibility app+model", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":{"ui":{"visibility":["app","model"]}}}`, []string{"mcp__srv__bad", "mcp__srv__ok"}},
		{"empty name", `{"name":"","description":"probe tool","inputSchema":{"type":"object"}}`, []string{"mcp__srv__", "mcp__srv__ok"}},
		{"non-ASCII name", `{"name":"unicode_naïve_tool","description":"probe tool","inputSchema":{"type":"object"}}`, []string{"mcp__srv__ok", "mcp__srv__unicode_na_ve_tool"}},
		{"astral name", `{"name":"e_😀_x","description":"probe tool","inputSchema":{"type":"object"}}`, []string{"mcp__srv__e____x", "mcp__srv__ok"}},
		{"128-character name", `{"name":"` + strings.Repeat("x", 128-len("mcp__srv__")) + `","description":"probe tool","inputSchema":{"type":"object"}}`,
			[]string{"mcp__srv__ok", "mcp__srv__" + strings.Repeat("x", 118)}},
		// one tool skipped
		{"129-character name", `{"name":"` + strings.Repeat("x", 129-len("mcp__srv__")) + `","description":"probe tool","inputSchema":{"type":"object"}}`, []string{"mcp__srv__ok"}},
		{"key 65", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"` + strings.Repeat("k", 65) + `":{}}}}`, []string{"mcp__srv__ok"}},
		{"key with space", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a b":{}}}}`, []string{"mcp__srv__ok"}},
		{"key empty", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"":{}}}}`, []string{"mcp__srv__ok"}},
		{"property null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a":null}}}`, []string{"mcp__srv__ok"}},
		{"property number", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a":5}}}`, []string{"mcp__srv__ok"}},
		{"property string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a":"x"}}}`, []string{"mcp__srv__ok"}},
		{"nested property null", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"b":null}}}}}`, []string{"mcp__srv__ok"}},
		{"visibility app", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":{"ui":{"visibility":["app"]}}}`, []string{"mcp__srv__ok"}},
		{"visibility empty", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":{"ui":{"visibility":[]}}}`, []string{"mcp__srv__ok"}},
		{"visibility string", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":{"ui":{"visibility":"app"}}}`, []string{"mcp__srv__ok"}},
		{"duplicate", `{"name":"ok","description":"second","inputSchema":{"type":"object"}}`, []string{"mcp__srv__ok"}},
		{"always loaded", `{"name":"bad","description":"probe tool","inputSchema":{"type":"object"},"_meta":{"anthropic/alwaysLoad":true}}`, []string{"mcp__srv__ok"}},
	}
	for _, tt := range tests {
		cat := catalogOf(t, `{"servers":[{"name":"srv","tools":[`+ok+`,`+tt.bad+`]},{"name":"zz","tools":[`+ok+`]}]}`)
		s := New(cat, V2_1_328, Options{})
		var got []string
		for _, e := range s.deferred {
			if e.srv != nil && e.srv.Name == "srv" {
				got = append(got, e.name)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: pool %q, want %q", tt.name, got, tt.want)
		}
		// the other server always stays
		if _, ok := s.View("zz/ok"); !ok {
			t.Errorf("%s: server zz lost", tt.name)
		}
		if tt.want == nil && (len(s.problems) == 0 || s.problems[0].Code != CodeServerDropped) {
			t.Errorf("%s: problems %v, want %s first", tt.name, s.problems, CodeServerDropped)
		}
	}
}

// TestDuplicateFirstWins: the first definition of a repeated name is kept,
// and two names that sanitise alike keep the first in pool order.
func TestDuplicateFirstWins(t *testing.T) {
	cat := catalogOf(t, `{"servers":[{"name":"my.server x","tools":[
		{"name":"dup","description":"first one","inputSchema":{"type":"object"}},
		{"name":"dup","description":"second one","inputSchema":{"type":"object"}},
		{"name":"a.b","description":"dotted","inputSchema":{"type":"object"}},
		{"name":"a_b","description":"underscored","inputSchema":{"type":"object"}},
		{"name":"weird name!","description":"weird","inputSchema":{"type":"object"}}]}]}`)
	s := New(cat, V2_1_328, Options{})
	if got := names(run(t, s, "first", 0)); !reflect.DeepEqual(got, []string{"mcp__my_server_x__dup 2"}) {
		t.Errorf("first: %q", got)
	}
	if got := names(run(t, s, "second", 0)); len(got) != 0 {
		t.Errorf("second: %q", got)
	}
	if got := hitNames(run(t, s, "select:a_b", 0)); !reflect.DeepEqual(got, []string{"mcp__my_server_x__a_b"}) {
		t.Errorf("select:a_b: %q", got)
	}
	if got := hitNames(run(t, s, "select:mcp__my_server_x__weird_name_", 0)); !reflect.DeepEqual(got, []string{"mcp__my_server_x__weird_name_"}) {
		t.Errorf("select sanitised: %q", got)
	}
	// parts come from the raw names: "my.server x" → my, server, x; "weird name!" → weird, name!
	if got := names(run(t, s, "name!", 0)); !reflect.DeepEqual(got, []string{"mcp__my_server_x__weird_name_ 16"}) {
		t.Errorf("name!: %q", got)
	}
}

// TestShownAndTokens: the text the model reads and §3's estimate.
func TestShownAndTokens(t *testing.T) {
	cat := catalogOf(t, `{"server":"s","tools":[{"name":"t","description":"Does é.","inputSchema":{"type":"object","properties":{"n":{"type":"number","default":1.50}}}}]}`)
	r := run(t, New(cat, V2_1_328, Options{}), "select:t", 0)
	want := "<functions>\n" +
		`<function>{"description": "Does é.", "name": "mcp__s__t", "parameters": {"type":"object","properties":{"n":{"type":"number","default":1.5}}}}</function>` +
		"\n</functions>"
	if r.Shown != want {
		t.Errorf("shown\n%s\nwant\n%s", r.Shown, want)
	}
	// schema JSON 68 bytes + description 8 bytes ("é" is 2) = 76; ceil(76/2.5) = ceil(30.4) = 31
	if r.ShownTokens != 31 {
		t.Errorf("tokens %d, want 31", r.ShownTokens)
	}
	r = run(t, New(cat, V2_1_328, Options{}), "nothing here", 0)
	// 32 bytes / 2.5 = 12.8 → 13
	if r.Shown != NoMatch || r.ShownTokens != 13 {
		t.Errorf("no match: %q %d", r.Shown, r.ShownTokens)
	}
}

// TestDescriptionCaps: the listing cut (searched) and the load cut (shown),
// in UTF-16 units, with the 13-character marker (spec §3).
func TestDescriptionCaps(t *testing.T) {
	d := strings.Repeat("x", 2049)
	got, cut := capText(d, 2048)
	if !cut || search.UTF16Len(got) != 2061 || !strings.HasSuffix(got, "x… [truncated]") {
		t.Errorf("2,049 under 2,048: %d chars, cut %v", search.UTF16Len(got), cut)
	}
	if got, cut := capText(strings.Repeat("x", 2048), 2048); cut || len(got) != 2048 {
		t.Errorf("2,048 under 2,048 cut")
	}
	// a surrogate pair counts 2
	if got, _ := capText("😀😀", 3); got != "😀\uFFFD"+truncMarker {
		t.Errorf("astral cut %q", got)
	}
	cat := catalogOf(t, fmt.Sprintf(`{"server":"s","tools":[{"name":"t","description":%q,"inputSchema":{"type":"object"}}]}`, strings.Repeat("y", 20000)))
	s := New(cat, V2_1_328, Options{})
	s.maps()
	e := s.byID["s/t"]
	if search.UTF16Len(e.desc) != 4096+13 || search.UTF16Len(e.loadedDesc) != 16384+13 {
		t.Errorf("caps: listed %d, loaded %d", search.UTF16Len(e.desc), search.UTF16Len(e.loadedDesc))
	}
}

func TestText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"WebFetch", "web fetch"}, {"NotebookEdit", "notebook edit"}, {"TaskStop", "task stop"},
		{"aBcD", "a bc d"}, {"abCDe", "ab cde"}, {"snake_Case", "snake case"},
	} {
		if got := strings.Join(splitBuiltinName(tt.in), " "); got != tt.want {
			t.Errorf("splitBuiltinName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"my.server x", "my|server|x"}, {"a__b..c", "a|b|c"}, {"oh-my-claudecode", "oh-my-claudecode"},
		{"sendMessage", "sendMessage"}, {"_x_", "x"}, {"a\u00a0b", "a|b"},
	} {
		if got := strings.Join(splitCoarse(tt.in), "|"); got != tt.want {
			t.Errorf("splitCoarse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := jsLower("İx"); got != "i\u0307x" {
		t.Errorf("jsLower(İx) = %q", got)
	}
	if h, ok := normalizeHint("  Invoice \n\t Export ", 4096); !ok || h != "invoice export" {
		t.Errorf("hint %q %v", h, ok)
	}
	if _, ok := normalizeHint(" \n ", 4096); ok {
		t.Error("blank hint kept")
	}
	for _, q := range []string{"select:", "select:a\nb", "selec:a", "xselect:a"} {
		if _, ok := parseSelect(q); ok {
			t.Errorf("parseSelect(%q) matched", q)
		}
	}
	if n, ok := parseSelect("Select: a ,, b,"); !ok || !reflect.DeepEqual(n, []string{"a", "b"}) {
		t.Errorf("parseSelect: %q %v", n, ok)
	}
	terms, nreq := parseTerms("a +b + +c d", new([maxTerms]string))
	if !reflect.DeepEqual(terms, []string{"b", "c", "a", "+", "d"}) || nreq != 2 {
		t.Errorf("parseTerms: %q %d", terms, nreq)
	}
	many := strings.Repeat("w ", 40)
	if terms, _ := parseTerms(many, new([maxTerms]string)); len(terms) != 32 {
		t.Errorf("%d terms, want 32", len(terms))
	}
}

// TestViewAndProblems: Viewer and Reporter on the demo catalog.
func TestViewAndProblems(t *testing.T) {
	s := demo(t, V2_1_328, DefaultOptions())
	v, ok := s.View("billing/invoice_lookup")
	if !ok || v.Name != "mcp__billing__invoice_lookup" || !strings.Contains(v.Text, `"description": "Looks up one record by ID."`) {
		t.Errorf("view: %+v %v", v, ok)
	}
	if _, ok := s.View("tickets/render_board"); ok {
		t.Error("hidden tool viewable")
	}
	// always loaded: the listed definition; {"type":"object","properties":
	// {"email":{"type":"string","format":"email"}},"required":["email"]} is
	// 95 bytes, the description 34: ceil(129/2.5) = 52
	v, ok = s.View("billing/customer_lookup")
	if !ok || v.Tokens != 52 || !strings.Contains(v.Notes[0], "always loaded") {
		t.Errorf("always-loaded view: %+v %v", v, ok)
	}
	// a built-in: only its name; tokens from its description length
	// (WebFetch: 1,608 characters, ceil(1608/2.5) = 644)
	v, ok = s.View("builtin/WebFetch")
	if !ok || v.Name != "WebFetch" || v.Tokens != 644 {
		t.Errorf("built-in view: %+v %v", v, ok)
	}
	if _, ok := s.View("nope/nope"); ok {
		t.Error("unknown tool viewable")
	}
	var codes []string
	for _, p := range s.Problems() {
		codes = append(codes, p.Code+" "+p.Server+"/"+p.Tool)
	}
	want := []string{"claude-always-loaded billing/customer_lookup", "claude-hidden tickets/render_board"}
	if !reflect.DeepEqual(codes, want) {
		t.Errorf("problems %q, want %q", codes, want)
	}
}

// TestRegistry: the three profiles and the builtins option through the
// registry, as the CLI uses them.
func TestRegistry(t *testing.T) {
	for _, spec := range []string{"claude", "claude@2.1.332", "claude@2.1.329", "claude@2.1.328", "claude@2.1.283", "claude@2.1.88"} {
		p, err := search.Lookup(spec)
		if err != nil {
			t.Fatal(err)
		}
		sim, err := search.Build(p, corpus.Demo(), search.Options{"builtins": "false"})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := sim.Search(context.Background(), search.Query{Text: "notes"})
		if len(r.Hits) != 1 || r.Hits[0].Name != "mcp__accounts__add_notes" {
			t.Errorf("%s without built-ins: %q", spec, names(r))
		}
	}
	p, _ := search.Lookup("claude")
	if p.ID.Version != "2.1.332" || !p.Default {
		t.Errorf("default profile %v", p.ID)
	}
	if _, err := search.Build(p, corpus.Demo(), search.Options{"builtins": "maybe"}); err == nil {
		t.Error("bad bool accepted")
	}
	if _, err := search.Build(p, corpus.Demo(), search.Options{"max-description": "-1"}); err == nil {
		t.Error("negative cap accepted")
	}
}

// TestReal283: answers of the real Claude Code 2.1.283, recorded with the
// oracle (built-ins in the pool). "read file" is left out on purpose: the
// real 2.1.283 answers NotebookEdit, SendMessage, WebFetch, and we also
// return CronCreate, because only 2.1.328's built-in word sets are known.
func TestReal283(t *testing.T) {
	cat := corpus.Demo()
	cat.Servers = cat.Servers[:2] // the seed catalog: accounts, billing
	s := New(cat, V2_1_283, DefaultOptions())
	for _, tt := range []struct {
		q     string
		limit int
		want  []string
	}{
		{"invoice", 0, []string{"mcp__billing__invoice_lookup", "mcp__billing__findInvoice", "mcp__billing__export", "mcp__billing__digest"}},
		{"billing", 10, []string{"mcp__billing__digest", "mcp__billing__export", "mcp__billing__findInvoice", "mcp__billing__invoice_lookup", "mcp__billing__ledger", "mcp__accounts__add_notes"}},
		{"notes", 0, []string{"mcp__accounts__add_notes", "WebFetch", "WebSearch"}},
	} {
		if got := hitNames(run(t, s, tt.q, tt.limit)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.q, got, tt.want)
		}
	}
	// 2,048-character listing cap: words at 3,000 and 4,500 are not found,
	// both descriptions end in the marker.
	one := strings.Repeat("a ", 1500) + "needleone " + strings.Repeat("b ", 100)
	two := strings.Repeat("a ", 2250) + "needletwo " + strings.Repeat("b ", 100)
	env := New(catalogOf(t, fmt.Sprintf(`{"server":"env","tools":[
		{"name":"t1","description":%q,"inputSchema":{"type":"object","properties":{}}},
		{"name":"t2","description":%q,"inputSchema":{"type":"object","properties":{}}}]}`, one, two)), V2_1_283, DefaultOptions())
	for q, want := range map[string][]string{"needleone": {}, "needletwo": {}, "truncated": {"mcp__env__t1", "mcp__env__t2"}} {
		if got := hitNames(run(t, env, q, 0)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %q, want %q", q, got, want)
		}
	}
}

// TestConcurrent: Search and View are safe for concurrent use (the lazily
// rendered definitions are the only state written after New); run with
// -race.
func TestConcurrent(t *testing.T) {
	s := demo(t, V2_1_328, DefaultOptions())
	want := names(run(t, demo(t, V2_1_328, DefaultOptions()), "billing", 10))
	done := make(chan []string)
	for i := 0; i < 8; i++ {
		go func() {
			s.View("billing/ledger")
			r, err := s.Search(context.Background(), search.Query{Text: "billing", Limit: 10})
			if err != nil {
				done <- []string{err.Error()}
				return
			}
			done <- names(r)
		}()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Errorf("concurrent search: %q, want %q", got, want)
		}
	}
}

// TestFirstQueryScanMatchesIndex: the first keyword query of a simulator
// scans the tools directly, later ones use the index built then; both must
// give the same result for every query.
func TestFirstQueryScanMatchesIndex(t *testing.T) {
	cat := sharedCatalog(t)
	warm := New(cat, V2_1_328, DefaultOptions())
	run(t, warm, "warm up", 5)
	queries := []string{"invoice", "create pull request", "+github issue", "web fetch", "pull-request v1.2",
		"list_issues", "azure storage account", "+zzz nothing", "search code", "k8s pods logs"}
	for _, q := range queries {
		fresh := New(cat, V2_1_328, DefaultOptions())
		scanned, indexed := run(t, fresh, q, 10), run(t, warm, q, 10)
		if !reflect.DeepEqual(scanned, indexed) {
			t.Errorf("%q: first query (scan) %v\nlater query (index) %v", q, names(scanned), names(indexed))
		}
	}
}

// TestConcurrentBriefQueries: queries of every kind searched at once, as
// bench's workers do (Brief, each worker with its own hits buffer), give
// what one at a time gives: the per-query scratch, the term cache and the
// name lookups are shared safely; run with -race.
func TestConcurrentBriefQueries(t *testing.T) {
	queries := []string{"billing", "Invoice LOOKUP", "+ticket close", "close", "mcp__tickets", "invoice_lookup",
		"mcp__billing__invoice_lookup", "select:WebFetch,mcp__billing__invoice_lookup", "naïve Café", "a", "", "zzz",
		"ledger entries", "+nothing here", "WebFetch", "webfetch", "create ticket comment", "refund"}
	type got struct {
		tools  []corpus.ToolID
		tokens int
	}
	brief := func(s *Simulator, q string, buf []search.Hit) (got, error) {
		r, err := s.Search(context.Background(), search.Query{Text: q, Limit: 3, Brief: true, Hits: buf})
		var g got
		for _, h := range r.Hits {
			g.tools = append(g.tools, h.Tool)
		}
		g.tokens = r.ShownTokens
		return g, err
	}
	want := map[string]got{}
	seq := demo(t, V2_1_328, DefaultOptions())
	for round := 0; round < 2; round++ { // the first query scans, the later ones use the index
		for _, q := range queries {
			g, err := brief(seq, q, nil)
			if err != nil {
				t.Fatal(err)
			}
			want[q] = g
		}
	}
	s := demo(t, V2_1_328, DefaultOptions())
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		go func() {
			buf := make([]search.Hit, 0, 3)
			for i := range 3 * len(queries) {
				q := queries[(i+w*5)%len(queries)]
				g, err := brief(s, q, buf)
				if err == nil && !reflect.DeepEqual(g, want[q]) {
					err = fmt.Errorf("%q: %v, want %v", q, g, want[q])
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < 8; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
