package gojabox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/toolfind/toolfind/internal/lazyre"
	"github.com/toolfind/toolfind/jsbox"
)

// Codex's exec runtime (specs/codex.md §1.7) in goja: Codex's globals, the
// module evaluated as an async function so top-level await works, a
// virtual clock for setTimeout, and the sandbox limits that V8 gives Codex
// for free.

const (
	execFileName = "exec_main.mjs" // §1.7: the module's name in stacks
	// wrapPrefix turns the module body into an async function (top-level
	// await); it sits on its own line, so reported lines are one less.
	wrapPrefix = "(async () => {\n"
	wrapSuffix = "\n})()"
	// v8MaxStringLength is V8's String::kMaxLength on 64-bit (2^29 − 24
	// UTF-16 units): longer strings throw RangeError "Invalid string
	// length" in Codex, and would exhaust memory in goja.
	v8MaxStringLength = 1<<29 - 24
	// notExecutedText is what every nested tool call resolves to.
	notExecutedText = "toolfind: tools are not executed in simulation; the call was recorded"
)

// stop signals passed to Interrupt.
type stopSignal struct{ reason string }

var (
	sigExit    = &stopSignal{"exit"}
	sigTimeout = &stopSignal{"timeout"}
	sigMemory  = &stopSignal{"memory"}
	sigOutput  = &stopSignal{"output"}
	sigCancel  = &stopSignal{"cancel"}
)

type timer struct {
	id   int64
	due  float64
	seq  int
	fn   goja.Callable
	args []goja.Value
}

// execRun is the state of one run.
type execRun struct {
	out       jsbox.CodexOutput
	bytes     int
	timers    map[int64]*timer
	nextID    int64
	seq       int
	now       float64
	store     map[string]string
	limits    jsbox.Limits
	vm        *goja.Runtime
	stopped   *stopSignal
	stoppedMu sync.Mutex
	heapBase  uint64 // the process's heap objects when the run began
}

// reserve reports whether the run may allocate about n more bytes in one
// native step within its heap limit; when not, it stops the run with the
// memory error (before the step, which goja could not interrupt: the
// 1 ms sampling of watchHeap sees a step only once it is done).
func (r *execRun) reserve(n float64) bool {
	if r == nil {
		return true
	}
	h := heapBudget{base: r.heapBase, limit: r.limits.MaxHeapGrowth, stop: func() { r.stop(sigMemory) }}
	return h.reserve(n)
}

func (r *execRun) stop(s *stopSignal) {
	r.stoppedMu.Lock()
	if r.stopped == nil {
		r.stopped = s
	}
	r.stoppedMu.Unlock()
	r.vm.Interrupt(s)
}

// sandbox is a goja runtime with Codex's globals installed.
type sandbox struct {
	vm        *goja.Runtime
	run       *execRun
	stringify goja.Callable
	broken    bool // interrupted mid-run: do not reuse
}

