package claude

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/toolfind/toolfind/ojson"
)

// builtinsJSON holds derived facts about Claude Code 2.1.328's deferred
// built-in tools (spec §1 "Deferred built-ins"): per tool, the length of the
// description the search matches and the sets of distinct lowercased
// whitespace-separated tokens of that description and of its search hint.
// It holds no text of Claude Code's own, only these word sets.
//
//go:embed builtins-2.1.328.json
var builtinsJSON []byte

// builtin is one of Claude Code's own tools.
type builtin struct {
	Name string
	// DescChars is the length of its description (UTF-16 units).
	DescChars int
	// Desc and Hint are the token sets joined with single spaces. A query
	// term never contains whitespace, so \bTERM\b matches this text exactly
	// when it matches the original lowercased text (spec §1).
	Desc, Hint string
	HasHint    bool
}

// deferredBuiltins are the 2.1.328 deferred built-ins, sorted by name.
// Decoded on first use, not at start-up.
var deferredBuiltins = sync.OnceValue(mustLoadBuiltins)

// coreTools are Claude Code 2.1.328's tools that are loaded up front: not in
// the deferred pool, but found by the exact-name shortcut and by select:
// (spec §1 step 1; observed: the query "read" returns Read).
var coreTools = []string{"Agent", "Bash", "Edit", "ListAgents", "Read", "ReportFindings",
	"ScheduleWakeup", "Skill", "ToolSearch", "Workflow", "Write"}

// mustLoadBuiltins reads builtinsJSON twice with the streaming decoder (no
// tree of values, no reflection): once to size, once to fill. The names
// point into builtinsJSON; every token set is joined into one buffer of
// the exact size. The data is ours, so anything unexpected is a build
// error, reported by panic.
func mustLoadBuiltins() []builtin {
	tools, size := 0, 0
	err := walkBuiltins(func(string) { tools++ }, func(int) {}, func(_ bool, w string) { size += len(w) + 1 })
	if err != nil {
		panic(fmt.Sprintf("claude: embedded built-ins data is broken: %v", err))
	}
	out := make([]builtin, 0, tools)
	buf := make([]byte, 0, size) // never grows: the strings below point into it
	// The token array being read: its field and where its text starts.
	var open *string
	start := 0
	closeSet := func() {
		if open != nil && len(buf) > start {
			*open = unsafe.String(&buf[start], len(buf)-start)
		}
		open = nil
	}
	walkBuiltins(func(name string) {
		closeSet()
		out = append(out, builtin{Name: name})
	}, func(chars int) {
		out[len(out)-1].DescChars = chars
	}, func(hint bool, w string) {
		b := &out[len(out)-1]
		field := &b.Desc
		if hint {
			field, b.HasHint = &b.Hint, true
		}
		if open != field {
			// The first token of a set: a set is one array, its tokens
			// one after another.
			closeSet()
			open, start = field, len(buf)
		} else {
			buf = append(buf, ' ')
		}
		buf = append(buf, w...)
	})
	closeSet()
	slices.SortFunc(out, func(a, b builtin) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// walkBuiltins reads builtinsJSON's "tools" object: tool is called with
// each tool's name, then chars with its description_chars and token with
// every token of its description_tokens (hint false) and hint_tokens (hint
// true), in the file's order.
func walkBuiltins(tool func(name string), chars func(int), token func(hint bool, w string)) error {
	d := ojson.NewSharedDecoder(builtinsJSON)
	found := false
	err := d.Object(func(key string) error {
		if key != "tools" {
			return d.Skip()
		}
		found = true
		return d.Object(func(name string) error {
			tool(name)
			seen := false
			err := d.Object(func(key string) error {
				switch key {
				case "description_chars":
					v, err := d.Value()
					n, ok := v.Float()
					if err == nil && !ok {
						err = fmt.Errorf("%s: description_chars is a %s", name, v.Kind)
					}
					seen = true
					chars(int(n))
					return err
				case "description_tokens", "hint_tokens":
					hint := key == "hint_tokens"
					return d.Array(func(int) error {
						v, err := d.Value()
						if err == nil && v.Kind != ojson.String {
							err = fmt.Errorf("%s: %s holds a %s", name, key, v.Kind)
						}
						token(hint, v.Str())
						return err
					})
				}
				return d.Skip()
			})
			if err == nil && !seen {
				err = fmt.Errorf("%s: no description_chars", name)
			}
			return err
		})
	})
	if err == nil {
		err = d.End()
	}
	if err == nil && !found {
		err = errors.New(`no "tools" object`)
	}
	return err
}

// DeferredBuiltins names Claude Code's own deferred tools that the
// profile puts into the search pool (spec §1 "Deferred built-ins"), sorted.
// A session without them (Options.Builtins false) is the real client run
// with these names in --disallowedTools.
func DeferredBuiltins(p Profile) []string {
	var out []string
	for _, b := range deferredBuiltins() {
		if !slices.Contains(p.NoBuiltins, b.Name) {
			out = append(out, b.Name)
		}
	}
	return out
}
