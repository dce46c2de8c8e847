//go:build unix

package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/verify"
)

// TestIsolationAndCleanup: the client sees a throwaway HOME and config
// folder and none of the caller's environment but PATH; once the answer is
// in and the grace period over, the client and its stub servers are
// killed and the folder removed.
func TestIsolationAndCleanup(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fake client")
	}
	t.Setenv("TOOLFIND_TEST_SENTINEL", "must-not-leak")
	repPath := filepath.Join(t.TempDir(), "report.json")
	r := runner(t, fakeClaude(t, "2.1.332"), corpus.Demo())
	r.Env = []string{"FAKE_CLAUDE_MODE=linger", "FAKE_CLAUDE_REPORT=" + repPath}
	r.Grace = 200 * time.Millisecond
	a, err := r.Run(context.Background(), verify.Query{Text: "invoice", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a.Tools) != "[mcp__billing__invoice_lookup mcp__billing__findInvoice]" {
		t.Errorf("answer %q", a.Tools)
	}
	var seen struct {
		Home     string   `json:"home"`
		Env      []string `json:"env"`
		StubPIDs []int    `json:"stub_pids"`
	}
	data, err := os.ReadFile(repPath)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(data, &seen)
	if home, _ := os.UserHomeDir(); seen.Home == "" || seen.Home == home || !strings.HasPrefix(seen.Home, os.TempDir()) {
		t.Errorf("client HOME %q", seen.Home)
	}
	for _, kv := range seen.Env {
		if strings.Contains(kv, "must-not-leak") {
			t.Errorf("caller's environment leaked: %s", kv)
		}
	}
	if len(seen.StubPIDs) != 5 {
		t.Fatalf("stub PIDs %v, want one per demo server (5)", seen.StubPIDs)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range seen.StubPIDs {
		for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("stub %d still running (%v)", pid, err)
		}
	}
	if _, err := os.Stat(seen.Home); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("throwaway folder %s left behind (%v)", seen.Home, err)
	}
}
