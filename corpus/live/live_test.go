package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/internal/fixturedata"
	"github.com/toolfind/toolfind/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtureBin is the misbehaving server (internal/fixture), built once.
var fixtureBin string

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		os.Exit(serveMain())
	}
	flag.Parse()
	dir, err := os.MkdirTemp("", "toolfind-live-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtureBin = filepath.Join(dir, "fixture")
	if runtime.GOOS == "windows" {
		fixtureBin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", fixtureBin, "./internal/fixture").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the fixture server: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func fixture(mode string) Source { return Source{Command: []string{fixtureBin, mode}} }

// quick are options for fixtures: they answer at once or never.
var quick = Options{Timeout: 2 * time.Second, ShutdownGrace: 500 * time.Millisecond}

func TestFixtureOK(t *testing.T) {
	snap, err := Take(context.Background(), fixture("ok"), quick)
	if err != nil {
		t.Fatal(err)
	}
	// serverInfo.name "fixtures/misbehaving" → the part after the last '/'.
	if snap.Name != "misbehaving" {
		t.Errorf("Name = %q, want misbehaving", snap.Name)
	}
	if !snap.HasInstructions || snap.Instructions != "Fixture <b>instructions</b> & more." {
		t.Errorf("Instructions = %q (has %v)", snap.Instructions, snap.HasInstructions)
	}
	if snap.ProtocolVersion != "2025-11-25" || snap.Pages != 1 || len(snap.Tools) != 2 {
		t.Errorf("ProtocolVersion %q, Pages %d, %d tools; want 2025-11-25, 1, 2", snap.ProtocolVersion, snap.Pages, len(snap.Tools))
	}
	if got := string(snap.ServerInfo); got != `{"name":"fixtures/misbehaving","version":"1.2.3"}` {
		t.Errorf("ServerInfo = %s", got)
	}
	var buf bytes.Buffer
	if err := WriteCatalog(&buf, []*Snapshot{snap}); err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "ok.json", buf.Bytes())
}

// TestFixtureHostile: the tools come back byte for byte as the server sent
// them — "properties": null, the duplicate "alpha", the duplicate key in
// "beta", 1.50E+2, \u0041 and \u2028 spellings, a non-object entry — and
// corpus reads the snapshot the way it reads a file.
func TestFixtureHostile(t *testing.T) {
	snap, err := Take(context.Background(), fixture("hostile"), quick)
	if err != nil {
		t.Fatal(err)
	}
	var want []json.RawMessage
	if err := json.Unmarshal([]byte(fixturedata.HostileTools), &want); err != nil {
		t.Fatal(err)
	}
	if len(snap.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(snap.Tools), len(want))
	}
	for i := range want {
		if !bytes.Equal(snap.Tools[i], want[i]) {
			t.Errorf("tool %d:\n got %s\nwant %s", i, snap.Tools[i], want[i])
		}
	}
	servers, diags, err := snap.Servers()
	if err != nil {
		t.Fatal(err)
	}
	// 6 entries; "not an object" is skipped by corpus with a diagnostic.
	if n := len(servers[0].Tools); n != 5 {
		t.Errorf("corpus kept %d tools, want 5", n)
	}
	if len(diags) != 1 || diags[0].Code != corpus.CodeToolNotObject || diags[0].File != "stdio:"+fixtureBin+" hostile" {
		t.Errorf("parse diagnostics = %v", diags)
	}
	cat, err := Merge(nil, []*Snapshot{snap})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, d := range cat.Diagnostics {
		codes[d.Code]++
	}
	for _, c := range []string{corpus.CodePropertiesType, corpus.CodeDuplicateTool, corpus.CodePropertyKeyInvalid, corpus.CodeSuspiciousText, corpus.CodeInputSchemaType} {
		if codes[c] == 0 {
			t.Errorf("no %s diagnostic in %v", c, cat.Diagnostics)
		}
	}
	var buf bytes.Buffer
	if err := WriteCatalog(&buf, []*Snapshot{snap}); err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "hostile.json", buf.Bytes())
	roundTrip(t, buf.Bytes(), cat)
}

