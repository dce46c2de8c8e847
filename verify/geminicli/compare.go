package geminicli

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/ojson"
)

// Verdicts of one check.
const (
	Match     = "match"
	Mismatch  = "mismatch"
	Missing   = "missing"   // the simulation declares it, the client did not
	Extra     = "extra"     // the client declared it, the simulation does not
	Unchecked = "unchecked" // the client refused the arguments: no result to compare
)

// ToolOutcome is one MCP tool's comparison.
type ToolOutcome struct {
	Tool corpus.ToolID `json:"tool,omitempty"`
	Name string        `json:"name"`
	// Declaration is Match, Mismatch, Missing or Extra; Result is Match,
	// Mismatch, Unchecked, or "" when the tool was not called.
	Declaration     string `json:"declaration"`
	DeclarationDiff string `json:"declaration_diff,omitempty"`
	Result          string `json:"result,omitempty"`
	ResultDiff      string `json:"result_diff,omitempty"`
	// RealResponse and SimulatedResponse are the function responses
	// compared (a cut result's saved-file path replaced by FILE).
	RealResponse      string `json:"real_response,omitempty"`
	SimulatedResponse string `json:"simulated_response,omitempty"`
	Note              string `json:"note,omitempty"`
}

// Check is one whole-request comparison.
type Check struct {
	Match     bool     `json:"match"`
	Diff      string   `json:"diff,omitempty"`
	Real      []string `json:"real,omitempty"`
	Simulated []string `json:"simulated,omitempty"`
}

// Report is one verify run.
type Report struct {
	// Client is the real client and release, "gemini 0.61.0"; Profile the
	// simulator's.
	Client  string `json:"client"`
	Profile string `json:"profile"`
	// Order compares the names of every function declaration in request
	// order; Instructions the servers' instructions block.
	Order        Check         `json:"order"`
	Instructions Check         `json:"instructions"`
	Tools        []ToolOutcome `json:"tools"`
	// Counts over Tools: a tool matches when its declaration and (if
	// called) its result match.
	Matched    int `json:"matched"`
	Mismatched int `json:"mismatched"`
	Unchecked  int `json:"unchecked"`
}

// Agrees reports whether everything compared matched.
func (r *Report) Agrees() bool { return r.Mismatched == 0 && r.Order.Match && r.Instructions.Match }

// Summary is the one-line verdict.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%s: %d/%d tools match", r.Client, r.Matched, len(r.Tools))
	if r.Mismatched > 0 {
		s += fmt.Sprintf(", %d differ", r.Mismatched)
	}
	if r.Unchecked > 0 {
		s += fmt.Sprintf(", %d results not compared", r.Unchecked)
	}
	if !r.Order.Match {
		s += ", declaration order differs"
	}
	if !r.Instructions.Match {
		s += ", instructions differ"
	}
	return s + " (profile " + r.Profile + ")"
}

// Plan is what Verify asks of the client: the calls, and each called
// tool's result as the stubs serve it.
type Plan struct {
	Calls   []Call
	Entries []*gemini.Entry
	Results []ojson.Value
}

// NewPlan makes the calls (one per declared MCP tool, arguments from
// ArgsFor) and sets every stub's results: result for every tool when
// given, else Suite in turn over the declared tools (and Suite[0] for the
// others, which are never called).
func NewPlan(sim *gemini.Simulator, r *Runner, result json.RawMessage) (*Plan, error) {
	p := &Plan{}
	byServer := map[string]map[string]json.RawMessage{}
	res := func(i int) json.RawMessage {
		if result != nil {
			return result
		}
		return Suite()[i%len(Suite())]
	}
	for i, e := range sim.Declarations().MCP {
		t := e.Tool
		raw := res(i)
		v, err := ojson.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		if result == nil && t.OutputSchema.Exists() {
			// The MCP SDK checks structuredContent against the tool's
			// outputSchema (with Ajv), which the simulation does not: the
			// suite's results go without it (the SDK then refuses a
			// successful one, which is simulated).
			v = without(v, "structuredContent")
			raw = json.RawMessage(v.JS(""))
		}
		if byServer[t.Server] == nil {
			byServer[t.Server] = map[string]json.RawMessage{}
		}
		byServer[t.Server][t.Name] = raw
		p.Calls = append(p.Calls, Call{Name: e.Name, Args: json.RawMessage(ArgsFor(t.InputSchema))})
		p.Entries = append(p.Entries, e)
		p.Results = append(p.Results, v)
	}
	for i := range r.Servers {
		s := &r.Servers[i]
		s.Results = map[string]json.RawMessage{}
		for _, raw := range s.Tools {
			var t struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(raw, &t) != nil {
				continue
			}
			if x, ok := byServer[s.Name][t.Name]; ok {
				s.Results[t.Name] = x
			} else if _, ok := s.Results[t.Name]; !ok {
				s.Results[t.Name] = res(0)
			}
		}
	}
	return p, nil
}

