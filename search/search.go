// Package search is the contract every client simulator fulfils, the
// registry that builds simulators by client name, and the small helpers
// that several simulators share (JavaScript-compatible whole-word matching,
// ICU-compatible string ordering, character-safe truncation, token
// estimates).
//
// A Simulator is built once from a catalog and a profile and then answers
// many queries; Search must be safe for concurrent use. A Result lists the
// hits in the order the client returns them and the exact text its model
// would read. Ties are facts: every hit carries Rank and RankWorst (equal
// when the client orders ties deterministically), and PWithinLimit, the
// probability that the tool is among the results the model is shown (1 or 0
// for deterministic clients, a fraction where the client breaks ties at
// random, as Grok Build does).
package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

// Query is one search as the model would issue it.
type Query struct {
	Text  string
	Limit int // the client's result limit (max_results, limit…); 0 = the client's default
	// Brief says the caller reads only the result's Limit, ShownTokens,
	// Error, TimedOut, Strategy and Variants and its hits' Tool, Rank,
	// RankWorst and PWithinLimit (bench scores nothing else). A simulator
	// may then leave Shown, Notes, Extra and the hits' Why, Score and Extra
	// empty; every field it does fill must be what it is without Brief.
	Brief bool
	// Hits, when it has capacity, is the caller's buffer for the result's
	// hits: a simulator may return them in its array (as
	// append(Hits[:0], …)), so that a caller searching many times, like
	// bench, reuses one buffer instead of allocating one per search. The
	// caller must not use the buffer again while it still reads that
	// result. A simulator may also ignore it. Either way the result's
	// Hits array is the caller's: it may be the next search's buffer.
	Hits []Hit
}

// Hit is one tool in a result.
type Hit struct {
	// Rank is the 1-based position in the result; RankWorst the last
	// position the tool can take among the tools tied with it (== Rank when
	// the client orders ties deterministically or there is no tie).
	Rank      int `json:"rank"`
	RankWorst int `json:"rank_worst"`
	// PWithinLimit is the probability that the tool is among the results
	// the model is shown.
	PWithinLimit float64       `json:"p_within_limit"`
	Tool         corpus.ToolID `json:"tool"`
	// Name is the client-qualified name the model sees
	// (mcp__billing__invoice_lookup, billing_invoice_lookup, …).
	Name  string  `json:"name"`
	Score float64 `json:"score"`
	// Why explains the score signal by signal, one entry per query term or
	// signal, e.g. `invoice: part "invoice" +12; coarse "invoice_lookup" contains +4`.
	Why []string `json:"why,omitempty"`
	// ReadTokens is how much of Shown the model reads to reach this hit,
	// by the client's token estimate: the text up to and including the
	// hit's name (or, for every tool definition sent at once, all of
	// them). 0 when the simulator does not say; what matters most in an
	// Uncapped result.
	ReadTokens int `json:"read_tokens,omitempty"`
	// Extra holds client-specific facts about the hit (e.g. OpenCode's
	// "in_catalog"). Keys are snake_case; values must marshal to JSON.
	Extra map[string]any `json:"extra,omitempty"`
}

