package gojabox

import (
	"context"
	"fmt"
	"time"

	"github.com/dop251/goja"
	"github.com/toolfind/toolfind/jsbox"
)

// notExecuted is what a replayed OpenCode script's tool call returns.
const notExecuted = "toolfind: tool calls are recorded, not executed"

// openCodeSession runs execute calls over one catalog.
type openCodeSession struct {
	setup jsbox.OpenCodeSetup
}

// Run implements jsbox.OpenCode.
func (s *openCodeSession) Run(ctx context.Context, code string, search jsbox.SearchFunc) (jsbox.OpenCodeOutput, error) {
	var out jsbox.OpenCodeOutput
	vm := goja.New()
	vm.SetFieldNameMapper(goja.UncapFieldNameMapper())
	searchFn := func(c goja.FunctionCall) goja.Value {
		in := jsbox.SearchInput{}
		if arg := c.Argument(0); !goja.IsUndefined(arg) && !goja.IsNull(arg) {
			obj := arg.ToObject(vm)
			if v := obj.Get("query"); v != nil && !goja.IsUndefined(v) {
				in.Query = v.String()
			}
			if v := obj.Get("namespace"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
				ns := v.String()
				in.Namespace = &ns
			}
			if v := obj.Get("limit"); v != nil && !goja.IsUndefined(v) {
				in.Limit = int(v.ToInteger())
			}
			if v := obj.Get("offset"); v != nil && !goja.IsUndefined(v) {
				in.Offset = int(v.ToInteger())
			}
		}
		found, err := search(in)
		if err != nil {
			panic(vm.NewTypeError(err.Error()))
		}
		out.Searches++
		res, err := vm.RunString("(" + found + ")")
		if err != nil {
			panic(vm.NewGoError(err))
		}
		p, resolve, _ := vm.NewPromise()
		_ = resolve(res)
		return vm.ToValue(p)
	}
	tools := vm.NewObject()
	cm := vm.NewObject()
	_ = cm.Set("search", searchFn)
	_ = tools.Set("$codemode", cm)
	// The catalog's tools are callable; a call is recorded, not executed
	// (toolfind has no server behind them): the model found the tool.
	namespaces := map[string]*goja.Object{}
	for i, t := range s.setup.Tools {
		ns := namespaces[t.Namespace]
		if ns == nil {
			ns = vm.NewObject()
			namespaces[t.Namespace] = ns
			_ = tools.Set(t.Namespace, ns)
		}
		_ = ns.Set(t.Local, func(goja.FunctionCall) goja.Value {
			out.Called = append(out.Called, i)
			p, resolve, _ := vm.NewPromise()
			_ = resolve(vm.ToValue(notExecuted))
			return vm.ToValue(p)
		})
	}
	_ = vm.Set("tools", tools)
	if s.setup.GlobalSearch {
		_ = vm.Set("search", searchFn)
	}
	timer := time.AfterFunc(s.setup.Timeout, func() { vm.Interrupt("timeout") })
	defer timer.Stop()
	// The memory limit of a Codex run holds here too: OpenCode's own
	// runtime has none that a simulation could copy, and a script must
	// not take the process down (jsbox.Limits.MaxHeapGrowth, 1 GiB).
	budget := &heapBudget{base: heapObjects(), limit: jsbox.Limits{}.WithDefaults().MaxHeapGrowth}
	budget.stop = func() {
		vm.Interrupt("toolfind: the script was stopped after allocating more than " + humanBytes(budget.limit))
	}
	guardAllocations(vm, budget.reserve)
	done := make(chan struct{})
	defer close(done)
	go watchHeap(budget.base, budget.limit, done, budget.stop)
	stop := context.AfterFunc(ctx, func() { vm.Interrupt("cancelled") })
	defer stop()
	v, err := vm.RunString("(async () => {\n" + code + "\n})()")
	if err == nil {
		p, _ := v.Export().(*goja.Promise)
		switch {
		case p == nil:
			err = fmt.Errorf("script did not produce a promise")
		case p.State() == goja.PromiseStateRejected:
			err = fmt.Errorf("%v", p.Result())
		case p.State() == goja.PromiseStatePending:
			err = fmt.Errorf("script did not finish (a promise never settled)")
		default:
			out.Output = jsOutput(vm, p.Result())
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return jsbox.OpenCodeOutput{}, ctx.Err()
		}
		out.Failed, out.Error = true, err.Error()
	}
	return out, nil
}

// jsOutput is the execute tool's text for a returned value: a string as
// it is, undefined as "", anything else JSON.stringify(value, null, 2).
func jsOutput(vm *goja.Runtime, v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return ""
	}
	if s, ok := v.Export().(string); ok {
		return s
	}
	stringify, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	out, err := stringify(goja.Undefined(), v, goja.Null(), vm.ToValue(2))
	if err != nil || goja.IsUndefined(out) {
		return v.String()
	}
	return out.String()
}

// heapBudget is the heap growth a run may have over base: reserve reports
// whether a step of about n bytes fits, and when not calls stop.
type heapBudget struct {
	base, limit uint64
	stop        func()
}

func (h *heapBudget) reserve(n float64) bool {
	growth := uint64(0)
	if cur := heapObjects(); cur > h.base {
		growth = cur - h.base
	}
	if float64(growth)+n <= float64(h.limit) {
		return true
	}
	h.stop()
	return false
}
