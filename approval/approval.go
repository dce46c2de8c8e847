// Package approval answers a server author's second question, after "will
// it be found": when the model calls the tool, does the client run it
// without asking, ask the user, or refuse — and may the call run at the
// same time as others?
//
// Algorithm (Run):
//
//  1. From the selected simulators, one search.Approver per client
//     (search.Approvers): simulators of one client that share a permission
//     check (Codex code mode and Codex tool_search) are asked once.
//     Simulators without one (Grok Build, OpenCode) are listed as not
//     simulated, with no decision guessed; so are the modes an approver
//     lists as not simulated (Claude Code's auto classifier) and profiles
//     it does not cover.
//  2. The user's --allow and --deny rules are routed to the clients whose
//     syntax they are written in (search.ParseRules); a rule no selected
//     client reads, or one its client cannot use, is an error.
//  3. Every tool (first definition of each name, catalog order) is decided
//     in every simulated mode of every approver, in mode order
//     (search.Decide).
//
// The report is JSON rows {client, mode, tool, decision, parallel,
// because, parallel_because}; WriteText prints one matrix per client
// (tools × modes, the reasons as numbered notes under it) fitted to a
// width; WriteMarkdown the same as Markdown tables for a pull request.
package approval

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// NotSimulated is a client, or one mode of it, whose decisions toolfind
// does not simulate. Mode is empty when no mode of the client is.
type NotSimulated struct {
	Client  string `json:"client"`
	Mode    string `json:"mode,omitempty"`
	Because string `json:"because"`
}

// Report is the result of Run.
type Report struct {
	Rows         []search.Verdict `json:"approvals"`
	NotSimulated []NotSimulated   `json:"not_simulated"`
	// Notes are remarks: rules a client does not read, which profile
	// answers for another, what a decision assumes.
	Notes []string `json:"notes,omitempty"`

	clients []clientInfo // in report order, for the renderers
}

// clientInfo is what the renderers need of one approver.
type clientInfo struct {
	name  string
	modes []search.ApprovalMode // simulated ones
	notes []string
	rules []search.Rule
}

// notSimulatedClient is why a client without an Approver is not simulated.
const notSimulatedClient = "toolfind has no measurement or published rule of how this client gates MCP tool calls"

// Run decides every tool in tools (nil: every tool of cat, first
// definition of each name) for every approver among sims, in every
// simulated mode, under the user's rules.
func Run(cat *corpus.Catalog, sims []search.Simulator, tools []*corpus.Tool, rules []search.RuleText) (*Report, error) {
	if tools == nil {
		tools = cat.UniqueTools()
	}
	apps, without := search.Approvers(sims)
	parsed, notes, err := search.ParseRules(apps, rules)
	if err != nil {
		return nil, err
	}
	rep := &Report{Rows: []search.Verdict{}, NotSimulated: []NotSimulated{}, Notes: notes}
	for _, sim := range sims {
		a, ok := sim.(search.Approver)
		if !ok {
			continue
		}
		if id := a.ApprovalInfo().Client; id != sim.Client() {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s decides approvals as %s", sim.Client(), id))
		}
	}
	for _, a := range apps {
		info := a.ApprovalInfo()
		name := info.Client.String()
		if info.NotSimulated != "" {
			rep.NotSimulated = append(rep.NotSimulated, NotSimulated{Client: name, Because: info.NotSimulated})
			continue
		}
		ci := clientInfo{name: name, notes: info.Notes, rules: parsed[info.Client]}
		for _, m := range info.Modes {
			if m.NotSimulated != "" {
				rep.NotSimulated = append(rep.NotSimulated, NotSimulated{Client: name, Mode: m.Name, Because: m.NotSimulated})
				continue
			}
			ci.modes = append(ci.modes, m)
		}
		for _, n := range info.Notes {
			rep.Notes = append(rep.Notes, name+": "+n)
		}
		rep.clients = append(rep.clients, ci)
		rep.Rows = append(rep.Rows, search.Decide(a, tools, parsed[info.Client])...)
	}
	for _, sim := range without {
		rep.NotSimulated = append(rep.NotSimulated, NotSimulated{Client: sim.Client().String(), Because: notSimulatedClient})
	}
	return rep, nil
}

