package live

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestNPMEverythingCall calls server-everything's echo tool: the result is
// the raw bytes of the tools/call response's "result", and the snapshot
// lists the server's tools.
func TestNPMEverythingCall(t *testing.T) {
	entry := npmServer(t, everythingPkg, "mcp-server-everything")
	node, _ := lookNode()
	src := Source{Command: []string{node, entry, "stdio"}}
	c, err := Call(context.Background(), src, Options{Timeout: time.Minute}, "echo", json.RawMessage(`{"message":"hi \u00e9"}`))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Content []struct{ Type, Text string } `json:"content"`
	}
	if err := json.Unmarshal(c.Result, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Content) != 1 || r.Content[0].Type != "text" || r.Content[0].Text != "Echo: hi é" {
		t.Errorf("result = %s", c.Result)
	}
	if c.Snapshot.Name != "everything" || len(c.Snapshot.Tools) != 13 {
		t.Errorf("snapshot %q with %d tools, want everything with 13", c.Snapshot.Name, len(c.Snapshot.Tools))
	}
}

// TestNPMEverythingCallUnknownTool: server-everything 2026.8.31 (MCP
// TypeScript SDK 1.32.2) answers an unknown tool with an isError result,
// not a JSON-RPC error, so it is a result like any other.
func TestNPMEverythingCallUnknownTool(t *testing.T) {
	entry := npmServer(t, everythingPkg, "mcp-server-everything")
	node, _ := lookNode()
	src := Source{Command: []string{node, entry, "stdio"}}
	c, err := Call(context.Background(), src, Options{Timeout: time.Minute}, "no-such-tool", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"content":[{"type":"text","text":"MCP error -32602: Tool no-such-tool not found"}],"isError":true}`
	if string(c.Result) != want {
		t.Errorf("result\n got %s\nwant %s", c.Result, want)
	}
}

func TestCallBadArguments(t *testing.T) {
	for _, args := range []string{`[1]`, `"x"`, `{`} {
		_, err := Call(context.Background(), fixture("ok"), Options{}, "alpha", json.RawMessage(args))
		if err == nil || !strings.Contains(err.Error(), "must be a JSON object") {
			t.Errorf("args %s: err = %v", args, err)
		}
	}
	if _, err := Call(context.Background(), fixture("ok"), Options{}, "", nil); err == nil {
		t.Error("empty tool name accepted")
	}
}

// TestCallListFailure: a server whose tools/list fails never gets the call.
func TestCallListFailure(t *testing.T) {
	_, err := Call(context.Background(), fixture("listerr"), Options{Timeout: 5 * time.Second}, "alpha", nil)
	var le *ListError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v (%T), want *ListError", err, err)
	}
}

// TestCallRPCError: the fixture answers tools/call with JSON-RPC error
// -32601, a *CallError in the call phase that names the tool and the
// server's error.
func TestCallRPCError(t *testing.T) {
	_, err := Call(context.Background(), fixture("ok"), Options{Timeout: 5 * time.Second}, "echo", json.RawMessage(`{"message":"x"}`))
	var ce *CallError
	if !errors.As(err, &ce) || ce.Tool != "echo" {
		t.Fatalf("err = %v (%T), want *CallError", err, err)
	}
	if p, _ := PhaseOf(err); p != PhaseCall {
		t.Errorf("phase %q", p)
	}
	if want := "call (tools/call echo): the server answered with JSON-RPC error -32601: Method not found"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
}

// TestCallListTimeout: a server that never answers tools/list fails in
// the list phase with ErrTimeout; the tool is never called.
func TestCallListTimeout(t *testing.T) {
	_, err := Call(context.Background(), fixture("silent"), Options{Timeout: 300 * time.Millisecond}, "echo", nil)
	var le *ListError
	if !errors.As(err, &le) || !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v (%T)", err, err)
	}
}
