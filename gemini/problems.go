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
	CodeOverwritten   = "gemini-overwritten"    // Overwritten (§2 "Collisions")
	CodeShortened     = "gemini-name-length"    // a name over 63 characters (§2)
	CodeUntrusted     = "gemini-untrusted"      // NoAllowRule (§1, §5)
	CodeTrustMismatch = "gemini-trust-mismatch" // RuleMissesName (§2)
	CodeAllowNeeded   = "gemini-allow-needed"   // every server: headless runs need an allow rule (§5)
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
			diag(corpus.Warning, CodeShortened, t, "name", fmt.Sprintf("Gemini CLI names it %s: mcp_%s_%s is over %d characters, so it keeps the first 30 and the last 30 around \"...\"; the model reads a cut name (and the server still gets %q)",
				e.Name, t.Server, t.Name, MaxNameLength, t.Name))
		}
		switch e.Why {
		case Refused:
			if !dropped[t.Server] {
				dropped[t.Server] = true
				diag(corpus.Error, CodeServerDropped, t, refusedField(t), "Gemini CLI's MCP SDK refuses the whole tools/list answer ("+e.Detail+"), so none of the server's tools is declared")
			} else {
				diag(corpus.Error, CodeServerDropped, t, "", "not declared: the server's tools/list answer is refused because of another tool ("+e.Detail+")")
			}
		case LaterPage:
			diag(corpus.Warning, CodeLaterPage, t, "", "past the first tools/list page: Gemini CLI lists tools once and ignores nextCursor, so the tool is never declared; serve every tool on the first page")
		case Overwritten:
			w := e.Winner
			diag(corpus.Warning, CodeOverwritten, t, "name", fmt.Sprintf("Gemini CLI names it %s, as it names %s/%s; the tool registered last keeps the name (%s/%s here; across servers, whichever connects last), so the model never sees this one; rename one of them",
				e.Name, w.Server, w.Name, w.Server, w.Name))
		case RuleMissesName:
			diag(corpus.Warning, CodeTrustMismatch, t, "name", fmt.Sprintf("a headless run (gemini -p) denies it although the server is trusted or allowed: the allow rule matches names starting %q and Gemini CLI names the tool %s; rename the server to letters, digits, '_', '-', '.' or ':' (and keep server + tool under 60 characters)",
				TrustPrefix(t.Server), e.Name))
		}
	}
	// Per server: headless runs need an allow rule.
	seen := map[string]bool{}
	for _, e := range s.d.All {
		sv := e.Tool.Server
		if seen[sv] {
			continue
		}
		seen[sv] = true
		n := 0
		for _, x := range s.d.All {
			if x.Tool.Server == sv && x.Why == NoAllowRule {
				n++
			}
		}
		switch {
		case n > 0:
			out = append(out, corpus.Diagnostic{Severity: corpus.Warning, Code: CodeUntrusted, Client: client, File: src[sv], Server: sv,
				Message: fmt.Sprintf("no allow rule for the server: a headless run (gemini -p) denies its tools and declares none of them (%d %s); give it \"trust\": true, list it in mcp.allowed or pass --allowed-mcp-server-names %s", n, plural(n, "tool", "tools"), sv)})
		case s.d.Config.AllTrusted && !s.d.Config.YOLO:
			out = append(out, corpus.Diagnostic{Severity: corpus.Info, Code: CodeAllowNeeded, Client: client, File: src[sv], Server: sv,
				Message: "a headless run (gemini -p) declares the server's tools only when an allow rule covers it (\"trust\": true, mcp.allowed or --allowed-mcp-server-names); toolfind assumes one (--gemini-trusted lists the servers that have one)"})
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
