package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
)

// modelText is one text a client's model reads, and where it is written.
type modelText struct {
	path []string
	text string
}

// toolTexts lists the texts of one tool definition that reach a model: the
// title, annotations.title, the description, every "description" and
// "title" inside the input and output schemas, and every string in _meta
// (hints such as anthropic/searchHint).
func toolTexts(t *corpus.Tool) []modelText {
	var out []modelText
	for _, m := range t.Value.Members() {
		switch m.Key {
		case "title", "description":
			if m.Value.Kind == ojson.String {
				out = append(out, modelText{[]string{m.Key}, m.Value.Str()})
			}
		case "annotations":
			if v, ok := m.Value.Get("title"); ok && v.Kind == ojson.String {
				out = append(out, modelText{[]string{"annotations", "title"}, v.Str()})
			}
		case "inputSchema", "outputSchema":
			walkSchema(m.Value, []string{m.Key}, &out, 0)
		case "_meta":
			walkStrings(m.Value, []string{m.Key}, &out, 0)
		}
	}
	return out
}

const maxWalk = 64 // nesting depth followed in schemas and _meta

func walkSchema(v ojson.Value, path []string, out *[]modelText, depth int) {
	if depth > maxWalk {
		return
	}
	switch v.Kind {
	case ojson.Object:
		for _, m := range v.Members() {
			p := append(append([]string(nil), path...), m.Key)
			if (m.Key == "description" || m.Key == "title") && m.Value.Kind == ojson.String {
				*out = append(*out, modelText{p, m.Value.Str()})
				continue
			}
			walkSchema(m.Value, p, out, depth+1)
		}
	case ojson.Array:
		for i, e := range v.Array() {
			walkSchema(e, append(append([]string(nil), path...), strconv.Itoa(i)), out, depth+1)
		}
	}
}

func walkStrings(v ojson.Value, path []string, out *[]modelText, depth int) {
	if depth > maxWalk {
		return
	}
	switch v.Kind {
	case ojson.String:
		*out = append(*out, modelText{path, v.Str()})
	case ojson.Object:
		for _, m := range v.Members() {
			walkStrings(m.Value, append(append([]string(nil), path...), m.Key), out, depth+1)
		}
	case ojson.Array:
		for i, e := range v.Array() {
			walkStrings(e, append(append([]string(nil), path...), strconv.Itoa(i)), out, depth+1)
		}
	}
}

// textFindings scans every model-read text of every definition and every
// server's instructions; one finding per text and rule.
func textFindings(cat *corpus.Catalog, dd defs, k keep, loc *locator) []*Finding {
	names := map[string]bool{}
	for _, t := range cat.Tools() {
		names[t.Name] = true
	}
	var out []*Finding
	add := func(w where, subject string, hits []TextHit) {
		byRule := map[string][]TextHit{}
		var order []string
		for _, h := range hits {
			if _, ok := byRule[h.Rule]; !ok {
				order = append(order, h.Rule)
			}
			byRule[h.Rule] = append(byRule[h.Rule], h)
		}
		for _, rule := range order {
			hs := byRule[rule]
			info, _ := Rule(rule)
			var parts []string
			for _, h := range hs {
				parts = append(parts, h.String())
			}
			f := &Finding{Rule: rule, Severity: info.Severity, Location: loc.locate(w), Text: hs,
				Cause: fmt.Sprintf("%s %s: %s", subject, fieldName(w.path), strings.Join(parts, "; "))}
			f.Occurrences = []Occurrence{{Location: f.Location, Code: rule, Message: f.Cause}}
			out = append(out, f)
		}
	}
	for _, s := range cat.Servers {
		if hits := ScanText(s.Instructions, "", names); len(hits) > 0 {
			add(where{server: s, path: []string{"instructions"}}, fmt.Sprintf("server %q", s.Name), hits)
		}
		for _, t := range s.Tools {
			def := defNumber(dd, s, t)
			subject := t.ID().String()
			if def > 0 {
				subject = fmt.Sprintf("%s (definition %d of %d", subject, def, len(dd[s][t.Name]))
				if by := keptBy(k, s, t.Name, def); len(by) > 0 {
					subject += "; kept by " + strings.Join(by, ", ")
				}
				subject += ")"
			}
			for _, mt := range toolTexts(t) {
				if hits := ScanText(mt.text, t.Name, names); len(hits) > 0 {
					add(where{server: s, tool: t, def: def, path: mt.path}, subject, hits)
				}
			}
		}
	}
	return out
}
