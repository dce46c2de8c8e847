package grok

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
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
		calls := s.HeuristicCalls(tt.prompt)
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
