package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Approval rules: annotations that make a client gate a call wrongly, or
// not at all. Each finding's consequences are computed by the clients'
// own permission checks (search.Approver, no user rules): per client, the
// modes in which it decides the tool differently with the fix applied —
// what it does now, and what it would do — or, when nothing changes, that
// it decides the same either way (it does not read the annotation) and
// what it does in its default mode.
//
//   - destructive-unmarked: the name, or the first word of the
//     description, says the tool deletes, drops, sends or pays (the verbs
//     in destructiveVerbs) and destructiveHint is absent (readOnlyHint not
//     true; an explicit destructiveHint: false is the author's call). A
//     client that trusts annotations will not gate it (seed "Notes on MCP
//     Design": an omitted irreversibility flag). Fix: destructiveHint: true.
//   - readonly-writes: readOnlyHint: true on a tool whose name, or the
//     first word of its description, says it writes (writeVerbs). Codex
//     runs a read-only tool without asking (codex.md §6.1); Claude Code and
//     Codex run it alongside other calls (seed; codex.md §6.2). Fix:
//     readOnlyHint: false.
//   - interaction-dontask: _meta["anthropic/requiresUserInteraction"] is
//     true: Claude Code asks on every call, whatever the rules and
//     bypassPermissions, and its dontAsk mode refuses every call (seed).
//   - server-unannotated: no tool of the server has an annotation hint:
//     every call asks in Codex's auto mode (a missing hint counts as true,
//     codex.md §6.1) and nothing runs in parallel. The consequence shows
//     what readOnlyHint: true would change on one of its tools; the tools
//     that say they delete are named in its fix instead of one
//     destructive-unmarked finding each.
//
// Words are those of NameWords (name) and the first word of the
// description, so "Lists files; never deletes them" is not a deleter.
var (
	destructiveVerbs = []string{"delete", "deletes", "drop", "drops", "send", "sends", "pay", "pays",
		"remove", "removes", "destroy", "destroys", "purge", "purges", "erase", "erases", "wipe", "wipes"}
	writeVerbs = []string{"write", "writes", "delete", "deletes", "drop", "drops", "send", "sends", "pay", "pays",
		"update", "updates", "insert", "inserts", "upload", "uploads", "overwrite", "overwrites",
		"modify", "modifies", "edit", "edits", "erase", "erases", "purge", "purges", "destroy", "destroys"}
)

// metaRequiresUserInteraction is Claude Code's _meta key (seed).
const metaRequiresUserInteraction = "anthropic/requiresUserInteraction"

// saysVerb returns the first of verbs among the tool's name words or the
// first word of its description, or "".
func saysVerb(t *corpus.Tool, verbs []string) string {
	words := NameWords(t.Name)
	if f := strings.Fields(t.Description); len(f) > 0 {
		if w := NameWords(f[0]); len(w) > 0 {
			words = append(words, w[0])
		}
	}
	for _, w := range words {
		if slices.Contains(verbs, w) {
			return w
		}
	}
	return ""
}

func hasAnyHint(a corpus.Annotations) bool {
	return a.ReadOnlyHint != nil || a.DestructiveHint != nil || a.IdempotentHint != nil || a.OpenWorldHint != nil
}

