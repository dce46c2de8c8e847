package gemini

import (
	"fmt"

	"github.com/toolfind/toolfind/corpus"
)

// Diagnostic codes (search.Reporter). lint maps each to a rule.
const (
	CodeToolLimit     = "gemini-tool-limit"     // more than 512 declarations (§1)
	CodeServerDropped = "gemini-server-dropped" // Refused (§1)
	CodeLaterPage     = "gemini-later-page"     // LaterPage (§1 "Pagination")
	CodeOverwritten   = "gemini-overwritten"    // Overwritten by another server's tool (§2 "Collisions")
	CodeDuplicate     = "gemini-duplicate"      // Overwritten by a later definition in the same server
	CodeShortened     = "gemini-name-length"    // a name over 63 characters (§2)
	CodeUntrusted     = "gemini-untrusted"      // NoAllowRule (§1, §5)
	CodeTrustMismatch = "gemini-trust-mismatch" // RuleMissesName (§2)
	CodeShadowed      = "gemini-shadowed"       // Shadowed (found with the real CLI)
)

// Problems implements search.Reporter: per tool definition in catalog
// order, what Gemini CLI does to it that the author can fix; then the
// per-server and request-wide findings.
func (s *Simulator) Problems() []corpus.Diagnostic {
	s.problemsOnce.Do(func() { s.problems = s.buildProblems() })
	return s.problems
}

func (s *Simulator) buildProblems() []corpus.Diagnostic {
	var out []corpus.Diagnostic
	client := ID.String()
	src := map[string]string{}
	for _, sv := range s.cat.Servers {
		if _, ok := src[sv.Name]; !ok {
			src[sv.Name] = sv.Source
		}
	}
	diag := func(sev corpus.Severity, code string, t *corpus.Tool, field, msg string) {
		out = append(out, corpus.Diagnostic{Severity: sev, Code: code, Client: client, File: src[t.Server],
			Server: t.Server, Tool: t.Name, Field: field, Message: msg})
	}
	dropped := map[string]bool{}
	for _, e := range s.d.All {
		t := e.Tool
		if e.Short {
			diag(corpus.Warning, CodeShortened, t, "name", fmt.Sprintf("Gemini CLI's name for it is over %d characters, so the model reads the first 30 and the last 30 around \"...\": %s (the server still gets the original name); shorten server + tool to %d characters or fewer",
				MaxNameLength, e.Name, MaxNameLength-len(ToolPrefix)-1))
		}
		switch e.Why {
		case Refused:
			if e.Cause == t && !dropped[t.Server] {
				dropped[t.Server] = true
				diag(corpus.Error, CodeServerDropped, t, refusedField(t), "Gemini CLI's MCP SDK refuses the whole tools/list answer because of this tool ("+e.Detail+"), so none of the server's tools is declared")
			} else {
				diag(corpus.Error, CodeServerDropped, t, "", "not declared: Gemini CLI's MCP SDK refuses the server's tools/list answer because of another tool ("+e.Detail+")")
			}
		case LaterPage:
			diag(corpus.Warning, CodeLaterPage, t, "", "past the first tools/list page: Gemini CLI lists tools once and ignores nextCursor, so the tool is never declared; serve every tool on the first page")
		case Overwritten:
			w := e.Winner
			if w.Server == t.Server && w.Name == t.Name {
				diag(corpus.Warning, CodeDuplicate, t, "name", "the server lists the name again: Gemini CLI keeps the last definition in the first one's place, so the model never sees this one")
				break
			}
			diag(corpus.Warning, CodeOverwritten, t, "name", fmt.Sprintf("Gemini CLI names it %s, as it names %s/%s: the tool registered last keeps the name (%s/%s with servers in this order; servers connect in parallel, so whichever lists its tools last) and the model never sees the other; rename one of them",
				e.Name, w.Server, w.Name, w.Server, w.Name))
		case Shadowed:
			mode := "a headless run (gemini -p)"
			if s.d.Config.YOLO {
				mode = "a headless run, even under --yolo,"
			}
			diag(corpus.Warning, CodeShadowed, t, "name", fmt.Sprintf("its name is the built-in tool %s, which %s denies, and Gemini CLI then drops every tool named so, the MCP tool %s too; rename the tool",
				e.Detail, mode, e.Name))
		case RuleMissesName:
			diag(corpus.Warning, CodeTrustMismatch, t, "name", fmt.Sprintf("the allow rule of a trusted or allowed server matches names starting %q, but Gemini CLI names the tool %s, so a headless run (gemini -p) denies it; rename the server to letters, digits, '_', '-', '.' or ':' and keep server + tool to %d characters or fewer",
				TrustPrefix(t.Server), e.Name, MaxNameLength-len(ToolPrefix)-1))
		}
	}
	// Per server: headless runs need an allow rule. One pass counts each
	// server's tools without one (a scan of every tool per server was
	// quadratic in the servers), in order of the server's first tool.
	var order []string
	denied := map[string]int{}
	for _, e := range s.d.All {
		sv := e.Tool.Server
		if _, ok := denied[sv]; !ok {
			order = append(order, sv)
			denied[sv] = 0
		}
		if e.Why == NoAllowRule {
			denied[sv]++
		}
	}
	for _, sv := range order {
		if n := denied[sv]; n > 0 {
			out = append(out, corpus.Diagnostic{Severity: corpus.Warning, Code: CodeUntrusted, Client: client, File: src[sv], Server: sv,
				Message: fmt.Sprintf("no allow rule for the server: a headless run (gemini -p) denies its tools and declares none of them (%d %s); give it \"trust\": true, list it in mcp.allowed or pass --allowed-mcp-server-names %s", n, plural(n, "tool", "tools"), sv)})
		}
	}
	if n := s.d.Count(); n > APILimit {
		out = append(out, corpus.Diagnostic{Severity: corpus.Error, Code: CodeToolLimit, Client: client,
			Message: fmt.Sprintf("%d function declarations (%d MCP + %d built-in): the Gemini API refuses more than %d in one request (400 INVALID_ARGUMENT) and Gemini CLI sends them all, so every model request fails; keep the MCP tools at %d or fewer, or exclude some with excludeTools / includeTools",
				n, len(s.d.MCP), n-len(s.d.MCP), APILimit, APILimit-(n-len(s.d.MCP)))})
	}
	return out
}

// refusedField is the member Listable blames, for a location.
func refusedField(t *corpus.Tool) string {
	f, _ := Listable(t)
	return f
}
