package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolfind/toolfind/corpus"
)

// The real servers, at the versions ../shared/catalogs/SOURCES.md names and
// .ci/install-npm.sh installs into $TOOLFIND_NPM_DIR (default .ci/npm at
// the module root; a relative value is taken from the module root too).
const (
	everythingPkg = "@modelcontextprotocol/server-everything"
	filesystemPkg = "@modelcontextprotocol/server-filesystem"
	npmVersion    = "2026.8.31"
)

// npmServer returns the path of an installed package's entry point, or
// skips the test saying how to install it.
func npmServer(t *testing.T, pkg, bin string) string {
	t.Helper()
	dir := os.Getenv("TOOLFIND_NPM_DIR")
	if dir == "" {
		dir = ".ci/npm"
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", "..", dir) // corpus/live → module root
	}
	pkgDir := filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))
	data, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		t.Skipf("%s is not installed in %s (run .ci/install-npm.sh, or set TOOLFIND_NPM_DIR): %v", pkg, dir, err)
	}
	var meta struct {
		Version string            `json:"version"`
		Bin     map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Version != npmVersion {
		t.Skipf("%s is %s in %s, want %s (rerun .ci/install-npm.sh)", pkg, meta.Version, dir, npmVersion)
	}
	if _, err := lookNode(); err != nil {
		t.Skipf("node is not in PATH: %v", err)
	}
	return filepath.Join(pkgDir, filepath.FromSlash(meta.Bin[bin]))
}

// sharedCatalog loads one of ../shared/catalogs, or skips.
func sharedCatalog(t *testing.T, file string) *corpus.Server {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "catalogs", file)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("shared catalogs not found (%v); they live in ../shared beside the repository", err)
	}
	servers, _, err := corpus.ParseCatalog(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return servers[0]
}

// compareWithShared checks a live snapshot against the committed one: the
// same tools in the same order, each tool's JSON equal after compacting
// (the shared files are indented), and the same instructions.
func compareWithShared(t *testing.T, snap *Snapshot, want *corpus.Server) {
	t.Helper()
	servers, _, err := snap.Servers()
	if err != nil {
		t.Fatal(err)
	}
	got := servers[0]
	if len(got.Tools) != len(want.Tools) {
		t.Errorf("%d tools, %s has %d", len(got.Tools), want.Source, len(want.Tools))
	}
	for i := 0; i < len(got.Tools) && i < len(want.Tools); i++ {
		g, w := got.Tools[i], want.Tools[i]
		if g.Name != w.Name {
			t.Errorf("tool %d is %q, want %q", i, g.Name, w.Name)
			continue
		}
		if cg, cw := compact(t, g.Raw), compact(t, w.Raw); cg != cw {
			t.Errorf("tool %s differs from the shared catalog:\n got %s\nwant %s", g.Name, cg, cw)
		}
	}
	if got.Instructions != want.Instructions {
		t.Errorf("instructions differ:\n got %q\nwant %q", got.Instructions, want.Instructions)
	}
}

func TestNPMEverything(t *testing.T) {
	entry := npmServer(t, everythingPkg, "mcp-server-everything")
	want := sharedCatalog(t, "everything.json")
	node, _ := lookNode()
	snap, err := Take(context.Background(), Source{Command: []string{node, entry, "stdio"}}, Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	// serverInfo.name "mcp-servers/everything" → "everything", the name
	// the shared catalog uses.
	if snap.Name != "everything" {
		t.Errorf("Name = %q", snap.Name)
	}
	compareWithShared(t, snap, want)
	var buf bytes.Buffer
	if err := WriteCatalog(&buf, []*Snapshot{snap}); err != nil {
		t.Fatal(err)
	}
	cat, err := Merge(nil, []*Snapshot{snap})
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, buf.Bytes(), cat)
}

func TestNPMFilesystem(t *testing.T) {
	entry := npmServer(t, filesystemPkg, "mcp-server-filesystem")
	want := sharedCatalog(t, "filesystem.json")
	node, _ := lookNode()
	src := Source{Name: "filesystem", Command: []string{node, entry, t.TempDir()}}
	snap, err := Take(context.Background(), src, Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	compareWithShared(t, snap, want)
}

func lookNode() (string, error) { return exec.LookPath("node") }

// TestNPMEverythingHTTP: the same server over streamable HTTP (the
// TypeScript SDK's server answers with server-sent events), on 127.0.0.1.
func TestNPMEverythingHTTP(t *testing.T) {
	entry := npmServer(t, everythingPkg, "mcp-server-everything")
	want := sharedCatalog(t, "everything.json")
	node, _ := lookNode()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(node, entry, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		killGroup(cmd, true)
		cmd.Wait()
	}()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the server did not listen on %s", addr)
		}
	}
	snap, err := Take(context.Background(), Source{URL: "http://" + addr + "/mcp"}, Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Name != "everything" {
		t.Errorf("Name = %q", snap.Name)
	}
	compareWithShared(t, snap, want)
}
