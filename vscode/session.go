package vscode

import (
	"fmt"
	"strings"
)

// Session follows one conversation's virtual tools across turns
// (copilot.md §3.4): calling a stub expands its group (ToolGrouping.didCall)
// and is answered locally with "Tools activated: a, b, …"; the next
// request lists the group's tools in place of the stub. Before each
// request, while the flattened list is over 128 (over 96 right after a
// cache invalidation), the expanded group used longest ago is collapsed
// again; activate_embeddings never collapses.
type Session struct {
	s         *Simulator
	turn      int
	lastUsed  map[*Group]int // expanded groups → lastUsedOnTurn
	predicted *Group
}

// NewSession starts a conversation; prompt feeds activate_embeddings.
func (s *Simulator) NewSession(prompt string) *Session {
	ss := &Session{s: s, lastUsed: map[*Group]int{}}
	if p := s.Predicted(prompt); len(p) > 0 {
		ss.predicted = &Group{Name: EmbeddingsGroup, Description: EmbeddingsDescription, Tools: p, Kind: "embeddings"}
	}
	return ss
}

// Expand marks a group expanded as if the user referenced one of its
// tools (#tool, ensureExpanded).
func (ss *Session) Expand(name string) error {
	g := ss.group(name)
	if g == nil {
		return fmt.Errorf("no virtual tool %q in this request", name)
	}
	ss.lastUsed[g] = ss.turn
	return nil
}

func (ss *Session) group(name string) *Group {
	for _, g := range ss.s.layout.Groups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// Call is the model calling a stub on the current turn: the local tool
// result. An unknown name is an error.
func (ss *Session) Call(name string) (string, error) {
	g := ss.group(name)
	if g == nil {
		return "", fmt.Errorf("no virtual tool %q in this request", name)
	}
	ss.lastUsed[g] = ss.turn
	names := make([]string, len(g.Tools))
	for i, t := range g.Tools {
		names[i] = t.Name
	}
	// "comma-separated" (§3.4); toolfind joins with ", ".
	return ActivatedPrefix + strings.Join(names, ", "), nil
}

// Request is the next request's MCP function names in order (the
// built-ins, counted in Count, come before them), after collapsing as
// §3.4 says; afterInvalidation uses the 96 target. Collapsed names the
// groups collapsed; the turn advances.
type Request struct {
	Names     []string
	Count     int
	Collapsed []string
	Error     string
}

// Next computes the next request and advances the turn.
func (ss *Session) Next(afterInvalidation bool) Request {
	limit := HardToolLimit
	if afterInvalidation {
		limit = TrimThreshold
	}
	l := ss.s.layout
	var r Request
	for {
		r.Names = ss.flatten()
		r.Count = l.Builtins + len(r.Names)
		if r.Count <= limit {
			break
		}
		var oldest *Group
		for _, g := range l.Groups { // request order breaks ties
			if u, ok := ss.lastUsed[g]; ok && (oldest == nil || u < ss.lastUsed[oldest]) {
				oldest = g
			}
		}
		if oldest == nil {
			break
		}
		delete(ss.lastUsed, oldest)
		r.Collapsed = append(r.Collapsed, oldest.Name)
	}
	r.Error = limitError(VirtualTools, r.Count)
	ss.turn++
	return r
}

func (ss *Session) flatten() []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, e := range ss.s.layout.Entries {
		if e.Group == nil {
			add(e.Tool.Name)
			continue
		}
		if _, ok := ss.lastUsed[e.Group]; ok {
			for _, t := range e.Group.Tools {
				add(t.Name)
			}
		} else {
			add(e.Group.Name)
		}
	}
	if ss.predicted != nil {
		for _, t := range ss.predicted.Tools {
			add(t.Name)
		}
	}
	return out
}
