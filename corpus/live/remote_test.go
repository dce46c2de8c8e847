package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus/live/remote"
)

// serveEnv makes this test binary serve the protocol with Serve
// (TestMain), as toolfind's live-server child does.
const serveEnv = "TOOLFIND_TEST_LIVE_SERVE"

// serveMain is the test binary as the child: Serve on its standard
// streams, stopped by SIGTERM as toolfind's child is.
func serveMain() int {
	signal.Ignore(os.Interrupt)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := Serve(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		return 1
	}
	return 0
}

func remoteClient(t *testing.T) *remote.Client {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	c, err := remote.New(remote.Config{Program: exe, Env: append(os.Environ(), serveEnv+"=1")})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// TestRemoteSameAsInProcess: every way a fixture server succeeds or fails
// gives the same snapshot, or the same error — message, phase, type,
// errors.Is and errors.As answers — through Serve in a child process as in process.
func TestRemoteSameAsInProcess(t *testing.T) {
	c := remoteClient(t)
	o := remote.Options{Timeout: quick.Timeout, ShutdownGrace: quick.ShutdownGrace}
	modes := []string{"ok", "paged", "hostile", "exit", "never", "garbage", "notrpc", "initerr", "listerr", "badlist", "loop", "silent", "die"}
	srcs := []Source{{Command: []string{"toolfind-no-such-command-xyz", "--stdio"}}, {Command: []string{"./testdata"}}}
	for _, m := range modes {
		srcs = append(srcs, fixture(m))
	}
	named := fixture("ok")
	named.Name, named.Env = "billing", []string{"FIXTURE_TOKEN=x"}
	srcs = append(srcs, named)
	for _, src := range srcs {
		t.Run(src.String(), func(t *testing.T) {
			t.Parallel()
			want, wantErr := Take(context.Background(), src, quick)
			got, gotErr := c.Take(context.Background(), src, o)
			sameError(t, wantErr, gotErr)
			assert.Equal(t, want, got)
		})
	}
	t.Run("TakeAll", func(t *testing.T) {
		t.Parallel()
		two := []Source{fixture("ok"), fixture("paged")}
		two[0].Name, two[1].Name = "a", "b"
		want, wantErr := TakeAll(context.Background(), two, quick)
		got, gotErr := c.TakeAll(context.Background(), two, o)
		sameError(t, wantErr, gotErr)
		assert.Equal(t, want, got)
	})
}

// TestRemoteCall: tools/call through a child, against the SDK's
// streamable-HTTP server, as in process: the result, and the error of a
// tool the server does not have.
func TestRemoteCall(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "acme/notes", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "add_note", Description: "Add a note",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "noted: " + string(req.Params.Arguments)}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	c := remoteClient(t)
	src := Source{Name: "notes", URL: ts.URL, Header: Header{"X-Test": {"1"}}}
	for _, tool := range []string{"add_note", "no_such_tool"} {
		args := json.RawMessage(`{"text": "milk"}`)
		want, wantErr := Call(context.Background(), src, quick, tool, args)
		got, gotErr := c.Call(context.Background(), src, remote.Options{Timeout: quick.Timeout}, tool, args)
		sameError(t, wantErr, gotErr)
		if want != nil {
			want.Snapshot.ServerInfo, got.Snapshot.ServerInfo = nil, nil // the same, but for the SDK's version
		}
		assert.Equal(t, want, got, tool)
	}
}

// sameError checks that the error through the child is the one in
// process.
func sameError(t *testing.T, want, got error) {
	t.Helper()
	if want == nil || got == nil {
		assert.Equal(t, want, got)
		return
	}
	assert.Equal(t, want.Error(), got.Error())
	assert.Equal(t, reflect.TypeOf(want), reflect.TypeOf(got))
	wp, _ := PhaseOf(want)
	gp, _ := PhaseOf(got)
	assert.Equal(t, wp, gp)
	for _, target := range []error{ErrTimeout, ErrInterrupted, exec.ErrNotFound, context.Canceled, context.DeadlineExceeded} {
		assert.Equal(t, errors.Is(want, target), errors.Is(got, target), "errors.Is %v", target)
	}
	var we, ge *ExitError
	if assert.Equal(t, errors.As(want, &we), errors.As(got, &ge), "errors.As *ExitError") && we != nil {
		assert.Equal(t, *we, *ge)
	}
}
