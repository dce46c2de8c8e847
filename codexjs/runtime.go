package codexjs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/jsbox"
)

// The exec runtime (§1.7) runs in the process's JavaScript engine
// (package jsbox; goja, in this process or in a child process): what
// stays here is the exec input's pragma and the output's shape.

// defaultYieldMs is DEFAULT_EXEC_YIELD_TIME_MS (§1.1): a script still
// pending after this much (virtual) time yields "Script running…".
const defaultYieldMs = 10_000

// Limits bound one script run. Zero fields take the defaults.
type Limits = jsbox.Limits

// Call is one nested tool call a script made.
type Call = jsbox.Call

// ExecOutput is what one exec call produced, before truncation.
type ExecOutput struct {
	Status string   // "Script completed", "Script failed", "Script running with cell ID 1"
	Items  []string // text items, the error item included
	Calls  []Call
	// Error is the simulator's own reason for stopping the script (time
	// limit, memory, output cap); "" when the script ended by itself.
	// TimedOut marks the time limit.
	Error    string
	TimedOut bool
	// MaxOutputTokens is the pragma's budget (or the default).
	MaxOutputTokens int
	// Notices lists helper output that is not a text item (notify, image…).
	Notices []string
	// pieces, when set, hold the text items as pieces (native strategies)
	// instead of Items.
	pieces [][]string
}

// pragma is the parsed "// @exec:" first line (§1.1).
type pragma struct {
	code            string
	yieldTimeMs     *uint64
	maxOutputTokens *uint64
}

const maxSafeInteger = 1<<53 - 1

// parseExecSource is parse_exec_source: an optional first-line pragma with
// only yield_time_ms and max_output_tokens. A rejected input gives Codex's
// message, which the model receives as the whole tool output.
func parseExecSource(input string) (pragma, string) {
	if strings.TrimSpace(input) == "" {
		return pragma{}, "exec expects raw JavaScript source text (non-empty). Provide JS only, optionally with first-line `// @exec: {\"yield_time_ms\": 10000, \"max_output_tokens\": 1000}`."
	}
	first, rest, _ := strings.Cut(input, "\n")
	directive, ok := strings.CutPrefix(strings.TrimLeft(first, " \t\r\n\v\f"), "// @exec:")
	if !ok {
		return pragma{code: input}, ""
	}
	if strings.TrimSpace(rest) == "" {
		return pragma{}, "exec pragma must be followed by JavaScript source on subsequent lines"
	}
	directive = strings.TrimSpace(directive)
	const fields = "exec pragma must be a JSON object with supported fields `yield_time_ms` and `max_output_tokens`"
	if directive == "" {
		return pragma{}, fields
	}
	var raw any
	dec := json.NewDecoder(strings.NewReader(directive))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || dec.More() {
		return pragma{}, "exec pragma must be valid JSON with supported fields `yield_time_ms` and `max_output_tokens`: " + fmt.Sprint(err)
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return pragma{}, fields
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p := pragma{code: rest}
	for _, k := range keys {
		if k != "yield_time_ms" && k != "max_output_tokens" {
			return pragma{}, "exec pragma only supports `yield_time_ms` and `max_output_tokens`; got `" + k + "`"
		}
	}
	for _, k := range keys {
		if obj[k] == nil {
			continue
		}
		n, ok := obj[k].(json.Number)
		var u uint64
		var err error
		if ok {
			u, err = strconv.ParseUint(string(n), 10, 64)
		}
		if !ok || err != nil {
			return pragma{}, "exec pragma fields `yield_time_ms` and `max_output_tokens` must be non-negative safe integers"
		}
		if u > maxSafeInteger {
			return pragma{}, "exec pragma field `" + k + "` must be a non-negative safe integer"
		}
		uu := u
		if k == "yield_time_ms" {
			p.yieldTimeMs = &uu
		} else {
			p.maxOutputTokens = &uu
		}
	}
	return p, ""
}
