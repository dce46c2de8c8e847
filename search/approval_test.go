package search_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// fakeApprover is a client whose rules are "ok=SERVER" (allow a server)
// and whose "bad:" rules are its syntax but unusable. Mode "strict" asks
// for everything not allowed; "lax" runs everything; "magic" is listed but
// not simulated.
type fakeApprover struct {
	id search.ClientID
}

func (f fakeApprover) Client() search.ClientID { return f.id }
func (f fakeApprover) Search(context.Context, search.Query) (search.Result, error) {
	return search.Result{}, nil
}
func (f fakeApprover) ApprovalInfo() search.ApprovalInfo {
	return search.ApprovalInfo{Client: search.ClientID{Name: f.id.Name, Version: "1"},
		Modes:      []search.ApprovalMode{{Name: "strict"}, {Name: "lax"}, {Name: "magic", NotSimulated: "a classifier"}},
		RuleSyntax: "ok=SERVER"}
}
func (f fakeApprover) ParseApprovalRule(kind search.RuleKind, text string) (any, error) {
	switch {
	case strings.HasPrefix(text, "ok="):
		return strings.TrimPrefix(text, "ok="), nil
	case strings.HasPrefix(text, "bad="):
		return nil, errors.New("bad rule")
	}
	return nil, fmt.Errorf("%q: %w", text, search.ErrNotRuleSyntax)
}
func (f fakeApprover) Approve(t *corpus.Tool, mode string, rules []search.Rule) search.Verdict {
	if mode == "lax" {
		return search.Verdict{Decision: search.Run, Because: "lax"}
	}
	for _, r := range rules {
		if r.Parsed == t.Server && r.Kind == search.Allow {
			return search.Verdict{Decision: search.Run, Because: "rule " + r.Text}
		}
	}
	return search.Verdict{Decision: search.Ask, Because: "no rule"}
}

type plainSim struct{ id search.ClientID }

func (p plainSim) Client() search.ClientID { return p.id }
func (p plainSim) Search(context.Context, search.Query) (search.Result, error) {
	return search.Result{}, nil
}

func TestApproversOnePerClient(t *testing.T) {
	a1 := fakeApprover{search.ClientID{Name: "alpha", Version: "code"}}
	a2 := fakeApprover{search.ClientID{Name: "alpha", Version: "search"}} // same approval client alpha@1
	b := fakeApprover{search.ClientID{Name: "beta", Version: "2"}}
	p := plainSim{search.ClientID{Name: "gamma", Version: "3"}}
	apps, without := search.Approvers([]search.Simulator{a1, p, a2, b})
	if len(apps) != 2 || apps[0] != search.Approver(a1) || apps[1] != search.Approver(b) {
		t.Errorf("apps = %v, want [alpha@code beta@2]", apps)
	}
	if len(without) != 1 || without[0] != search.Simulator(p) {
		t.Errorf("without = %v, want [gamma@3]", without)
	}
}

