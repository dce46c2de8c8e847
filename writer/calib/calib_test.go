package calib

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const shared = "../../../shared"

func heldOrSkip(t *testing.T) map[string]map[int]bool {
	t.Helper()
	held, err := HeldOut(shared)
	if err != nil {
		t.Skipf("shared corpora not found (%v): this check needs ../shared", err)
	}
	return held
}

// Pool never hands out a held-out line, nor a line with a held-out line's
// text.
func TestPoolDropsHeldOut(t *testing.T) {
	held := heldOrSkip(t)
	cs, err := Corpora(shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		p, err := Pool(shared, c, held)
		if err != nil {
			t.Fatal(err)
		}
		texts := map[string]bool{}
		all, _ := Pool(shared, c, nil)
		for _, q := range all {
			if held[c.Name][q.Line] {
				texts[q.Text] = true
			}
		}
		for _, q := range p {
			if held[c.Name][q.Line] || texts[q.Text] {
				t.Errorf("%s line %d is held out", c.Name, q.Line)
			}
		}
		// Every line is either handed out or held out (or shares a
		// held-out line's text).
		if len(p)+len(held[c.Name]) > len(all) {
			t.Errorf("%s: %d handed out + %d held out > %d lines", c.Name, len(p), len(held[c.Name]), len(all))
		}
		if len(p) == 0 {
			t.Errorf("%s: no prompt handed out", c.Name)
		}
	}
}

// No calibration file under writer/testdata holds a held-out corpus line
// (ids are "<corpus>-<1-based line>" in the older sets, tags corpus and
// line in the blind set).
func TestTestdataHasNoHeldOutLine(t *testing.T) {
	held := heldOrSkip(t)
	short := map[string]string{"mongodb": "mongodb-accuracy", "azure": "azure-e2e", "metatool": "metatool", "livemcpbench": "livemcpbench"}
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	more, _ := filepath.Glob("../testdata/*/*/*.jsonl")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no calibration files found under writer/testdata")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var l struct {
				ID     string `json:"id"`
				Corpus string `json:"corpus"`
				Line   *int   `json:"line"`
			}
			if err := json.Unmarshal([]byte(line), &l); err != nil {
				continue // not a written-calls line
			}
			corpus, n := l.Corpus, -1
			if l.Line != nil {
				n = *l.Line
			} else if name, num, ok := strings.Cut(l.ID, "-"); ok {
				if v, err := strconv.Atoi(num); err == nil {
					corpus, n = short[name], v-1
				}
			}
			if n >= 0 && held[corpus][n] {
				t.Errorf("%s:%d: %s line %d is held out", f, i+1, corpus, n)
			}
		}
	}
}

func TestSetupsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "setups.json")
	in := map[string]Setup{
		"b": {Name: "b", Files: []string{"catalogs/mongodb.json", "catalogs/github.json"}},
		"a": {Name: "a", Files: []string{"catalogs/azure.json"}},
	}
	if err := WriteSetups(path, in); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := "[\n{\"name\":\"a\",\"files\":[\"catalogs/azure.json\"]},\n{\"name\":\"b\",\"files\":[\"catalogs/mongodb.json\",\"catalogs/github.json\"]}\n]\n"
	if string(b) != want {
		t.Errorf("setups file:\n%s\nwant\n%s", b, want)
	}
	out, err := ReadSetups(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out["b"].Servers() != 2 || out["a"].Files[0] != "catalogs/azure.json" {
		t.Errorf("read back %v", out)
	}
	os.WriteFile(path, []byte(`[{"name":"a","files":[]},{"name":"a","files":[]}]`), 0o644)
	if _, err := ReadSetups(path); err == nil || !strings.Contains(err.Error(), `setup "a" defined twice`) {
		t.Errorf("duplicate setup: err %v", err)
	}
}
