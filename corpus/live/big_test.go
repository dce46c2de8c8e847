package live

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// bigHandler answers initialize normally and tools/list with a body (or,
// sse, one event) of a tool whose description is n bytes, written in
// pieces as a server streaming it would.
func bigHandler(sse bool, n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
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
		if msg.Method == "initialize" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, strings.ReplaceAll(rawInit, "ID", string(msg.ID)))
			return
		}
		prefix, suffix := "", ""
		w.Header().Set("Content-Type", "application/json")
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			prefix, suffix = "data: ", "\n\n"
		}
		io.WriteString(w, prefix+`{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"description":"`)
		chunk := strings.Repeat("x", 4096)
		for i := 0; i < n; i += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return // toolfind hung up
			}
		}
		io.WriteString(w, `"}]}}`+suffix)
	}
}

// TestHTTPBigAnswer: a tools/list body, or SSE event, longer than the
// limit (lowered here to 64 KiB; the server sends 1 MiB) fails the list
// phase naming the limit, instead of being read whole. One just under the
// limit is read.
func TestHTTPBigAnswer(t *testing.T) {
	defer func(m int) { maxMessage = m }(maxMessage)
	maxMessage = 64 << 10
	for _, sse := range []bool{false, true} {
		what := "the HTTP response body"
		if sse {
			what = "an SSE event"
		}
		t.Run(what, func(t *testing.T) {
			ts := httptest.NewServer(bigHandler(sse, 1<<20))
			defer ts.Close()
			_, err := Take(context.Background(), Source{URL: ts.URL}, quick)
			if p, _ := PhaseOf(err); p != PhaseList {
				t.Fatalf("phase %q: %v", p, err)
			}
			want := "(tools/list page 1): " + what + " is longer than 65536 bytes, toolfind's limit for one JSON-RPC message from an HTTP server"
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %v\nwants %q", err, want)
			}

			small := httptest.NewServer(bigHandler(sse, 32<<10))
			defer small.Close()
			snap, err := Take(context.Background(), Source{URL: small.URL}, quick)
			if err != nil || len(snap.Tools) != 1 {
				t.Fatalf("32 KiB: %v", err)
			}
		})
	}
}

// TestHTTPBigErrorBody: the body of an HTTP error status is capped too.
func TestHTTPBigErrorBody(t *testing.T) {
	defer func(m int) { maxMessage = m }(maxMessage)
	maxMessage = 64 << 10
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		chunk := strings.Repeat("y", 4096)
		for i := 0; i < 1<<20; i += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	defer ts.Close()
	_, err := Take(context.Background(), Source{URL: ts.URL}, quick)
	if p, _ := PhaseOf(err); p != PhaseHandshake || !strings.Contains(err.Error(), "the HTTP error response body is longer than 65536 bytes") {
		t.Fatalf("phase %q: %v", p, err)
	}
}
