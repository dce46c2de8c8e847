package codexjs

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
)

var originalTokens = regexp.MustCompile(`original token count: (\d+)`)

// TestBuiltinScriptsMatchCodex runs scripts that read Codex's own entries
// line by line — the line-structure probes recorded for
// builtins-0.171.0.json, ten line-reading scripts on github.json, and the
// model-written heldout scripts whose output holds builtin text — and
// compares the shown text's byte length and the tokens with the real Codex
// 0.171.0 (testdata/oracle-0.171.0/builtin-scripts.json); the probes'
// outputs (sizes only) byte for byte.
func TestBuiltinScriptsMatchCodex(t *testing.T) {
	data, err := os.ReadFile("testdata/oracle-0.171.0/builtin-scripts.json")
	require.NoError(t, err)
	var rec struct {
		Runs []struct {
			ID, Catalog, Script string
			ShownBytes          int `json:"shown_bytes"`
			Tokens              int
			Truncated           bool
			Output              *string
		}
	}
	require.NoError(t, json.Unmarshal(data, &rec))
	require.Len(t, rec.Runs, 17)
	modes := map[string]*CodeMode{}
	for _, r := range rec.Runs {
		t.Run(r.ID, func(t *testing.T) {
			m := modes[r.Catalog]
			if m == nil {
				cat := corpus.Demo() // the probes print no MCP entry
				if r.Catalog != "" {
					cat = loadShared(t, r.Catalog)
				}
				m, err = NewCodeMode(cat, nil)
				require.NoError(t, err)
				modes[r.Catalog] = m
			}
			res := m.RunScript(r.Script, "")
			assert.Equal(t, r.ShownBytes, len(res.Shown), "shown bytes")
			tokens := approxTokens(res.Extra["output_bytes"].(int))
			if mm := originalTokens.FindStringSubmatch(res.Shown); mm != nil {
				tokens, _ = strconv.Atoi(mm[1])
			}
			assert.Equal(t, r.Tokens, tokens, "tokens")
			assert.Equal(t, r.Truncated, res.Extra["truncated"], "truncated")
			if r.Output != nil {
				_, body, _ := strings.Cut(res.Shown, "Output:\n")
				assert.Equal(t, *r.Output, body)
			}
		})
	}
}

