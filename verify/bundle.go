package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Bundle is a self-contained reproduction of a verify run, to attach to a
// bug report.
type Bundle struct {
	// Catalog is the catalog exactly as the real client was served it,
	// {"servers": [...]}.
	Catalog []byte
	Report  *Report
	// Command reruns the check from the bundle's folder.
	Command string
}

// Files written by WriteBundle.
const (
	BundleCatalog   = "catalog.json"
	BundleQueries   = "queries.jsonl"
	BundleReal      = "real.jsonl"
	BundleSimulated = "simulated.jsonl"
	BundleReport    = "report.json"
	BundleReadme    = "README.md"
)

// bundleLine is one line of real.jsonl and simulated.jsonl.
type bundleLine struct {
	Query      string   `json:"query"`
	MaxResults int      `json:"max_results,omitempty"`
	Tools      []string `json:"tools"`
	Text       string   `json:"text,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// WriteBundle writes the bundle into dir, which must not exist yet or be
// empty: catalog.json, queries.jsonl, real.jsonl and simulated.jsonl (one
// line per query, in query order), report.json and a README.md with the
// summary, every difference and the command to rerun.
func WriteBundle(dir string, b Bundle) error {
	if b.Report == nil {
		return errors.New("bundle: no report")
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("bundle folder %s is not empty", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var queries, real, sim bytes.Buffer
	for _, o := range b.Report.Outcomes {
		writeLine(&queries, Query{Text: o.Query.Text, Limit: o.Query.Limit})
		writeLine(&real, line(o, o.Real, o.Error))
		writeLine(&sim, line(o, o.Simulated, ""))
	}
	rep, err := json.MarshalIndent(b.Report, "", "  ")
	if err != nil {
		return err
	}
	var readme bytes.Buffer
	fmt.Fprintf(&readme, "# toolfind verify: %s\n\n", b.Report.Summary())
	fmt.Fprintf(&readme, "Real client %s against simulator profile %s, query by query.\n\n", b.Report.Client, b.Report.Profile)
	for i, o := range b.Report.Outcomes {
		switch {
		case o.Error != "":
			fmt.Fprintf(&readme, "- query %d %q: failed: %s\n", i+1, o.Query.Text, o.Error)
		case !o.Match:
			fmt.Fprintf(&readme, "- query %d %q: mismatch: %s\n", i+1, o.Query.Text, o.Diff)
		}
	}
	fmt.Fprintf(&readme, "\nFiles: %s (the catalog as served), %s, %s and %s (one line per query), %s.\n",
		BundleCatalog, BundleQueries, BundleReal, BundleSimulated, BundleReport)
	if b.Command != "" {
		fmt.Fprintf(&readme, "\nRerun from this folder:\n\n    %s\n", b.Command)
	}
	for name, data := range map[string][]byte{
		BundleCatalog: append(bytes.TrimSpace(b.Catalog), '\n'), BundleQueries: queries.Bytes(),
		BundleReal: real.Bytes(), BundleSimulated: sim.Bytes(), BundleReport: append(rep, '\n'),
		BundleReadme: readme.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func line(o Outcome, a *Answer, errText string) bundleLine {
	l := bundleLine{Query: o.Query.Text, MaxResults: o.Query.Limit, Tools: []string{}, Error: errText}
	if a != nil {
		l.Tools = append(l.Tools, a.Tools...)
		l.Text = a.Text
	}
	return l
}

func writeLine(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
