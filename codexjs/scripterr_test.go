package codexjs

import (
	"context"
	"errors"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// TestScriptOptionErrors: a --codex-script that cannot run at all is an
// error from NewCodeMode, located in the file, before any query.
func TestScriptOptionErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		want      string
	}{
		{"empty file", "", 0, 0, "option script: the script is empty"},
		{"blank file", " \n\t\n", 0, 0, "option script: the script is empty"},
		// Line 2 of the file: "let x = ;", the ';' at column 9.
		{"syntax error", "// find tools\nlet x = ;\ntext(x)", 2, 9, "option script, line 2, column 9: SyntaxError: Unexpected token ;"},
		// The pragma line counts: the error is on line 3 of the file.
		{"syntax error after a pragma", "// @exec: {\"yield_time_ms\": 100}\ntext(1)\n  a b", 3, 5, "option script, line 3, column 5: SyntaxError: Unexpected identifier"},
		// An unclosed call: the parser fails past the end, shown just after
		// the last character of the last line ("foo(" is 4 characters).
		{"unclosed bracket", "text(1)\nfoo(", 2, 5, "option script, line 2, column 5: SyntaxError: Unexpected token }"},
		{"static import", "text(1)\nimport fs from 'fs'\n", 2, 0, "option script, line 2: Unsupported import in exec: fs"},
		{"bad pragma", "// @exec: {\"colour\": 1}\ntext(1)", 1, 0, "option script, line 1: Codex rejects it: exec pragma only supports `yield_time_ms` and `max_output_tokens`; got `colour`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewCodeMode(corpus.Demo(), search.Options{"script": tt.src})
			var oe *search.OptionError
			if !errors.As(err, &oe) {
				t.Fatalf("error %v (%T), want a *search.OptionError", err, err)
			}
			if oe.Option != "script" || oe.Line != tt.line || oe.Column != tt.col {
				t.Errorf("option %q at %d:%d, want script at %d:%d", oe.Option, oe.Line, oe.Column, tt.line, tt.col)
			}
			if got := err.Error(); len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
				t.Errorf("error %q\nwant prefix %q", got, tt.want)
			}
		})
	}
}

// TestScriptRunErrors: a script that throws, overflows its stack or runs
// past its time limit is a Result with Error set (Codex's model still sees
// the script error as the output), not an empty result.
func TestScriptRunErrors(t *testing.T) {
	tests := []struct {
		name, src, wantErr string
		timedOut           bool
	}{
		{"throw", "text('a')\nthrow new TypeError('no tools for ' + QUERY)", "TypeError: no tools for invoice (at exec_main.mjs:2:7)", false},
		// goja places a failed call at its "(" (column 13), as the model sees it.
		{"undefined function", "\n\nnotAFunction()", "ReferenceError: notAFunction is not defined (at exec_main.mjs:3:13)", false},
		{"stack overflow", "function f() { return f() + 1 }\nf()", "RangeError: Maximum call stack size exceeded", false},
		{"endless loop", "while (true) {}", "the script was stopped at the 50ms time limit (Codex would yield it as a running cell)", true},
		{"never settles", "text('a')\nawait new Promise(() => {})", "the script never finished: it awaits a promise that nothing settles (Codex yields it as a running cell)", false},
		// The default yield_time_ms is 10,000.
		{"timer past the yield", "await new Promise(r => setTimeout(r, 1e9))", "the script had not finished at yield_time_ms 10000 (a timer runs later; Codex yields it as a running cell)", false},
		{"timer within the yield", "await new Promise(r => setTimeout(r, 50))\ntext('done')", "", false},
		{"completes", "text(ALL_TOOLS.map(t => t.name).join('\\n'))", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout := "10s" // never reached, however busy the machine
			if tt.timedOut {
				timeout = "50ms"
			}
			m, err := NewCodeMode(corpus.Demo(), search.Options{"script": tt.src, "timeout": timeout, "strategies": "name"})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Search(context.Background(), search.Query{Text: "invoice"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Strategy != "script" || res.Error != tt.wantErr || res.TimedOut != tt.timedOut {
				t.Errorf("strategy %q, Error %q, TimedOut %v\nwant script, %q, %v", res.Strategy, res.Error, res.TimedOut, tt.wantErr, tt.timedOut)
			}
			if tt.name == "completes" && len(res.Hits) == 0 {
				t.Errorf("a completed dump found nothing")
			}
			if v := res.Variants; len(v) != 1 || v[0].Error != "" {
				t.Errorf("the built-in strategy should not fail: %+v", v)
			}
		})
	}
}
