package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// execTree builds the command tree for treeArgs and runs args on it,
// returning what it printed and its error.
func execTree(treeArgs, args []string) string {
	var out, errOut bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	root := newRootCmd(ios, treeArgs)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(context.Background())
	return fmt.Sprintf("stdout:\n%s\nstderr:\n%s\nerr: %v", out.String(), errOut.String(), err)
}

// TestSubcommandNamesAreTheirUse checks the names newRootCmd matches the
// first argument against: each is the name cobra finds the command by.
func TestSubcommandNamesAreTheirUse(t *testing.T) {
	var out bytes.Buffer
	root := newRootCmd(&IOStreams{Out: &out, ErrOut: &out}, nil)
	var built []string
	for _, c := range root.Commands() {
		built = append(built, c.Name())
		if len(c.Aliases) > 0 {
			t.Errorf("%s has aliases %q: newRootCmd matches names only", c.Name(), c.Aliases)
		}
	}
	var registered []string
	for _, c := range subcommands() {
		registered = append(registered, c.name)
		one := newRootCmd(&IOStreams{Out: &out, ErrOut: &out}, []string{c.name})
		if got := one.Commands(); len(got) != 1 || got[0].Name() != c.name {
			t.Errorf("tree for %q holds %d commands, want only %q", c.name, len(got), c.name)
		}
	}
	slices.Sort(built)
	slices.Sort(registered)
	if !slices.Equal(built, registered) {
		t.Errorf("full tree = %q, registered names = %q", built, registered)
	}
	// 3 in root.go (rank, version, clients) + 12 files' commands (verify.go
	// registers two: verify, mcp-stub).
	if len(registered) != 16 {
		t.Errorf("%d subcommands registered, want 16: %q", len(registered), registered)
	}
}

// TestOneSubcommandTreeBehavesAsTheFullTree runs, for every subcommand and
// each of its own subcommands, --help and a bad flag on the tree built for
// it and on the full tree: the output must be the same byte for byte.
func TestOneSubcommandTreeBehavesAsTheFullTree(t *testing.T) {
	var out bytes.Buffer
	full := newRootCmd(&IOStreams{Out: &out, ErrOut: &out}, nil)
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			p := append(slices.Clone(path), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(full, nil)
	if len(paths) < 15 { // 14 subcommands and queries import
		t.Fatalf("only %d command paths: %q", len(paths), paths)
	}
	for _, p := range paths {
		for _, tail := range [][]string{{"--help"}, {"--no-such-flag"}} {
			args := append(slices.Clone(p), tail...)
			got, want := execTree(args, args), execTree(nil, args)
			if got != want {
				t.Errorf("toolfind %s:\none-command tree:\n%s\nfull tree:\n%s", strings.Join(args, " "), got, want)
			}
			if !strings.Contains(got, p[len(p)-1]) {
				t.Errorf("toolfind %s printed nothing about the command:\n%s", strings.Join(args, " "), got)
			}
		}
	}
}

// TestTreeForOtherArgsIsFull: args that do not start with a subcommand's
// name get every subcommand (help lists them, typos get suggestions).
func TestTreeForOtherArgsIsFull(t *testing.T) {
	n := len(subcommands())
	for _, args := range [][]string{nil, {}, {"--help"}, {"help", "rank"}, {"--client", "claude", "rank"}, {"rnak"}, {"completion", "bash"}, {"__complete", "r"}} {
		var out bytes.Buffer
		if got := len(newRootCmd(&IOStreams{Out: &out, ErrOut: &out}, args).Commands()); got != n {
			t.Errorf("tree for %q holds %d commands, want all %d", args, got, n)
		}
	}
	// A typo still gets cobra's suggestion, which needs the siblings.
	if got := execTree([]string{"rnak"}, []string{"rnak"}); !strings.Contains(got, `unknown command "rnak"`) || !strings.Contains(got, "Did you mean this?\n\trank") {
		t.Errorf("toolfind rnak:\n%s", got)
	}
}

// initOnlyEnv makes the test binary exit as soon as its packages are
// initialised (TestMain).
const initOnlyEnv = "TOOLFIND_TEST_INIT_ONLY"

// Package initialisation runs in every toolfind process, for every
// command. A toolfind package's init may allocate at most initBudget bytes
// and all of them together initTotalBudget: a package-level
// regexp.MustCompile, template or table built from code belongs behind a
// sync.OnceValue or lazyre (compiling lint's dozen phrase patterns at
// start-up allocated 317 kB, building intent's word families 138 kB).
// Allocated bytes are the runtime's exact count, not a timing.
const (
	initBudget      = 16 << 10
	initTotalBudget = 48 << 10
)

// TestStartupInitAllocations runs this test binary (which links every
// package toolfind does) with GODEBUG=inittrace=1 and checks what each
// toolfind package's initialisation allocated.
func TestStartupInitAllocations(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary to run: %v", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), initOnlyEnv+"=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, stderr.String())
	}
	// init github.com/toolfind/toolfind/lint @2.1 ms, 0.066 ms clock, 5296 bytes, 18 allocs
	line := regexp.MustCompile(`^init (\S+) @\S+ \S+, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)
	total, seen := 0, 0
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(m[1], "github.com/toolfind/toolfind/") || m[1] == "github.com/toolfind/toolfind/cmd/toolfind" {
			continue // other modules, and package main with its test files
		}
		seen++
		n, _ := strconv.Atoi(m[2])
		total += n
		if n > initBudget {
			t.Errorf("%s allocates %d bytes (%s allocations) at init, over the %d-byte budget: build it on first use", m[1], n, m[3], initBudget)
		}
	}
	if seen < 5 {
		t.Fatalf("inittrace showed %d toolfind packages; stderr:\n%s", seen, stderr.String())
	}
	if total > initTotalBudget {
		t.Errorf("toolfind's packages allocate %d bytes at init, over the %d-byte budget", total, initTotalBudget)
	}
	t.Logf("%d toolfind packages allocate %d bytes at init", seen, total)
}
