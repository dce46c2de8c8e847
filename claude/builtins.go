package claude

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

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

func mustLoadBuiltins() []builtin {
	// Read with ojson (no reflection): the data is ours, so anything
	// unexpected is a build error, reported by panic.
	doc, err := ojson.Parse(builtinsJSON)
	tools, _ := doc.Get("tools")
	if err != nil || tools.Kind != ojson.Object {
		panic(fmt.Sprintf("claude: embedded built-ins data is broken: %v", err))
	}
	words := func(t ojson.Value, key string) ([]string, error) {
		v, ok := t.Get(key)
		if !ok {
			return nil, nil
		}
		if v.Kind != ojson.Array {
			return nil, fmt.Errorf("%s is not an array", key)
		}
		out := make([]string, 0, v.Len())
		for _, w := range v.Array() {
			if w.Kind != ojson.String {
				return nil, fmt.Errorf("%s holds a %s", key, w.Kind)
			}
			out = append(out, w.Str())
		}
		return out, nil
	}
	out := make([]builtin, 0, tools.Len())
	for _, m := range tools.Members() {
		chars, _ := m.Value.Get("description_chars")
		n, ok := chars.Float()
		desc, err1 := words(m.Value, "description_tokens")
		hint, err2 := words(m.Value, "hint_tokens")
		if !ok || err1 != nil || err2 != nil {
			panic(fmt.Sprintf("claude: embedded built-ins data is broken at %s: %v", m.Key, errors.Join(err1, err2)))
		}
		out = append(out, builtin{
			Name:      m.Key,
			DescChars: int(n),
			Desc:      strings.Join(desc, " "),
			Hint:      strings.Join(hint, " "),
			HasHint:   len(hint) > 0,
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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