// newSandbox builds a runtime with ALL_TOOLS, the tools global and
// Codex's helpers.
func newSandbox(setup *jsbox.CodexSetup) *sandbox {
	limits := setup.Limits
	vm := goja.New()
	vm.SetMaxCallStackSize(limits.MaxCallStack)
	sb := &sandbox{vm: vm}
	jsonObj := vm.Get("JSON").ToObject(vm)
	sb.stringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))

	all := make([]any, len(setup.Tools))
	for i, e := range setup.Tools {
		o := vm.NewObject()
		_ = o.Set("name", e.Name)
		_ = o.Set("description", e.Description)
		all[i] = o
	}
	_ = vm.Set("ALL_TOOLS", vm.NewArray(all...))

	tools := vm.NewObject()
	for _, b := range setup.Tools {
		_ = tools.Set(b.Name, func(call goja.FunctionCall) goja.Value {
			return sb.callTool(b, call)
		})
	}
	_ = vm.Set("tools", tools)
	_ = vm.Set("text", func(call goja.FunctionCall) goja.Value {
		sb.addText(sb.textOf(call.Argument(0)))
		return goja.Undefined()
	})
	_ = vm.Set("notify", func(call goja.FunctionCall) goja.Value {
		sb.run.out.Notices = append(sb.run.out.Notices, "notify: "+sb.textOf(call.Argument(0)))
		return goja.Undefined()
	})
	for _, name := range []string{"image", "audio", "generatedImage"} {
		name := name
		_ = vm.Set(name, func(call goja.FunctionCall) goja.Value {
			sb.run.out.Notices = append(sb.run.out.Notices, name+"(): media items are not simulated")
			return goja.Undefined()
		})
	}
	_ = vm.Set(importHelper, func(goja.FunctionCall) goja.Value {
		p, _, reject := vm.NewPromise()
		_ = reject("unsupported import in exec")
		return vm.ToValue(p)
	})
	_ = vm.Set("yield_control", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	_ = vm.Set("exit", func(goja.FunctionCall) goja.Value {
		sb.run.stop(sigExit)
		return goja.Undefined()
	})
	_ = vm.Set("store", func(call goja.FunctionCall) goja.Value {
		key := call.Argument(0).String()
		s, err := sb.stringify(goja.Undefined(), call.Argument(1))
		if err != nil {
			panic(err)
		}
		if goja.IsUndefined(s) {
			delete(sb.run.store, key)
		} else {
			sb.run.store[key] = s.String()
		}
		return goja.Undefined()
	})
	_ = vm.Set("load", func(call goja.FunctionCall) goja.Value {
		s, ok := sb.run.store[call.Argument(0).String()]
		if !ok {
			return goja.Undefined()
		}
		v, err := vm.RunString("(" + s + ")")
		if err != nil {
			return goja.Undefined()
		}
		return v
	})
	_ = vm.Set("setTimeout", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("setTimeout expects a function"))
		}
		delay := call.Argument(1).ToFloat()
		if math.IsNaN(delay) || delay < 0 {
			delay = 0
		}
		r := sb.run
		r.nextID++
		r.seq++
		var args []goja.Value
		if len(call.Arguments) > 2 {
			args = append(args, call.Arguments[2:]...)
		}
		r.timers[r.nextID] = &timer{id: r.nextID, due: r.now + delay, seq: r.seq, fn: fn, args: args}
		return vm.ToValue(r.nextID)
	})
	_ = vm.Set("clearTimeout", func(call goja.FunctionCall) goja.Value {
		id := call.Argument(0).ToInteger()
		delete(sb.run.timers, id)
		return goja.Undefined()
	})
	guardAllocations(vm, func(n float64) bool { return sb.run.reserve(n) })
	if setup.Console {
		sb.installConsole()
	}
	return sb
}

// installConsole gives the script a console whose log, info, warn, error
// and debug append their arguments, joined by spaces, as a text item
// (objects as JSON): the compatibility option; Codex has none.
func (sb *sandbox) installConsole() {
	con := sb.vm.NewObject()
	for _, m := range []string{"log", "info", "warn", "error", "debug"} {
		_ = con.Set(m, func(call goja.FunctionCall) goja.Value {
			parts := make([]string, len(call.Arguments))
			for i, a := range call.Arguments {
				if _, ok := a.(*goja.Object); ok {
					parts[i] = sb.textOf(a)
				} else {
					parts[i] = a.String()
				}
			}
			sb.addText(strings.Join(parts, " "))
			return goja.Undefined()
		})
	}
	_ = sb.vm.Set("console", con)
}

// setQuery sets the QUERY and TERMS globals.
func setQuery(sb *sandbox, query string, terms []string) {
	_ = sb.vm.Set("QUERY", query)
	vals := make([]any, len(terms))
	for i, t := range terms {
		vals[i] = t
	}
	_ = sb.vm.Set("TERMS", sb.vm.NewArray(vals...))
}

