// Package fakeclient is for the tests of `toolfind verify`: it builds the
// fake clients of verify/*/testdata (Go programs that speak a client's
// protocols), once per test binary, and lets a test binary act as the
// stub MCP server the runners start for each catalog server.
package fakeclient

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/toolfind/toolfind/verify/mcpstub"
)

var (
	mu    sync.Mutex
	dir   string
	built = map[string]string{}
)

// Build builds the program in pkg (a folder, relative to the test's
// package) as an executable named name, with -ldflags ldflags when not
// empty, once per test binary, and returns its path. It skips the test
// in -short mode and without a go command.
func Build(t testing.TB, pkg, name, ldflags string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a fake client")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the fake client: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	key := pkg + "\x00" + name + "\x00" + ldflags
	if p, ok := built[key]; ok {
		return p
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "toolfind-fakeclient-"); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(dir, strconv.Itoa(len(built)))
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(sub, name)
	args := []string{"build", "-o", p}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	if out, err := exec.Command(gobin, append(args, pkg)...).CombinedOutput(); err != nil {
		t.Fatalf("building the fake client %s: %v\n%s", pkg, err, out)
	}
	built[key] = p
	return p
}

// StubEnv makes a test binary act as the stub MCP server (ServeStub), as
// the toolfind binary does with `toolfind mcp-stub`.
const StubEnv = "TOOLFIND_TEST_MCPSTUB"

// ServeStub serves a stub MCP server and exits when StubEnv is set; call
// it first in TestMain.
func ServeStub() {
	if os.Getenv(StubEnv) == "1" {
		os.Exit(mcpstub.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// Stub is the stub command and environment a runner is given to start
// this test binary as a stub server.
func Stub() (command []string, env map[string]string) {
	return []string{os.Args[0]}, map[string]string{StubEnv: "1"}
}
