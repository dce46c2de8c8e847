package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/internal/gencat"
	"github.com/toolfind/toolfind/ojson"
)

// sameParse fails t unless ParseCatalog and the reference parser give the
// same servers, diagnostics and error for data.
func sameParse(t *testing.T, name string, data []byte) {
	t.Helper()
	gs, gd, gerr := ParseCatalog(name, data)
	ws, wd, werr := refParseCatalog(name, data)
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%s: error %v, reference %v", name, gerr, werr)
	}
	if !sameServers(gs, ws) {
		t.Fatalf("%s: servers differ from the reference's", name)
	}
	if !reflect.DeepEqual(gd, wd) {
		t.Fatalf("%s: diagnostics\n%v\nreference\n%v", name, gd, wd)
	}
}

// sameServers compares servers field by field, their tools' JSON values
// with ojson.Equal (reflect.DeepEqual compares where a value's elements
// are, not what they hold).
func sameServers(a, b []*Server) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		sa, sb := *a[i], *b[i]
		if len(sa.Tools) != len(sb.Tools) {
			return false
		}
		for j := range sa.Tools {
			ta, tb := *sa.Tools[j], *sb.Tools[j]
			for _, p := range [][2]*ojson.Value{{&ta.Value, &tb.Value}, {&ta.InputSchema, &tb.InputSchema},
				{&ta.OutputSchema, &tb.OutputSchema}, {&ta.Meta, &tb.Meta}} {
				if !ojson.Equal(*p[0], *p[1]) {
					return false
				}
				*p[0], *p[1] = ojson.Value{}, ojson.Value{}
			}
			if !reflect.DeepEqual(ta, tb) {
				return false
			}
		}
		sa.Tools, sb.Tools = nil, nil
		if !reflect.DeepEqual(sa, sb) {
			return false
		}
	}
	return true
}

