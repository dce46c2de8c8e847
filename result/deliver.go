package result

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Verdict is what became of a result on its way to the model.
type Verdict string

// The verdicts.
const (
	// Whole: the model gets all of it (in the client's form: Claude Code's
	// structuredContent rule, OpenCode's joining…).
	Whole Verdict = "whole"
	// Cut: the model gets part of it (Detail says how much and where) and a
	// notice.
	Cut Verdict = "cut"
	// Replaced: the model gets a file reference instead (with Claude Code's
	// 2,000-character preview, or the path only).
	Replaced Verdict = "replaced"
)

// ShownBlock is one block of what the model receives: text, or an image or
// audio attachment (its data is not repeated, only its size).
type ShownBlock struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	MimeType  string `json:"mime_type,omitempty"`
	DataBytes int    `json:"data_bytes,omitempty"`
}

// Delivery is one client's answer: what its model receives of the result.
type Delivery struct {
	// Client is the client profile, e.g. "claude@2.1.328".
	Client  string  `json:"client"`
	Verdict Verdict `json:"verdict"`
	// Shown is the text the model reads: the text blocks, in order, with
	// nothing between them (Blocks has the structure when there is more
	// than one block).
	Shown string `json:"shown"`
	// ShownChars is Shown's length in UTF-16 code units (JavaScript's
	// length, the unit Claude Code counts "characters" in); ShownBytes its
	// UTF-8 length.
	ShownChars int `json:"shown_chars"`
	ShownBytes int `json:"shown_bytes"`
	// Advice is the server-author advice of the seed "How to optimise your
	// MCP tools…" that applies; empty when the result arrives whole.
	Advice []string `json:"advice"`
	// Detail says how much was kept and where.
	Detail string `json:"detail"`
	// Blocks lists the blocks when there are several or one is not text.
	Blocks []ShownBlock `json:"blocks,omitempty"`
	// Notes are the rules that applied and what is approximated.
	Notes []string `json:"notes,omitempty"`
}

// setBlocks fills Shown, its sizes and Blocks from a block list.
func (d *Delivery) setBlocks(bs []ShownBlock) {
	var b strings.Builder
	for _, x := range bs {
		if x.Type == "text" {
			b.WriteString(x.Text)
		}
	}
	d.Shown = b.String()
	d.ShownChars = search.UTF16Len(d.Shown)
	d.ShownBytes = len(d.Shown)
	if len(bs) > 1 || (len(bs) == 1 && bs[0].Type != "text") {
		d.Blocks = bs
	}
}

// Input is a result and what is known of the call that produced it.
type Input struct {
	Result *CallResult
	// Server and Tool name the call (Claude Code's "mcp__server__tool" in
	// its empty-result line and resource notices); "" means "server" and
	// "tool".
	Server, Tool string
	// Definition is the tool's definition, when known: its
	// _meta["anthropic/maxResultSizeChars"] changes Claude Code's limits.
	Definition *corpus.Tool
	// MaxResultSizeChars, when > 0, stands for that _meta value (and wins
	// over Definition's).
	MaxResultSizeChars int
}

func (in Input) server() string {
	if in.Server == "" {
		return "server"
	}
	return in.Server
}

func (in Input) tool() string {
	if in.Tool == "" {
		return "tool"
	}
	return in.Tool
}

// modelName is the name Claude Code's model calls the tool by (claude
// package: mcp__server__tool, names sanitised).
func (in Input) modelName() string {
	return "mcp__" + search.SanitizeName(in.server()) + "__" + search.SanitizeName(in.tool())
}

// maxResultSizeChars is the tool's override: MaxResultSizeChars, else a
// positive integer _meta["anthropic/maxResultSizeChars"] of Definition.
func (in Input) maxResultSizeChars() (int, bool) {
	if in.MaxResultSizeChars > 0 {
		return in.MaxResultSizeChars, true
	}
	if in.Definition == nil {
		return 0, false
	}
	v, ok := in.Definition.Meta.Get(MetaMaxResultSizeChars)
	if !ok || v.Kind != ojson.Number {
		return 0, false
	}
	f, ok := v.Float()
	if !ok || f < 1 || f > 1<<31 {
		return 0, false
	}
	return int(f), true
}

// Options choose the clients and adjust them.
type Options struct {
	// Clients are client names (claude, codex, grok, opencode); empty
	// means all, in that order.
	Clients []string
	Claude  ClaudeOptions
}

// Clients are the clients Deliver knows, in report order, with the
// profile each simulates.
var Clients = []string{"claude@2.1.328", "codex@0.171.0", "grok@1.0.0", "opencode@1.18.33", "gemini@0.61.0", "copilot@1.0.102"}

