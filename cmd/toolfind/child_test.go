package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asToolfindEnv makes this test binary run toolfind's Main (TestMain).
const asToolfindEnv = "TOOLFIND_TEST_AS_TOOLFIND"

// TestLiveServersDieWithToolfind: toolfind runs its live-server child
// (childLive), which runs the server (fixture child), which runs a
// grandchild. Neither a SIGKILL of toolfind nor a terminal's Ctrl-C
// (SIGINT to toolfind's process group) leaves any of them running; Ctrl-C
// ends the snapshot with "interrupted" (exit 3).
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
			// toolfind, its child, the server and the grandchild are
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

// TestChildRoles: a process with childEnv set is toolfind's child and
// nothing else; an unknown role is refused (exit 2), naming the variable.
// The child drops the variable, so what it starts is not a child too: the
// live-server child's server sees none.
func TestChildRoles(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "rank", "--query", "invoice")
	cmd.Env = append(os.Environ(), childEnv+"=bogus")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, exitBadInput, ee.ExitCode())
	assert.Empty(t, stdout.String())
	assert.Equal(t, `toolfind: TOOLFIND_CHILD="bogus": not a role of toolfind's own child processes (live, js); unset it`+"\n", stderr.String())

	_, errOut, code := run(t, "snapshot", "--server", `sh -c 'echo "child=[${TOOLFIND_CHILD-unset}]" >&2; exit 1'`)
	assert.Equal(t, exitLive, code, errOut)
	assert.Contains(t, errOut, "child=[unset]")
}
