// Package jsbox is where the code-mode simulators run JavaScript: the
// scripts a model writes for Codex's exec tool (package codexjs) and for
// OpenCode's execute tool (package opencode), and, when asked
// (codex option engine=goja), Codex's built-in strategies.
//
// This package holds no JavaScript engine: it declares what the
// simulators ask of one (Engine) and the data that crosses to it, so that
// a program can link the simulators without the engine. Two engines
// implement it:
//
//   - package jsbox/gojabox runs the scripts in this process, in goja (a
//     JavaScript interpreter in Go); toolfind's JavaScript child and the
//     tests use it, and so can any Go program (SetEngine(gojabox.New())).
//   - package jsbox/remote runs them in a child process that serves
//     gojabox over JSON lines: the toolfind command uses it (the child is
//     toolfind itself, started when a run first needs JavaScript), so
//     that a model-written script that runs away (one native step goja
//     cannot interrupt, memory faster than its sampling) ends the child,
//     not toolfind.
//
// Both print the same bytes: everything a run depends on (the tools, the
// limits, the script, the query) crosses to the engine, and every limit
// (time, memory, output, call depth) is enforced where the script runs,
// with the same messages.
//
// # Sessions
//
// A simulator opens one session per catalog (Engine.Codex,
// Engine.OpenCode) with what every run shares — ALL_TOOLS and the tool
// bindings, or OpenCode's tool paths — and then runs scripts in it, each
// in a fresh runtime (a trusted built-in strategy may reuse one). A
// session is safe for concurrent use.
//
// The engine is chosen once per process (SetEngine); a simulator asks for
// it when it first needs JavaScript. With none set, a run that needs
// JavaScript fails with ErrNoEngine.
package jsbox

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Engine opens sessions that run JavaScript.
type Engine interface {
	// Codex opens a session of Codex's exec runtime over one ALL_TOOLS.
	Codex(setup CodexSetup) (Codex, error)
	// OpenCode opens a session of OpenCode's execute runtime over one
	// catalog's tools.
	OpenCode(setup OpenCodeSetup) (OpenCode, error)
}

// Codex runs exec inputs over one ALL_TOOLS (specs/codex.md §1.7).
type Codex interface {
	// Compile checks the code of an exec input (its pragma line removed):
	// nil when it compiles, else the error the script fails with.
	Compile(ctx context.Context, code string) (*CompileError, error)
	// Exec runs one exec input. The error is the engine's own failure
	// (a crashed child, ctx's end), never the script's: the script's
	// failure is in the output.
	Exec(ctx context.Context, run CodexRun) (CodexOutput, error)
}

// OpenCode runs execute calls over one catalog (specs/opencode.md §0).
type OpenCode interface {
	// Run runs the body of an async function; search answers each call of
	// the search function. The error is the engine's own failure or
	// ctx's end, never the script's.
	Run(ctx context.Context, code string, search SearchFunc) (OpenCodeOutput, error)
}

// CodexSetup is what every exec run of one catalog shares.
type CodexSetup struct {
	// Tools are ALL_TOOLS's entries, in order, and what tools.<name>
	// stands for.
	Tools   []CodexTool
	Limits  Limits
	Console bool // give scripts a console (compatibility option)
}

// CodexTool is one ALL_TOOLS entry and its binding on the tools global.
type CodexTool struct {
	Name        string // identifier, tools.<Name> and ALL_TOOLS[i].name
	Description string // ALL_TOOLS[i].description
	CallName    string // namespace+name as Codex's argument errors print it
	Tool        string // canonical server/tool id ("" for Codex's own tools)
	Freeform    bool   // the input is a string (apply_patch, §1.5)
}

// CodexRun is one exec input.
type CodexRun struct {
	Code    string   // the module body (the pragma line removed)
	Query   string   // the QUERY global
	Terms   []string // the TERMS global
	YieldMs float64  // yield_time_ms: a script pending after it yields
	// Trusted marks a built-in strategy, which may run on a reused
	// runtime (it changes no global); a model's script always gets a
	// fresh one (Codex evaluates every exec in a fresh isolate, §1.6).
	Trusted bool
}

// CodexOutput is what one exec run produced, before truncation.
type CodexOutput struct {
	Status string   // "Script completed", "Script failed", "Script running with cell ID 1"
	Items  []string // text items, the error item included
	Calls  []Call
	// Error is the simulator's own reason for stopping the script (time
	// limit, memory, output cap); "" when the script ended by itself.
	Error    string
	TimedOut bool
	// Notices lists helper output that is not a text item (notify, image…).
	Notices []string
}