// guardAllocations wraps the string builders that can ask for gigabytes in
// one native step (which goja cannot interrupt) with V8's string length
// limit, and every native step that can allocate much at once with
// reserve, which stops the run (and returns false) when the step would
// pass its heap limit; the step is then skipped.
func guardAllocations(vm *goja.Runtime, reserve func(n float64) bool) {
	strProto := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	rangeErr := func() {
		ctor := vm.Get("RangeError")
		obj, _ := vm.New(ctor, vm.ToValue("Invalid string length"))
		panic(obj)
	}
	// check returns false to skip the step: the run has been stopped
	// (reserve), which the next instruction sees.
	wrap := func(obj *goja.Object, name string, check func(this goja.Value, args []goja.Value) bool) {
		orig, ok := goja.AssertFunction(obj.Get(name))
		if !ok {
			return
		}
		_ = obj.Set(name, func(call goja.FunctionCall) goja.Value {
			if !check(call.This, call.Arguments) {
				return goja.Undefined()
			}
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
	strLen := func(v goja.Value) int64 {
		if goja.IsUndefined(v) || goja.IsNull(v) {
			return 0
		}
		return int64(len(v.String()))
	}
	arg := func(args []goja.Value, i int) goja.Value {
		if i < len(args) {
			return args[i]
		}
		return goja.Undefined()
	}
	wrap(strProto, "repeat", func(this goja.Value, args []goja.Value) bool {
		n := arg(args, 0).ToFloat()
		if n > 0 && float64(strLen(this))*n > v8MaxStringLength {
			rangeErr()
		}
		return n <= 0 || reserve(float64(strLen(this))*n*2)
	})
	for _, name := range []string{"padStart", "padEnd"} {
		wrap(strProto, name, func(this goja.Value, args []goja.Value) bool {
			n := arg(args, 0).ToFloat()
			if n > v8MaxStringLength {
				rangeErr()
			}
			return n <= 0 || reserve(n*2)
		})
	}
	// split makes one string per piece: at most one per UTF-16 unit for
	// an empty or a RegExp separator, else one more than the separator's
	// occurrences, and at most limit.
	wrap(strProto, "split", func(this goja.Value, args []goja.Value) bool {
		if this == nil || goja.IsUndefined(this) || goja.IsNull(this) {
			return true
		}
		s := this.String()
		pieces := float64(len(s) + 1)
		if sep := arg(args, 0); !goja.IsUndefined(sep) {
			if _, isObj := sep.(*goja.Object); !isObj { // a RegExp (an object): one per unit
				if t := sep.String(); t != "" {
					pieces = float64(strings.Count(s, t) + 1)
				}
			}
		}
		if l := arg(args, 1); !goja.IsUndefined(l) {
			pieces = min(pieces, float64(uint32(l.ToInteger())))
		}
		return pieces < 1<<16 || reserve(pieces*bytesPerElement)
	})
	arrProto := vm.Get("Array").ToObject(vm).Get("prototype").ToObject(vm)
	wrap(arrProto, "join", func(this goja.Value, args []goja.Value) bool {
		if this == nil || goja.IsUndefined(this) || goja.IsNull(this) {
			return true
		}
		n := this.ToObject(vm).Get("length").ToFloat()
		sep := int64(1)
		if s := arg(args, 0); !goja.IsUndefined(s) {
			sep = strLen(s)
		}
		if n > 1 && (n-1)*float64(sep) > v8MaxStringLength {
			rangeErr()
		}
		return true
	})
	wrap(arrProto, "fill", func(this goja.Value, args []goja.Value) bool {
		if this == nil || goja.IsUndefined(this) || goja.IsNull(this) {
			return true
		}
		n := this.ToObject(vm).Get("length").ToFloat()
		if n > 1<<27 {
			obj, _ := vm.New(vm.Get("RangeError"), vm.ToValue("Invalid array length"))
			panic(obj)
		}
		return n < 1<<16 || reserve(n*bytesPerElement)
	})
	jsonObj := vm.Get("JSON").ToObject(vm)
	wrap(jsonObj, "parse", func(this goja.Value, args []goja.Value) bool {
		n := float64(strLen(arg(args, 0)))
		return n < 1<<20 || reserve(n*bytesPerJSONByte)
	})
	// A typed array or ArrayBuffer of a given length is allocated, zeroed,
	// in one step. The wrapper shares the constructor's prototype (both
	// ways: instanceof, .constructor) and statics (from, of); goja's
	// instanceof refuses a Proxy, hence a function.
	_ = vm.Set("__toolfindReserve", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(reserve(call.Argument(0).ToFloat()))
	})
	if _, err := vm.RunString(`(() => {
		const reserve = __toolfindReserve;
		delete globalThis.__toolfindReserve;
		// A long fill (from 2^16 elements) runs as the script's own loop,
		// ECMA-262 §23.1.3.7 step by step, so that the time limit and the
		// heap sampling stop it: goja's native fill is one step, which
		// takes seconds for 2^24 elements. Shorter ones stay native.
		const nativeFill = Array.prototype.fill;
		const toInt = (x) => { const n = Number(x); return Number.isNaN(n) ? 0 : Math.trunc(n); };
		Object.defineProperty(Array.prototype, "fill", { writable: true, configurable: true, value: function fill(value) {
			if (this === null || this === undefined) return nativeFill.apply(this, arguments);
			const O = Object(this);
			const len = Math.min(Math.max(toInt(O.length), 0), Number.MAX_SAFE_INTEGER);
			const rs = toInt(arguments[1]);
			let k = rs < 0 ? Math.max(len + rs, 0) : Math.min(rs, len);
			const re = arguments[2] === undefined ? len : toInt(arguments[2]);
			const end = re < 0 ? Math.max(len + re, 0) : Math.min(re, len);
			if (end - k < 65536) return nativeFill.apply(this, arguments);
			if (len > 2 ** 27) throw new RangeError("Invalid array length");
			if (!reserve((end - k) * 48)) return O;
			for (; k < end; k++) O[k] = value;
			return O;
		} });
		for (const name of ["ArrayBuffer", "SharedArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array",
			"Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]) {
			const C = globalThis[name];
			if (typeof C !== "function") continue;
			const size = C.BYTES_PER_ELEMENT || 1;
			const W = function (...args) {
				if (new.target === undefined) return C(...args); // throws C's TypeError
				if (typeof args[0] === "number" && args[0] * size >= 65536 && !reserve(args[0] * size)) return {};
				return Reflect.construct(C, args, new.target === W ? C : new.target);
			};
			Object.defineProperty(W, "name", { value: name });
			Object.defineProperty(W, "length", { value: C.length });
			Object.setPrototypeOf(W, Object.getPrototypeOf(C));
			for (const k of Reflect.ownKeys(C)) {
				if (k !== "prototype" && k !== "name" && k !== "length") Object.defineProperty(W, k, Object.getOwnPropertyDescriptor(C, k));
			}
			W.prototype = C.prototype;
			Object.defineProperty(C.prototype, "constructor", { value: W, writable: true, configurable: true });
			Object.defineProperty(globalThis, name, { value: W, writable: true, configurable: true });
		}
	})()`); err != nil {
		panic(err) // the wrapper is ours: it compiles
	}
}

// bytesPerElement is what goja holds per array element or split piece,
// at most (a value interface and its box or string header; a fill of
// 2^24 elements takes about 46 bytes each), and bytesPerJSONByte what
// JSON.parse may make of one byte of text ("0," is one element).
const (
	bytesPerElement  = 48
	bytesPerJSONByte = 32
)

// textOf converts a text() argument (§1.7): primitives by ToString,
// anything else by JSON.stringify, "undefined" when that gives nothing.
func (sb *sandbox) textOf(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	if _, isObj := v.(*goja.Object); !isObj {
		if _, isSym := v.(*goja.Symbol); isSym {
			return "undefined" // JSON.stringify(symbol) gives nothing
		}
		return v.String()
	}
	s, err := sb.stringify(goja.Undefined(), v)
	if err != nil {
		panic(err)
	}
	if goja.IsUndefined(s) {
		return "undefined"
	}
	return s.String()
}

func (sb *sandbox) addText(s string) {
	if s == "" {
		return // observed: empty text items are not emitted
	}
	r := sb.run
	r.bytes += len(s)
	if r.bytes > r.limits.MaxOutputBytes {
		r.stop(sigOutput)
		return
	}
	r.out.Items = append(r.out.Items, s)
}

func (sb *sandbox) callTool(b jsbox.CodexTool, call goja.FunctionCall) goja.Value {
	vm := sb.vm
	p, resolve, reject := vm.NewPromise()
	in := call.Argument(0)
	c := jsbox.Call{Tool: b.Tool, Name: b.Name}
	var rej string
	switch {
	case b.Freeform:
		if s, ok := in.Export().(string); ok {
			c.Arguments = s
		} else {
			rej = "tool `" + b.CallName + "` expects a string input"
		}
	case len(call.Arguments) == 0 || goja.IsUndefined(in):
		c.Arguments = map[string]any{}
	default:
		obj, isObj := in.(*goja.Object)
		if !isObj || obj.ClassName() == "Array" || obj.ClassName() == "Function" {
			rej = "tool `" + b.CallName + "` expects a JSON object for arguments"
			break
		}
		s, err := sb.stringify(goja.Undefined(), in)
		if err != nil {
			panic(err)
		}
		var args any
		if err := json.Unmarshal([]byte(s.String()), &args); err != nil {
			rej = "tool `" + b.CallName + "` expects a JSON object for arguments"
			break
		}
		c.Arguments = args
	}
	if rej != "" {
		c.Rejected = rej
		sb.run.out.Calls = append(sb.run.out.Calls, c)
		_ = reject(rej)
		return vm.ToValue(p)
	}
	sb.run.out.Calls = append(sb.run.out.Calls, c)
	res := vm.NewObject()
	item := vm.NewObject()
	_ = item.Set("type", "text")
	_ = item.Set("text", notExecutedText)
	_ = res.Set("content", vm.NewArray(item))
	_ = res.Set("isError", true)
	_ = resolve(res)
	return vm.ToValue(p)
}

const importHelper = "__toolfind_import"

var dynamicImport = lazyre.New(`(^|[^\w$.])import\s*\(`)

var staticImport = lazyre.New(`(?m)^\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']*)["']`)

// compileScriptAt wraps and compiles a module body; a static import gives
// Codex's "Unsupported import in exec: <specifier>" (§1.7). It also gives
// the position of a syntax error in code (1-based line and column; 0, 0 when unknown). An
// error past the end of the code (an unclosed bracket) points just after
// its last character.
func compileScriptAt(code string) (prog *goja.Program, msg string, line, col int) {
	if m := staticImport.Re().FindStringSubmatch(code); m != nil {
		line = strings.Count(code[:strings.Index(code, m[0])], "\n") + 1
		return nil, "Unsupported import in exec: " + m[1], line, 0
	}
	// A dynamic import rejects at run time (observed: "unsupported import
	// in exec"); goja cannot parse import(), so it becomes a call to a
	// helper that returns that rejection.
	code = dynamicImport.Re().ReplaceAllString(code, "${1}"+importHelper+"(")
	prog, err := goja.Compile(execFileName, wrapPrefix+code+wrapSuffix, true)
	if err != nil {
		line, col = syntaxErrorPos(err, code)
		return nil, syntaxErrorText(err), line, col
	}
	return prog, "", 0, 0
}

// syntaxErrorPos maps goja's "Line L:C" of the wrapped module back to the
// code: the wrapper adds one line before it.
func syntaxErrorPos(err error, code string) (line, col int) {
	msg := err.Error()
	var ce *goja.CompilerSyntaxError
	if errors.As(err, &ce) {
		msg = ce.Message
	}
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "SyntaxError: "), execFileName+": ")
	m := gojaSyntaxPos.Re().FindStringSubmatch(msg)
	if m == nil {
		return 0, 0
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	line -= strings.Count(wrapPrefix, "\n")
	lines := strings.Split(code, "\n")
	switch {
	case line < 1:
		return 1, 1
	case line > len(lines):
		last := strings.TrimRight(lines[len(lines)-1], "\r")
		return len(lines), utf8.RuneCountInString(last) + 1
	}
	return line, col
}

var gojaSyntaxPos = lazyre.New(`^(?:[^:]*: )?Line (\d+):(\d+) (.*)$`)

// syntaxErrorText renders a compile error as "SyntaxError: <message>".
// V8's parser messages differ from goja's; the position is dropped as V8
// does for module parse errors in Codex's output.
func syntaxErrorText(err error) string {
	msg := err.Error()
	var ce *goja.CompilerSyntaxError
	if errors.As(err, &ce) {
		msg = ce.Message
	}
	msg = strings.TrimPrefix(msg, "SyntaxError: ")
	if m := gojaSyntaxPos.Re().FindStringSubmatch(msg); m != nil {
		msg = m[3]
	}
	msg = strings.TrimPrefix(msg, execFileName+": ")
	return "SyntaxError: " + msg
}

// exec runs one compiled script in sb; ctx's end stops it (the output is
// then of no use).
func (sb *sandbox) exec(ctx context.Context, prog *goja.Program, codeLines int, limits jsbox.Limits, yieldMs float64) jsbox.CodexOutput {
	vm := sb.vm
	r := &execRun{timers: map[int64]*timer{}, store: map[string]string{}, limits: limits, vm: vm}
	sb.run = r
	r.out.Status = "Script completed"
	vm.ClearInterrupt()

	done := make(chan struct{})
	defer close(done)
	deadline := time.AfterFunc(limits.Timeout, func() { r.stop(sigTimeout) })
	defer deadline.Stop()
	r.heapBase = heapObjects()
	go watchHeap(r.heapBase, limits.MaxHeapGrowth, done, func() { r.stop(sigMemory) })
	cancel := context.AfterFunc(ctx, func() { r.stop(sigCancel) })
	defer cancel()

	fail := func(msg string) {
		r.out.Status = "Script failed"
		r.out.Items = append(r.out.Items, "Script error:\n"+msg)
	}
	handle := func(err error) bool { // true: stop the run
		if err == nil {
			return false
		}
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			switch ie.Value() {
			case sigExit:
				return true
			case sigTimeout:
				r.out.Status = "Script running with cell ID 1"
				r.out.Error = fmt.Sprintf("toolfind: the script was stopped at the %s time limit (Codex would yield it as a running cell)", limits.Timeout)
				r.out.TimedOut = true
			case sigMemory:
				fail("RangeError: toolfind: the script was stopped after allocating more than " + humanBytes(limits.MaxHeapGrowth))
				r.out.Error = "toolfind: memory limit exceeded"
			case sigOutput:
				fail("RangeError: toolfind: the script was stopped after printing more than " + humanBytes(uint64(limits.MaxOutputBytes)))
				r.out.Error = "toolfind: output limit exceeded"
			}
			sb.broken = true
			return true
		}
		var so *goja.StackOverflowError
		if errors.As(err, &so) {
			fail("RangeError: Maximum call stack size exceeded")
			return true
		}
		var ex *goja.Exception
		if errors.As(err, &ex) {
			fail(errorText(ex.Value(), codeLines))
			return true
		}
		fail(err.Error())
		return true
	}

	v, err := vm.RunProgram(prog)
	if handle(err) {
		return r.out
	}
	p, _ := v.Export().(*goja.Promise)
	for p != nil && p.State() == goja.PromiseStatePending {
		t := r.nextTimer()
		if t == nil || t.due > yieldMs {
			// Codex yields the cell to the model as still running; for a
			// search that is a failure too (its output is what it printed
			// so far), so it is reported, not taken for "nothing found".
			r.out.Status = "Script running with cell ID 1"
			if t == nil {
				r.out.Error = "toolfind: the script never finished: it awaits a promise that nothing settles (Codex yields it as a running cell)"
			} else {
				r.out.Error = fmt.Sprintf("toolfind: the script had not finished at yield_time_ms %g (a timer runs later; Codex yields it as a running cell)", yieldMs)
			}
			return r.out
		}
		delete(r.timers, t.id)
		r.now = t.due
		if _, err := t.fn(goja.Undefined(), t.args...); handle(err) {
			return r.out
		}
	}
	if p != nil && p.State() == goja.PromiseStateRejected {
		fail(errorText(p.Result(), codeLines))
	}
	return r.out
}