// approvalFindings runs the approval rules over cat.
func approvalFindings(cat *corpus.Catalog, sims []search.Simulator, dd defs, loc *locator, cfg Config) []*Finding {
	apps, _ := search.Approvers(sims)
	var usable []search.Approver
	for _, a := range apps {
		if a.ApprovalInfo().NotSimulated == "" {
			usable = append(usable, a)
		}
	}
	yes, no := true, false
	var out []*Finding
	for _, s := range cat.Servers {
		var first []*corpus.Tool // first definition of each name
		for _, t := range s.Tools {
			if defNumber(dd, s, t) <= 1 {
				first = append(first, t)
			}
		}
		// A server without any annotation gets one finding; the tools that
		// say they delete are named in its fix.
		bare := len(first) > 0 && !slices.ContainsFunc(first, func(t *corpus.Tool) bool { return hasAnyHint(t.Annotations) })
		var deleters []string
		for _, t := range first {
			at := func(path ...string) Location {
				return loc.locate(where{server: s, tool: t, path: path})
			}
			ann := t.Annotations
			if cfg.enabled(RuleDestructiveUnmarked) && ann.DestructiveHint == nil && (ann.ReadOnlyHint == nil || !*ann.ReadOnlyHint) {
				if verb := saysVerb(t, destructiveVerbs); verb != "" && bare {
					deleters = append(deleters, t.Name)
				} else if verb != "" {
					fixed := *t
					fixed.Annotations.DestructiveHint = &yes
					out = append(out, &Finding{Rule: RuleDestructiveUnmarked, Severity: corpus.Warning,
						Cause:        fmt.Sprintf("%s says %q but has no destructiveHint", t.ID(), verb),
						Fix:          `add "destructiveHint": true to its annotations`,
						Consequences: approvalEffects(usable, t, &fixed, "with destructiveHint: true"),
						Location:     at("annotations")})
				}
			}
			if cfg.enabled(RuleReadOnlyWrites) && ann.ReadOnlyHint != nil && *ann.ReadOnlyHint {
				if verb := saysVerb(t, writeVerbs); verb != "" {
					fixed := *t
					fixed.Annotations.ReadOnlyHint = &no
					out = append(out, &Finding{Rule: RuleReadOnlyWrites, Severity: corpus.Warning,
						Cause:        fmt.Sprintf("%s has readOnlyHint: true but says %q", t.ID(), verb),
						Fix:          `set "readOnlyHint": false (and destructiveHint to say whether it deletes)`,
						Consequences: approvalEffects(usable, t, &fixed, "with readOnlyHint: false"),
						Location:     at("annotations", "readOnlyHint")})
				}
			}
			if cfg.enabled(RuleInteractionDontAsk) {
				if v, ok := t.MetaBool(metaRequiresUserInteraction); ok && v {
					fixed := *t
					// The approval checks read no other _meta key.
					fixed.Meta = ojson.Value{}
					out = append(out, &Finding{Rule: RuleInteractionDontAsk, Severity: corpus.Info,
						Cause:        fmt.Sprintf("%s sets _meta %s: every call needs the user", t.ID(), metaRequiresUserInteraction),
						Fix:          "keep it only if every call must be confirmed; users of a mode that never asks cannot call the tool",
						Consequences: approvalEffects(usable, t, &fixed, "without the key"),
						Location:     at("_meta", metaRequiresUserInteraction)})
				}
			}
		}
		if cfg.enabled(RuleServerUnannotated) && bare {
			fix := `add "annotations" to every tool: "readOnlyHint": true for those that only read, "destructiveHint" for the others`
			switch len(deleters) {
			case 0:
			case 1:
				fix += fmt.Sprintf(` ("destructiveHint": true at least for %s, which says it deletes, drops, sends or pays)`, deleters[0])
			default:
				fix += fmt.Sprintf(` ("destructiveHint": true at least for the %d that say they delete, drop, send or pay: %s)`, len(deleters), listNames(deleters, 3))
			}
			out = append(out, &Finding{Rule: RuleServerUnannotated, Severity: corpus.Warning,
				Cause: fmt.Sprintf("no tool of server %s has an annotation hint (readOnlyHint, destructiveHint, openWorldHint, idempotentHint)", s.Name),
				Fix:   fix,
				Consequences: serverEffects(usable, first, func(t *corpus.Tool) *corpus.Tool {
					c := *t
					c.Annotations.ReadOnlyHint = &yes
					return &c
				}),
				Location: loc.locate(where{server: s, path: []string{"name"}})})
		}
	}
	return out
}

// readVerbs start the names of tools that usually only read.
var readVerbs = []string{"get", "list", "read", "search", "find", "describe", "show", "query", "fetch", "lookup"}

// readsByName reports whether the tool's name starts with a read verb.
func readsByName(t *corpus.Tool) bool {
	w := NameWords(t.Name)
	return len(w) > 0 && slices.Contains(readVerbs, w[0])
}

// listNames lists at most n names, then how many more.
func listNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(", … +%d", len(names)-n)
}

// approvalEffects compares each client's decisions on t and on fixed in
// every simulated mode, with no rules and, for a client that can write
// one (search.ServerAllower), under the rule allowing t's server. fix
// names the change ("with destructiveHint: true").
func approvalEffects(apps []search.Approver, t, fixed *corpus.Tool, fix string) []Consequence {
	var out []Consequence
	for _, a := range apps {
		info := a.ApprovalInfo()
		type scenario struct {
			label string
			rules []search.Rule
		}
		scenarios := []scenario{{}}
		if sa, ok := a.(search.ServerAllower); ok {
			text := sa.AllowServerRule(t.Server)
			if p, err := a.ParseApprovalRule(search.Allow, text); err == nil {
				scenarios = append(scenarios, scenario{"with allow rule " + text,
					[]search.Rule{{Kind: search.Allow, Text: text, Parsed: p}}})
			}
		}
		if a.Approve(t, info.DefaultMode(), nil).NotOffered {
			continue // other rules say why the client never shows it
		}
		var segs []string
		for _, sc := range scenarios {
			var now, then []search.Verdict
			var modes []string
			for _, m := range info.Modes {
				if m.NotSimulated != "" {
					continue
				}
				v, w := a.Approve(t, m.Name, sc.rules), a.Approve(fixed, m.Name, sc.rules)
				if v.Decision != w.Decision || v.Parallel != w.Parallel {
					now, then, modes = append(now, v), append(then, w), append(modes, m.Name)
				}
			}
			if len(modes) == 0 {
				continue
			}
			changed := make([]bool, len(now)) // the decision, not only parallel
			parallel := false
			for i := range now {
				changed[i] = now[i].Decision != then[i].Decision
				parallel = parallel || now[i].Parallel != then[i].Parallel
			}
			seg := describeModes(now, modes, false, changed, parallel) + " (" + fix + " it would " + describeModes(then, modes, true, changed, parallel) + ")"
			if sc.label != "" {
				seg = sc.label + ": " + seg
			}
			segs = append(segs, seg)
		}
		var effect string
		if len(segs) == 0 {
			def := info.DefaultMode()
			if def == "" {
				continue
			}
			v := a.Approve(t, def, nil)
			effect = fmt.Sprintf("decides the same %s (%s in %s mode: %s)", fix, describe(v.Decision, false), def, v.Because)
		} else {
			effect = strings.Join(segs, "; ")
		}
		out = append(out, Consequence{Clients: []string{info.Client.String()}, Effect: effect, Tools: []corpus.ToolID{t.ID()}})
	}
	return out
}