// Call is one nested tool call a script made.
type Call struct {
	Tool      string `json:"tool,omitempty"` // canonical server/tool id ("" for Codex's own tools)
	Name      string `json:"name"`           // the tools.<name> called
	Arguments any    `json:"arguments"`
	Rejected  string `json:"rejected,omitempty"`
}

// CompileError is a script that does not compile: Message is the
// "Script error:" text; Line and Column locate it in the code (1-based;
// 0 when unknown).
type CompileError struct {
	Message      string
	Line, Column int
}

// Limits bound one script run. Zero fields take the defaults
// (WithDefaults).
type Limits struct {
	Timeout        time.Duration // wall-clock limit (default 2s)
	MaxOutputBytes int           // total text() bytes (default 64 MiB)
	MaxCallStack   int           // call depth (default 10,000, about V8's)
	MaxHeapGrowth  uint64        // heap growth during the run (default 1 GiB)
}

// WithDefaults fills the zero fields with the defaults.
func (l Limits) WithDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = 2 * time.Second
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = 64 << 20
	}
	if l.MaxCallStack <= 0 {
		l.MaxCallStack = 10_000
	}
	if l.MaxHeapGrowth == 0 {
		l.MaxHeapGrowth = 1 << 30
	}
	return l
}

// OpenCodeSetup is what every execute run of one catalog shares.
type OpenCodeSetup struct {
	// Tools are the catalog's tool paths in search-index order: each is
	// callable as tools.<Namespace>.<Local>; a call is recorded.
	Tools []OpenCodeTool
	// GlobalSearch also binds search() as a global (the v2 profile);
	// tools.$codemode.search is always bound.
	GlobalSearch bool
	Timeout      time.Duration // wall-clock limit of one run
}

// OpenCodeTool is one callable tool path.
type OpenCodeTool struct {
	Namespace, Local string
}

// SearchInput is the argument of one search() call.
type SearchInput struct {
	Query     string  `json:"query"`
	Namespace *string `json:"namespace,omitempty"`
	Limit     int     `json:"limit,omitempty"`
	Offset    int     `json:"offset,omitempty"`
}

// SearchFunc answers a search() call with the result's JSON text (what
// the script receives, parsed), or an error the call throws as a
// TypeError (invalid input).
type SearchFunc func(SearchInput) (string, error)

// OpenCodeOutput is what one execute run produced.
type OpenCodeOutput struct {
	// Output is the returned value as the tool prints it (a string as it
	// is, undefined as "", anything else JSON.stringify(v, null, 2)).
	// Failed marks a script that threw, never settled or ran out of time;
	// Error is then the failure's text.
	Output string
	Failed bool
	Error  string
	// Called lists the tools the script called (indexes into
	// OpenCodeSetup.Tools), in call order.
	Called []int
	// Searches counts the search() calls that ran.
	Searches int
}

// ErrNoEngine is the error of a run that needs JavaScript in a process
// that chose no engine.
var ErrNoEngine = errors.New("this program runs no JavaScript: no engine was set " +
	"(a Go program calls jsbox.SetEngine(gojabox.New()) from github.com/toolfind/toolfind/jsbox/gojabox)")

var (
	mu     sync.RWMutex
	engine Engine
)

// SetEngine chooses the process's engine and returns a function that
// restores the previous one. Sessions already open keep theirs.
func SetEngine(e Engine) (restore func()) {
	mu.Lock()
	prev := engine
	engine = e
	mu.Unlock()
	return func() {
		mu.Lock()
		engine = prev
		mu.Unlock()
	}
}

// Current is the process's engine, or nil.
func Current() Engine {
	mu.RLock()
	defer mu.RUnlock()
	return engine
}

// Lazy opens a session with the process's engine on first use and keeps
// it (or the failure) for later calls.
type Lazy[S any] struct {
	once sync.Once
	s    S
	err  error
}

// Get returns the session, opening it with open on the first call.
func (l *Lazy[S]) Get(open func(Engine) (S, error)) (S, error) {
	l.once.Do(func() {
		e := Current()
		if e == nil {
			l.err = ErrNoEngine
			return
		}
		l.s, l.err = open(e)
	})
	return l.s, l.err
}
