package vscode

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

// Outline implements search.Outliner: the request's arrangement, one
// paragraph a line: the decision, each toolset's slots and outcome, each
// stub with its tools, the flat and dropped tools, the stub wrapper text
// once, and what is approximate.
func (s *Simulator) Outline() []string {
	l := s.layout
	if l.Mechanism == VirtualTools && l.count(Grouped) == 0 && l.count(Dropped) == 0 && limitError(l.Mechanism, l.Count()) == "" {
		// Nothing grouped: one paragraph.
		why := fmt.Sprintf("fewer than %d, so all %d MCP tools are flat", StartGroupingAfterToolCount, l.MCP)
		if l.Grouping {
			why = fmt.Sprintf("≥ %d, virtual tools, but every server fits its slots (%d), so all %d MCP tools are flat", StartGroupingAfterToolCount, l.Available, l.MCP)
		}
		return []string{fmt.Sprintf("%s (%s): %d tools in a request (%d built-in + %d MCP), %s; %s",
			ID, s.opts.model(), l.Builtins+l.MCP, l.Builtins, l.MCP, why, s.approxNote(false))}
	}
	out := []string{ID.String() + ": " + s.DecisionNote()}
	switch {
	case l.Mechanism != VirtualTools:
		names := s.DeferredNames()
		out = append(out, fmt.Sprintf("<availableDeferredTools> lists %d MCP tools, sorted: %s", len(names), listNames(names, 12)))
		if s.opts.searchMode() == ServerSearch && l.Mechanism == AnthropicSearch {
			out = append(out, "first entry: "+ToolSearchToolRegex+" (type "+ToolSearchToolRegexType+", defer_loading false), run by Anthropic")
		} else if s.opts.searchMode() == ServerSearch {
			out = append(out, "first entry: OpenAI's hosted tool_search ({\"type\": \"tool_search\"}), run by OpenAI")
		}
		if e := limitError(l.Mechanism, l.Count()); e != "" {
			out = append(out, "every request fails: "+e)
		}
	default:
		for _, ts := range l.Toolsets {
			out = append(out, fmt.Sprintf("toolset mcp_%s: %d tools, %d slots: %s", ts.Server, len(ts.Tools), ts.Slots, ts.Outcome))
		}
		for _, g := range l.Groups {
			names := make([]string, len(g.Tools))
			for i, t := range g.Tools {
				names[i] = t.Name
			}
			out = append(out, fmt.Sprintf("stub %s (%d tools, %d tokens): %s", g.Name, len(g.Tools), g.Tokens, listNames(names, 8)))
		}
		var flat, dropped []string
		for _, t := range l.Tools {
			switch t.Place {
			case Flat:
				flat = append(flat, t.Name)
			case Dropped:
				dropped = append(dropped, t.Name)
			}
		}
		if len(flat) > 0 {
			out = append(out, fmt.Sprintf("flat: %d tools: %s", len(flat), listNames(flat, 12)))
		}
		if len(dropped) > 0 {
			out = append(out, fmt.Sprintf("dropped: %d tools: %s", len(dropped), listNames(dropped, 12)))
		}
		out = append(out, fmt.Sprintf("request: %d built-in + %d MCP entries (%d flat %s, %d %s) = %d functions", l.Builtins, len(l.Entries), len(flat), plural(len(flat), "tool", "tools"), len(l.Groups), plural(len(l.Groups), "stub", "stubs"), l.Count()))
		if len(l.Groups) > 0 {
			out = append(out, "each stub has no parameters and the description "+quoteText(SummaryPrefix+"<summary>"+SummarySuffix)+"; calling it answers "+quoteText(ActivatedPrefix+"<its tools, comma-separated>")+" and the next request lists its tools in its place")
		}
		if l.Grouping {
			out = append(out, "with a prompt, "+EmbeddingsGroup+" adds the 10 tools most like it (always expanded)")
		}
		if e := limitError(l.Mechanism, l.Count()); e != "" {
			out = append(out, "every request fails: "+e)
		}
	}
	return append(out, s.approxNote(false))
}

func listNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// quoteText shows a text with its line breaks as \n.
func quoteText(s string) string {
	return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"`
}

// Diagnostic codes (search.Reporter); lint maps each to a rule.
const (
	// CodeToolCount: the request is grouped (≥ 64 tools), drops tools,
	// or is over 128 (§3.2, §3.3).
	CodeToolCount = "vscode-tool-count"
	// CodeNameInvalid: the name fails ^[a-zA-Z0-9_-]+$ (§3.5).
	CodeNameInvalid = "vscode-name-invalid"
)

// Problems implements search.Reporter: per tool, names that fail the
// extension's check; then the request-wide finding.
func (s *Simulator) Problems() []corpus.Diagnostic {
	l := s.layout
	client := ID.String()
	var out []corpus.Diagnostic
	src := map[string]string{}
	for _, sv := range s.cat.Servers {
		if _, ok := src[sv.Name]; !ok {
			src[sv.Name] = sv.Source
		}
	}
	for _, t := range l.Tools {
		if !ValidFunctionName(t.Name) {
			out = append(out, corpus.Diagnostic{Severity: corpus.Warning, Code: CodeNameInvalid, Client: client, File: src[t.T.Server],
				Server: t.T.Server, Tool: t.T.Name, Field: "name",
				Message: fmt.Sprintf("VS Code names it %s, which fails Copilot Chat's function-name check ^[a-zA-Z0-9_-]+$ (the server label keeps '.', the tool name is not rewritten); use letters, digits, '_' and '-'", t.Name)})
		}
	}
	total := l.Builtins + l.MCP
	switch {
	case l.Mechanism == VirtualTools && l.Grouping && (l.count(Grouped) > 0 || l.count(Dropped) > 0 || limitError(l.Mechanism, l.Count()) != ""):
		// Grouping that leaves every tool flat is not a finding.
		grouped, dropped := l.count(Grouped), l.count(Dropped)
		sev := corpus.Warning
		msg := fmt.Sprintf("%d tools in a request (%d VS Code built-ins, --vscode-builtins, + %d MCP) ≥ %d: VS Code Copilot Chat (%s) groups them into virtual tools within %d slots (%d for MCP entries): %d of the %d MCP tools are flat, %d sit behind %d activate_* stubs (one call away)",
			total, l.Builtins, l.MCP, StartGroupingAfterToolCount, s.opts.model(), ToolsAndGroupsLimit, l.Available, l.count(Flat), l.MCP, grouped, len(l.Groups))
		if dropped > 0 {
			sev = corpus.Error
			msg += fmt.Sprintf(", %d are in no entry and never reach the model", dropped)
		}
		if e := limitError(l.Mechanism, l.Count()); e != "" {
			sev = corpus.Error
			msg += "; every request fails: " + e
		}
		msg += "; fewer tools per server keep more of them flat (" + s.approxShort(false) + "; show --client vscode says what stands in)"
		out = append(out, corpus.Diagnostic{Severity: sev, Code: CodeToolCount, Client: client, Message: msg})
	case l.Mechanism != VirtualTools:
		if e := limitError(l.Mechanism, l.Count()); e != "" {
			out = append(out, corpus.Diagnostic{Severity: corpus.Error, Code: CodeToolCount, Client: client,
				Message: fmt.Sprintf("%d tools in a request (%d VS Code built-ins, --vscode-builtins, + %d MCP) with %s: VS Code Copilot Chat refuses more than %d (%q) unless Anthropic tool search is on", total, l.Builtins, l.MCP, l.Mechanism, HardToolLimit, e)})
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