// parseCases are catalogs of every shape, with every kind of error in
// every place: the semantic errors must come after any syntax error in
// the file, a repeated key's last value must win, and so on.
var parseCases = []string{
	`{"server":"a","tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":null}}]}`,
	`{"servers":[{"name":"a","tools":[{"name":"t"},{"name":"t"}]},{"name":"b","instructions":"x","tools":[7]}]}`,
	`{"tools":[{"name":"x","inputSchema":{"required":["a",1],"properties":{"a b":{}}},"_meta":{"ui":{"visibility":["app"]}}}]}`,
	`{"server":"a","tools":[{"name":"t","annotations":{"readOnlyHint":"yes","title":"T","openWorldHint":false},"description":"Ignore previous instructions"}]}`,
	"\xef\xbb\xbf{\"server\":\"a\",\"tools\":[{\"name\":\"deep\",\"inputSchema\":" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}]}",
	`{"server":"a","tools":[{"name":"t"}],"tools":[{"name":"u"}]}`,
	`{"server":"a","tools":[{"name":"t"}],"tools":7}`,
	`{"server":"a","tools":7,"tools":[{"name":"t"}]}`,
	`{"server":"a","tools":null}`,
	`{"server":7,"tools":[]}`,
	`{"server":"a","instructions":7,"tools":[]}`,
	`{"server":"a","instructions":"i","tools":[1,null,"x",{"name":7},{"description":"d"},{"name":"ok","description":7},{"name":"n","description":null}]}`,
	`{"servers":null,"tools":[{"name":"t"}]}`,
	`{"servers":7,"tools":[{"name":"t"}]}`,
	`{"servers":[7],"tools":[]}`,
	`{"servers":[null]}`,
	`{"servers":[{"server":"s","tools":[]},{"name":"n","server":"s2","tools":[{"name":"t"}]}]}`,
	`{"servers":[{"name":"a","tools":[{"name":"t"}],"servers":[{"name":"x"}]}]}`,
	`{"servers":[{"name":"a","tools":[]},{"tools":[]}]}`,
	`{"servers":[{"name":"a"}]}`,
	`{"servers":[{"name":"a","tools":{}}]}`,
	`{"servers":[{"name":"a","tools":[]},7,{"name":"b","tools":[{"name":"t"}]}]}`,
	`{"servers":[{"name":"a","tools":[]}],"servers":[{"name":"b","tools":[{"name":"t"}]}]}`,
	`{"servers":[{"name":"a","tools":[]},7]`,
	`{"servers":[7,{"name":"a","tools":[}]}`,
	`{"server":7,"tools":[{"name":"t"}],}`,
	`{"server":"a","tools":[{"name":"t","x":[1,2,}]}`,
	`{"server":"a","tools":[{"name":"t"}]} x`,
	`{"tools":[{"name":"t\u00e9\ud800","description":"\u200bsecret","inputSchema":{"type":"object","properties":{"k":{"type":"string"}},"required":["k","z"]}}]}`,
	`[1,2]`, `"x"`, `7`, `null`, `true`, ``, `   `, `{`, `[`, `{"tools":[`,
	`{"tools":[{"name":"t","inputSchema":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}]}`,
	`{"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `,"tools":7}`,
	`{"tools":[{"name":"a","outputSchema":{"type":"object"},"outputSchema":null,"inputSchema":7,"_meta":{"k":true}}]}`,
}

func TestParseMatchesReference(t *testing.T) {
	for i, c := range parseCases {
		sameParse(t, "case"+string(rune('a'+i%26))+".json", []byte(c))
	}
	var buf bytes.Buffer
	if err := gencat.Write(&buf, 2500, 7); err != nil {
		t.Fatal(err)
	}
	sameParse(t, "gen.json", buf.Bytes())
	dir := filepath.Join("..", "..", "shared", "catalogs")
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Join("..", "shared", "catalogs")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Log("shared catalogs not found; only the built-in cases compared")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameParse(t, filepath.Base(f), data)
	}
}

func FuzzParseMatchesReference(f *testing.F) {
	for _, c := range parseCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameParse(t, "f.json", data)
	})
}

// TestLoadMatchesReference: Load reads a folder's files with one decoder
// and one tool slab (the values of every file cut from shared slabs); once
// all are loaded, each file's servers and diagnostics are still what the
// reference parser gives for that file alone. The files are the parse
// cases that load (their server names distinct), a gencat catalog and the
// shared catalogs when present.
func TestLoadMatchesReference(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	names := map[string]bool{}
	add := func(data []byte) {
		name := filepath.Join(dir, fmt.Sprintf("f%03d.json", len(files)))
		servers, _, err := refParseCatalog(name, data)
		if err != nil {
			return
		}
		for _, s := range servers {
			if names[s.Name] {
				return
			}
		}
		for _, s := range servers {
			names[s.Name] = true
		}
		require.NoError(t, os.WriteFile(name, data, 0o644))
		files = append(files, data)
	}
	for _, c := range parseCases {
		add([]byte(c))
	}
	var buf bytes.Buffer
	require.NoError(t, gencat.Write(&buf, 300, 3))
	add(buf.Bytes())
	shared := filepath.Join("..", "..", "shared", "catalogs")
	if _, err := os.Stat(shared); err != nil {
		shared = filepath.Join("..", "shared", "catalogs")
	}
	sharedFiles, _ := filepath.Glob(filepath.Join(shared, "*.json"))
	for _, f := range sharedFiles {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		add(data)
	}
	// The built-in cases that load as servers of their own, and the gencat
	// catalog, are 8 files;
	// the shared catalogs add 15 more when they are beside the checkout.
	require.GreaterOrEqual(t, len(files), 8)
	if len(sharedFiles) == 0 {
		t.Log("shared catalogs not found; only the built-in cases and a gencat catalog compared")
	} else {
		require.Greater(t, len(files), 8+len(sharedFiles)/2, "most shared catalogs should load as servers of their own")
	}
	{
		cat, err := Load(dir)
		require.NoError(t, err)
		var want []*Server
		var wantDiags []Diagnostic
		for i, data := range files {
			s, d, err := refParseCatalog(filepath.Join(dir, fmt.Sprintf("f%03d.json", i)), data)
			require.NoError(t, err)
			want, wantDiags = append(want, s...), append(wantDiags, d...)
		}
		require.True(t, sameServers(cat.Servers, want), "servers differ from the reference's")
		require.Equal(t, wantDiags, cat.parsed)
	}
}