// ClientNames are Clients without versions.
func ClientNames() []string {
	out := make([]string, len(Clients))
	for i, c := range Clients {
		out[i], _, _ = strings.Cut(c, "@")
	}
	return out
}

// Deliver reports, per client, what its model receives of in.Result.
// Unknown client names are an error.
func Deliver(in Input, opts Options) ([]Delivery, error) {
	if in.Result == nil {
		return nil, fmt.Errorf("result: no result")
	}
	want := map[string]bool{}
	for _, c := range opts.Clients {
		name, version, _ := strings.Cut(strings.TrimSpace(c), "@")
		if name == "all" {
			want = map[string]bool{}
			break
		}
		found := false
		for _, id := range Clients {
			n, v, _ := strings.Cut(id, "@")
			if n == name && (version == "" || version == v) {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("result: unknown client %q (known: %s)", c, strings.Join(Clients, ", "))
		}
		want[name] = true
	}
	var out []Delivery
	oneLine := -1 // oneLineJSON(in.Result), computed once when needed
	for _, name := range ClientNames() {
		if len(want) > 0 && !want[name] {
			continue
		}
		var d Delivery
		switch name {
		case "claude":
			d = deliverClaude(in.Result, in, opts.Claude)
		case "codex":
			d = deliverCodex(in.Result)
		case "grok":
			d = deliverGrok(in.Result)
		case "opencode":
			var err error
			if d, err = deliverOpenCode(in.Result); err != nil {
				return nil, err
			}
		case "copilot":
			d = deliverCopilot(in.Result, in)
		case "gemini":
			d = deliverGemini(in.Result, in)
		}
		if oneLine < 0 && d.Verdict != Whole {
			oneLine = 0
			if oneLineJSON(in.Result) {
				oneLine = 1
			}
		}
		d.Advice = advise(in.Result, d, oneLine == 1)
		out = append(out, d)
	}
	return out, nil
}

// The seed "How to optimise your MCP tools by knowing how agents call
// them" ("For server authors: stay under every cap"), in its words.
const (
	AdviceBudget    = "Aim for under about 5,000 tokens per default result (well under Grok Build's 20 KB, the smallest cap); treat 10,000 tokens as the ceiling."
	AdvicePage      = "Page by default: a small limit, a cursor and a total count, so the agent can tell there is more."
	AdviceFields    = `Let callers pick fields (fields: ["id","name","status"]) and return a compact shape unless they ask for more.`
	AdviceSummary   = `Lead with a summary ("47 results, 20 shown, next cursor …") so a cut-off head still answers the question.`
	AdviceTwice     = "Do not send the same data twice as text content and structuredContent; that alone roughly halves the largest results."
	AdviceOverride  = `If the tool really must return a lot (a schema, a file tree), raise its Claude Code limit with _meta["anthropic/maxResultSizeChars"] (up to 500,000 characters); use it sparingly.`
	AdviceOneLine   = "JSON on one line defeats line-based reading of the saved file (Claude Code's and Grok Build's notices warn about it)."
	AdviceMiddleCut = "Codex cuts the middle out and keeps no file: the model must run a narrower filter, so make narrow calls possible and cheap."
)

// advise picks the advice for a delivery that is not whole; oneLine says
// the result's text is one long line of JSON.
func advise(r *CallResult, d Delivery, oneLine bool) []string {
	out := []string{}
	if d.Verdict == Whole {
		return out
	}
	out = append(out, AdviceBudget, AdvicePage, AdviceFields, AdviceSummary)
	if !r.IsError && r.Structured.Exists() && anyText(r.Content) {
		out = append(out, AdviceTwice)
	}
	client, _, _ := strings.Cut(d.Client, "@")
	switch client {
	case "claude":
		if d.Verdict == Replaced {
			out = append(out, AdviceOverride)
		}
	case "codex":
		out = append(out, AdviceMiddleCut)
	}
	if (client == "claude" || client == "grok") && oneLine {
		out = append(out, AdviceOneLine)
	}
	return out
}

// oneLineJSON reports whether the result's text is one long line of JSON.
func oneLineJSON(r *CallResult) bool {
	for _, b := range r.Content {
		if b.Type == "text" && len(b.Text) > grokLongLine && !strings.Contains(b.Text, "\n") && isJSONText(b.Text) {
			return true
		}
	}
	return false
}

// group writes n with thousands separators, as JavaScript's
// toLocaleString does in English: 218237 → "218,237".
func group(n int) string { return textfit.Thousands(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