// Verify runs the client once and compares it with the simulation.
func Verify(ctx context.Context, r *Runner, sim *gemini.Simulator, cat *corpus.Catalog, result json.RawMessage) (*Report, error) {
	p, err := NewPlan(sim, r, result)
	if err != nil {
		return nil, err
	}
	c, err := r.Run(ctx, p.Calls)
	if err != nil {
		return nil, err
	}
	return Compare(sim, cat, p, c)
}

// savedPath is the file a cut result's notice names.
var savedPath = regexp.MustCompile(`For full output see: [^\n]*\n`)

// Compare checks a capture against the simulation (see the package doc).
func Compare(sim *gemini.Simulator, cat *corpus.Catalog, p *Plan, c *Capture) (*Report, error) {
	rep := &Report{Profile: gemini.ID.String()}
	first, err := ParseRequest(c.First)
	if err != nil {
		return nil, err
	}
	d := sim.Declarations()
	realDecl := map[string]string{}
	var realNames []string
	for _, raw := range first.Declarations() {
		v, err := ojson.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("a function declaration: %w", err)
		}
		n, _ := v.Get("name")
		realNames = append(realNames, n.Str())
		realDecl[n.Str()] = v.JS("")
	}
	simNames := d.Names()
	rep.Order = Check{Real: realNames, Simulated: simNames, Match: equal(realNames, simNames)}
	if !rep.Order.Match {
		rep.Order.Diff = firstListDiff(realNames, simNames)
	}
	// instructions
	realInstr := ""
	if len(first.Contents) > 0 && len(first.Contents[0].Parts) > 0 && first.Contents[0].Parts[0].Text != nil {
		t := *first.Contents[0].Parts[0].Text
		if i := strings.Index(t, "<loaded_context>"); i >= 0 {
			if j := strings.Index(t[i:], "</loaded_context>"); j >= 0 {
				realInstr = t[i : i+j+len("</loaded_context>")]
			}
		}
	}
	simInstr := gemini.Instructions(cat)
	rep.Instructions = Check{Match: realInstr == simInstr}
	if !rep.Instructions.Match {
		rep.Instructions.Diff = textDiff(realInstr, simInstr)
	}
	// declarations, tool by tool
	seen := map[string]bool{}
	for _, e := range d.MCP {
		seen[e.Name] = true
		o := ToolOutcome{Tool: e.Tool.ID(), Name: e.Name}
		real, ok := realDecl[e.Name]
		switch {
		case !ok:
			o.Declaration = Missing
		case real == e.Text:
			o.Declaration = Match
		default:
			rv, _ := ojson.Parse([]byte(real))
			sv, _ := ojson.Parse([]byte(e.Text))
			o.Declaration = Mismatch
			o.DeclarationDiff = textDiff(real, e.Text)
			if ojson.Equal(rv.Dedup(), sv.Dedup()) {
				o.Note = "equal as JSON but with keys in another order"
			}
		}
		rep.Tools = append(rep.Tools, o)
	}
	for _, n := range realNames {
		if strings.HasPrefix(n, gemini.ToolPrefix) && !seen[n] {
			rep.Tools = append(rep.Tools, ToolOutcome{Name: n, Declaration: Extra})
		}
	}
	// results, call by call (one turn: the replies come in call order)
	for i, e := range p.Entries {
		o := &rep.Tools[i]
		if i >= len(c.Replies) {
			o.Result, o.ResultDiff = Mismatch, "the client sent no response for this call"
			continue
		}
		rp := c.Replies[i]
		if rp.Name != e.Name {
			o.Result, o.ResultDiff = Mismatch, fmt.Sprintf("response %d is for %s, not %s", i+1, rp.Name, e.Name)
			continue
		}
		dv := gemini.Deliver(e.Tool.Name, e.Name, p.Results[i], gemini.DeliverOptions{Args: string(p.Calls[i].Args), CallID: rp.ID,
			OutputSchema: e.Tool.OutputSchema.Exists()})
		realResp := normalizeResponse(rp.Response)
		simResp := normalizeResponse(json.RawMessage(dv.Response))
		o.RealResponse, o.SimulatedResponse = realResp, simResp
		if st, ok := p.Results[i].Get("structuredContent"); ok && st.Exists() && e.Tool.OutputSchema.Exists() &&
			strings.Contains(realResp, "Structured content does not match the tool's output schema") != strings.Contains(simResp, "Structured content does not match") {
			o.Result, o.Note = Unchecked, "the client checked structuredContent against the tool's outputSchema, which toolfind does not simulate"
			continue
		}
		if refused(realResp) && realResp != simResp {
			o.Result, o.Note = Unchecked, "the client refused toolfind's arguments "+string(p.Calls[i].Args)+" (its own schema check), so the server was not called"
			continue
		}
		var realInline []gemini.InlineData
		for _, x := range rp.Inline {
			var in struct {
				MimeType string `json:"mimeType"`
				Data     string `json:"data"`
			}
			_ = json.Unmarshal(x, &in)
			realInline = append(realInline, gemini.InlineData{MimeType: in.MimeType, Data: in.Data})
		}
		switch {
		case realResp != simResp:
			o.Result, o.ResultDiff = Mismatch, textDiff(realResp, simResp)
		case !equalInline(realInline, dv.Inline):
			o.Result, o.ResultDiff = Mismatch, fmt.Sprintf("inline parts: real %d, simulated %d", len(realInline), len(dv.Inline))
		default:
			o.Result = Match
		}
	}
	for _, o := range rep.Tools {
		switch {
		case o.Declaration != Match || o.Result == Mismatch:
			rep.Mismatched++
		case o.Result == Unchecked:
			rep.Unchecked++
		default:
			rep.Matched++
		}
	}
	return rep, nil
}