// roundTrip checks that a written catalog parses back to the same servers
// and tools (Raw compared after compacting: only whitespace may differ).
func roundTrip(t *testing.T, file []byte, want *corpus.Catalog) {
	t.Helper()
	servers, _, err := corpus.ParseCatalog("snapshot.json", file)
	if err != nil {
		t.Fatalf("ParseCatalog(snapshot): %v", err)
	}
	if len(servers) != len(want.Servers) {
		t.Fatalf("%d servers, want %d", len(servers), len(want.Servers))
	}
	for i, s := range servers {
		w := want.Servers[i]
		if s.Name != w.Name || s.Instructions != w.Instructions || len(s.Tools) != len(w.Tools) {
			t.Fatalf("server %d: %q/%q/%d tools, want %q/%q/%d", i, s.Name, s.Instructions, len(s.Tools), w.Name, w.Instructions, len(w.Tools))
		}
		for j, tool := range s.Tools {
			if got, want := compact(t, tool.Raw), compact(t, w.Tools[j].Raw); got != want {
				t.Errorf("%s tool %d:\n got %s\nwant %s", s.Name, j, got, want)
			}
		}
	}
}

func compact(t *testing.T, raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestFixturePaged(t *testing.T) {
	snap, err := Take(context.Background(), fixture("paged"), quick)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, raw := range snap.Tools {
		var tool struct{ Name string }
		json.Unmarshal(raw, &tool)
		names = append(names, tool.Name)
	}
	// Page 1 "one" → cursor p2: "two", "three" → cursor p3: "four", "" ends.
	if got := strings.Join(names, ","); got != "one,two,three,four" || snap.Pages != 3 {
		t.Errorf("tools %s over %d pages, want one,two,three,four over 3", got, snap.Pages)
	}
}

// TestPhases runs every way a server can fail and checks the phase, the
// cause and the message.
func TestPhases(t *testing.T) {
	missing := Source{Command: []string{"toolfind-no-such-command-xyz", "--stdio"}}
	tests := []struct {
		name  string
		src   Source
		phase Phase
		is    error  // errors.Is target, if any
		msg   string // a substring of Error()
	}{
		{"not found", missing, PhaseStart, exec.ErrNotFound, `command "toolfind-no-such-command-xyz" not found in PATH`},
		{"exits at once", fixture("exit"), PhaseStart, nil, "exited (exit status 3) before answering initialize"},
		{"never answers", fixture("never"), PhaseHandshake, ErrTimeout, "no answer to initialize within 2s"},
		{"garbage", fixture("garbage"), PhaseParse, nil, `stdout line 1): not a JSON-RPC 2.0 message: invalid JSON: "Server listening on stdio, hello!"`},
		{"not JSON-RPC", fixture("notrpc"), PhaseParse, nil, `"jsonrpc" is not "2.0"`},
		{"initialize error", fixture("initerr"), PhaseHandshake, nil, "JSON-RPC error -32602: unsupported protocol version"},
		{"list error", fixture("listerr"), PhaseList, nil, "tools/list page 1): the server answered with JSON-RPC error -32601: Method not found"},
		{"bad list", fixture("badlist"), PhaseParse, nil, `tools/list page 1 result): "tools" is a string, not an array`},
		{"cursor loop", fixture("loop"), PhaseParse, nil, `tools/list page 2 result): nextCursor "p2" was already returned by page 1`},
		{"list silent", fixture("silent"), PhaseList, ErrTimeout, "no answer to tools/list within 2s"},
		{"dies on list", fixture("die"), PhaseList, nil, "the server process exited (exit status 4)"},
		// Flooding, endless paging and silence are told apart.
		{"floods on initialize", fixture("floodinit"), PhaseHandshake, ErrTimeout,
			`: handshake (initialize): no answer to initialize within 2s; the server is running and sent `},
		{"floods on list", fixture("flood"), PhaseList, ErrTimeout,
			`: list (tools/list page 1): no answer to tools/list within 2s; the server is running and sent `},
		{"pages slowly forever", fixture("slowpages"), PhaseList, ErrTimeout,
			`: tools/list did not end within 2s: the server answered `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := Take(context.Background(), tt.src, quick)
			if err == nil {
				t.Fatal("no error")
			}
			if p, _ := PhaseOf(err); p != tt.phase {
				t.Errorf("phase %q, want %q: %v", p, tt.phase, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error is not %v: %v", tt.is, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q\nwants %q", err, tt.msg)
			}
			if strings.HasPrefix(tt.src.Command[1], "flood") && !strings.Contains(err.Error(), ` requests and notifications meanwhile (most of them "notifications/message") but no answer (flooding; timed out; see --timeout)`) {
				t.Errorf("flooding is not named: %v", err)
			}
			if tt.src.Command[1] == "slowpages" && !strings.Contains(err.Error(), " pages, each with a new nextCursor (timed out; see --timeout)") {
				t.Errorf("endless paging is not named: %v", err)
			}
			if tt.src.Command[0] == fixtureBin && !strings.Contains(err.Error(), "| fixture: ") {
				t.Errorf("error has no stderr tail: %v", err)
			}
			// Every failure, timeouts included, ends well within two
			// timeouts (handshake + list) plus the shutdown grace.
			if d := time.Since(start); d > 2*quick.Timeout+2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestEndlessPages: a server that answers every tools/list page at once
// with a new nextCursor is stopped at MaxPages.
func TestEndlessPages(t *testing.T) {
	_, err := Take(context.Background(), fixture("endless"), Options{Timeout: time.Minute, ShutdownGrace: 500 * time.Millisecond})
	const want = `: list (tools/list page 1001): the server answered 1000 pages, each with a new nextCursor; toolfind stops at 1000 pages (the list would likely never end)`
	if p, _ := PhaseOf(err); p != PhaseList || err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("phase %q, error %v\nwant %s", p, err, want)
	}
}

func TestStartStderrTail(t *testing.T) {
	_, err := Take(context.Background(), fixture("exit"), quick)
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("%T %v, want *StartError", err, err)
	}
	if se.Stderr != "fixture: exit\nfixture: FIXTURE_TOKEN is not set; giving up" {
		t.Errorf("Stderr = %q", se.Stderr)
	}
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 {
		t.Errorf("no *ExitError with code 3 in %v", err)
	}
}

func TestRPCErrorType(t *testing.T) {
	_, err := Take(context.Background(), fixture("listerr"), quick)
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32601 || we.Message != "Method not found" {
		t.Fatalf("no *jsonrpc.Error -32601 in %v", err)
	}
}

// TestNoTerm: SIGTERM ignored → SIGKILL after the grace period.
func TestNoTerm(t *testing.T) {
	start := time.Now()
	_, err := Take(context.Background(), fixture("noterm"), Options{Timeout: 500 * time.Millisecond, ShutdownGrace: 300 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestTakeAll(t *testing.T) {
	a, b := fixture("ok"), fixture("paged")
	a.Name, b.Name = "first", "second"
	snaps, err := TakeAll(context.Background(), []Source{a, b}, quick)
	if err != nil {
		t.Fatal(err)
	}
	if snaps[0].Name != "first" || snaps[1].Name != "second" || len(snaps[1].Tools) != 4 {
		t.Fatalf("got %q %q %d", snaps[0].Name, snaps[1].Name, len(snaps[1].Tools))
	}
	var buf bytes.Buffer
	if err := WriteCatalog(&buf, snaps); err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "two.json", buf.Bytes())
	cat, err := Merge(nil, snaps)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, buf.Bytes(), cat)

	// A failure stops the others and is the error returned, even when a
	// slow source comes first.
	never, exit := fixture("never"), fixture("exit")
	start := time.Now()
	_, err = TakeAll(context.Background(), []Source{never, exit}, Options{Timeout: time.Minute, ShutdownGrace: 200 * time.Millisecond})
	if p, _ := PhaseOf(err); p != PhaseStart {
		t.Errorf("phase %q: %v", p, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v: the silent server was not stopped", d)
	}
}

func TestMerge(t *testing.T) {
	base := corpus.Demo()
	snap, err := Take(context.Background(), Source{Name: "billing", Command: []string{fixtureBin, "ok"}}, quick)
	if err != nil {
		t.Fatal(err)
	}
	// The demo has a server "billing" already.
	if _, err := Merge(base, []*Snapshot{snap}); err == nil || !strings.Contains(err.Error(), "name= prefix") {
		t.Errorf("Merge with a clashing name: %v", err)
	}
	snap.Name = "fixture"
	cat, err := Merge(base, []*Snapshot{snap})
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Servers) != len(base.Servers)+1 || cat.Servers[len(cat.Servers)-1].Source != "stdio:"+fixtureBin+" ok" {
		t.Fatalf("servers %d", len(cat.Servers))
	}
	// The demo's own diagnostics are not repeated: Merge(base, nil) gives
	// exactly base's.
	same, err := Merge(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(same.Diagnostics, base.Diagnostics) {
		t.Errorf("Merge(base, nil) diagnostics differ:\n%v\n%v", same.Diagnostics, base.Diagnostics)
	}
	if len(base.Servers) == len(cat.Servers) {
		t.Error("Merge modified base")
	}
}

// compareGolden compares got with testdata/name, or rewrites it with
// -update. Fixture paths are replaced by FIXTURE.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = bytes.ReplaceAll(got, []byte(fixtureBin), []byte("FIXTURE"))
	golden.Compare(t, filepath.Join("testdata", name), got, *update)
}
