package gemini

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// Version is the Gemini CLI release simulated.
const Version = "0.61.0"

// ID is the profile.
var ID = search.ClientID{Name: "gemini", Version: Version}

// Simulator is Gemini CLI over one catalog: every declared tool is in
// every request (there is no tool search, gemini.md §1).
type Simulator struct {
	d      *Declarations
	byID   map[corpus.ToolID]*Entry // the declared definition, else the first
	shown  string                   // the MCP declarations, one a line
	result search.Result            // what Search returns, shared and copied

	problemsOnce sync.Once
	problems     []corpus.Diagnostic
	cat          *corpus.Catalog
}

var (
	_ search.Simulator = (*Simulator)(nil)
	_ search.Viewer    = (*Simulator)(nil)
	_ search.Reporter  = (*Simulator)(nil)
	_ search.NoSearch  = (*Simulator)(nil)
)

// New builds the simulator.
func New(cat *corpus.Catalog, cfg Config) *Simulator {
	s := &Simulator{d: Declare(cat, cfg), byID: map[corpus.ToolID]*Entry{}, cat: cat}
	for _, e := range s.d.All {
		id := e.Tool.ID()
		if old, ok := s.byID[id]; !ok || (!old.Declared && e.Declared) {
			s.byID[id] = e
		}
	}
	var b strings.Builder
	for i, e := range s.d.MCP {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Text)
	}
	s.shown = b.String()
	return s
}

// Declarations returns what the request declares.
func (s *Simulator) Declarations() *Declarations { return s.d }

// Client implements search.Simulator.
func (s *Simulator) Client() search.ClientID { return ID }

// SearchesNothing implements search.NoSearch: the model never searches.
func (s *Simulator) SearchesNothing() bool { return true }

// Search implements search.Simulator. Nothing is searched: every declared
// MCP tool is a hit at rank 1 (RankWorst 1, PWithinLimit 1) whatever the
// query, in request order; a tool that is not declared is no hit, and the
// result's notes say why. Shown is the MCP declarations, one compact JSON
// a line (the built-ins are counted, not repeated); ShownTokens the
// estimate for the whole tools array sent with every request.
func (s *Simulator) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if err := ctx.Err(); err != nil {
		return search.Result{}, err
	}
	mcp, builtin, total := s.d.Tokens()
	// No cap (gemini.md §1): every declared tool is in every request, and
	// the model reads all of them.
	r := search.Result{Client: ID.String(), Limit: len(s.d.MCP), Shown: s.shown, ShownTokens: total, Uncapped: true}
	r.Hits = q.Hits[:0]
	if cap(r.Hits) < len(s.d.MCP) {
		r.Hits = make([]search.Hit, 0, len(s.d.MCP))
	}
	why := []string{"declared: sent with every request (Gemini CLI has no tool search)"}
	for _, e := range s.d.MCP {
		h := search.Hit{Rank: 1, RankWorst: 1, PWithinLimit: 1, Tool: e.Tool.ID(), Name: e.Name, ReadTokens: total}
		if !q.Brief {
			h.Why = why[:1:1]
			h.Extra = map[string]any{"declaration_tokens": e.Tokens}
		}
		r.Hits = append(r.Hits, h)
	}
	if q.Brief {
		return r, nil
	}
	nb := len(s.d.Before) + len(s.d.After)
	count := fmt.Sprintf("every request declares %d functions: %d MCP (≈%d tokens) + %d built-in (≈%d tokens), ≈%d tokens in all", s.d.Count(), len(s.d.MCP), mcp, nb, builtin, total)
	if s.d.Count() > APILimit {
		count += fmt.Sprintf("; the Gemini API refuses more than %d, so every request fails", APILimit)
	}
	r.Notes = []string{
		"eager loading: Gemini CLI has no tool search; every declared MCP tool is in every request, so each is found at rank 1 whatever the query (the order is the request's, not a ranking)",
		count,
	}
	r.Notes = append(r.Notes, s.notDeclaredNotes()...)
	r.Extra = map[string]any{"mcp_tools": len(s.d.MCP), "builtin_tools": nb, "mcp_declaration_tokens": mcp,
		"builtin_declaration_tokens": builtin, "declaration_tokens": total, "not_declared": s.notDeclared()}
	return r, nil
}

// APILimit is the most function declarations the Gemini API accepts in
// one request: above it, it answers 400 INVALID_ARGUMENT (gemini.md §1
// "Above the Gemini API's tool-count limit"); the CLI sends them anyway.
const APILimit = 512

// notDeclared maps each tool of the catalog that is not declared to why.
func (s *Simulator) notDeclared() map[string]string {
	out := map[string]string{}
	for id, e := range s.byID {
		if !e.Declared {
			out[string(id)] = string(e.Why)
		}
	}
	return out
}

// notDeclaredNotes are one note per reason, tools listed (five at most).
func (s *Simulator) notDeclaredNotes() []string {
	by := map[Reason][]string{}
	for id, e := range s.byID {
		if !e.Declared {
			by[e.Why] = append(by[e.Why], string(id))
		}
	}
	var out []string
	for _, r := range []Reason{Refused, LaterPage, Overwritten, NoAllowRule, RuleMissesName, Shadowed} {
		ids := by[r]
		if len(ids) == 0 {
			continue
		}
		sort.Strings(ids)
		list := ids
		more := ""
		if len(list) > 5 {
			list, more = list[:5], fmt.Sprintf(" and %d more", len(ids)-5)
		}
		out = append(out, fmt.Sprintf("not declared, so never found: %s%s (%s)", strings.Join(list, ", "), more, ReasonText(r)))
	}
	return out
}

// ReasonText says in a few words what Gemini CLI does; lint and show
// say more.
func ReasonText(r Reason) string {
	switch r {
	case Refused:
		return "the MCP SDK refuses the server's tools/list answer"
	case LaterPage:
		return "past the first tools/list page"
	case Overwritten:
		return "a tool registered later took the name"
	case NoAllowRule:
		return "no allow rule for the server in a headless run"
	case RuleMissesName:
		return "the server's allow rule does not match the name"
	case Shadowed:
		return "named like a built-in the run denies"
	}
	return string(r)
}

// View implements search.Viewer: the tool's declaration as JSON, as the
// request carries it.
func (s *Simulator) View(id corpus.ToolID) (search.ToolView, bool) {
	e, ok := s.byID[id]
	if !ok || !e.Declared {
		return search.ToolView{}, false
	}
	notes := []string{"declared in every request (no tool search)"}
	if e.Short {
		notes = append(notes, fmt.Sprintf("name shortened to %d characters (first 30 + \"...\" + last 30); the server is still called with %q", MaxNameLength, e.Tool.Name))
	}
	return search.ToolView{Tool: id, Name: e.Name, Text: e.Text, Tokens: e.Tokens, Notes: notes}, true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