func (r *execRun) nextTimer() *timer {
	var best *timer
	for _, t := range r.timers {
		if best == nil || t.due < best.due || (t.due == best.due && t.seq < best.seq) {
			best = t
		}
	}
	return best
}

// watchHeap interrupts a run whose heap grows by more than limit over
// base. goja has no per-runtime memory accounting; the process heap is the
// proxy. It samples every millisecond (at most a millisecond of
// allocation, a few megabytes, gets past it); a single native step that
// allocates much is checked before it runs instead (execRun.reserve).
func watchHeap(base, limit uint64, done <-chan struct{}, stop func()) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if heapObjects() > base+limit {
				stop()
				return
			}
		}
	}
}

// heapObjects is the process's live and unswept heap objects, in bytes.
func heapObjects() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

func humanBytes(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatUint(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatUint(n>>20, 10) + " MiB"
	}
	return strconv.FormatUint(n, 10) + " bytes"
}

var gojaReadProp = lazyre.New(`^TypeError: Cannot read property '(.*)' of (undefined|null)$`)

// v8Message rewrites goja's wording of the commonest runtime error into
// V8's ("Cannot read properties of null (reading 'x')").
func v8Message(s string) string {
	if m := gojaReadProp.Re().FindStringSubmatch(s); m != nil {
		return "TypeError: Cannot read properties of " + m[2] + " (reading '" + m[1] + "')"
	}
	return s
}

