package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind/corpus/live/internal/fixturedata"
)

// sdkServer is a streamable-HTTP MCP server of the official SDK on
// 127.0.0.1 with three tools over two pages (PageSize 2), which answers
// only requests carrying "Authorization: Bearer s3cret".
func sdkServer(t *testing.T, jsonResponse bool) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "acme/http-fixture", Version: "0.9.0"},
		&mcp.ServerOptions{Instructions: "Use search before fetch.", PageSize: 2})
	for _, name := range []string{"search", "fetch", "summarize"} {
		srv.AddTool(&mcp.Tool{
			Name:        name,
			Description: "The " + name + " tool",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "missing or wrong token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(auth) // listens on 127.0.0.1
	t.Cleanup(ts.Close)
	return ts
}

func TestHTTP(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		name := "sse"
		if jsonResponse {
			name = "json"
		}
		t.Run(name, func(t *testing.T) {
			ts := sdkServer(t, jsonResponse)
			src, err := ParseURL(ts.URL)
			if err != nil {
				t.Fatal(err)
			}
			src.Header = Header{"Authorization": {"Bearer s3cret"}}
			snap, err := Take(context.Background(), src, quick)
			if err != nil {
				t.Fatal(err)
			}
			// "acme/http-fixture" → "http-fixture"; 3 tools, PageSize 2 → 2 pages.
			if snap.Name != "http-fixture" || snap.Instructions != "Use search before fetch." || len(snap.Tools) != 3 || snap.Pages != 2 {
				t.Fatalf("got %q %q %d tools %d pages", snap.Name, snap.Instructions, len(snap.Tools), snap.Pages)
			}
			var buf bytes.Buffer
			if err := WriteCatalog(&buf, []*Snapshot{snap}); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, "http.json", buf.Bytes())

			src.Header = nil
			_, err = Take(context.Background(), src, quick)
			if p, _ := PhaseOf(err); p != PhaseHandshake || !strings.Contains(err.Error(), "HTTP 401 Unauthorized: missing or wrong token") {
				t.Errorf("without the header: phase %q: %v", p, err)
			}
		})
	}
}

// rawHandler is a hand-written stateless streamable-HTTP server that
// answers with fixed JSON bodies, so they can break the rules ("ID" in a
// body is the request's id; a body starting "SSE:" is sent as one event
// of a text/event-stream).
func rawHandler(initialize, list string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &msg)
		if msg.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		write := func(body string) {
			body = strings.ReplaceAll(body, "ID", string(msg.ID))
			if b, ok := strings.CutPrefix(body, "SSE:"); ok {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "data: "+b+"\n\n")
				return
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}
		switch msg.Method {
		case "initialize":
			write(initialize)
		case "tools/list":
			if list == "hang" {
				hang(r)
				return
			}
			write(list)
		}
	}
}

const rawInit = `{"jsonrpc":"2.0","id":ID,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}}`

func TestHTTPHostile(t *testing.T) {
	ts := httptest.NewServer(rawHandler(rawInit, `{"jsonrpc":"2.0","id":ID,"result":{"tools":`+fixturedata.HostileTools+`}}`))
	defer ts.Close()
	snap, err := Take(context.Background(), Source{URL: ts.URL}, quick)
	if err != nil {
		t.Fatal(err)
	}
	var want []json.RawMessage
	json.Unmarshal([]byte(fixturedata.HostileTools), &want)
	if len(snap.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(snap.Tools), len(want))
	}
	for i := range want {
		if !bytes.Equal(snap.Tools[i], want[i]) {
			t.Errorf("tool %d:\n got %s\nwant %s", i, snap.Tools[i], want[i])
		}
	}
	if snap.HasInstructions {
		t.Error("HasInstructions without instructions")
	}
}