// serverEffects says what each client does with the server's tools in its
// default mode, and what fix would change on the first tool.
func serverEffects(apps []search.Approver, tools []*corpus.Tool, fix func(*corpus.Tool) *corpus.Tool) []Consequence {
	var out []Consequence
	for _, a := range apps {
		info := a.ApprovalInfo()
		def := info.DefaultMode()
		if def == "" {
			continue
		}
		count := map[search.Decision]int{}
		parallel, hidden := 0, 0
		var ids []corpus.ToolID
		var sample *corpus.Tool // the first it offers that reads by its name, else the first
		for _, t := range tools {
			v := a.Approve(t, def, nil)
			if v.NotOffered {
				hidden++
				continue
			}
			if sample == nil || !readsByName(sample) && readsByName(t) {
				sample = t
			}
			count[v.Decision]++
			if v.Parallel {
				parallel++
			}
			ids = append(ids, t.ID())
		}
		if sample == nil {
			continue // the client offers none of them; other rules say why
		}
		offered := len(tools) - hidden
		var parts []string
		for _, d := range []search.Decision{search.Ask, search.Deny, search.Run} {
			if n := count[d]; n > 0 {
				parts = append(parts, fmt.Sprintf("%s for %d of %d", describe(d, false), n, offered))
			}
		}
		par := "none runs in parallel"
		if parallel > 0 {
			par = fmt.Sprintf("%d may run in parallel", parallel)
		}
		effect := fmt.Sprintf("in %s mode %s tools it offers, %s", def, strings.Join(parts, ", "), par)
		one := approvalEffects([]search.Approver{a}, sample, fix(sample), "with readOnlyHint: true")
		if len(one) == 1 {
			effect += fmt.Sprintf("; for %s: %s", sample.Name, one[0].Effect)
		}
		out = append(out, Consequence{Clients: []string{info.Client.String()}, Effect: effect, Tools: ids})
	}
	return out
}

// describe words a decision, in the third person or (inf) as after
// "would".
func describe(d search.Decision, inf bool) string {
	switch {
	case d == search.Run && inf:
		return "run without asking"
	case d == search.Run:
		return "runs without asking"
	case d == search.Ask && inf:
		return "ask"
	case d == search.Ask:
		return "asks"
	case inf:
		return "refuse"
	}
	return "refuses"
}

// describeModes words verdicts in the given modes: by decision ("asks in
// default, plan, refuses in dontAsk") over the modes whose decision
// changed, and whether the calls run in parallel when parallel.
func describeModes(vs []search.Verdict, modes []string, inf bool, changed []bool, parallel bool) string {
	var parts []string
	for _, d := range []search.Decision{search.Run, search.Ask, search.Deny} {
		var in []string
		for i, v := range vs {
			if changed[i] && v.Decision == d {
				in = append(in, modes[i])
			}
		}
		if len(in) > 0 {
			parts = append(parts, describe(d, inf)+" in "+strings.Join(in, ", "))
		}
	}
	decisions := len(parts) > 0
	if parallel {
		par := 0
		for _, v := range vs {
			if v.Parallel {
				par++
			}
		}
		run := "runs"
		if inf {
			run = "run"
		}
		switch par {
		case len(vs):
			parts = append(parts, run+" it in parallel with other calls")
		case 0:
			parts = append(parts, run+" it alone")
		default:
			parts = append(parts, run+" it in parallel in some modes")
		}
	}
	if len(parts) > 1 && decisions && parallel {
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return strings.Join(parts, ", ")
}
