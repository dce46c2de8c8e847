package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind/corpus"
)

// buildFixture builds corpus/live's misbehaving MCP server (see
// corpus/live/internal/fixture for its modes).
func buildFixture(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fixture")
	out, err := exec.Command("go", "build", "-o", bin, "../../corpus/live/internal/fixture").CombinedOutput()
	if err != nil {
		t.Fatalf("building the fixture server: %v\n%s", err, out)
	}
	return bin
}

func TestLiveSources(t *testing.T) {
	fx := buildFixture(t)

	t.Run("snapshot one", func(t *testing.T) {
		out, errOut, code := run(t, "snapshot", "--server", fx+" hostile")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		servers, diags, err := corpus.ParseCatalog("snapshot.json", []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		// 6 entries, one of them not an object (skipped with a diagnostic).
		if len(servers) != 1 || servers[0].Name != "misbehaving" || len(servers[0].Tools) != 5 || len(diags) != 1 {
			t.Fatalf("got %d servers, %q, %d tools, %v", len(servers), servers[0].Name, len(servers[0].Tools), diags)
		}
		if !strings.Contains(out, `"properties": null`) {
			t.Error(`"properties": null was not kept`)
		}
	})

	t.Run("snapshot several to a file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "servers.json")
		_, errOut, code := run(t, "snapshot", "--server", "a="+fx+" ok", "--server", "b="+fx+" paged", "--out", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		// b pages 3 times: "one" | "two" "three" | "four".
		want := path + ": server a, 2 tools (1 tools/list page)\n" + path + ": server b, 4 tools (3 tools/list pages)\n"
		if errOut != want {
			t.Errorf("stderr %q, want %q", errOut, want)
		}
		cat, err := corpus.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(cat.Servers) != 2 || cat.Servers[0].Name != "a" || len(cat.Servers[1].Tools) != 4 {
			t.Fatalf("reloaded %d servers", len(cat.Servers))
		}
	})

	t.Run("same name twice", func(t *testing.T) {
		_, errOut, code := run(t, "snapshot", "--server", fx+" ok", "--server", fx+" paged")
		if code != exitBadInput || !strings.Contains(errOut, `server name "misbehaving" is already defined`) || !strings.Contains(errOut, "name= prefix") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})

	// Done when: a server that never answers fails within the timeout
	// with exit 3 and a message naming the handshake phase.
	t.Run("never answers", func(t *testing.T) {
		start := time.Now()
		_, errOut, code := run(t, "rank", "--query", "echo", "--server", fx+" never", "--timeout", "1s")
		if code != exitLive {
			t.Errorf("exit %d, want 3: %s", code, errOut)
		}
		if !strings.Contains(errOut, ": handshake (initialize): no answer to initialize within 1s") {
			t.Errorf("stderr %q does not name the handshake phase", errOut)
		}
		if d := time.Since(start); d > 6*time.Second {
			t.Errorf("took %v with --timeout 1s", d)
		}
	})

	t.Run("phases exit 3", func(t *testing.T) {
		for mode, phase := range map[string]string{"exit": ": start: ", "garbage": ": parse (stdout line 1): ", "listerr": ": list (tools/list page 1): "} {
			_, errOut, code := run(t, "snapshot", "--server", fx+" "+mode, "--timeout", "5s")
			if code != exitLive || !strings.Contains(errOut, phase) {
				t.Errorf("%s: exit %d, stderr %q; want 3 and %q", mode, code, errOut, phase)
			}
		}
		_, errOut, code := run(t, "snapshot", "--server", "toolfind-no-such-command-xyz")
		if code != exitLive || !strings.Contains(errOut, `start: command "toolfind-no-such-command-xyz" not found`) {
			t.Errorf("missing command: exit %d, %q", code, errOut)
		}
	})

	t.Run("rank merges files and live servers", func(t *testing.T) {
		demo := writeFile(t, "demo.json", `{"server": "files", "tools": [{"name": "echo_file", "description": "Echo a file", "inputSchema": {"type": "object"}}]}`)
		s := &sourceOptions{servers: []string{"live=" + fx + " ok"}, timeout: 5 * time.Second}
		cat, err := s.load(context.Background(), []string{demo}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cat.Servers) != 2 || cat.Servers[0].Name != "files" || cat.Servers[1].Name != "live" || cat.Servers[1].Source != "stdio:"+fx+" ok" {
			t.Fatalf("servers %v", cat.Servers)
		}
		out, errOut, code := run(t, "rank", "--query", "echo", "--format", "json", "--catalog", demo, "--server", "live="+fx+" ok")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var res struct {
			Results []struct {
				Hits []struct{ Tool string }
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range res.Results {
			for _, h := range r.Hits {
				found = found || h.Tool == "live/echo"
			}
		}
		if len(res.Results) > 0 && !found {
			t.Errorf("no client found live/echo: %s", out)
		}
	})
}

func TestLiveFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"snapshot"}, "snapshot needs at least one --server, --url or --config"},
		{[]string{"snapshot", "--server", "x", "--catalog", "a.json"}, "--catalog does not apply"},
		{[]string{"snapshot", "--server", "  "}, "no command"},
		{[]string{"snapshot", "--server", "srv 'open"}, "unterminated single quote"},
		{[]string{"snapshot", "--url", "ftp://x"}, "want an http:// or https:// URL"},
		{[]string{"snapshot", "--url", "http://x", "--header", "nocolon"}, "want KEY:VALUE"},
		{[]string{"snapshot", "--server", "x", "--header", "A: b"}, "--header applies to --url servers"},
		{[]string{"snapshot", "--server", "x", "--timeout", "0s"}, "--timeout 0s: must be more than 0"},
		{[]string{"rank", "--query", "q", "--server", "x", "--timeout", "-1s"}, "must be more than 0"},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, tt.args...)
		if code != exitBadInput || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.msg)
		}
	}
}

// TestLiveURL: --url with --header against the SDK's streamable-HTTP
// server on 127.0.0.1, which wants a bearer token.
func TestLiveURL(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "acme/notes", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "add_note", Description: "Add a note",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t0k" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()

	out, errOut, code := run(t, "snapshot", "--url", ts.URL, "--header", "Authorization: Bearer t0k")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	servers, _, err := corpus.ParseCatalog("s.json", []byte(out))
	if err != nil || servers[0].Name != "notes" || len(servers[0].Tools) != 1 || servers[0].Tools[0].Name != "add_note" {
		t.Fatalf("snapshot %s, %v", out, err)
	}

	_, errOut, code = run(t, "rank", "--query", "note", "--url", "n="+ts.URL)
	if code != exitLive || !strings.Contains(errOut, "live server n ("+ts.URL+"): handshake (initialize): HTTP 401 Unauthorized: no token") {
		t.Errorf("without the header: exit %d, %q", code, errOut)
	}
	if strings.Contains(errOut, "did not expand") {
		t.Errorf("a hint without a variable: %q", errOut)
	}
	// A variable in single quotes reaches the server as its name: the
	// refusal says so.
	_, errOut, code = run(t, "snapshot", "--url", ts.URL, "--header", "Authorization: Bearer $TOKEN")
	if code != exitLive || !strings.Contains(errOut, "HTTP 401 Unauthorized: no token\n(the --header Authorization value holds the literal text $TOKEN, which the shell did not expand: put the flag in double quotes") {
		t.Errorf("unexpanded $TOKEN: exit %d, %q", code, errOut)
	}
}
