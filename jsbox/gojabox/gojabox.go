// Package gojabox is the in-process JavaScript engine of package jsbox:
// it runs Codex's exec inputs and OpenCode's execute calls in goja, a
// JavaScript interpreter written in Go (github.com/dop251/goja).
//
// The toolfind command runs it in a child process of its own (package
// jsbox/remote), apart from toolfind. A Go program that runs written
// scripts itself chooses it once:
//
//	jsbox.SetEngine(gojabox.New())
//
// # Codex (specs/codex.md §1.7)
//
// Every exec input is the body of an ES module; goja has no modules, so
// it is compiled as the body of an async arrow function (top-level await
// works; reported lines are one less than the wrapper's). A static import
// fails with Codex's "Unsupported import in exec: <specifier>"; a dynamic
// import() rejects at run time with "unsupported import in exec". The
// globals are Codex's: ALL_TOOLS (fresh objects per runtime), tools.<name>
// (a call is recorded, checked as Codex checks its argument, and resolves
// to an error result: nothing is executed), text, notify, image, audio,
// generatedImage, store/load (JSON round trip), setTimeout/clearTimeout
// on a virtual clock (a timer fires at once, in order of due time; a run
// still pending when the next timer is due after yield_time_ms yields),
// exit and yield_control; QUERY and TERMS hold the query. Errors render
// as V8's err.stack does in Codex's "Script error:" item, frames mapped
// back to exec_main.mjs lines; goja's commonest message ("Cannot read
// property 'x' of undefined") is reworded as V8's.
//
// A model's script gets a fresh runtime; a trusted built-in strategy runs
// on a pooled one. Compiled programs are cached by their code. Limits:
// a wall-clock timeout (the script is then reported as a running cell),
// V8's string length limit on repeat/padStart/padEnd/join and an array
// length limit on fill (goja cannot interrupt one native step), the heap
// growth of the process during the run (sampled every millisecond, goja
// having no per-runtime accounting; a native step that would allocate
// past the limit at once — fill, split, repeat, padStart/padEnd,
// JSON.parse, a typed array or ArrayBuffer of a given length — is refused
// before it runs, with the same memory error), the total text() bytes,
// the call depth, and a regular-expression match, which goja's interrupt
// does not stop, by regexp2's match timeout (setMatchTimeout).
//
// # OpenCode (specs/opencode.md §0)
//
// The code is the body of an async function with tools.$codemode.search
// (and, in the v2 profile, a global search) bound to the simulated
// search, whose answer is parsed as the script receives it; every
// catalog tool is tools.<namespace>.<tool>, recording its call and
// resolving to a fixed "not executed" text. The returned value is the
// output: a string as it is, undefined as "", anything else
// JSON.stringify(value, null, 2).
package gojabox

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
	"github.com/toolfind/toolfind/jsbox"
)

// Engine runs scripts in goja in this process.
type Engine struct{}

// New returns the goja engine.
func New() Engine { return Engine{} }

// Codex implements jsbox.Engine.
func (Engine) Codex(setup jsbox.CodexSetup) (jsbox.Codex, error) {
	setup.Limits = setup.Limits.WithDefaults()
	setMatchTimeout(setup.Limits.Timeout)
	return &codexSession{setup: setup, progs: map[string]*program{}}, nil
}

// OpenCode implements jsbox.Engine.
func (Engine) OpenCode(setup jsbox.OpenCodeSetup) (jsbox.OpenCode, error) {
	setMatchTimeout(setup.Timeout)
	return &openCodeSession{setup: setup}, nil
}

// codexSession runs exec inputs over one ALL_TOOLS.
type codexSession struct {
	setup jsbox.CodexSetup
	pool  sync.Pool // *sandbox for trusted programs

	mu    sync.Mutex
	progs map[string]*program
}

// program is a compiled exec input.
type program struct {
	prog  *goja.Program
	lines int // lines of the code (stack frames beyond are the wrapper's)
	err   *jsbox.CompileError
}

// maxPrograms bounds the compiled programs a session keeps: past it the
// cache starts over (a bench replays thousands of distinct scripts once).
const maxPrograms = 256

func (s *codexSession) compile(code string) *program {
	s.mu.Lock()
	p := s.progs[code]
	s.mu.Unlock()
	if p != nil {
		return p
	}
	p = &program{lines: strings.Count(code, "\n") + 1}
	prog, msg, line, col := compileScriptAt(code)
	if msg != "" {
		p.err = &jsbox.CompileError{Message: msg, Line: line, Column: col}
	}
	p.prog = prog
	s.mu.Lock()
	if len(s.progs) >= maxPrograms {
		s.progs = map[string]*program{}
	}
	s.progs[code] = p
	s.mu.Unlock()
	return p
}

// Compile implements jsbox.Codex.
func (s *codexSession) Compile(ctx context.Context, code string) (*jsbox.CompileError, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.compile(code).err, nil
}

// Exec implements jsbox.Codex.
func (s *codexSession) Exec(ctx context.Context, run jsbox.CodexRun) (jsbox.CodexOutput, error) {
	if err := ctx.Err(); err != nil {
		return jsbox.CodexOutput{}, err
	}
	p := s.compile(run.Code)
	if p.err != nil {
		return jsbox.CodexOutput{Status: "Script failed", Items: []string{"Script error:\n" + p.err.Message}}, nil
	}
	var sb *sandbox
	if run.Trusted {
		sb, _ = s.pool.Get().(*sandbox)
	}
	if sb == nil {
		sb = newSandbox(&s.setup)
	}
	setQuery(sb, run.Query, run.Terms)
	out := sb.exec(ctx, p.prog, p.lines, s.setup.Limits, run.YieldMs)
	if run.Trusted && !sb.broken {
		sb.run = nil
		s.pool.Put(sb)
	}
	if err := ctx.Err(); err != nil {
		return jsbox.CodexOutput{}, err
	}
	return out, nil
}

// matchTimeout is set once per process (setMatchTimeout).
var matchTimeout sync.Once

// setMatchTimeout bounds every regular-expression match of the process's
// scripts by d, the time limit of the first session opened (the toolfind
// command has one limit for all). goja runs a pattern with a back
// reference, like /^((a+)+)\2b$/, in regexp2, whose backtracking can take
// minutes on 30 characters, and its Interrupt does not stop a match, so a
// script's time limit would not hold. regexp2 stops a match after its
// MatchTimeout, which goja takes from regexp2.DefaultMatchTimeout when it
// compiles the pattern, and then reports no match; since a match that runs
// d has outlived the run's own limit, which interrupts the script at the
// next instruction, the script never sees that answer and the run ends
// with the time-limit error, at most d past its limit. (RE2 patterns, the
// others, match in linear time.)
func setMatchTimeout(d time.Duration) {
	if d <= 0 {
		d = jsbox.Limits{}.WithDefaults().Timeout
	}
	matchTimeout.Do(func() { regexp2.DefaultMatchTimeout = d })
}
