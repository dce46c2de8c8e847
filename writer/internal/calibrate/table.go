package main

import (
	"fmt"
	"os"
	"strings"
)

const (
	tableStart = "<!-- loco table: written by go run ./writer/internal/calibrate fit -->"
	tableEnd   = "<!-- end of loco table -->"
)

var familyTitle = map[string]string{"claude": "Claude (ToolSearch)", "grok": "Grok (search_tool)", "codex": "Codex (exec JavaScript)"}

// renderTable is the leave-one-catalog-out table in Markdown.
func renderTable(res results) string {
	var b strings.Builder
	b.WriteString("| client | left out | prompts | found@limit model | heuristic | verbatim | agreement |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range res.Rows {
		verb := fmt.Sprintf("%.3f", r.Verbatim)
		if r.Family == "codex" {
			// Codex's verbatim is toolfind's own script with the prompt's
			// words, not a query a model could type.
			verb = fmt.Sprintf("(%.3f)", r.Verbatim)
		}
		group := r.Group
		if strings.HasPrefix(group, "all") {
			group = "**" + group + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %.3f | %.3f | %s | %.3f |\n", familyTitle[r.Family], group, r.Prompts, r.Model, r.Heuristic, verb, r.Agreement)
	}
	return b.String()
}

// writeReadmeTable replaces the table between the markers of the README.
func writeReadmeTable(path string, res results) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no table markers %q … %q", path, tableStart, tableEnd)
	}
	s = s[:i+len(tableStart)] + "\n" + renderTable(res) + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

// readmeTable is the table the README holds now.
func readmeTable(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := string(b)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s: no table markers", path)
	}
	return strings.TrimPrefix(s[i+len(tableStart):j], "\n"), nil
}
