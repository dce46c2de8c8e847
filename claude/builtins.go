package claude

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
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
	var f struct {
		Tools map[string]struct {
			DescriptionChars  int      `json:"description_chars"`
			DescriptionTokens []string `json:"description_tokens"`
			HintTokens        []string `json:"hint_tokens"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(builtinsJSON, &f); err != nil {
		panic("claude: embedded built-ins data is broken: " + err.Error())
	}
	out := make([]builtin, 0, len(f.Tools))
	for name, t := range f.Tools {
		out = append(out, builtin{
			Name:      name,
			DescChars: t.DescriptionChars,
			Desc:      strings.Join(t.DescriptionTokens, " "),
			Hint:      strings.Join(t.HintTokens, " "),
			HasHint:   len(t.HintTokens) > 0,
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
