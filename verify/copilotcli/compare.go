package copilotcli

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/ojson"
)

// EntryReport compares the MCP tool entries of a captured request with
// the simulation's, and the deferral decision.
type EntryReport struct {
	// Equal counts the real MCP entries the simulation gives exactly (the
	// same keys in the same order, the same values; numbers by value).
	Equal int `json:"equal"`
	// Real and Simulated count the MCP entries on each side.
	Real      int `json:"real"`
	Simulated int `json:"simulated"`
	// Diffs name each difference: an entry that differs (with both
	// texts), one the CLI sent that the simulation does not give, and one
	// the simulation gives that the CLI did not send.
	Diffs []string `json:"diffs,omitempty"`
	// RealMode and SimulatedMode are the deferral decisions ("full",
	// "deferred", "reminder-only", "hosted").
	RealMode      string `json:"real_mode"`
	SimulatedMode string `json:"simulated_mode"`
}

// Agrees reports whether every entry and the decision agree.
func (r EntryReport) Agrees() bool {
	return len(r.Diffs) == 0 && r.RealMode == r.SimulatedMode && r.Equal == r.Real && r.Real == r.Simulated
}

// Summary is one line: "tool entries: 42/42 equal; deferral: deferred (both)".
func (r EntryReport) Summary() string {
	s := fmt.Sprintf("tool entries: %d/%d equal", r.Equal, r.Real)
	if r.Simulated != r.Real {
		s += fmt.Sprintf(" (simulation gives %d)", r.Simulated)
	}
	if r.RealMode == r.SimulatedMode {
		return s + "; deferral: " + r.RealMode + " (both)"
	}
	return s + "; deferral: real " + r.RealMode + ", simulated " + r.SimulatedMode
}

// CompareEntries compares a captured tools array with the simulation.
// Builtins (the simulator's BuiltinNames), tool_search_tool and hosted
// tools are not MCP entries; the functions of Responses namespaces are.
func CompareEntries(sim *copilot.Simulator, tools []json.RawMessage) EntryReport {
	rep := EntryReport{SimulatedMode: sim.Mode().String(), RealMode: RealMode(tools)}
	skip := map[string]bool{copilot.SearchTool: true}
	for _, b := range sim.BuiltinNames() {
		skip[b] = true
	}
	real := map[string]ojson.Value{}
	var order []string
	var add func(raw json.RawMessage)
	add = func(raw json.RawMessage) {
		v, err := ojson.Parse(raw)
		if err != nil || v.Kind != ojson.Object {
			return
		}
		typ, _ := v.Get("type")
		switch typ.Str() {
		case "namespace":
			ts, _ := v.Get("tools")
			for _, t := range ts.Array() {
				add(json.RawMessage(t.JS("")))
			}
			return
		case "tool_search", "custom":
			return
		}
		name, _ := v.Get("name")
		if f, ok := v.Get("function"); ok {
			name, _ = f.Get("name")
		}
		if skip[name.Str()] {
			return
		}
		real[name.Str()] = v
		order = append(order, name.Str())
	}
	for _, raw := range tools {
		add(raw)
	}
	rep.Real = len(order)
	simByName := map[string]string{}
	for _, e := range sim.Entries() {
		simByName[e.Name] = e.JSON
	}
	rep.Simulated = len(simByName)
	for _, n := range order {
		js, ok := simByName[n]
		if !ok {
			rep.Diffs = append(rep.Diffs, fmt.Sprintf("%s: sent by the CLI, not by the simulation", n))
			continue
		}
		sv, _ := ojson.Parse([]byte(js))
		if sameJSON(real[n], sv) {
			rep.Equal++
		} else {
			rep.Diffs = append(rep.Diffs, fmt.Sprintf("%s differs:\n  real      %s\n  simulated %s", n, real[n].JS(""), js))
		}
	}
	var extra []string
	for n := range simByName {
		if _, ok := real[n]; !ok {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		rep.Diffs = append(rep.Diffs, fmt.Sprintf("%s: given by the simulation, not sent by the CLI", n))
	}
	return rep
}

// RealMode reads the deferral decision from a tools array: namespaces
// are "hosted", an entry with defer_loading "deferred", tool_search_tool
// without either "reminder-only", else "full".
func RealMode(tools []json.RawMessage) string {
	mode := copilot.Full.String()
	for _, raw := range tools {
		var t struct {
			Type         string `json:"type"`
			Name         string `json:"name"`
			Function     struct{ Name string }
			DeferLoading bool `json:"defer_loading"`
		}
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		switch {
		case t.Type == "namespace":
			return copilot.Hosted.String()
		case t.DeferLoading:
			mode = copilot.Deferred.String()
		case (t.Name == copilot.SearchTool || t.Function.Name == copilot.SearchTool) && mode == copilot.Full.String():
			mode = copilot.ReminderOnly.String()
		}
	}
	return mode
}

// sameJSON compares two values: members in order, numbers by value.
func sameJSON(a, b ojson.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case ojson.Number:
		x, _ := a.Float()
		y, _ := b.Float()
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	case ojson.String:
		return a.Str() == b.Str()
	case ojson.Bool:
		return a.Bool == b.Bool
	case ojson.Array:
		as, bs := a.Array(), b.Array()
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if !sameJSON(as[i], bs[i]) {
				return false
			}
		}
	case ojson.Object:
		am, bm := a.Members(), b.Members()
		if len(am) != len(bm) {
			return false
		}
		for i := range am {
			if am[i].Key != bm[i].Key || !sameJSON(am[i].Value, bm[i].Value) {
				return false
			}
		}
	}
	return true
}
