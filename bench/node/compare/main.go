// Command compare measures the CPU time (user + system, from the kernel's
// accounting of each child process) of whole-process runs of toolfind and
// of the Node reference implementation of the same algorithm
// (bench/node/toolsearch.mjs), side by side, and prints the ratios the
// project's performance goals are stated in.
//
//	go run ./bench/node/compare [-runs 10] [-toolfind PATH] [-shared ../shared]
//
// Two comparisons: one `rank --client claude --query invoice` over every
// shared catalog (start-up dominated), and the 739 azure-e2e prompts
// verbatim over azure.json (per-prompt cost, process included). Medians of
// -runs runs are reported; CPU time, not wall time, since the machine is
// shared.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

func main() {
	runs := flag.Int("runs", 10, "runs of each command (the median is reported)")
	bin := flag.String("toolfind", "", "toolfind binary (default: go build ./cmd/toolfind into a temporary folder)")
	shared := flag.String("shared", filepath.Join("..", "shared"), "the shared data folder (catalogs, corpora, specs)")
	node := flag.String("node", "node", "the node binary")
	flag.Parse()
	if err := run(*runs, *bin, *shared, *node); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func run(runs int, bin, shared, node string) error {
	if bin == "" {
		dir, err := os.MkdirTemp("", "toolfind-compare")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "toolfind")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/toolfind").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	script := filepath.Join("bench", "node", "toolsearch.mjs")
	catalogs := filepath.Join(shared, "catalogs")
	builtins := filepath.Join(shared, "specs", "claude-builtins-2.1.328.json")
	azure := filepath.Join(catalogs, "azure.json")
	prompts := filepath.Join(shared, "corpora", "azure-e2e", "queries.jsonl")
	for _, p := range []string{script, catalogs, builtins, prompts} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%v (run from the repository root, with the shared data beside it)", err)
		}
	}
	n, err := countLines(prompts)
	if err != nil {
		return err
	}

	fmt.Printf("CPU time (user+system), median of %d runs\n\n", runs)
	goRank, err := measure(runs, bin, "rank", "--client", "claude", "--query", "invoice", "--catalog", catalogs)
	if err != nil {
		return err
	}
	nodeRank, err := measure(runs, node, script, "--catalog", catalogs, "--builtins", builtins, "--query", "invoice")
	if err != nil {
		return err
	}
	fmt.Printf("rank --client claude --query invoice, all shared catalogs\n")
	fmt.Printf("  toolfind  %8.1f ms\n  node      %8.1f ms\n  toolfind / node = 1/%.1f (goal: at most 1/5)\n\n",
		ms(goRank), ms(nodeRank), float64(nodeRank)/float64(goRank))

	goBench, err := measure(runs, bin, "bench", "--client", "claude", "--catalog", azure, "--queries", prompts, "--quiet")
	if err != nil {
		return err
	}
	nodeBench, err := measure(runs, node, script, "--catalog", azure, "--builtins", builtins, "--queries", prompts)
	if err != nil {
		return err
	}
	fmt.Printf("%d azure-e2e prompts verbatim, claude, azure.json (process included)\n", n)
	fmt.Printf("  toolfind bench  %8.1f ms  %7.1f µs/prompt\n  node            %8.1f ms  %7.1f µs/prompt\n  per prompt: toolfind %.1f× faster (goal: at least 20×)\n",
		ms(goBench), us(goBench)/float64(n), ms(nodeBench), us(nodeBench)/float64(n), float64(nodeBench)/float64(goBench))
	return nil
}

// measure runs the command runs times and returns the median CPU time.
func measure(runs int, name string, args ...string) (time.Duration, error) {
	var cpu []time.Duration
	for i := 0; i < runs; i++ {
		cmd := exec.Command(name, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
		}
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	slices.Sort(cpu)
	return cpu[len(cpu)/2], nil
}

func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			n++
		}
	}
	return n, sc.Err()
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
func us(d time.Duration) float64 { return float64(d) / 1e3 }
