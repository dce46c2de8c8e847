// Package calib is the calibration set of the heuristic writers: calls a
// model wrote blind (shown only one client's surface and the user's
// prompt, never the expected tools), joined with the tools each prompt
// should reach and the setup (the MCP servers connected) it was written
// for.
//
// # Setups
//
// A Setup names the catalog files of the servers a user has connected,
// relative to the shared folder (the corpora and catalogs, ../shared from
// the repository root): "catalogs/mongodb.json",
// "corpora/livemcpbench/catalogs/airbnb.json", … The surface a blind
// writer saw is the surface of that setup's catalog, and a call is
// replayed against the same catalog.
//
// # Prompts
//
// Prompts come from the labelled corpora (Corpora: mongodb-accuracy,
// azure-e2e, metatool, livemcpbench) and from prompts written one tool at
// a time for catalogs that have none. A corpus line listed in
// corpora/held-out.json, or whose text equals such a line's, is never
// used (Pool drops them): those lines evaluate the writers and must not
// be fitted on.
package calib

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

// Setup is one set of connected MCP servers.
type Setup struct {
	Name string `json:"name"`
	// Files are catalog files relative to the shared folder, one server
	// each, in the order given.
	Files []string `json:"files"`
}

// Catalog loads the setup's servers from the shared folder.
func (s Setup) Catalog(shared string) (*corpus.Catalog, error) {
	paths := make([]string, len(s.Files))
	for i, f := range s.Files {
		paths[i] = filepath.Join(shared, filepath.FromSlash(f))
	}
	cat, err := corpus.Load(paths...)
	if err != nil {
		return nil, fmt.Errorf("setup %s: %w", s.Name, err)
	}
	return cat, nil
}

// Servers is the number of servers of the setup (one per file).
func (s Setup) Servers() int { return len(s.Files) }

// Corpus is a labelled prompt set and the catalog its prompts were
// written for.
type Corpus struct {
	Name string
	// Queries is the queries file, relative to the shared folder (or an
	// absolute path).
	Queries string
	// Files are its own catalog's files (relative to the shared folder).
	Files []string
}

// Corpora are the four labelled corpora of the shared folder.
func Corpora(shared string) ([]Corpus, error) {
	lmb, err := filepath.Glob(filepath.Join(shared, "corpora", "livemcpbench", "catalogs", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(lmb) == 0 {
		return nil, fmt.Errorf("%s: no livemcpbench catalogs (is the shared folder there?)", filepath.Join(shared, "corpora", "livemcpbench", "catalogs"))
	}
	var lf []string
	for _, f := range lmb {
		lf = append(lf, "corpora/livemcpbench/catalogs/"+filepath.Base(f))
	}
	return []Corpus{
		{"mongodb-accuracy", "corpora/mongodb-accuracy/queries.jsonl", []string{"catalogs/mongodb.json"}},
		{"azure-e2e", "corpora/azure-e2e/queries.jsonl", []string{"catalogs/azure.json"}},
		{"metatool", "corpora/metatool/queries.jsonl", []string{"corpora/metatool/metatool.json"}},
		{"livemcpbench", "corpora/livemcpbench/queries.jsonl", lf},
	}, nil
}

// Prompt is one labelled prompt of a corpus.
type Prompt struct {
	Corpus string `json:"corpus"`
	// Line is the 0-based line of the corpus's queries file (held-out.json
	// counts lines the same way).
	Line   int      `json:"line"`
	Text   string   `json:"prompt"`
	Expect []string `json:"expect"`
	// Tool is set for a prompt written for one tool of a catalog with no
	// corpus (then Corpus is "prompts-<catalog>").
	Tool string `json:"tool,omitempty"`
}

// HeldOut reads corpora/held-out.json: per corpus, the 0-based lines held
// out.
func HeldOut(shared string) (map[string]map[int]bool, error) {
	path := filepath.Join(shared, "corpora", "held-out.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Lines map[string][]int `json:"lines"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	out := map[string]map[int]bool{}
	for c, ls := range f.Lines {
		out[c] = map[int]bool{}
		for _, l := range ls {
			out[c][l] = true
		}
	}
	return out, nil
}

// Pool reads a corpus's prompts without its held-out lines and without
// any line whose text is that of a held-out line.
func Pool(shared string, c Corpus, held map[string]map[int]bool) ([]Prompt, error) {
	path := c.Queries
	if !filepath.IsAbs(path) {
		path = filepath.Join(shared, filepath.FromSlash(c.Queries))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var all []Prompt
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for n := 0; sc.Scan(); n++ {
		var q struct {
			Query  string   `json:"query"`
			Expect []string `json:"expect"`
			Tool   string   `json:"tool"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n+1, err)
		}
		all = append(all, Prompt{Corpus: c.Name, Line: n, Text: q.Query, Expect: q.Expect, Tool: q.Tool})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	heldText := map[string]bool{}
	for l := range held[c.Name] {
		if l < len(all) {
			heldText[all[l].Text] = true
		}
	}
	var out []Prompt
	for _, p := range all {
		if held[c.Name][p.Line] || heldText[p.Text] {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// Key is the answer key of one prompt of a batch: what the blind writer
// was not shown.
type Key struct {
	ID     string `json:"id"`
	Batch  string `json:"batch"`
	Client string `json:"client"`
	Setup  string `json:"setup"`
	Prompt
}

// ReadJSONL reads a JSON Lines file into values of T, one per non-blank
// line.
func ReadJSONL[T any](path string) ([]T, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []T
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// WriteJSONL writes values as JSON Lines (no HTML escaping).
func WriteJSONL[T any](path string, vs []T) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ReadSetups reads a setups file: a JSON array of Setup.
func ReadSetups(path string) (map[string]Setup, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var list []Setup
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	m := map[string]Setup{}
	for _, s := range list {
		if _, dup := m[s.Name]; dup {
			return nil, fmt.Errorf("%s: setup %q defined twice", path, s.Name)
		}
		m[s.Name] = s
	}
	return m, nil
}

// WriteSetups writes setups sorted by name, one per line.
func WriteSetups(path string, m map[string]Setup) error {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, n := range names {
		j, err := json.Marshal(m[n])
		if err != nil {
			return err
		}
		b.Write(j)
		if i+1 < len(names) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}
