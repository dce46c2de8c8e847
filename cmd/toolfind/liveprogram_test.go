package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The point of toolfind-live: the toolfind command links neither the MCP
// Go SDK nor what it brings (jsonschema-go …).
func TestToolfindLinksNoMCPSDK(t *testing.T) {
	deps := toolfindDeps(t)
	require.Contains(t, deps, "github.com/toolfind/toolfind/corpus/live/remote")
	for _, d := range deps {
		for _, sdk := range []string{"github.com/modelcontextprotocol/go-sdk", "github.com/google/jsonschema-go", "github.com/toolfind/toolfind/corpus/live"} {
			assert.False(t, d == sdk || strings.HasPrefix(d, sdk+"/") && !strings.HasPrefix(d, "github.com/toolfind/toolfind/corpus/live/"),
				"cmd/toolfind imports %s", d)
		}
	}
}

func TestFindLiveProgram(t *testing.T) {
	checkFindProgram(t, liveHelper, findLiveProgram)
	// Nowhere: the error says how to install it.
	t.Setenv("TOOLFIND_LIVE_PROGRAM", "")
	t.Setenv("PATH", t.TempDir())
	_, err := findLiveProgram("")
	assert.EqualError(t, err, "--server and --url run the toolfind-live program (it holds the MCP Go SDK), found neither beside toolfind nor on PATH: "+
		"install it with `go install github.com/toolfind/toolfind/cmd/toolfind-live@latest` (or `go install ./cmd/...` in a checkout), "+
		"or give --live-program PATH or TOOLFIND_LIVE_PROGRAM")
}

// Through the commands: a missing program is a usage error (exit 2), one
// that dies at once or is not toolfind-live a live failure (exit 3)
// naming it; a command without live servers runs no program at all.
func TestLiveProgramErrors(t *testing.T) {
	fx := buildFixture(t)
	t.Setenv("TOOLFIND_LIVE_PROGRAM", "")
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir())
	for _, args := range [][]string{
		{"snapshot", "--server", fx + " ok"},
		{"rank", "--query", "echo", "--url", "http://127.0.0.1:9/mcp"},
		{"result", "--server", fx + " ok", "--tool", "echo", "--confirm-call"},
	} {
		_, errOut, code := run(t, args...)
		assert.Equal(t, exitBadInput, code, errOut)
		assert.Contains(t, errOut, "--server and --url run the toolfind-live program (it holds the MCP Go SDK), found neither", args)
	}
	t.Setenv("PATH", path)

	dying := writeProgram(t, t.TempDir(), "dying", "echo 'panic: out of luck' >&2; exit 3")
	_, errOut, code := run(t, "snapshot", "--server", fx+" ok", "--live-program", dying)
	assert.Equal(t, exitLive, code, errOut)
	assert.Contains(t, errOut, "dying exited before it was ready (exit status 3): panic: out of luck")

	notIt := writeProgram(t, t.TempDir(), "chatty", "echo hello; while read l; do :; done")
	_, errOut, code = run(t, "rank", "--query", "echo", "--server", fx+" ok", "--live-program", notIt)
	assert.Equal(t, exitLive, code, errOut)
	assert.Contains(t, errOut, `chatty is not toolfind-live (`+notIt+`): its line 1 is not the protocol`)

	// No live server: the dying program is never run.
	_, errOut, code = run(t, "rank", "--query", "echo", "--live-program", dying)
	assert.Equal(t, 0, code, errOut)
}

// asToolfindEnv makes this test binary run toolfind's Main (TestMain).
const asToolfindEnv = "TOOLFIND_TEST_AS_TOOLFIND"

// TestLiveServersDieWithToolfind: toolfind runs toolfind-live, which runs
// the server (fixture child), which runs a grandchild. Neither a SIGKILL
// of toolfind nor a terminal's Ctrl-C (SIGINT to toolfind's process
// group) leaves any of them running; Ctrl-C ends the snapshot with
// "interrupted" (exit 3) as it did in process.
func TestLiveServersDieWithToolfind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finding the processes by their environment needs /proc (Linux)")
	}
	fx := buildFixture(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	for _, how := range []string{"SIGKILL", "Ctrl-C"} {
		t.Run(how, func(t *testing.T) {
			mark := "TOOLFIND_TEST_MARK=" + strconv.Itoa(os.Getpid()) + "-" + how
			pidfile := filepath.Join(t.TempDir(), "pid")
			cmd := exec.Command(exe, "snapshot", "--server", fx+" child", "--timeout", "1m")
			cmd.Env = append(os.Environ(), asToolfindEnv+"=1", mark, "FIXTURE_PIDFILE="+pidfile)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a terminal's foreground group
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			// The grandchild's pid is written once the server runs: then
			// toolfind, toolfind-live, the server and the grandchild are
			// four marked processes.
			require.Eventually(t, func() bool { return len(marked(mark)) >= 4 }, 20*time.Second, 20*time.Millisecond,
				"marked processes: %v; stderr: %s", marked(mark), &stderr)
			if how == "SIGKILL" {
				require.NoError(t, cmd.Process.Kill())
				cmd.Wait()
			} else {
				require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
				err := cmd.Wait()
				var ee *exec.ExitError
				require.ErrorAs(t, err, &ee, stderr.String())
				assert.Equal(t, exitLive, ee.ExitCode())
				assert.Contains(t, stderr.String(), ": handshake (initialize): interrupted")
			}
			// The server's shutdown (SIGTERM, its grace, SIGKILL) takes a
			// few seconds at most.
			deadline := time.Now().Add(15 * time.Second)
			for len(marked(mark)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if left := marked(mark); len(left) > 0 {
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
				t.Fatalf("%d processes outlived toolfind: %v", len(left), left)
			}
		})
	}
}

// marked lists the live (not zombie) processes whose environment has
// entry.
func marked(entry string) []int {
	var pids []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), []byte("\x00"+entry+"\x00")) {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); err == nil && i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}
