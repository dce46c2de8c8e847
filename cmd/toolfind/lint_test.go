package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/lint"
)

const hostile = `{"server":"evil","tools":[
  {"name":"nullprops","description":"Null properties.","inputSchema":{"type":"object","properties":null}},
  {"name":"dup","description":"First.","inputSchema":{"type":"object"}},
  {"name":"dup","description":"Second.","inputSchema":{"type":"object"}}]}`

func TestLintHostileCatalog(t *testing.T) {
	p := writeFile(t, "evil.json", hostile)
	// An error finding fails the run (exit 1) unless --fail-on says
	// otherwise.
	out, errOut, code := run(t, "lint", "--catalog", p, "--format", "json")
	if code != exitCheckFailed || !strings.Contains(errOut, "lint: 1 finding at or above error") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "lint", "--catalog", p, "--fail-on", "none"); code != 0 {
		t.Errorf("--fail-on none: exit %d: %s", code, errOut)
	}
	var got struct {
		Findings []struct {
			Rule, Severity string
			Location       struct {
				Line, Column int
				Server, Tool string
			}
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range got.Findings {
		rules = append(rules, f.Severity+" "+f.Rule+" "+f.Location.Server+"/"+f.Location.Tool)
	}
	// evil annotates no tool: server-unannotated (every call asks in Codex).
	want := "error schema evil/nullprops,warning server-unannotated evil/,warning duplicate-tool evil/dup"
	if strings.Join(rules, ",") != want {
		t.Errorf("findings %v, want %s", rules, want)
	}
	// nullprops's "properties" member is on line 2, after
	// `  {"name":"nullprops","description":"Null properties.","inputSchema":{"type":"object",` (86 columns).
	if l := got.Findings[0].Location; l.Line != 2 || l.Column != 87 {
		t.Errorf("schema finding at %d:%d, want 2:87", l.Line, l.Column)
	}
	_, errOut, code = run(t, "lint", "--catalog", p, "--fail-on", "error")
	if code != exitCheckFailed || !strings.Contains(errOut, "at or above error") {
		t.Errorf("--fail-on error: exit %d, stderr %q", code, errOut)
	}
	_, _, code = run(t, "lint", "--catalog", p, "--fail-on", "error", "--disable", "schema")
	if code != 0 {
		t.Errorf("--disable schema: exit %d, want 0", code)
	}
}

func TestLintSARIF(t *testing.T) {
	p := writeFile(t, "evil.json", hostile)
	out, _, code := run(t, "lint", "--catalog", p, "--format", "sarif", "--client", "all")
	if code != exitCheckFailed {
		t.Fatalf("exit %d", code)
	}
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					Physical struct {
						Artifact struct{ URI string } `json:"artifactLocation"`
						Region   struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
					Logical []struct {
						Name string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil {
		t.Fatal(err)
	}
	r := sarif.Runs[0].Results[0]
	loc := r.Locations[0]
	if sarif.Version != "2.1.0" || r.RuleID != "schema" || r.Level != "error" ||
		loc.Physical.Artifact.URI != "file://"+p || loc.Physical.Region.StartLine != 2 || loc.Physical.Region.StartColumn != 87 ||
		loc.Logical[0].Name != "evil/nullprops#inputSchema.properties" {
		t.Errorf("first SARIF result: %+v", r)
	}
}

// TestLintSARIFURI: artifactLocation.uri is a URI reference: a relative
// catalog path a relative reference, an absolute one a file:// URI, a
// "#", "%", space or non-ASCII letter in the name percent-encoded.
func TestLintSARIFURI(t *testing.T) {
	dir := t.TempDir()
	const name = "my #1 100% é.json"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// space 20, # 23, % 25, é C3 A9
	const enc = "my%20%231%20100%25%20%C3%A9.json"
	for _, tt := range []struct{ path, want string }{
		{name, enc},
		{"./" + name, "./" + enc},
		{filepath.Join(dir, name), lint.FileURI(dir) + "/" + enc},
	} {
		out, errOut, code := run(t, "lint", "--catalog", tt.path, "--format", "sarif", "--client", "claude")
		if code != exitCheckFailed {
			t.Fatalf("%s: exit %d: %s", tt.path, code, errOut)
		}
		var sarif struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						Physical struct {
							Artifact struct{ URI string } `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &sarif); err != nil {
			t.Fatal(err)
		}
		uris := map[string]bool{}
		for _, r := range sarif.Runs[0].Results {
			for _, l := range r.Locations {
				if l.Physical.Artifact.URI != "" {
					uris[l.Physical.Artifact.URI] = true
				}
			}
		}
		if len(uris) != 1 || !uris[tt.want] {
			t.Errorf("--catalog %q: uris %v, want only %q", tt.path, uris, tt.want)
		}
	}
}

// TestLintConfigFile: .toolfind.yaml in the working directory sets a
// rule's severity; a bad entry names the file and line.
func TestLintConfigFile(t *testing.T) {
	p := writeFile(t, "evil.json", hostile)
	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".toolfind.yaml")
	if err := os.WriteFile(cfg, []byte("lint:\n  rules:\n    schema: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "lint", "--catalog", p)
	if code != 0 || strings.Contains(out, "[schema]") || !strings.Contains(out, "1 info not shown; --min-severity info shows them") {
		t.Errorf("schema: info should hide the schema finding: exit %d\n%s", code, out)
	}
	// fail-on from the file: the duplicate-tool and server-unannotated
	// warnings fail the run; the flag overrides the file.
	if err := os.WriteFile(cfg, []byte("lint:\n  fail-on: warning\n  rules:\n    schema: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, "lint", "--catalog", p); code != exitCheckFailed || !strings.Contains(errOut, "lint: 2 findings at or above warning") {
		t.Errorf("fail-on warning from the file: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := run(t, "lint", "--catalog", p, "--fail-on", "none"); code != 0 {
		t.Errorf("--fail-on none over the file: exit %d", code)
	}
	if err := os.WriteFile(cfg, []byte("lint:\n  rules:\n    schema: loud\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "lint", "--catalog", p)
	if code != exitBadInput || !strings.Contains(errOut, ".toolfind.yaml: line 3: schema: \"loud\"") {
		t.Errorf("bad config: exit %d, stderr %q", code, errOut)
	}
}

// TestLintLiveServer: a live server's findings are located by server and
// tool, on every line.
func TestLintLiveServer(t *testing.T) {
	fx := buildFixture(t)
	t.Setenv("COLUMNS", "100000") // one line per finding and occurrence
	out, errOut, code := run(t, "lint", "--server", fx+" hostile", "--verbose", "--min-severity", "info", "--fail-on", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(strings.TrimPrefix(l, "  "), "misbehaving") {
			t.Errorf("line not located by server/tool: %s", l)
		}
	}
	for _, want := range []string{
		`misbehaving/gamma: error: misbehaving/gamma description: override "<system>" at offset 0;`,
		`misbehaving: error: misbehaving: tools[4]: tool entry is not a JSON object; claude@`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestLintFitsAndCatalogWide: lint's lines fit the width (one reached 596
// columns), continuation lines indented; a finding about the whole
// catalog (its tool count) is at "catalog", not at line 1 of its first
// file; severities are worded as --min-severity takes them (info, not
// note).
func TestLintFitsAndCatalogWide(t *testing.T) {
	var tools []string
	for i := 0; i < 130; i++ {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"Tool number %d of a long list.","inputSchema":{"type":"object"}}`, i, i))
	}
	a := writeFile(t, "a.json", `{"server":"a","tools":[`+strings.Join(tools[:65], ",")+`]}`)
	b := writeFile(t, "b.json", `{"server":"b","tools":[`+strings.Join(tools[65:], ",")+`]}`)
	t.Setenv("COLUMNS", "80")
	out, errOut, code := run(t, "lint", "--catalog", a, "--catalog", b, "--min-severity", "info", "--verbose")
	require.Equal(t, 0, code, errOut)
	n, line := longestLine(out)
	assert.LessOrEqual(t, n, 80, line)
	// 130 tools over two files + VS Code's 51 built-ins = 181 ≥ 64: VS
	// Code Copilot Chat groups them (a warning: nothing is dropped and the
	// request, 51 + 37 slots, stays within 128).
	assert.True(t, strings.HasPrefix(out, "catalog: warning: 181 tools in a request (51 VS Code built-ins,\n"), out)
	assert.Contains(t, out, "\ncatalog: info: 130 tools; Goose recommends fewer than 25 [goose-tool-count]\n")
	assert.NotContains(t, out, "a.json:1:1")
	assert.NotContains(t, out, "note")
	// The three warnings: VS Code's grouping, and neither server annotates
	// a tool (server-unannotated).
	assert.Regexp(t, `\n0 errors, 3 warnings, \d+ info\n$`, out)

	out, _, _ = run(t, "lint", "--catalog", a, "--catalog", b, "--format", "json")
	assert.Contains(t, out, `"location": {
        "file": "`+a+`",
        "catalog": true
      }`)
}