// The embedded data builds; every stand-in keeps the frame of the exec
// declaration (§1.5) and the description's runs.
func TestBuiltinEntries(t *testing.T) {
	es := builtinEntries()
	require.Len(t, es, 11)
	var f struct {
		Tools map[string]builtinTool `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(builtinsJSON, &f))
	for _, e := range es {
		bt := f.Tools[e.Name]
		assert.Equal(t, bt.JSONBytes, len(e.JSON()), e.Name)
		assert.Equal(t, bt.DescriptionBytes, len(e.Description), e.Name)
		assert.Equal(t, bt.Runs, distinctRuns(e.Description), e.Name)
		assert.Equal(t, len(bt.Lines), strings.Count(e.Description, "\n")+1, e.Name)
		decl := "\n\nexec tool declaration:\n```ts\ndeclare const tools: { " + e.Name + "("
		assert.Equal(t, 1, strings.Count(e.Description, decl), e.Name)
		assert.True(t, strings.HasSuffix(e.Description, "; };\n```"), e.Name)
		for i, line := range strings.Split(e.Description, "\n") {
			assert.NoError(t, checkLine(line, bt.Lines[i], bt.Runs), "%s line %d", e.Name, i+1)
		}
	}
}

func TestStandInLine(t *testing.T) {
	runs := []string{"ab", "cd", "const", "declare", "tools", "x"}
	for _, c := range []struct {
		name           string
		l              builtinLine
		prefix, suffix string
		want, err      string
	}{
		// 2 runs (4 bytes) + 1 separator space + 1 leftover space + 2 fillers = 8
		{"runs then leftovers", builtinLine{Bytes: 8, Spaces: 2, Runs: []int{0, 1}}, "", "", "ab cd ..", ""},
		// indent 2 + "ab" + 1 inner space + 3 fillers + 1 trailing = 9
		{"indent and trailing", builtinLine{Bytes: 9, Indent: 2, Trailing: 1, Spaces: 4, Runs: []int{0}}, "", "", "  ab ... ", ""},
		// spaces only left over: they go before the last run, 4+4 = 8
		{"spaces before last run", builtinLine{Bytes: 8, Spaces: 4, Runs: []int{0, 1}}, "", "", "ab    cd", ""},
		// no inner space left: the escape separates, then fillers; 4+1+2 = 7
		{"escape as separator", builtinLine{Bytes: 7, Escapes: 1, Runs: []int{0, 1}}, "", "", `ab"cd..`, ""},
		// no runs: a filler first so the space stays inside; 1+1+4 = 6
		{"no runs", builtinLine{Bytes: 6, Spaces: 1}, "", "", ". ....", ""},
		{"blank", builtinLine{}, "", "", "", ""},
		// prefix (25 bytes, 4 spaces) + "ab" + fillers 3 + suffix (4 bytes, 1 space) = 34
		{"declaration frame", builtinLine{Bytes: 34, Spaces: 5, Runs: []int{0, 2, 3, 4, 5}}, "declare const tools: { x(", "; };", "declare const tools: { x(ab...; };", ""},
		{"index out of range", builtinLine{Bytes: 2, Runs: []int{6}}, "", "", "", "run index 6 out of range (6 runs)"},
		{"too short", builtinLine{Bytes: 3, Runs: []int{0, 1}}, "", "", "", "sizes do not fit"},
		{"no separator left", builtinLine{Bytes: 4, Runs: []int{0, 1}}, "", "", "", `stand-in runs ["abcd"], want ["ab" "cd"]`},
		{"cannot end without a space", builtinLine{Bytes: 2, Spaces: 1}, "", "", "", "stand-in has 1 trailing spaces, want 0"},
		{"run missing from the prefix's line", builtinLine{Bytes: 25, Spaces: 4, Runs: []int{2, 3, 4}}, "declare const tools: { x(", "", "", `want ["const" "declare" "tools"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := standInLine(c.l, runs, c.prefix, c.suffix)
			if err == nil {
				err = checkLine(got, c.l, runs)
			}
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestParseBuiltinsErrors(t *testing.T) {
	// A one-line prose, blank, frame, a one-line declaration, "```".
	tool := func(jsonBytes, declLine int, firstLine string) string {
		return `{"tools":{"t":{"json_bytes":` + strconv.Itoa(jsonBytes) + `,"description_bytes":65,"declaration_line":` + strconv.Itoa(declLine) +
			`,"runs":["const","declaration","declare","exec","t","tool","tools","ts"],"lines":[` + firstLine + `,
			{"bytes":0,"indent":0,"trailing":0,"spaces":0,"escapes":0,"runs":[]},
			{"bytes":22,"indent":0,"trailing":0,"spaces":2,"escapes":0,"runs":[1,3,5]},
			{"bytes":5,"indent":0,"trailing":0,"spaces":0,"escapes":0,"runs":[7]},
			{"bytes":29,"indent":0,"trailing":0,"spaces":5,"escapes":0,"runs":[0,2,4,6]},
			{"bytes":3,"indent":0,"trailing":0,"spaces":0,"escapes":0,"runs":[]}]}}}`
	}
	good := `{"bytes":1,"indent":0,"trailing":0,"spaces":0,"escapes":0,"runs":[]}`
	// lines 1+0+22+5+29+3 + 5 newlines = 65 bytes;
	// {"name":"t","description":"…"}: 28 + 1 + 65 + 5 escaped newlines = 99
	es, err := parseBuiltins([]byte(tool(99, 2, good)))
	require.NoError(t, err)
	require.Len(t, es, 1)
	assert.Equal(t, ".\n\nexec tool declaration:\n```ts\ndeclare const tools: { t(; };\n```", es[0].Description)

	for _, c := range []struct{ name, data, err string }{
		{"not JSON", `{"tools":`, "unexpected end of JSON input"},
		{"json_bytes", tool(100, 2, good), "tool t: stand-in JSON is 99 bytes, json_bytes says 100"},
		{"declaration line", tool(99, 3, good), "tool t: declaration_line 3 does not leave room for the declaration in 6 lines"},
		{"line", tool(99, 2, `{"bytes":1,"indent":0,"trailing":0,"spaces":0,"escapes":0,"runs":[9]}`), "tool t: line 1: run index 9 out of range (8 runs)"},
		{"description bytes", tool(99, 2, `{"bytes":2,"indent":0,"trailing":0,"spaces":0,"escapes":0,"runs":[4]}`), "tool t: lines add up to 66 bytes, description_bytes says 65"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseBuiltins([]byte(c.data))
			require.Error(t, err)
			assert.Equal(t, c.err, err.Error())
		})
	}
}

// standInLine never panics; what it returns has the byte length, spaces
// and escapes asked for (the runs and the ends are checkLine's to prove).
func FuzzStandInLine(f *testing.F) {
	f.Add(8, 0, 0, 2, 0, []byte{0, 1}, "", "")
	f.Add(34, 0, 0, 5, 0, []byte{0, 2, 3, 4, 5}, "declare const tools: { x(", "; };")
	f.Add(6, 1, 1, 3, 1, []byte{}, "", "")
	f.Fuzz(func(t *testing.T, bytes, indent, trailing, spaces, escapes int, idx []byte, prefix, suffix string) {
		if bytes > 1<<12 || indent > 1<<12 || trailing > 1<<12 || spaces > 1<<12 || escapes > 1<<12 {
			return
		}
		runs := []string{"ab", "cd", "const", "declare", "tools", "x"}
		l := builtinLine{Bytes: bytes, Indent: indent, Trailing: trailing, Spaces: spaces, Escapes: escapes}
		for _, b := range idx {
			l.Runs = append(l.Runs, int(b)%8)
		}
		s, err := standInLine(l, runs, prefix, suffix)
		if err != nil {
			return
		}
		esc := strings.Count(s, `"`) + strings.Count(s, `\`)
		if len(s) != bytes || strings.Count(s, " ") != spaces || esc != escapes {
			t.Fatalf("%q: %d bytes, %d spaces, %d escapes; want %d, %d, %d", s, len(s), strings.Count(s, " "), esc, bytes, spaces, escapes)
		}
	})
}

func BenchmarkParseBuiltins(b *testing.B) {
	for b.Loop() {
		if _, err := parseBuiltins(builtinsJSON); err != nil {
			b.Fatal(err)
		}
	}
}
