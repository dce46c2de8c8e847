package gemini

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolfind/toolfind/ojson"
)

// builtinsJSON holds the built-in function declarations Gemini CLI 0.61.0
// sends in a headless run with gemini-2.5-flash, captured from its first
// request (gemini.md §1, §8.1), and where each mode puts them. The texts
// are Gemini CLI's own (Copyright Google LLC, Apache License 2.0; see
// THIRD_PARTY_LICENSES.txt).
//
//go:embed builtins.json
var builtinsJSON []byte

// builtinSet is builtins.json.
type builtinSet struct {
	// Headless are the built-ins of a default headless run, in request
	// order: write, shell and fetch tools are denied without a TTY
	// (policies/write.toml), so they are not declared (§1 "Filters").
	Headless []string `json:"headless"`
	// YOLOBefore are the built-ins before the MCP tools under --yolo, and
	// YOLOAfter those after them (activate_skill registers late).
	YOLOBefore []string `json:"yolo_before"`
	YOLOAfter  []string `json:"yolo_after"`
	// ResourceTools are declared only when a connected server has
	// resources (isActiveTool; §1 "Resource tools").
	ResourceTools []string `json:"resource_tools"`
	// Declarations are every built-in's declaration.
	Declarations []json.RawMessage `json:"declarations"`
}

// builtin is one built-in declaration: its name and compact JSON text.
type builtin struct {
	name string
	text string
}

// builtins are parsed on first use (nothing is allocated at init).
var (
	builtinsOnce sync.Once
	builtins     map[string]builtin
	builtinOrder builtinSet
)

func loadBuiltins() {
	builtinsOnce.Do(func() { builtins = mustBuiltins() })
}

func mustBuiltins() map[string]builtin {
	var set builtinSet
	if err := json.Unmarshal(builtinsJSON, &set); err != nil {
		panic("gemini: builtins.json: " + err.Error())
	}
	out := map[string]builtin{}
	for _, raw := range set.Declarations {
		v, err := ojson.Parse(raw)
		if err != nil {
			panic("gemini: builtins.json: " + err.Error())
		}
		n, _ := v.Get("name")
		out[n.Str()] = builtin{name: n.Str(), text: v.JS("")}
	}
	for _, list := range [][]string{set.Headless, set.YOLOBefore, set.YOLOAfter, set.ResourceTools} {
		for _, n := range list {
			if _, ok := out[n]; !ok {
				panic(fmt.Sprintf("gemini: builtins.json: no declaration of %q", n))
			}
		}
	}
	builtinOrder = set
	return out
}

// builtinsFor returns the built-in declarations before and after the MCP
// tools for a run: headless or YOLO, with or without resource tools.
func builtinsFor(yolo, resources bool) (before, after []builtin) {
	loadBuiltins()
	pick := func(names []string) []builtin {
		var out []builtin
		for _, n := range names {
			if !resources && isResourceTool(n) {
				continue
			}
			out = append(out, builtins[n])
		}
		return out
	}
	if yolo {
		return pick(builtinOrder.YOLOBefore), pick(builtinOrder.YOLOAfter)
	}
	return pick(builtinOrder.Headless), nil
}

func isResourceTool(n string) bool {
	for _, r := range builtinOrder.ResourceTools {
		if r == n {
			return true
		}
	}
	return false
}
