package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/textfit"
)

// message writes a finding as one line: the cause, each consequence
// ("clients: effect"), the fix.
func message(f *Finding) string {
	parts := []string{f.Cause}
	for _, c := range f.Consequences {
		parts = append(parts, strings.Join(c.Clients, ", ")+": "+c.Effect)
	}
	if f.Fix != "" {
		parts = append(parts, "fix: "+f.Fix)
	}
	return strings.Join(parts, "; ")
}

// Shown returns the findings at or above min.
func (r *Report) Shown(min corpus.Severity) []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if f.Severity >= min {
			out = append(out, f)
		}
	}
	return out
}

// Count returns the number of findings at or above sev.
func (r *Report) Count(sev corpus.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity >= sev {
			n++
		}
	}
	return n
}

// severityWord is the word of a severity, the one --min-severity and
// --fail-on take: info, warning, error.
func severityWord(s corpus.Severity) string { return s.String() }

// WriteText writes compiler-style lines, "file:line:col: severity: message
// [rule]", one per finding at or above min (a catalog-wide finding is at
// "catalog"); with verbose, each finding is followed by one indented line
// per occurrence at its own location, "  file:line:col: client: subject:
// message [code]". Findings below min are summed up in one line. Text from
// the catalog is escaped for the terminal (internal/safetext). Lines are
// not wrapped (WriteTextWidth wraps them).
func (r *Report) WriteText(w io.Writer, min corpus.Severity, verbose bool) error {
	return r.WriteTextWidth(w, min, verbose, 0)
}

// WriteTextWidth is WriteText with every line wrapped to width characters
// (0: no wrapping), the continuation lines indented by four more spaces
// than their first.
func (r *Report) WriteTextWidth(w io.Writer, min corpus.Severity, verbose bool, width int) error {
	out := func(indent, s string) error {
		if width <= 0 {
			_, err := fmt.Fprintln(w, indent+s)
			return err
		}
		for i, l := range textfit.Wrap(s, max(width-len(indent)-4, 20)) {
			if i > 0 {
				l = "    " + l
			}
			if _, err := fmt.Fprintln(w, indent+l); err != nil {
				return err
			}
		}
		return nil
	}
	counts := map[corpus.Severity]int{}
	for _, f := range r.Findings {
		counts[f.Severity]++
		if f.Severity < min {
			continue
		}
		if err := out("", fmt.Sprintf("%s: %s: %s [%s]", safetext.Escape(f.Location.String()), severityWord(f.Severity), safetext.Escape(f.Message), f.Rule)); err != nil {
			return err
		}
		if !verbose {
			continue
		}
		for _, o := range f.Occurrences {
			if len(f.Occurrences) == 1 && o.Message == f.Cause {
				continue // the finding's own line says it
			}
			who := o.Client
			if who == "" {
				who = "catalog"
			}
			subject := o.Location.Server
			if o.Location.Tool != "" {
				subject += "/" + o.Location.Tool
			}
			line := fmt.Sprintf("%s: %s: %s: %s [%s]", safetext.Escape(o.Location.String()), who, safetext.Escape(subject), safetext.Escape(o.Message), o.Code)
			if subject == "" {
				line = fmt.Sprintf("%s: %s: %s [%s]", safetext.Escape(o.Location.String()), who, safetext.Escape(o.Message), o.Code)
			}
			if err := out("  ", line); err != nil {
				return err
			}
		}
	}
	var hidden []string
	for _, s := range []corpus.Severity{corpus.Warning, corpus.Info} {
		if s < min && counts[s] > 0 {
			hidden = append(hidden, countWord(counts[s], s))
		}
	}
	line := fmt.Sprintf("%s, %s, %s", countWord(counts[corpus.Error], corpus.Error), countWord(counts[corpus.Warning], corpus.Warning), countWord(counts[corpus.Info], corpus.Info))
	if len(hidden) > 0 {
		line += fmt.Sprintf(" (%s not shown; --min-severity %s shows them)", strings.Join(hidden, ", "), severityWord(lowest(counts, min)))
	}
	return out("", line)
}

// countWord is "1 error", "2 warnings", "3 info" (info has no plural).
func countWord(n int, s corpus.Severity) string {
	if s == corpus.Info {
		return fmt.Sprintf("%d info", n)
	}
	return fmt.Sprintf("%d %s", n, pluralWord(severityWord(s), n))
}

func lowest(counts map[corpus.Severity]int, min corpus.Severity) corpus.Severity {
	for s := corpus.Info; s < min; s++ {
		if counts[s] > 0 {
			return s
		}
	}
	return min
}