func TestParseRules(t *testing.T) {
	a := fakeApprover{search.ClientID{Name: "alpha", Version: "1"}}
	b := fakeApprover{search.ClientID{Name: "beta", Version: "1"}}
	apps := []search.Approver{a, b}
	alpha, beta := search.ClientID{Name: "alpha", Version: "1"}, search.ClientID{Name: "beta", Version: "1"}

	// A bare rule goes to every client reading it; a prefixed one to its
	// client only.
	got, notes, err := search.ParseRules(apps, []search.RuleText{
		{Kind: search.Allow, Text: "ok=demo"},
		{Kind: search.DenyRule, Text: "beta:ok=other"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[search.ClientID][]search.Rule{
		alpha: {{Kind: search.Allow, Text: "ok=demo", Parsed: "demo"}},
		beta:  {{Kind: search.Allow, Text: "ok=demo", Parsed: "demo"}, {Kind: search.DenyRule, Text: "ok=other", Parsed: "other"}},
	}
	if !reflect.DeepEqual(got, want) || len(notes) != 0 {
		t.Errorf("got %v %v, want %v and no notes", got, notes, want)
	}

	for _, tc := range []struct {
		rule    search.RuleText
		wantErr string
	}{
		{search.RuleText{Kind: search.Allow, Text: "nothing"}, `--allow "nothing": no selected client reads this rule: alpha@1 reads ok=SERVER; beta@1 reads ok=SERVER`},
		{search.RuleText{Kind: search.Allow, Text: "bad=x"}, `--allow "bad=x": alpha@1: bad rule`},
		{search.RuleText{Kind: search.DenyRule, Text: "alpha:zzz"}, `--deny "alpha:zzz": alpha@1: "zzz": not a rule in this client's syntax; it reads ok=SERVER`},
		{search.RuleText{Kind: search.Allow, Text: "  "}, `--allow "  ": empty rule`},
	} {
		_, _, err := search.ParseRules(apps, []search.RuleText{tc.rule})
		var re *search.RuleError
		if err == nil || !errors.As(err, &re) || err.Error() != tc.wantErr {
			t.Errorf("%v: err = %v, want %s", tc.rule, err, tc.wantErr)
		}
	}
}

func TestParseRulesNote(t *testing.T) {
	// A rule one client reads and another does not: applied where read,
	// noted where skipped.
	a := fakeApprover{search.ClientID{Name: "alpha", Version: "1"}}
	picky := pickyApprover{fakeApprover{search.ClientID{Name: "picky", Version: "1"}}}
	got, notes, err := search.ParseRules([]search.Approver{a, picky}, []search.RuleText{{Kind: search.Allow, Text: "ok=demo"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got[search.ClientID{Name: "alpha", Version: "1"}]) != 1 || len(got[search.ClientID{Name: "picky", Version: "1"}]) != 0 {
		t.Errorf("got %v", got)
	}
	want := []string{`--allow "ok=demo" is not a rule of picky@1; not applied there`}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes = %q, want %q", notes, want)
	}
}

type pickyApprover struct{ fakeApprover }

func (pickyApprover) ParseApprovalRule(search.RuleKind, string) (any, error) {
	return nil, search.ErrNotRuleSyntax
}

func TestDecide(t *testing.T) {
	a := fakeApprover{search.ClientID{Name: "alpha", Version: "1"}}
	tools := []*corpus.Tool{{Server: "demo", Name: "x"}, {Server: "other", Name: "y"}}
	rules := []search.Rule{{Kind: search.Allow, Text: "ok=demo", Parsed: "demo"}}
	got := search.Decide(a, tools, rules)
	// Two simulated modes × two tools, mode-major; "magic" is skipped.
	want := []search.Verdict{
		{Client: "alpha@1", Mode: "strict", Tool: "demo/x", Decision: search.Run, Because: "rule ok=demo"},
		{Client: "alpha@1", Mode: "strict", Tool: "other/y", Decision: search.Ask, Because: "no rule"},
		{Client: "alpha@1", Mode: "lax", Tool: "demo/x", Decision: search.Run, Because: "lax"},
		{Client: "alpha@1", Mode: "lax", Tool: "other/y", Decision: search.Run, Because: "lax"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decide =\n%v\nwant\n%v", got, want)
	}
	if m := a.ApprovalInfo().DefaultMode(); m != "strict" {
		t.Errorf("DefaultMode = %q, want strict", m)
	}
	if m := (search.ApprovalInfo{Modes: []search.ApprovalMode{{Name: "auto", NotSimulated: "x"}}}).DefaultMode(); m != "" {
		t.Errorf("DefaultMode of an unsimulated default = %q, want empty", m)
	}
}

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"ok=demo", "alpha:ok=x", "beta:bad=1", "bad=", ":", "alpha:", "zzz", " "} {
		f.Add(s, false)
	}
	apps := []search.Approver{fakeApprover{search.ClientID{Name: "alpha", Version: "1"}}, fakeApprover{search.ClientID{Name: "beta", Version: "1"}}}
	f.Fuzz(func(t *testing.T, text string, deny bool) {
		kind := search.Allow
		if deny {
			kind = search.DenyRule
		}
		got, _, err := search.ParseRules(apps, []search.RuleText{{Kind: kind, Text: text}})
		if err != nil {
			var re *search.RuleError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), kind.Flag()) {
				t.Fatalf("%q: error %v is not a RuleError naming %s", text, err, kind.Flag())
			}
			return
		}
		n := 0
		for id, rules := range got {
			if id.Name != "alpha" && id.Name != "beta" {
				t.Fatalf("%q: rules for %v", text, id)
			}
			for _, r := range rules {
				if r.Kind != kind || r.Parsed == nil {
					t.Fatalf("%q: rule %+v", text, r)
				}
				n++
			}
		}
		if n == 0 {
			t.Fatalf("%q: no error and no rule", text)
		}
	})
}

// ExampleParseRules: a rule goes to the clients that read its syntax; a
// "client:" prefix picks one.
func ExampleParseRules() {
	alpha := fakeApprover{search.ClientID{Name: "alpha", Version: "1"}}
	beta := fakeApprover{search.ClientID{Name: "beta", Version: "1"}}
	rules, _, err := search.ParseRules([]search.Approver{alpha, beta}, []search.RuleText{
		{Kind: search.Allow, Text: "ok=demo"},
		{Kind: search.DenyRule, Text: "beta:ok=other"},
	})
	if err != nil {
		fmt.Println(err)
	}
	for _, id := range []search.ClientID{{Name: "alpha", Version: "1"}, {Name: "beta", Version: "1"}} {
		for _, r := range rules[id] {
			fmt.Printf("%s: %s %s\n", id, r.Kind, r.Text)
		}
	}
	_, _, err = search.ParseRules([]search.Approver{alpha}, []search.RuleText{{Kind: search.Allow, Text: "mcp__demo__*"}})
	fmt.Println(err)
	// Output:
	// alpha@1: allow ok=demo
	// beta@1: allow ok=demo
	// beta@1: deny ok=other
	// --allow "mcp__demo__*": no selected client reads this rule: alpha@1 reads ok=SERVER
}

func TestSplitKey(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a.b.c", []string{"a", "b", "c"}},
		{`a."b.c".d`, []string{"a", "b.c", "d"}},
		{`a . 'b"c' . d`, []string{"a", `b"c`, "d"}},
		{`"a\"b"`, []string{`a"b`}},
		{"a..b", nil},
		{"a.", nil},
		{"", nil},
		{"a b", nil},
	} {
		got, err := search.SplitKey(tc.in)
		if tc.want == nil && err == nil || tc.want != nil && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitKey(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func FuzzSplitKey(f *testing.F) {
	for _, s := range []string{`a.b.c`, `a."b.c".d`, `'x'.y`, `"a\"b"`, `a..b`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		segs, err := search.SplitKey(k)
		if err != nil {
			return
		}
		if len(segs) == 0 {
			t.Fatalf("%q: no segment and no error", k)
		}
		// Written back with every segment quoted, it splits the same.
		var parts []string
		for _, s := range segs {
			parts = append(parts, `"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)+`"`)
		}
		again, err := search.SplitKey(strings.Join(parts, "."))
		if err != nil || !reflect.DeepEqual(again, segs) {
			t.Fatalf("%q → %q → %q, %v", k, segs, again, err)
		}
	})
}