var gojaFrame = lazyre.New(`^\s*at (?:(.*?) \()?` + regexp.QuoteMeta(execFileName) + `:(\d+):(\d+)\(\d+\)\)?$`)

// errorText renders a thrown value as V8 prints err.stack in Codex's
// "Script error:" item: "Name: message" and up to 10 "    at …" frames
// of the script (lines relative to the script, as in exec_main.mjs); a
// thrown non-Error value as its string.
func errorText(v goja.Value, codeLines int) string {
	obj, ok := v.(*goja.Object)
	if !ok {
		if v == nil {
			return "undefined"
		}
		return v.String()
	}
	stack := obj.Get("stack")
	head := v8Message(v.String())
	if stack == nil || goja.IsUndefined(stack) {
		return head
	}
	var frames []string
	for _, line := range strings.Split(stack.String(), "\n") {
		m := gojaFrame.Re().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		ln-- // the wrapper's first line
		if ln < 1 || ln > codeLines {
			continue // a frame of the wrapper itself
		}
		pos := fmt.Sprintf("%s:%d:%d", execFileName, ln, col)
		name := m[1]
		if name != "" && !strings.HasPrefix(name, "<") && name != "async" {
			frames = append(frames, "    at "+name+" ("+pos+")")
		} else {
			frames = append(frames, "    at "+pos)
		}
		if len(frames) == 10 {
			break
		}
	}
	if len(frames) == 0 {
		return head
	}
	return head + "\n" + strings.Join(frames, "\n")
}
