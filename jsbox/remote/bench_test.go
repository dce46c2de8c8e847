package remote

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
)

// benchSetup is 200 tools with 300-byte descriptions, about MetaTool's
// ALL_TOOLS.
func benchSetup() jsbox.CodexSetup {
	s := jsbox.CodexSetup{Limits: jsbox.Limits{Timeout: time.Minute}}
	for i := range 200 {
		desc := fmt.Sprintf("Tool %d of the benchmark: ", i)
		for len(desc) < 300 {
			desc += "finds things, lists them, "
		}
		s.Tools = append(s.Tools, jsbox.CodexTool{Name: fmt.Sprintf("mcp__bench__t%d", i), Description: desc, CallName: fmt.Sprintf("mcp__bencht%d", i), Tool: fmt.Sprintf("bench/t%d", i)})
	}
	return s
}

// BenchmarkExec times one model-like script (a regular expression over
// ALL_TOOLS, the matches printed) in this process and through the pipe
// to a child: the difference is what the pipe costs per run.
func BenchmarkExec(b *testing.B) {
	run := jsbox.CodexRun{Code: "const re = /list|t1/i;\ntext(ALL_TOOLS.filter(t => re.test(t.name) || re.test(t.description)).map(t => `${t.name}: ${t.description}`).join(\"\\n\"))", YieldMs: 10_000}
	local, _ := gojabox.New().Codex(benchSetup())
	e, err := New(Config{Program: mustExe(b), Env: envWith(serveVar + "=serve")})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	remote, err := e.Codex(benchSetup())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		js   jsbox.Codex
	}{{"local", local}, {"remote", remote}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.js.Exec(context.Background(), run); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
