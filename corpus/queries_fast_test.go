package corpus

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// fastLines are query lines for the fast path: each either takes it (and
// must then read what encoding/json reads) or is left to the general path.
var fastLines = []struct {
	line string
	fast bool
}{
	{`{"query": "List all recommendations", "expect": ["azure__advisor_recommendation_list"], "expect_namespace_mode": ["azure-namespace__advisor"], "section": "Azure Advisor"}`, true},
	{`{"query":"a","expect":[],"k":[]}`, true},
	{`{"query":"  ","expect":["x"]}`, true}, // blank: "query: is empty" in both
	{` { "query" : "a" , "expect" : [ "x" , "y" ] } `, true},
	{`{"query":"naïve 😀 \u2028"}`, true}, // escapes decoded
	{"{\"query\":\"naïve \u2028 😀\"}", true},
	{`{"query":"a\"b \\ \/ \b\f\n\r\t \u00e9\u00E9 \u0000"}`, true},
	{`{"query":"\ud83d\ude00 \ud83d\u0041 \ude00"}`, true}, // surrogates paired, or replaced
	{`{"query":"a","t":["\ud83d"]}`, true},
	{`{"query":"a\'b"}`, false}, // not a JSON escape
	{`{"query":"a\xb"}`, false},
	{`{"query":"a\u12"}`, false},
	{`{"query":"a\u12g4"}`, false},
	{`{"query":"a\"}`, false},
	{`{"qu\u0065ry":"a"}`, false}, // escaped key
	{`{"query":"a","expect":["s__t\u0031"],"t":[ "x" , "y\"z" ,"\\"] ,"u":[ ],"v":["a b"]}`, true},
	{`{"query":"a","t":["x"	,"y"]}`, true},
	{`{"query":[]}`, false},
	{`{"query":"a","query":"b"}`, false},  // repeated key
	{`{"query":["a"]}`, false},            // query not a string
	{`{"query":"a","expect":"x"}`, false}, // expect not an array
	{`{"query":"a","n":1}`, false},        // number tag
	{`{"query":"a","n":null}`, false},
	{`{"query":"a","expect":[1]}`, false},
	{`{"query":"a"} x`, false},
	{`{"query":"a",}`, false},
	{`{"expect":["x"]}`, false}, // no query
	{`{"prompt":"a","expect":["x"],"t":"u"}`, true},
	{`{"prompt":"  "}`, true},             // blank: "prompt: is empty" in both
	{`{"prompt":"a","query":"a"}`, false}, // both: compared by the general path
	{`{"query":"a","prompt":"b"}`, false},
	{`{"prompt":["a"]}`, false},
	{"{\"query\":\"\xff\"}", false},
	{"{\"query\":\"a\tb\"}", false}, // control character
	{`{}`, false},
	{`[1]`, false},
}

func TestFastQueryFields(t *testing.T) {
	for _, c := range fastLines {
		var f queryFieldsBuf
		if got := fastQueryFields(c.line, &f); got != c.fast {
			t.Errorf("%s: fast %v, want %v", c.line, got, c.fast)
		}
		checkFastQueryLine(t, []byte(c.line))
	}
}

// checkFastQueryLine: when the fast path takes a line, encoding/json reads
// the same query, expect and tags from it.
func checkFastQueryLine(t *testing.T, text []byte) {
	t.Helper()
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return
	}
	var fast, slow Query
	var p queryParser
	if !p.fast(string(text), &fast) {
		return
	}
	var err error
	slow.Text, slow.ExpectRaw, slow.Tags, err = queryFields("q.jsonl", 1, 0, text)
	if err != nil {
		// The only error of a line the fast path reads: a blank query.
		if strings.TrimSpace(fast.Text) != "" || !strings.HasSuffix(err.Error(), ": is empty") {
			t.Fatalf("%q: fast path read it, encoding/json fails: %v", text, err)
		}
		return
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q:\nfast %#v\nslow %#v", text, fast, slow)
	}
}

func FuzzQueryLine(f *testing.F) {
	for _, c := range fastLines {
		f.Add([]byte(c.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkFastQueryLine(t, line) })
}

// BenchmarkParseQueriesAzure reads the 739 prompts of the azure-e2e corpus
// (resolving their expect entries against the Azure catalog).
func BenchmarkParseQueriesAzure(b *testing.B) {
	cat, err := Load("../../shared/catalogs/azure.json")
	if err != nil {
		b.Skipf("shared azure catalog: %v", err)
	}
	data, err := os.ReadFile("../../shared/corpora/azure-e2e/queries.jsonl")
	if err != nil {
		b.Skipf("azure-e2e queries: %v", err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseQueries("queries.jsonl", bytes.NewReader(data), cat); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadQueriesAzure loads the azure-e2e query file (169 KB, 739
// prompts) as bench does.
func BenchmarkLoadQueriesAzure(b *testing.B) {
	cat, err := Load("../../shared/catalogs/azure.json")
	if err != nil {
		b.Skipf("shared azure catalog: %v", err)
	}
	const path = "../../shared/corpora/azure-e2e/queries.jsonl"
	for _, c := range []struct {
		name string
		opts LoadOptions
	}{{"read", LoadOptions{}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadQueriesWith(c.opts, path, cat); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
