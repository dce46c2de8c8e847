package opencode

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// oracleRecord is one line of opencode-oracle's RESULTS.jsonl.
type oracleRecord struct {
	Probe       string          `json:"probe"`
	ID          json.RawMessage `json:"id"`
	Query       *string         `json:"query"`
	CatalogText *string         `json:"catalog_text"`
	Result      json.RawMessage `json:"result"`
	Error       string          `json:"error"`
}

type oracleItem struct {
	Path        string `json:"path"`
	Description string `json:"description"`
	Signature   string `json:"signature"`
}

func readOracle(t *testing.T, file string) []oracleRecord {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Skipf("no oracle capture %s: %v", file, err)
	}
	defer f.Close()
	var out []oracleRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<20), 64<<20)
	for sc.Scan() {
		var r oracleRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestOracleCaptures compares the simulator with raw opencode-oracle
// captures when OPENCODE_ORACLE_OUT names a folder of NAME.jsonl files and
// OPENCODE_ORACLE_CATALOGS a folder of the matching NAME.json catalogs
// (development only; the committed fixtures are checked by the other
// tests).
func TestOracleCaptures(t *testing.T) {
	outDir, catDir := os.Getenv("OPENCODE_ORACLE_OUT"), os.Getenv("OPENCODE_ORACLE_CATALOGS")
	if outDir == "" || catDir == "" {
		t.Skip("set OPENCODE_ORACLE_OUT and OPENCODE_ORACLE_CATALOGS to compare with raw opencode-oracle captures")
	}
	names := strings.Split(os.Getenv("OPENCODE_ORACLE_NAMES"), ",")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			cat, err := corpus.Load(filepath.Join(catDir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			sim := newCodeMode(cat, profile118())
			byPath := map[string]*entry{}
			for _, e := range sim.entries {
				byPath[RenderPath(e.path)] = e
			}
			recs := readOracle(t, filepath.Join(outDir, name+".jsonl"))
			checked, bad := 0, 0
			catalogChecked := false
			for _, r := range recs {
				var id string
				json.Unmarshal(r.ID, &id)
				if r.Error != "" {
					t.Logf("%s: oracle error %s (skipped)", id, r.Error)
					continue
				}
				if strings.HasPrefix(id, "sig-") {
					var text string
					if err := json.Unmarshal(r.Result, &text); err != nil {
						t.Fatalf("%s: %v", id, err)
					}
					var items []oracleItem
					if err := json.Unmarshal([]byte(text), &items); err != nil {
						t.Errorf("%s: result is not JSON: %.200s", id, text)
						continue
					}
					for _, it := range items {
						e := byPath[it.Path]
						checked++
						if e == nil {
							t.Errorf("no entry for %s", it.Path)
							bad++
							continue
						}
						if got := Signature(e.path, e.tool.InputSchema, e.tool.OutputSchema); got != it.Signature {
							bad++
							if bad < 6 {
								t.Errorf("%s signature:\n got: %s\nwant: %s", it.Path, got, it.Signature)
							}
						}
						if e.tool.Description != it.Description {
							t.Errorf("%s description differs", it.Path)
						}
					}
				}
				if r.CatalogText != nil && !catalogChecked {
					catalogChecked = true
					want := oracleSection(*r.CatalogText)
					got := sim.catalog.Text
					if got != want {
						t.Errorf("catalog text differs (%d vs %d bytes)\n%s", len(got), len(want), firstDiff(got, want))
					} else {
						t.Logf("catalog section identical (%d bytes, %d of %d shown)", len(got), sim.catalog.Shown, sim.catalog.Total)
					}
				}
				if r.Query != nil {
					var text string
					json.Unmarshal(r.Result, &text)
					res := sim.runSearch(SearchInput{Query: *r.Query})
					got := res.JSON()
					if got != text {
						t.Errorf("search %q differs:\n%s", *r.Query, firstDiff(got, text))
					}
				}
			}
			t.Logf("%s: %d signatures checked, %d differ", name, checked, bad)
		})
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return "at byte " + strconv.Itoa(i) + "\n got: …" + a[lo:min(len(a), i+200)] + "\nwant: …" + b[lo:min(len(b), i+200)]
}

// oracleSection cuts the catalog section out of the oracle's catalog_text,
// which for a COMPLETE list starts at the workflow's mention of
// "## Available tools": the section is the last header line.
func oracleSection(text string) string {
	i := strings.LastIndex(text, "## Available tools")
	if i < 0 {
		return text
	}
	return strings.TrimRight(text[i:], "\n")
}

// fixtureSpec says which catalog an oracle capture was made on: our own
// file under testdata (full texts are stored) or shared catalogs (only
// hashes and paths are stored).
type fixtureSpec struct {
	Name   string   `json:"name"`
	Own    string   `json:"own,omitempty"`    // testdata file
	Shared []string `json:"shared,omitempty"` // ../shared/catalogs/NAME.json, in server order
	Folder string   `json:"folder,omitempty"` // a shared folder of catalogs, relative to this package
}

var fixtureSpecs = []fixtureSpec{
	{Name: "demo", Own: "demo"}, // the embedded demo catalog
	{Name: "edge", Own: "testdata/edge.json"},
	{Name: "github", Shared: []string{"github"}},
	{Name: "merged", Shared: []string{"github", "filesystem", "memory"}},
	{Name: "all15", Shared: []string{"*"}},
	// 70 servers, 527 tools we had not used while writing the simulator.
	{Name: "live", Folder: "../../shared/corpora/livemcpbench/catalogs"},
}

// TestWriteOracleFixtures turns raw opencode-oracle captures
// ($OPENCODE_ORACLE_OUT/NAME.jsonl and cat-NAME.jsonl) into the fixtures
// under testdata/oracle. Development only: OPENCODE_ORACLE_WRITE=1.
func TestWriteOracleFixtures(t *testing.T) {
	outDir := os.Getenv("OPENCODE_ORACLE_OUT")
	if os.Getenv("OPENCODE_ORACLE_WRITE") == "" || outDir == "" {
		t.Skip("set OPENCODE_ORACLE_WRITE=1 and OPENCODE_ORACLE_OUT to regenerate testdata/oracle from raw captures")
	}
	os.MkdirAll("testdata/oracle", 0o755)
	only := os.Getenv("OPENCODE_ORACLE_NAMES")
	for _, spec := range fixtureSpecs {
		if only != "" && !strings.Contains(","+only+",", ","+spec.Name+",") {
			continue
		}
		recs := readOracle(t, filepath.Join(outDir, spec.Name+".jsonl"))
		own := spec.Own != ""
		fx := oracleFixture{Spec: spec}
		for _, r := range recs {
			var id string
			json.Unmarshal(r.ID, &id)
			if r.Error != "" {
				if strings.HasPrefix(id, "sig-") {
					fx.Partial = true // a signature probe did not finish: fewer tools covered
					continue
				}
				t.Fatalf("%s %s: %s", spec.Name, id, r.Error)
			}
			if r.CatalogText != nil && fx.Section == nil {
				fx.Section = newTextFixture(oracleSection(*r.CatalogText), own)
			}
			var text string
			json.Unmarshal(r.Result, &text)
			switch {
			case strings.HasPrefix(id, "sig-"):
				var items []oracleItem
				if err := json.Unmarshal([]byte(text), &items); err != nil {
					t.Fatalf("%s %s: %v", spec.Name, id, err)
				}
				for _, it := range items {
					fx.Signatures = append(fx.Signatures, signatureFixture{Path: it.Path, Signature: *newTextFixture(it.Signature, own)})
				}
			case r.Query != nil:
				var res struct {
					Items     []oracleItem `json:"items"`
					Remaining int          `json:"remaining"`
				}
				if err := json.Unmarshal([]byte(text), &res); err != nil {
					t.Fatalf("%s %s: %v", spec.Name, id, err)
				}
				sf := searchFixture{Query: *r.Query, Paths: []string{}, Remaining: res.Remaining, Result: *newTextFixture(text, own)}
				for _, it := range res.Items {
					sf.Paths = append(sf.Paths, it.Path)
				}
				fx.Searches = append(fx.Searches, sf)
			}
		}
		data, _ := json.MarshalIndent(fx, "", " ")
		if err := os.WriteFile(filepath.Join("testdata/oracle", spec.Name+".json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Catalog sections of each shared catalog alone.
	var singles []singleFixture
	files, _ := filepath.Glob(filepath.Join(outDir, "cat-*.jsonl"))
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "cat-"), ".jsonl")
		recs := readOracle(t, f)
		if len(recs) != 1 || recs[0].CatalogText == nil {
			t.Fatalf("%s: no catalog", f)
		}
		singles = append(singles, singleFixture{Catalog: name, Section: *newTextFixture(oracleSection(*recs[0].CatalogText), false)})
	}
	data, _ := json.MarshalIndent(singles, "", " ")
	if err := os.WriteFile("testdata/oracle/single.json", append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
