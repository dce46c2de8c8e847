package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the CLI in-process and returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"rank without query", []string{"rank"}, "toolfind: rank needs --query"},
		{"rank bad format", []string{"rank", "--query", "x", "--format", "xml"}, `--format "xml": want table or json`},
		{"negative limit", []string{"rank", "--query", "x", "--limit", "-1"}, "--limit -1"},
		{"unknown flag", []string{"rank", "--qery", "x"}, "unknown flag: --qery"},
		{"unknown client", []string{"rank", "--query", "x", "--client", "cursor"}, `--client: unknown client "cursor"; known:`},
		{"missing catalog", []string{"rank", "--query", "x", "--catalog", "nope.json"}, "nope.json"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"lint bad fail-on", []string{"lint", "--fail-on", "info"}, `--fail-on "info"`},
		{"show unknown tool", []string{"show", "--tool", "nope"}, `--tool: "nope" matches no tool`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d; stderr %q", code, exitBadInput, errOut)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.want)
			}
		})
	}
}

func TestBadCatalogNamesFileLineAndColumn(t *testing.T) {
	p := writeFile(t, "broken.json", "{\n  \"server\": \"x\",\n  \"tools\": [,]\n}")
	_, errOut, code := run(t, "rank", "--query", "x", "--catalog", p)
	if code != exitBadInput || !strings.Contains(errOut, p+":3:13: invalid JSON") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "toolfind 0.1.0\n") {
		t.Errorf("exit %d, out %q", code, out)
	}
}

const hostile = `{"server":"evil","tools":[
  {"name":"nullprops","description":"Null properties.","inputSchema":{"type":"object","properties":null}},
  {"name":"dup","description":"First.","inputSchema":{"type":"object"}},
  {"name":"dup","description":"Second.","inputSchema":{"type":"object"}}]}`

func TestLintHostileCatalog(t *testing.T) {
	p := writeFile(t, "evil.json", hostile)
	out, errOut, code := run(t, "lint", "--catalog", p, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Diagnostics []struct {
			Severity, Code, Client, Server, Tool, Field string
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var catalogCodes []string
	for _, d := range got.Diagnostics {
		if d.Client == "" {
			catalogCodes = append(catalogCodes, d.Severity+" "+d.Code+" "+d.Server+"/"+d.Tool)
		}
	}
	want := "error properties-type evil/nullprops,warning duplicate-tool evil/dup"
	if strings.Join(catalogCodes, ",") != want {
		t.Errorf("catalog diagnostics %v, want %s", catalogCodes, want)
	}
	_, errOut, code = run(t, "lint", "--catalog", p, "--fail-on", "error")
	if code != exitCheckFailed || !strings.Contains(errOut, "at or above error") {
		t.Errorf("--fail-on error: exit %d, stderr %q", code, errOut)
	}
}

func TestLintSARIF(t *testing.T) {
	p := writeFile(t, "evil.json", hostile)
	out, _, code := run(t, "lint", "--catalog", p, "--format", "sarif", "--client", "all")
	if code != 0 {
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
	if sarif.Version != "2.1.0" || r.RuleID != "properties-type" || r.Level != "error" ||
		r.Locations[0].Physical.Artifact.URI != p || r.Locations[0].Logical[0].Name != "evil/nullprops#inputSchema.properties" {
		t.Errorf("first SARIF result: %+v", r)
	}
}
