package live

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestWrongIDType: a server answering with the right id in the wrong JSON
// type ("2" for 2) or with null is diagnosed as that, naming the phase and
// the request, at once, over stdio and over HTTP (JSON and SSE bodies),
// not as a silent server (the SDK ignores such an answer and would wait
// out the timeout) or one that exited. The timeout is an hour: a test that
// waited for it would not end.
func TestWrongIDType(t *testing.T) {
	const (
		str  = `; JSON-RPC 2.0 §5 answers a request with its id, of the same type, and the MCP SDK and the clients never match this answer to the request (they wait until they time out)`
		null = `; JSON-RPC 2.0 §5 keeps a null id for a request whose id could not be read, so no client matches it to the request`
	)
	long := Options{Timeout: time.Hour, ShutdownGrace: 500 * time.Millisecond}
	listID := `"ID"` // the id as a string
	sse := func(body string) string { return "SSE:" + body }
	for _, c := range []struct {
		name  string
		src   func(t *testing.T) Source
		phase Phase
		want  string
	}{
		{"stdio initialize", func(*testing.T) Source { return fixture("initstrid") }, PhaseHandshake,
			`handshake (initialize): the server answered with id "1" (a string) to toolfind's initialize request, whose id is 1 (a number)` + str},
		{"stdio list string", func(*testing.T) Source { return fixture("strid") }, PhaseList,
			`list (tools/list page 1): the server answered with id "2" (a string) to toolfind's tools/list (page 1) request, whose id is 2 (a number)` + str},
		{"stdio list null", func(*testing.T) Source { return fixture("nullid") }, PhaseList,
			`list (tools/list page 1): the server answered with id null to toolfind's tools/list (page 1) request, whose id is 2 (a number)` + null},
		{"http json list string", httpSource(rawInit, `{"jsonrpc":"2.0","id":`+listID+`,"result":{"tools":[]}}`), PhaseList,
			`list (tools/list page 1): the server answered with id "2" (a string) to toolfind's tools/list (page 1) request, whose id is 2 (a number)` + str},
		{"http json list null error", httpSource(rawInit, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`), PhaseList,
			`list (tools/list page 1): the server answered with id null to toolfind's tools/list (page 1) request, whose id is 2 (a number), with the error "{\"code\":-32600,\"message\":\"bad\"}"` + null},
		{"http sse initialize", httpSource(sse(strings.Replace(rawInit, "ID", `"ID"`, 1)), ""), PhaseHandshake,
			`handshake (initialize): the server answered with id "1" (a string) to toolfind's initialize request, whose id is 1 (a number)` + str},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { _, err := Take(ctx, c.src(t), long); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				cancel()
				err = <-done
				t.Fatalf("still waiting for an answer: %v", err)
			}
			var mis *IDMismatchError
			if p, _ := PhaseOf(err); p != c.phase || !errors.As(err, &mis) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("phase %q: %v\nwant %s: …%s", p, err, c.phase, c.want)
			}
		})
	}
}

// httpSource serves initialize and tools/list as rawHandler does; a body
// starting "SSE:" is sent as one event of a text/event-stream.
func httpSource(initialize, list string) func(t *testing.T) Source {
	return func(t *testing.T) Source {
		h := rawHandler(initialize, list)
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		return Source{URL: ts.URL}
	}
}