func TestHTTPPhases(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	tests := []struct {
		name    string
		handler http.Handler // nil: closedURL
		phase   Phase
		is      error
		msg     string
	}{
		{"refused", nil, PhaseStart, nil, "cannot reach " + closedURL},
		{"not found", http.NotFoundHandler(), PhaseHandshake, nil, "HTTP 404 Not Found: 404 page not found"},
		{"garbage", rawHandler(`<html>hello</html>`, ``), PhaseParse, nil, `(HTTP response body): not a JSON-RPC 2.0 message: invalid JSON: "<html>hello</html>"`},
		{"list error", rawHandler(rawInit, `{"jsonrpc":"2.0","id":ID,"error":{"code":-32603,"message":"boom"}}`), PhaseList, nil, "JSON-RPC error -32603: boom"},
		{"list hangs", rawHandler(rawInit, "hang"), PhaseList, ErrTimeout, "no answer to tools/list within 2s"},
		{"no tools", rawHandler(rawInit, `{"jsonrpc":"2.0","id":ID,"result":{"nextCursor":"x"}}`), PhaseParse, nil, `the result has no "tools" member`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := closedURL
			if tt.handler != nil {
				ts := httptest.NewServer(tt.handler)
				defer ts.Close()
				url = ts.URL
			}
			_, err := Take(context.Background(), Source{URL: url}, quick)
			if p, _ := PhaseOf(err); p != tt.phase {
				t.Errorf("phase %q, want %q: %v", p, tt.phase, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("not %v: %v", tt.is, err)
			}
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %v\nwants %q", err, tt.msg)
			}
		})
	}
}

// TestHTTPSilentHandshake: a server that accepts the request and never
// answers fails the handshake within the timeout.
func TestHTTPSilentHandshake(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hang(r) }))
	defer ts.Close()
	start := time.Now()
	_, err := Take(context.Background(), Source{URL: ts.URL}, Options{Timeout: 500 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v", err)
	}
	if p, _ := PhaseOf(err); p != PhaseHandshake {
		t.Errorf("phase %q", p)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("took %v", d)
	}
}

// hang waits until the client goes away (or 10 s, so that a client that
// never lets go fails the test instead of hanging it).
func hang(r *http.Request) {
	// The server notices a client hanging up only once the body is read.
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
		panic("the client did not abort its request")
	}
}

// TestHTTPSSEPriming: a text/event-stream answer that starts with an event
// without data (the TypeScript SDK's priming event), spreads the message
// over two data lines and uses CRLF, as servers may.
func TestHTTPSSEPriming(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &msg)
		if msg.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		result := strings.ReplaceAll(rawInit, "ID", string(msg.ID))
		if msg.Method == "tools/list" {
			result = `{"jsonrpc":"2.0","id":` + string(msg.ID) + `,` + "\r\ndata: " + `"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`
		}
		io.WriteString(w, "id: 0\r\ndata: \r\n\r\n: comment\r\nevent: message\r\nid: 1\r\ndata: "+result+"\r\n\r\n")
	}))
	defer ts.Close()
	snap, err := Take(context.Background(), Source{URL: ts.URL}, quick)
	if err != nil {
		t.Fatal(err)
	}
	// The two data lines join with '\n', which JSON reads as whitespace.
	if len(snap.Tools) != 1 || string(snap.Tools[0]) != `{"name":"t","inputSchema":{"type":"object"}}` {
		t.Fatalf("tools %q", snap.Tools)
	}
}

// TestHTTPFlooding: an HTTP server that answers initialize with an event
// stream of notifications that never carries the response is told apart
// from a silent one: the timeout counts what it sent.
func TestHTTPFlooding(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		fl, _ := w.(http.Flusher)
		for i := 0; ; i++ {
			if _, err := io.WriteString(w, `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":`+strconv.Itoa(i)+"}}\n\n"); err != nil {
				return
			}
			if fl != nil {
				fl.Flush()
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}))
	defer ts.Close()
	_, err := Take(context.Background(), Source{URL: ts.URL}, Options{Timeout: 500 * time.Millisecond})
	if p, _ := PhaseOf(err); p != PhaseHandshake || !errors.Is(err, ErrTimeout) {
		t.Fatalf("phase %q, err %v", p, err)
	}
	const want = ` requests and notifications meanwhile (most of them "notifications/progress") but no answer (flooding; timed out; see --timeout)`
	if !strings.Contains(err.Error(), "no answer to initialize within 500ms; the server is running and sent ") || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant …%s", err, want)
	}
}
