package codexjs

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Codex's own entries of ALL_TOOLS (specs/codex.md §0). Their texts are
// not reproduced: builtins-0.171.0.json (a copy of
// ../shared/specs/codex-builtins-0.171.0.json, extended with the line
// structure recorded with codex-oracle) holds, per tool, the byte sizes of
// its JSON.stringify and of its description, the description's lowercase
// word runs, and one record per line (split at "\n").

//go:embed builtins-0.171.0.json
var builtinsJSON []byte

type builtinTool struct {
	JSONBytes        int           `json:"json_bytes"`
	DescriptionBytes int           `json:"description_bytes"`
	Runs             []string      `json:"runs"`
	Lines            []builtinLine `json:"lines"`
	// DeclarationLine is the index of the "exec tool declaration:" line.
	DeclarationLine int `json:"declaration_line"`
}

// The exec declaration that ends every entry's description (§1.5), Codex's
// own tools' too (observed on 0.171.0: declaration_line).
const (
	declOpen  = "declare const tools: { " // + name + "("
	declClose = "; };"
)

// builtinLine is one line of a real description: its byte length (the
// texts are ASCII, so also its length in UTF-16 units), leading and
// trailing spaces, all its spaces, the characters JSON.stringify escapes in
// two bytes (" and \), and the indexes into Runs of the distinct word runs
// in it.
type builtinLine struct {
	Bytes    int   `json:"bytes"`
	Indent   int   `json:"indent"`
	Trailing int   `json:"trailing"`
	Spaces   int   `json:"spaces"`
	Escapes  int   `json:"escapes"`
	Runs     []int `json:"runs"`
}

// builtinEntries are Codex 0.171.0's own 11 nested tools (§0) with
// stand-in descriptions built line by line (standInLine), joined with
// "\n". Each stand-in has the real text's lines: the same count, and per
// line the same length, indentation, trailing spaces, spaces, JSON
// escapes and set of lowercase word runs. The exec declaration's frame is
// written as Codex writes it (§1.5): the lines "exec tool declaration:",
// "```ts" and "```", the declaration starting "declare const tools: {
// <name>(" and ending "; };"; only what lies between is a stand-in. So the entry's JSON.stringify is
// exactly json_bytes long (every MCP entry sits at its real offset in a
// dump), a script that splits a description into lines or words gets
// pieces of the real sizes, and a filter for a term made of [a-z0-9_] on
// the lowercased description or one of its lines decides as it would on
// the real text. Built on first use, not at start-up.
var builtinEntries = sync.OnceValue(func() []Entry {
	out, err := parseBuiltins(builtinsJSON)
	if err != nil {
		panic("codexjs: embedded builtins are broken: " + err.Error())
	}
	return out
})

// parseBuiltins reads a builtins file and builds the stand-in entries,
// sorted by name; an error names the tool and line that do not fit.
func parseBuiltins(data []byte) ([]Entry, error) {
	var f struct {
		Tools map[string]builtinTool `json:"tools"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(f.Tools))
	for n := range f.Tools {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]Entry, 0, len(names))
	for _, n := range names {
		t := f.Tools[n]
		desc, err := standIn(n, t)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", n, err)
		}
		// JSON.stringify escapes each newline and each " or \ in two bytes.
		if got := len(`{"name":"","description":""}`) + len(n) + len(jsString(desc)) - 2; got != t.JSONBytes {
			return nil, fmt.Errorf("tool %s: stand-in JSON is %d bytes, json_bytes says %d", n, got, t.JSONBytes)
		}
		out = append(out, Entry{Name: n, CodeModeName: n, Description: desc, Builtin: true, Runs: t.Runs})
	}
	return out, nil
}

// standIn joins the stand-in lines of tool name and checks the
// description's length.
func standIn(name string, t builtinTool) (string, error) {
	h, last := t.DeclarationLine, len(t.Lines)-1
	if h < 0 || h+3 > last {
		return "", fmt.Errorf("declaration_line %d does not leave room for the declaration in %d lines", h, len(t.Lines))
	}
	frame := strings.Split(execDeclHeader, "\n") // "", "", "exec tool declaration:", "```ts", ""
	lines := make([]string, len(t.Lines))
	for i, l := range t.Lines {
		var prefix, suffix string
		switch i {
		case h:
			prefix = frame[2]
		case h + 1:
			prefix = frame[3]
		case last:
			prefix = strings.TrimPrefix(execDeclFooter, "\n")
		}
		if i == h+2 {
			prefix = declOpen + name + "("
		}
		if i == last-1 {
			suffix = declClose
		}
		s, err := standInLine(l, t.Runs, prefix, suffix)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", i+1, err)
		}
		lines[i] = s
	}
	desc := strings.Join(lines, "\n")
	if len(desc) != t.DescriptionBytes {
		return "", fmt.Errorf("lines add up to %d bytes, description_bytes says %d", len(desc), t.DescriptionBytes)
	}
	return desc, nil
}

