package writer

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

func claudeSim(t *testing.T) search.Simulator {
	t.Helper()
	p, err := search.Lookup("claude")
	if err != nil {
		t.Skip("claude is not registered in this test binary")
	}
	sim, err := search.Build(p, corpus.Demo(), search.Options{"builtins": "false"})
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

func TestParseCommandOutput(t *testing.T) {
	tests := []struct {
		out, want, err string
	}{
		{"", "[]", ""},
		{" null \n", "[]", ""},
		{`{"query": "a"}`, `[{"query":"a"}]`, ""},
		{`[{"query":"a"}, {"query":"b"}]`, `[{"query":"a"},{"query":"b"}]`, ""},
		{`[]`, `[]`, ""},
		{`[{"query":"a"}, 3]`, "", "call 1 of the output is not a JSON object: 3"},
		{`"select:x"`, "", `the output is not a JSON object, an array of objects or null: "select:x"`},
		{`{"a":1}{"b":2}`, "", "the output holds more than one JSON value"},
		{`{"a":`, "", "the output is not JSON (unexpected EOF)"},
	}
	for _, tt := range tests {
		calls, err := parseCommandOutput([]byte(tt.out))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.out, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.out, err)
			continue
		}
		got, _ := json.Marshal(append([]json.RawMessage{}, calls...))
		if string(got) != tt.want {
			t.Errorf("%q: calls %s, want %s", tt.out, got, tt.want)
		}
	}
}

func TestCommandSeesSurfaceAndPrompt(t *testing.T) {
	sim := claudeSim(t)
	// The command echoes its input's client, prompt and first tool as a call.
	c := &Command{Argv: []string{"sh", "-c", `python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"query": d["id"]+"|"+d["client"]+"|"+d["prompt"]+"|"+d["surface"]["tools"][0]["name"]}))'`}}
	calls, err := c.Calls(context.Background(), sim, Prompt{ID: "q7", Text: "find invoice"})
	if err != nil {
		t.Skipf("python3 not usable here: %v", err)
	}
	want := `{"query":"q7|` + sim.Client().String() + `|find invoice|ToolSearch"}`
	if len(calls) != 1 || string(calls[0]) != want {
		t.Errorf("calls = %s, want %s", calls, want)
	}
}

func TestCommandErrors(t *testing.T) {
	sim := claudeSim(t)
	p := Prompt{ID: "q3", Text: "x"}
	for _, tt := range []struct {
		cmd     string
		timeout time.Duration
		want    string
	}{
		{"exit 2", time.Minute, "command writer: prompt q3, " + sim.Client().String() + ": the command exited with status 2"},
		{"echo bad >&2; exit 1", time.Minute, "exited with status 1: bad"},
		{"sleep 30", 100 * time.Millisecond, "no answer within 100ms"},
		{"echo '{'", time.Minute, "the output is not JSON"},
	} {
		c := &Command{Argv: []string{"sh", "-c", tt.cmd}, Timeout: tt.timeout}
		_, err := c.Calls(context.Background(), sim, p)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.cmd, err, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := (&Command{Argv: []string{"sh", "-c", "sleep 1"}}).Calls(ctx, sim, p)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestExpandSamples(t *testing.T) {
	qs := &corpus.QuerySet{Queries: []corpus.Query{
		{Text: "a", Line: 1, Tags: map[string]string{"id": "x", "category": "c"}},
		{Text: "b", Line: 2},
	}}
	out, err := ExpandSamples(qs, 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range out.Queries {
		p := PromptOf(&out.Queries[i])
		got = append(got, p.ID+"/"+p.Text+"/"+out.Queries[i].Tags["sample"]+"/"+out.Queries[i].Tags["category"]+"/"+string(rune('0'+p.Sample)))
	}
	// Sample k has Prompt.Sample k-1; the query without an id uses its line.
	want := []string{"x#1/a/1/c/0", "x#2/a/2/c/1", "2#1/b/1//0", "2#2/b/2//1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	if qs.Queries[0].Tags["id"] != "x" {
		t.Error("the input was changed")
	}
	if same, _ := ExpandSamples(qs, 1); same != qs {
		t.Error("n=1 should return the set itself")
	}
	if _, err := ExpandSamples(out, 2); err == nil || !strings.Contains(err.Error(), `already has a "sample" tag`) {
		t.Errorf("re-expanding: %v", err)
	}
}

// A writer that says why it made no call: Write records a null call and
// the reason.
type refusing struct{}

func (refusing) Name() string { return "refusing" }
func (refusing) Calls(context.Context, search.Simulator, Prompt) ([]json.RawMessage, error) {
	return nil, &NoCallError{Reason: "answered in text"}
}

func TestWriteRecordsNoCall(t *testing.T) {
	sim := claudeSim(t)
	qs := &corpus.QuerySet{Queries: []corpus.Query{{Text: "a", Line: 1}}}
	lines, err := Write(context.Background(), refusing{}, []search.Simulator{sim}, qs)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0].Call != nil || string(lines[0].Tags["no_call"]) != `"answered in text"` {
		t.Errorf("lines = %+v", lines)
	}
}

func FuzzParseCommandOutput(f *testing.F) {
	for _, s := range []string{"", "null", `{"query":"a"}`, `[{"code":"text(1)"},{"query":"b"}]`, `[1]`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		calls, err := parseCommandOutput(b)
		if err != nil {
			return
		}
		for _, c := range calls {
			if _, err := search.CallObject(c); err != nil {
				t.Fatalf("call %s is not an object: %v", c, err)
			}
		}
	})
}