// without is an object without key.
func without(v ojson.Value, key string) ojson.Value {
	var ms []ojson.Member
	for _, m := range v.Members() {
		if m.Key != key {
			ms = append(ms, m)
		}
	}
	return ojson.ObjectOf(ms...)
}

// refused says a response is the client's own refusal of the arguments
// (an Ajv message "params…"), not a tool's answer.
func refused(resp string) bool {
	var m map[string]string
	if json.Unmarshal([]byte(resp), &m) != nil {
		return false
	}
	e, ok := m["error"]
	return ok && !strings.HasPrefix(e, "MCP tool '")
}

// normalizeResponse prints a response as compact JSON in its key order,
// with a cut result's saved-file path replaced by FILE.
func normalizeResponse(raw json.RawMessage) string {
	v, err := ojson.Parse(raw)
	if err != nil {
		return string(raw)
	}
	var m []ojson.Member
	for _, x := range v.Members() {
		if x.Value.Kind == ojson.String {
			x.Value = ojson.StringOf(savedPath.ReplaceAllString(x.Value.Str(), "For full output see: FILE\n"))
		}
		m = append(m, x)
	}
	if v.Kind != ojson.Object {
		return v.JS("")
	}
	return ojson.ObjectOf(m...).JS("")
}

func equalInline(a, b []gemini.InlineData) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func firstListDiff(real, sim []string) string {
	for i := 0; i < min(len(real), len(sim)); i++ {
		if real[i] != sim[i] {
			return fmt.Sprintf("position %d: real %s, simulated %s", i+1, real[i], sim[i])
		}
	}
	return fmt.Sprintf("real has %d declarations, simulated %d", len(real), len(sim))
}

// textDiff names the first differing character of two texts.
func textDiff(real, sim string) string {
	at := 0
	for at < len(real) && at < len(sim) && real[at] == sim[at] {
		at++
	}
	for at > 0 && (at < len(real) && !utf8.RuneStart(real[at]) || at < len(sim) && !utf8.RuneStart(sim[at])) {
		at--
	}
	return fmt.Sprintf("at character %d: real %q, simulated %q", utf8.RuneCountInString(real[:at])+1, excerpt(real[at:]), excerpt(sim[at:]))
}

func excerpt(s string) string {
	r := []rune(s)
	if len(r) <= 50 {
		return s
	}
	return string(r[:50]) + "…"
}
