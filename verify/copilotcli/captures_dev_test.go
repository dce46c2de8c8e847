package copilotcli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/corpus"
)

// TestRecordedRuns compares recorded runs of the real Copilot CLI (not in
// the repository: the CLI is proprietary and downloading it is no test's
// business) with the simulation. $TOOLFIND_COPILOT_CAPTURES names a
// manifest, JSON Lines of
//
//	{"name", "requests": requests.jsonl of the oracle's fake model API,
//	 "catalog": the catalog served, "model", "api", "never": [servers],
//	 "patterns": [the tool_search_tool calls made, in order]}
//
// Every MCP tool entry of the first request, the deferral decision and
// every search result must agree.
func TestRecordedRuns(t *testing.T) {
	manifest := os.Getenv("TOOLFIND_COPILOT_CAPTURES")
	if manifest == "" {
		t.Skip("set TOOLFIND_COPILOT_CAPTURES to a manifest of recorded Copilot CLI runs")
	}
	f, err := os.Open(manifest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var runs, entries, equal, searches, searchOK, modes int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m struct {
			Name, Requests, Catalog, Model, API string
			Never                               []string
			Patterns                            []json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(manifest)
		abs := func(p string) string {
			if filepath.IsAbs(p) {
				return p
			}
			return filepath.Join(dir, p)
		}
		cat, err := corpus.Load(abs(m.Catalog))
		if err != nil {
			t.Fatal(err)
		}
		sim := copilot.New(cat, copilot.Options{Model: m.Model, API: copilot.API(m.API), Offline: true, NeverDefer: m.Never})
		bodies := requestBodies(t, abs(m.Requests))
		var first request
		if err := json.Unmarshal(bodies[0], &first); err != nil {
			t.Fatal(err)
		}
		rep := CompareEntries(sim, first.Tools)
		runs++
		entries += rep.Real
		equal += rep.Equal
		if rep.RealMode == rep.SimulatedMode {
			modes++
		}
		if !rep.Agrees() {
			t.Errorf("%s: %s\n%v", m.Name, rep.Summary(), rep.Diffs)
		}
		if len(m.Patterns) > 0 {
			var last request
			if err := json.Unmarshal(bodies[len(bodies)-1], &last); err != nil {
				t.Fatal(err)
			}
			results := allResults(last.Messages)
			for i, p := range m.Patterns {
				var call struct {
					Pattern string `json:"pattern"`
					Limit   int    `json:"limit"`
				}
				_ = json.Unmarshal(p, &call)
				if i >= len(results) {
					t.Errorf("%s: no result for call %d", m.Name, i)
					continue
				}
				real, err := Answer(results[i])
				if err != nil {
					t.Fatal(err)
				}
				r := sim.RunSearch(call.Pattern, call.Limit)
				searches++
				if equalStrings(real.Tools, r.Names) && (len(r.Names) > 0 || real.Text == r.Text) {
					searchOK++
				} else {
					t.Errorf("%s: pattern %q limit %d: real %v %q, simulated %v %q", m.Name, call.Pattern, call.Limit, real.Tools, real.Text, r.Names, r.Text)
				}
			}
		}
	}
	t.Logf("%d runs: %d/%d MCP entries equal, %d/%d deferral decisions, %d/%d searches", runs, equal, entries, modes, runs, searchOK, searches)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// requestBodies are the POST bodies of an oracle's requests.jsonl.
func requestBodies(t *testing.T, path string) []json.RawMessage {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<28)
	for sc.Scan() {
		var e struct {
			Method string          `json:"method"`
			Body   json.RawMessage `json:"body"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Method == "POST" {
			out = append(out, e.Body)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no request", path)
	}
	return out
}

// allResults are the tool results of a conversation in order (Anthropic
// tool_result blocks, chat-completions tool messages).
func allResults(messages []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range messages {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		if m.Role == "tool" {
			out = append(out, m.Content)
			continue
		}
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out = append(out, b.Content)
			}
		}
	}
	return out
}