// Result is a client's answer to one query.
type Result struct {
	// Client is the profile that produced it, "name@version".
	Client string `json:"client"`
	// Strategy names the way the model searched, for clients whose model
	// searches in several ways (Codex code mode's scripts); "" otherwise.
	Strategy string `json:"strategy"`
	// Limit is the effective result limit used.
	Limit int `json:"limit"`
	// Uncapped says the client sets no cap on the tools the model reads
	// here: the hits are every tool whose name is in what the model reads
	// (all of a code-mode script's output, every tool definition sent at
	// once), Limit is their number, not a limit, and being among them
	// says only that the tool is somewhere in the text. Where it lands
	// (its rank) and how much the model reads to reach it
	// (Hit.ReadTokens) are what decide.
	Uncapped bool `json:"uncapped,omitempty"`
	// Hits are in the order the client returns them, already cut to Limit
	// unless the client shows more (see the client's docs).
	Hits []Hit `json:"hits"`
	// Shown is the exact text the model reads as the result of the search,
	// and ShownTokens its size by the client's own estimate.
	Shown       string `json:"shown"`
	ShownTokens int    `json:"shown_tokens"`
	// Notes are remarks for the user (shortcut taken, tools hidden, output
	// truncated…), in a fixed order.
	Notes []string `json:"notes,omitempty"`
	// Error says that this search failed rather than found nothing: a
	// script that threw or was stopped at its time or memory limit. Hits
	// and Shown are still what the model would get (Codex shows its model
	// the script error), but the result says nothing about the catalog;
	// bench counts it as an error and `check` fails on it. TimedOut marks
	// a run stopped at its time limit.
	Error    string `json:"error,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
	// Extra holds client-specific facts about the result (script calls,
	// catalog section…). Values must marshal to JSON.
	Extra map[string]any `json:"extra,omitempty"`
	// Call is the model's call this result answers (a written call, see
	// Writable), and Writer who wrote it; both empty for a plain query.
	Call   json.RawMessage `json:"call,omitempty"`
	Writer string          `json:"writer,omitempty"`
	// Variants are further strategies of the same client for the same
	// query, each with its own Strategy. The receiver itself is the
	// primary strategy, the one bench scores the client by.
	Variants []Result `json:"-"`
}

// All returns the result followed by its variants, each without variants:
// the flat list that `rank --format json` prints.
func (r Result) All() []Result {
	out := make([]Result, 0, 1+len(r.Variants))
	first := r
	first.Variants = nil
	out = append(out, first)
	for _, v := range r.Variants {
		v.Variants = nil
		out = append(out, v)
	}
	return out
}

// Find returns the hit for a tool and whether it is present.
func (r Result) Find(id corpus.ToolID) (Hit, bool) {
	for _, h := range r.Hits {
		if h.Tool == id {
			return h, true
		}
	}
	return Hit{}, false
}

// Simulator reproduces one client's tool discovery over one catalog.
type Simulator interface {
	// Client is the profile, e.g. {Name: "claude", Version: "2.1.328"}.
	Client() ClientID
	// Search answers one query. It must be safe for concurrent use.
	Search(ctx context.Context, q Query) (Result, error)
}

// Viewer is implemented by simulators that can show what their model reads
// of each tool outside a search: the name, the cut description, the schema
// after the client's normalisation (`toolfind show`).
type Viewer interface {
	// View returns what the model is shown of the tool, or ok false when
	// the client never shows it (hidden, dropped, not loaded).
	View(id corpus.ToolID) (v ToolView, ok bool)
}

// ToolView is what one client's model sees of one tool.
type ToolView struct {
	Tool corpus.ToolID `json:"tool"`
	Name string        `json:"name"`
	// Text is the tool's definition exactly as rendered to the model.
	Text   string   `json:"text"`
	Tokens int      `json:"tokens"`
	Notes  []string `json:"notes,omitempty"`
}

// Reporter is implemented by simulators that know which tools of the
// catalog their client drops, hides or rewrites, so `lint` can report them
// per client.
type Reporter interface {
	Problems() []corpus.Diagnostic
}

// Outliner is implemented by simulators whose client arranges the tools
// before its model sees them, beyond tool by tool (VS Code Copilot Chat
// groups them behind activate_* stubs): `toolfind show` prints the
// outline, one paragraph a line, after its table.
type Outliner interface {
	Outline() []string
}

// ClientID names a client profile.
type ClientID struct {
	Name    string
	Version string
}

func (c ClientID) String() string { return c.Name + "@" + c.Version }

// ParseClientID splits "name@version"; the version may be empty.
func ParseClientID(s string) ClientID {
	name, version, _ := strings.Cut(strings.TrimSpace(s), "@")
	return ClientID{Name: name, Version: version}
}

// ErrNotFound is returned (wrapped) by Registry lookups of unknown clients.
var ErrNotFound = fmt.Errorf("unknown client")