// standInLine builds a line with l's sizes: the indent, the literal
// prefix, the line's runs not in prefix or suffix in index order, each
// after a separator taken from the inner spaces, then from the escapes
// (written as "), then from fillers ("."); what is left of the three
// follows in that order, then the literal suffix and the trailing spaces.
// When the leftovers are spaces only and the line must not end in one,
// they go before the last run instead; a line without runs starts (after
// the indent and prefix) with an escape or a filler. checkLine proves the
// result has every field of l (TestBuiltinEntries, for the embedded data).
func standInLine(l builtinLine, runs []string, prefix, suffix string) (string, error) {
	if l.Bytes < 0 || l.Indent < 0 || l.Trailing < 0 || l.Spaces < 0 || l.Escapes < 0 {
		return "", fmt.Errorf("negative size in %+v", l)
	}
	lit := prefix + suffix
	inner := l.Spaces - l.Indent - l.Trailing - strings.Count(lit, " ")
	esc := l.Escapes - strings.Count(lit, `"`) - strings.Count(lit, `\`)
	fill := l.Bytes - l.Spaces - l.Escapes - (len(lit) - strings.Count(lit, " ") - strings.Count(lit, `"`) - strings.Count(lit, `\`))
	inLit := map[string]bool{}
	for _, r := range distinctRuns(lit) {
		inLit[r] = true
	}
	var own []int
	for _, r := range l.Runs {
		if r < 0 || r >= len(runs) {
			return "", fmt.Errorf("run index %d out of range (%d runs)", r, len(runs))
		}
		if !inLit[runs[r]] {
			own = append(own, r)
			fill -= len(runs[r])
		}
	}
	if inner < 0 || esc < 0 || fill < 0 {
		return "", fmt.Errorf("sizes do not fit (bytes %d, spaces %d, indent %d, trailing %d, escapes %d, runs %v)",
			l.Bytes, l.Spaces, l.Indent, l.Trailing, l.Escapes, l.Runs)
	}
	sep := func() string {
		switch {
		case inner > 0:
			inner--
			return " "
		case esc > 0:
			esc--
			return `"`
		case fill > 0:
			fill--
			return "."
		}
		return ""
	}
	words := make([]string, len(own))
	for i, r := range own {
		words[i] = runs[r]
		if i > 0 {
			words[i] = sep() + words[i]
		}
	}
	body := strings.Join(words, "")
	if len(words) == 0 && inner > 0 && esc+fill > 0 {
		// No runs: a non-space first, so the spaces stay inside.
		if esc > 0 {
			esc--
			body = `"`
		} else {
			fill--
			body = "."
		}
	}
	rest := strings.Repeat(" ", inner) + strings.Repeat(`"`, esc) + strings.Repeat(".", fill)
	if rest != "" && esc+fill == 0 && l.Trailing == 0 && len(words) > 1 {
		last := len(words) - 1
		body = strings.Join(words[:last], "") + rest + words[last]
		rest = ""
	}
	return strings.Repeat(" ", l.Indent) + prefix + body + rest + suffix + strings.Repeat(" ", l.Trailing), nil
}

// checkLine reports the first field of l that line s does not have.
func checkLine(s string, l builtinLine, runs []string) error {
	trimmed := strings.TrimLeft(s, " ")
	indent := len(s) - len(trimmed)
	trailing := 0
	if trimmed != "" {
		trailing = len(trimmed) - len(strings.TrimRight(trimmed, " "))
	}
	want := make([]string, len(l.Runs))
	for i, r := range l.Runs {
		want[i] = runs[r]
	}
	sort.Strings(want)
	got := distinctRuns(s)
	switch {
	case len(s) != l.Bytes:
		return fmt.Errorf("stand-in is %d bytes, want %d", len(s), l.Bytes)
	case indent != l.Indent:
		return fmt.Errorf("stand-in indent is %d, want %d", indent, l.Indent)
	case trailing != l.Trailing:
		return fmt.Errorf("stand-in has %d trailing spaces, want %d", trailing, l.Trailing)
	case strings.Count(s, " ") != l.Spaces:
		return fmt.Errorf("stand-in has %d spaces, want %d", strings.Count(s, " "), l.Spaces)
	case strings.Count(s, `"`)+strings.Count(s, `\`) != l.Escapes:
		return fmt.Errorf("stand-in has %d JSON escapes, want %d", strings.Count(s, `"`)+strings.Count(s, `\`), l.Escapes)
	case strings.Join(got, " ") != strings.Join(want, " "):
		return fmt.Errorf("stand-in runs %q, want %q", got, want)
	}
	return nil
}

// distinctRuns returns the sorted distinct maximal runs of [a-z0-9_] in
// the lowercased s.
func distinctRuns(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	}) {
		out = append(out, w)
	}
	sort.Strings(out)
	return slices.Compact(out)
}
