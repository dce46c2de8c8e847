package gojabox_test

import (
	"fmt"

	"github.com/toolfind/toolfind/codexjs"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
	"github.com/toolfind/toolfind/search"
)

// A Go program that runs model-written scripts chooses the in-process
// engine once; the code-mode simulators then run their scripts in goja.
func ExampleNew() {
	restore := jsbox.SetEngine(gojabox.New())
	defer restore()
	m, _ := codexjs.NewCodeMode(corpus.Demo(), search.Options{})
	res := m.RunScript(`text(ALL_TOOLS.filter(t => t.name.includes("invoice")).map(t => t.name).join("\n"))`, "")
	fmt.Print(res.Shown)
	// Output:
	// Script completed
	// Wall time 0.0 seconds
	// Output:
	// mcp__billing__invoice_lookup
}

// Without an engine, a script cannot run and the result says why.
func ExampleNew_none() {
	restore := jsbox.SetEngine(nil)
	defer restore()
	m, _ := codexjs.NewCodeMode(corpus.Demo(), search.Options{})
	fmt.Println(m.RunScript(`text(1)`, "").Error)
	// Output:
	// codex: this program runs no JavaScript: no engine was set (a Go program calls jsbox.SetEngine(gojabox.New()) from github.com/toolfind/toolfind/jsbox/gojabox)
}
