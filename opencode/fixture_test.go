package opencode

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// The oracle fixtures under testdata/oracle hold what the real OpenCode
// 1.18.33 produced (captured with shared/oracles/opencode-oracle): catalog
// sections, every tool's signature as its search() returns it, and search
// results. For our own catalog (testdata/edge.json) the texts are stored;
// for the shared catalogs only SHA-256 and lengths (and tool paths), so
// no third-party text is copied into the repository.

// textFixture is a text, or its hash and length.
type textFixture struct {
	Text   *string `json:"text,omitempty"`
	SHA256 string  `json:"sha256"`
	Bytes  int     `json:"bytes"`
}

func newTextFixture(s string, keep bool) *textFixture {
	f := &textFixture{SHA256: sha(s), Bytes: len(s)}
	if keep {
		f.Text = &s
	}
	return f
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// check reports whether got is the captured text, with a diff when the
// text is stored.
func (f textFixture) check(t *testing.T, what, got string) bool {
	t.Helper()
	if sha(got) == f.SHA256 {
		return true
	}
	if f.Text != nil {
		t.Errorf("%s differs from OpenCode 1.18.33:\n%s", what, firstDiff(got, *f.Text))
	} else {
		t.Errorf("%s differs from OpenCode 1.18.33 (%d bytes here, %d captured)", what, len(got), f.Bytes)
	}
	return false
}

type signatureFixture struct {
	Path      string      `json:"path"`
	Signature textFixture `json:"signature"`
}

type searchFixture struct {
	Query     string      `json:"query"`
	Paths     []string    `json:"paths"`
	Remaining int         `json:"remaining"`
	Result    textFixture `json:"result"`
}

type oracleFixture struct {
	Spec fixtureSpec `json:"spec"`
	// Partial is set when the capture covers only some tools' signatures.
	Partial    bool               `json:"partial,omitempty"`
	Section    *textFixture       `json:"section"`
	Signatures []signatureFixture `json:"signatures"`
	Searches   []searchFixture    `json:"searches"`
}

type singleFixture struct {
	Catalog string      `json:"catalog"`
	Section textFixture `json:"section"`
}

const sharedCatalogs = "../../shared/catalogs"

// loadShared loads shared catalogs by name ("*" = the whole folder),
// skipping the test when the folder is absent.
func loadShared(t testing.TB, names ...string) *corpus.Catalog {
	t.Helper()
	if _, err := os.Stat(sharedCatalogs); err != nil {
		t.Skipf("shared catalogs not found at %s (needs the toolfind shared folder next to the repository)", sharedCatalogs)
	}
	var paths []string
	for _, n := range names {
		if n == "*" {
			paths = append(paths, sharedCatalogs)
		} else {
			paths = append(paths, filepath.Join(sharedCatalogs, n+".json"))
		}
	}
	cat, err := corpus.Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func loadFixture(t *testing.T, name string) oracleFixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/oracle", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx oracleFixture
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	return fx
}

func fixtureCatalog(t *testing.T, spec fixtureSpec) *corpus.Catalog {
	t.Helper()
	if spec.Own == "demo" {
		return corpus.Demo()
	}
	if spec.Own != "" {
		cat, err := corpus.Load(spec.Own)
		if err != nil {
			t.Fatal(err)
		}
		return cat
	}
	if spec.Folder != "" {
		if _, err := os.Stat(spec.Folder); err != nil {
			t.Skipf("%s not found (needs the toolfind shared folder next to the repository)", spec.Folder)
		}
		cat, err := corpus.Load(spec.Folder)
		if err != nil {
			t.Fatal(err)
		}
		return cat
	}
	return loadShared(t, spec.Shared...)
}

// TestOracleFixtures checks signatures, catalog sections and search
// results against OpenCode 1.18.33, byte for byte.
func TestOracleFixtures(t *testing.T) {
	for _, spec := range fixtureSpecs {
		t.Run(spec.Name, func(t *testing.T) {
			fx := loadFixture(t, spec.Name)
			cat := fixtureCatalog(t, spec)
			s := newCodeMode(cat, profile118())
			fx.Section.check(t, "catalog section", s.catalog.Text)
			byPath := map[string]*indexEntry{}
			for _, e := range s.index {
				byPath[e.rendered] = e
			}
			if fx.Signatures != nil && !fx.Partial && len(fx.Signatures) != len(s.index) {
				t.Errorf("OpenCode lists %d tools, the simulator %d", len(fx.Signatures), len(s.index))
			}
			bad := 0
			for _, sf := range fx.Signatures {
				e := byPath[sf.Path]
				if e == nil {
					t.Errorf("OpenCode has %s, the simulator does not", sf.Path)
					continue
				}
				if !sf.Signature.check(t, sf.Path+" signature", e.signature) {
					bad++
				}
			}
			for _, q := range fx.Searches {
				res := s.runSearch(SearchInput{Query: q.Query})
				var paths []string
				for _, it := range res.Items {
					paths = append(paths, it.Path)
				}
				if !equalStrings(paths, q.Paths) || res.Remaining != q.Remaining {
					t.Errorf("search %q:\n got %v remaining %d\nwant %v remaining %d", q.Query, paths, res.Remaining, q.Paths, q.Remaining)
					continue
				}
				q.Result.check(t, "search "+q.Query+" result", res.JSON())
			}
			t.Logf("%d signatures (%d differ), %d searches, section %d bytes", len(fx.Signatures), bad, len(fx.Searches), fx.Section.Bytes)
		})
	}
}

// TestOracleSingleCatalogs checks the catalog section of each shared
// catalog connected alone.
func TestOracleSingleCatalogs(t *testing.T) {
	data, err := os.ReadFile("testdata/oracle/single.json")
	if err != nil {
		t.Fatal(err)
	}
	var singles []singleFixture
	if err := json.Unmarshal(data, &singles); err != nil {
		t.Fatal(err)
	}
	if len(singles) != 15 {
		t.Errorf("%d single-catalog captures, want 15", len(singles))
	}
	for _, sf := range singles {
		t.Run(sf.Catalog, func(t *testing.T) {
			s := newCodeMode(loadShared(t, sf.Catalog), profile118())
			sf.Section.check(t, "catalog section", s.catalog.Text)
		})
	}
}

func equalStrings(a, b []string) bool {
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
