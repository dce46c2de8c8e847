package grok

import (
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// shown is one result as search_tool prints it.
type shown struct {
	doc   int
	score float32
}

// render writes res.Shown, the search_tool output (B.3), and its token
// estimate. Results are grouped by server in first-seen order, each group
// carrying its first (best) score; the groups are stably sorted by that
// score, highest first.
func (s *Simulator) render(res *search.Result, results []shown) {
	type group struct {
		server string
		score  float32
		tools  []shown
	}
	var groups []*group
	for _, r := range results {
		srv := s.entries[r.doc].tool.Server
		var g *group
		for _, x := range groups {
			if x.server == srv {
				g = x
				break
			}
		}
		if g == nil {
			g = &group{server: srv, score: r.score}
			groups = append(groups, g)
		}
		g.tools = append(g.tools, r)
	}
	// sort_by is stable: insertion sort keeps equal scores in order.
	for i := 1; i < len(groups); i++ {
		for j := i; j > 0 && groups[j].score > groups[j-1].score; j-- {
			groups[j], groups[j-1] = groups[j-1], groups[j]
		}
	}
	w := &serdeWriter{}
	w.b.WriteString("{\n  \"results\": ")
	if len(groups) == 0 {
		w.b.WriteString("[]")
	} else {
		w.b.WriteString("[")
		for gi, g := range groups {
			if gi > 0 {
				w.b.WriteString(",")
			}
			w.b.WriteString("\n    {\n      \"server\": ")
			w.str(g.server)
			w.b.WriteString(",\n      \"tools\": [")
			for ti, r := range g.tools {
				if ti > 0 {
					w.b.WriteString(",")
				}
				e := s.entries[r.doc]
				desc, _ := TruncateDescription(e.tool.Description)
				w.b.WriteString("\n        {\n          \"tool_name\": ")
				w.str(e.qualified)
				w.b.WriteString(",\n          \"description\": ")
				w.str(desc)
				w.b.WriteString(",\n          \"score\": ")
				w.b.WriteString(FormatF64(float64(r.score)))
				w.b.WriteString(",\n          \"input_schema\": ")
				w.value(e.tool.InputSchema.Dedup(), "          ")
				w.b.WriteString("\n        }")
			}
			w.b.WriteString("\n      ]\n    }")
		}
		w.b.WriteString("\n  ]")
	}
	w.b.WriteString(",\n  \"total_hidden_tools\": ")
	w.b.WriteString(strconv.Itoa(len(s.entries)))
	w.b.WriteString(",\n  \"status\": ")
	note := ""
	switch {
	case s.opts.Partial:
		w.b.WriteString(`"partial"`)
		note = notePartial
	default:
		w.b.WriteString(`"ready"`)
		if len(s.entries) == 0 && len(groups) == 0 {
			note = noteEmpty
		}
	}
	w.b.WriteString(",\n  \"note\": ")
	if note == "" {
		w.b.WriteString("null")
	} else {
		w.str(note)
	}
	w.b.WriteString("\n}")
	res.Shown = w.b.String()
	res.ShownTokens = EstimateTokens(res.Shown)
}

// EstimateTokens is the token estimate reported for Grok's texts: one token
// per four bytes, rounded up. Grok's search_tool output is not counted by
// Grok itself (B.3 names no estimate); this is the common heuristic.
func EstimateTokens(s string) int { return search.CeilDiv(len(s), 4) }

// serdeWriter writes JSON as serde_json's to_string_pretty does: two-space
// indent, "key": value, empty arrays and objects as [] and {}, strings
// escaped only for '"', '\\' and control characters, numbers as serde_json
// holds them (integers as written, others as f64 in ryu's shortest form).
type serdeWriter struct{ b strings.Builder }

func (w *serdeWriter) value(v ojson.Value, indent string) {
	switch v.Kind {
	case ojson.Invalid:
		w.b.WriteString("{}") // absent schema: the SDK's default empty object
	case ojson.Null:
		w.b.WriteString("null")
	case ojson.Bool:
		if v.Bool {
			w.b.WriteString("true")
		} else {
			w.b.WriteString("false")
		}
	case ojson.Number:
		w.b.WriteString(FormatNumber(v.Str()))
	case ojson.String:
		w.str(v.Str())
	case ojson.Array:
		if len(v.Array()) == 0 {
			w.b.WriteString("[]")
			return
		}
		w.b.WriteString("[")
		inner := indent + "  "
		for i, e := range v.Array() {
			if i > 0 {
				w.b.WriteString(",")
			}
			w.b.WriteString("\n" + inner)
			w.value(e, inner)
		}
		w.b.WriteString("\n" + indent + "]")
	case ojson.Object:
		if len(v.Members()) == 0 {
			w.b.WriteString("{}")
			return
		}
		w.b.WriteString("{")
		inner := indent + "  "
		for i, m := range v.Members() {
			if i > 0 {
				w.b.WriteString(",")
			}
			w.b.WriteString("\n" + inner)
			w.str(m.Key)
			w.b.WriteString(": ")
			w.value(m.Value, inner)
		}
		w.b.WriteString("\n" + indent + "}")
	}
}

// str writes a JSON string as serde_json escapes it.
func (w *serdeWriter) str(s string) { search.AppendSerdeString(&w.b, s) }

// FormatNumber prints a JSON number literal as serde_json (without
// arbitrary_precision) re-serialises it: an integer literal that fits u64
// (or i64 when negative) as is; "-0" and every other literal as the f64 it
// parses to, in ryu's format (FormatF64).
func FormatNumber(lit string) string { return search.SerdeNumber(lit) }

// FormatF64 formats a finite float64 as Rust's ryu crate (used by
// serde_json) does: the shortest digits that round-trip, written
//
//	D…D000.0   when the last digit is at or left of the point and the number has at most 16 integer digits (1.0, 120.0)
//	D.DDD      when the point falls inside the digits (2.5304000377655029)
//	0.000DDD   when the number is below 1 with at most 5 leading zeros
//	DeX, D.DDeX otherwise (1e-7, 1.5e20)
func FormatF64(f float64) string { return search.SerdeF64(f) }
