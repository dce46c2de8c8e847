package opencode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func replay(t *testing.T, s *CodeMode, code string) search.Result {
	t.Helper()
	r, err := s.Replay(context.Background(), search.MarshalCall("code", code))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func toolsOf(r search.Result) string {
	var ids []string
	for _, h := range r.Hits {
		ids = append(ids, string(h.Tool))
	}
	return strings.Join(ids, " ")
}

// searchScript's form runs natively; the same search written any other way
// runs in goja; both find the same tools in the same order.
func TestReplayNativeMatchesGoja(t *testing.T) {
	s := NewCodeMode(corpus.Demo(), false)
	for _, q := range []string{"invoice", "create ticket", "weather alerts", "zzz"} {
		native := replay(t, s, s.searchScript(q, 0))
		gj := replay(t, s, "const r = await tools.$codemode.search({ query: "+jsonString(q)+" });\nreturn r;")
		if toolsOf(native) != toolsOf(gj) {
			t.Errorf("%q: native %s, goja %s", q, toolsOf(native), toolsOf(gj))
		}
		if gj.Extra["search_calls"] != 1 {
			t.Errorf("%q: search calls %v", q, gj.Extra["search_calls"])
		}
	}
}

func TestReplayScripts(t *testing.T) {
	s := NewCodeMode(corpus.Demo(), false)
	// A namespace listing: every tool of the server, paths in the JSON.
	r := replay(t, s, `return await tools.$codemode.search({ namespace: "weather" });`)
	if got := toolsOf(r); got != "weather/get_alerts weather/get_forecast" {
		t.Errorf("namespace search found %q", got)
	}
	// A direct call is recorded, not executed, and counts first.
	r = replay(t, s, `await tools.weather.get_alerts({ state: "CA" }); return "done";`)
	if got := toolsOf(r); got != "weather/get_alerts" || r.Extra["tool_calls"] != 1 {
		t.Errorf("direct call: %q %v", got, r.Extra)
	}
	// A throw is the output's error, not a Go error.
	r = replay(t, s, `throw new Error("boom");`)
	if len(r.Hits) != 0 || !strings.HasPrefix(r.Shown, "Error: ") || !strings.Contains(r.Shown, "boom") {
		t.Errorf("throw: %+v", r)
	}
	// An endless loop stops at the time limit.
	r = replay(t, s, `while (true) {}`)
	if !strings.Contains(r.Shown, "timeout") {
		t.Errorf("loop: %q", r.Shown)
	}
}

func TestHeuristicCallsOpenCode(t *testing.T) {
	s := NewCodeMode(corpus.Demo(), false)
	calls := s.HeuristicCalls("Please open a new support ticket about the login page")
	var c struct{ Code string }
	if len(calls) != 1 || json.Unmarshal(calls[0], &c) != nil {
		t.Fatalf("calls %s", calls)
	}
	if !strings.HasPrefix(c.Code, "return await tools.$codemode.search({ query: ") {
		t.Errorf("code %q", c.Code)
	}
	if got := toolsOf(replay(t, s, c.Code)); !strings.HasPrefix(got, "tickets/create_ticket") {
		t.Errorf("found %q", got)
	}
}
