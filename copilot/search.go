package copilot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/search"
)

// Messages of tool_search_tool (copilot.md §1.1, observed).
const (
	msgNoMatch = "No tools found matching pattern '%s'."
	msgInvalid = "Error: Invalid regex pattern '%s': %s"
	// msgTimeout is toolfind's wording: the CLI's own time-budget message
	// is not known exactly.
	msgTimeout = "Error: the tool search ran out of time for pattern '%s'."
)

// Run is one tool_search_tool call: the matching tools in the order the
// CLI returns them, or the text the model gets instead.
type Run struct {
	// Names are the tool_reference names, in order.
	Names []string
	// Index are the entries' positions (Simulator.Entries).
	Index []int
	// Tiers says, per hit, what matched: "name", "description" or
	// "parameter".
	Tiers []string
	// Text is the message when there is no hit ("No tools found…", an
	// invalid-pattern error).
	Text string
	// Error is set for an invalid pattern or a timeout.
	Error string
}

var tierNames = [...]string{"name", "description", "parameter"}

// RunSearch runs tool_search_tool (copilot.md §1.1, observed in
// toolfind's probes of the real CLI):
//
//  1. The pattern is compiled as new RegExp(pattern, "i"); an invalid one
//     gives "Error: Invalid regex pattern '<p>': <reason>".
//  2. Only deferred tools are searched (every MCP tool in the
//     reminder-only mode of chat completions); builtins never.
//  3. Each tool is matched against its name, its description and each
//     top-level parameter's name and description, each alone.
//  4. Tools whose name matches come first, then those whose description
//     matches, then those matched by a parameter; within each, catalog
//     order (the raw server name, then the final name).
//  5. The first limit (default 5) are returned as tool_reference blocks;
//     none gives "No tools found matching pattern '<p>'.".
func (s *Simulator) RunSearch(pattern string, limit int) Run {
	if limit <= 0 {
		limit = DefaultLimit
	}
	m, err := compilePattern(pattern)
	if err != nil {
		var pe *patternError
		reason := err.Error()
		if errors.As(err, &pe) {
			reason = pe.reason
		}
		t := fmt.Sprintf(msgInvalid, pattern, reason)
		return Run{Text: t, Error: t}
	}
	defer m.release()
	var byTier [3][]int
	for i := range s.entries {
		if !s.entries[i].Deferred {
			continue
		}
		for j, text := range s.texts[i] {
			ok, err := m.match(text)
			if err != nil {
				t := fmt.Sprintf(msgTimeout, pattern)
				return Run{Text: t, Error: t}
			}
			if ok {
				byTier[tier(j)] = append(byTier[tier(j)], i)
				break
			}
		}
	}
	var r Run
	for t, list := range byTier {
		for _, i := range list {
			if len(r.Index) == limit {
				break
			}
			r.Index = append(r.Index, i)
			r.Names = append(r.Names, s.entries[i].Name)
			r.Tiers = append(r.Tiers, tierNames[t])
		}
	}
	if len(r.Names) == 0 {
		r.Text = fmt.Sprintf(msgNoMatch, pattern)
	}
	return r
}

// ResultText is what the model reads of a run: the tool_reference blocks
// as the request carries them, or the message.
func ResultText(r Run) string {
	if len(r.Names) == 0 {
		return r.Text
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range r.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"tool_reference","tool_name":`)
		search.AppendSerdeString(&b, n)
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.String()
}

// searchPattern is Search in the modes with tool_search_tool.
func (s *Simulator) searchPattern(q search.Query) (search.Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	res := search.Result{Client: ID.String(), Limit: limit, Hits: q.Hits[:0]}
	if res.Hits == nil {
		res.Hits = []search.Hit{}
	}
	if limit > MaxLimit {
		res.Notes = append(res.Notes, fmt.Sprintf("limit %d is above the schema's maximum of %d", limit, MaxLimit))
	}
	if n := len([]rune(q.Text)); n > MaxPattern {
		res.Notes = append(res.Notes, fmt.Sprintf("the pattern has %d characters; the tool's schema allows %d, so a model would not send it", n, MaxPattern))
	}
	run := s.RunSearch(q.Text, limit)
	for k, i := range run.Index {
		e := s.entries[i]
		h := search.Hit{Rank: k + 1, RankWorst: k + 1, PWithinLimit: 1, Tool: e.Tool.ID(), Name: e.Name}
		if !q.Brief {
			h.Why = []string{"the pattern matches the tool's " + run.Tiers[k]}
		}
		res.Hits = append(res.Hits, h)
	}
	res.Shown = ResultText(run)
	res.ShownTokens = search.CeilDiv(len(res.Shown), 4)
	res.Error = run.Error
	if !q.Brief {
		res.Notes = append(res.Notes, fmt.Sprintf("the query is tool_search_tool's pattern (%d tools > %d: %s)", s.Total(), DeferThreshold, s.mode))
		if s.mode == ReminderOnly {
			res.Notes = append(res.Notes, "chat completions: every tool definition is in the request anyway; the search only points the model at names")
		}
		if strings.HasPrefix(run.Error, "Error: Invalid regex") {
			res.Notes = append(res.Notes, "the reason after the pattern is the CLI's wording for the common mistakes (unbalanced brackets, a lone quantifier…); for rarer ones it may differ")
		}
		res.Extra = map[string]any{"mode": s.mode.String(), "pattern": q.Text}
	}
	return res, nil
}