func pluralWord(w string, n int) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// JSON is the report as `lint --format json` prints it: the findings at or
// above min, each with its occurrences, and the counts of all findings.
func (r *Report) JSON(min corpus.Severity) any {
	fs := r.Shown(min)
	if fs == nil {
		fs = []*Finding{}
	}
	counts := map[string]int{"error": 0, "warning": 0, "info": 0}
	for _, f := range r.Findings {
		counts[f.Severity.String()]++
	}
	return map[string]any{"findings": fs, "counts": counts}
}

// WriteJSON writes JSON(min), indented.
func (r *Report) WriteJSON(w io.Writer, min corpus.Severity) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON(min))
}

// SARIF renders the findings at or above min as SARIF 2.1.0: one rule per
// rule id (with its spec source), one result per occurrence, each with the
// region of its JSON member so code scanning annotates the line; a live
// server's occurrence gets a logical location "server/tool".
func (r *Report) SARIF(min corpus.Severity, toolVersion string) map[string]any {
	level := map[corpus.Severity]string{corpus.Error: "error", corpus.Warning: "warning", corpus.Info: "note"}
	var ruleIDs []string
	used := map[string]bool{}
	results := []map[string]any{}
	for _, f := range r.Shown(min) {
		if !used[f.Rule] {
			used[f.Rule] = true
			ruleIDs = append(ruleIDs, f.Rule)
		}
		for _, o := range f.Occurrences {
			text := f.Message
			if o.Message != "" && o.Message != f.Cause {
				who := o.Client
				if who == "" {
					who = "catalog"
				}
				text += " (" + who + ": " + o.Message + ")"
			}
			res := map[string]any{
				"ruleId":    f.Rule,
				"level":     level[f.Severity],
				"message":   map[string]string{"text": text},
				"locations": []map[string]any{sarifLocation(o.Location)},
			}
			props := map[string]any{"code": o.Code}
			if o.Client != "" {
				props["client"] = o.Client
			}
			res["properties"] = props
			results = append(results, res)
		}
	}
	sort.Strings(ruleIDs)
	rules := []map[string]any{}
	for _, id := range ruleIDs {
		info, _ := Rule(id)
		rules = append(rules, map[string]any{
			"id":                   id,
			"shortDescription":     map[string]string{"text": info.Summary},
			"defaultConfiguration": map[string]string{"level": level[info.Severity]},
		})
	}
	return map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []map[string]any{{
			"tool":       map[string]any{"driver": map[string]any{"name": "toolfind", "version": toolVersion, "informationUri": "https://github.com/toolfind/toolfind", "rules": rules}},
			"columnKind": "unicodeCodePoints",
			"results":    results,
		}},
	}
}

func sarifLocation(l Location) map[string]any {
	loc := map[string]any{}
	if l.Catalog {
		loc["logicalLocations"] = []map[string]string{{"fullyQualifiedName": "catalog", "kind": "module"}}
	}
	if l.File != "" {
		phys := map[string]any{"artifactLocation": map[string]string{"uri": FileURI(l.File)}}
		if l.Line > 0 {
			phys["region"] = map[string]int{"startLine": l.Line, "startColumn": l.Column}
		}
		loc["physicalLocation"] = phys
	}
	if l.Server != "" {
		name := l.Server
		if l.Tool != "" {
			name += "/" + l.Tool
		}
		if l.Field != "" {
			name += "#" + l.Field
		}
		loc["logicalLocations"] = []map[string]string{{"fullyQualifiedName": name, "kind": "member"}}
	}
	return loc
}

// WriteSARIF writes SARIF(min), indented.
func (r *Report) WriteSARIF(w io.Writer, min corpus.Severity, toolVersion string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.SARIF(min, toolVersion))
}

// FileURI is a catalog path as SARIF's artifactLocation.uri, which must be
// a URI reference (SARIF 2.1.0 §3.4.3, RFC 3986): a relative path stays a
// relative reference (so code scanning resolves it against the
// repository), an absolute path becomes a file:// URI ("/a/b" is
// "file:///a/b"; on Windows C:\a is "file:///C:/a"). Separators become "/", and
// every byte of a segment other than RFC 3986's unreserved characters
// (A–Z a–z 0–9 - . _ ~) is percent-encoded: "#" (a fragment), "?" (a
// query), "%", a space, a colon (which in a first segment would read as a
// scheme), a control, and each UTF-8 byte of a non-ASCII letter. A
// consumer decodes it back to the path byte for byte.
func FileURI(path string) string {
	p := filepath.ToSlash(path)
	var b strings.Builder
	if filepath.IsAbs(path) {
		b.WriteString("file://")
		if vol := filepath.VolumeName(path); vol != "" && !strings.HasPrefix(p, "/") {
			// Windows: C:\a is file:///C:/a.
			b.WriteString("/" + filepath.ToSlash(vol))
			p = p[len(vol):]
		}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '/', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}