// DefaultVerdicts returns, per approver among sims, the decision for t in
// the client's default mode with no user rules (what `show` notes); a
// client whose default mode is not simulated is left out.
func DefaultVerdicts(sims []search.Simulator, t *corpus.Tool) []search.Verdict {
	apps, _ := search.Approvers(sims)
	var out []search.Verdict
	for _, a := range apps {
		info := a.ApprovalInfo()
		mode := info.DefaultMode()
		if mode == "" {
			continue
		}
		v := a.Approve(t, mode, nil)
		v.Client, v.Mode, v.Tool = info.Client.String(), mode, t.ID()
		out = append(out, v)
	}
	return out
}

// Summary is one verdict in a few words: "ask, serial: no allow rule
// matches (…)".
func Summary(v search.Verdict) string {
	par := "runs alone"
	if v.Parallel {
		par = "may run in parallel"
	}
	return fmt.Sprintf("%s in %s mode, %s: %s", v.Decision, v.Mode, par, v.Because)
}

// rowsOf returns the verdicts of one client, by tool then mode.
func (r *Report) rowsOf(client string) (tools []corpus.ToolID, cells map[corpus.ToolID]map[string]search.Verdict) {
	cells = map[corpus.ToolID]map[string]search.Verdict{}
	for _, v := range r.Rows {
		if v.Client != client {
			continue
		}
		m, ok := cells[v.Tool]
		if !ok {
			m = map[string]search.Verdict{}
			cells[v.Tool] = m
			tools = append(tools, v.Tool)
		}
		m[v.Mode] = v
	}
	return tools, cells
}

// footnotes numbers distinct reasons in order of first use.
type footnotes struct {
	texts []string
	index map[string]int
}

func (f *footnotes) ref(text string) int {
	if f.index == nil {
		f.index = map[string]int{}
	}
	if n, ok := f.index[text]; ok {
		return n
	}
	f.texts = append(f.texts, text)
	f.index[text] = len(f.texts)
	return len(f.texts)
}

// parallelCell is one tool's parallel verdict across modes: "yes" or "no"
// with its reason, or "varies" when the modes disagree.
func parallelCell(modes []search.ApprovalMode, byMode map[string]search.Verdict) (string, string) {
	first := byMode[modes[0].Name]
	for _, m := range modes[1:] {
		if v := byMode[m.Name]; v.Parallel != first.Parallel {
			var parts []string
			for _, m := range modes {
				v := byMode[m.Name]
				parts = append(parts, fmt.Sprintf("%s: %s", m.Name, yesNo(v.Parallel)))
			}
			return "varies", strings.Join(parts, ", ")
		}
	}
	return yesNo(first.Parallel), first.ParallelBecause
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// ConfigFile is a client settings file the user gave (--settings).
type ConfigFile struct {
	Name string
	Data []byte
}

// RulesFromConfigs reads the approval rules of each settings file with
// the selected clients that read settings (search.ConfigReader), each
// rule addressed to the client whose file it is. A file no selected
// client reads is an error naming the file and what is read.
func RulesFromConfigs(sims []search.Simulator, files []ConfigFile) ([]search.RuleText, []string, error) {
	apps, _ := search.Approvers(sims)
	var rules []search.RuleText
	var notes []string
	for _, f := range files {
		read := false
		var readers []string
		for _, a := range apps {
			cr, ok := a.(search.ConfigReader)
			if !ok {
				continue
			}
			info := a.ApprovalInfo()
			readers = append(readers, info.Client.String())
			rs, ns, ok, err := cr.ApprovalRulesFromConfig(f.Name, f.Data)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", info.Client, err)
			}
			if !ok {
				continue
			}
			read = true
			for _, r := range rs {
				r.Text = info.Client.Name + ":" + r.Text
				rules = append(rules, r)
			}
			notes = append(notes, ns...)
		}
		if !read {
			if len(readers) == 0 {
				return nil, nil, fmt.Errorf("%s: no selected client reads settings files", f.Name)
			}
			return nil, nil, fmt.Errorf("%s: not a settings file of %s (Claude Code settings.json with \"permissions\", Codex config.toml)", f.Name, strings.Join(readers, ", "))
		}
	}
	return rules, notes, nil
}
