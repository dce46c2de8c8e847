package live

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/internal/fixturedata"
)

// FuzzSplitCommand: never panics, and JoinCommand quotes so that the words
// split back unchanged.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{`srv --name 'a b' "c\"d" e\ f ''`, `a'b'"c"d`, "a\\\nb", `"a\$b"`, `'open`, "", "x=y z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := SplitCommand(line)
		if err != nil {
			return
		}
		back, err := SplitCommand(JoinCommand(words))
		if err != nil || (len(words) > 0 && !reflect.DeepEqual(back, words)) {
			t.Fatalf("%q → %q → %q → %q, %v", line, words, JoinCommand(words), back, err)
		}
		// The flag parsers never panic either.
		ParseServer(line)
		ParseURL(line)
		ParseHeader(line)
	})
}

// FuzzSSE: the streaming parser, fed in chunks of any size, finds the same
// events as the whole-body reference.
func FuzzSSE(f *testing.F) {
	f.Add("event: message\ndata: {\"a\":1}\n\n", 3)
	f.Add(": c\r\ndata: a\r\ndata:b\r\n\r\ndata: tail", 1)
	f.Add("data\ndata:\n\n\n", 2)
	f.Fuzz(func(t *testing.T, body string, chunk int) {
		if chunk <= 0 || chunk > len(body)+1 {
			chunk = len(body) + 1
		}
		got, want := sseEvents(body, chunk), referenceSSE(body)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in chunks of %d: %q, reference %q", body, chunk, got, want)
		}
	})
}

// FuzzTap: any server output is either accepted as JSON-RPC (and then
// splits into messages) or rejected with a badOutput; never a panic.
func FuzzTap(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"m"}}]`))
	f.Add([]byte(`Server started`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tp := newTap()
		tp.sent([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
		tp.sent(data)
		if err := tp.received("fuzz", data); err == nil {
			if _, err := splitMessages(data); err != nil {
				t.Fatalf("accepted %q but it does not split: %v", data, err)
			}
		} else if tp.badOutput() == nil {
			t.Fatalf("rejected %q without remembering it", data)
		}
		tp.reply("tools/list")
	})
}

// FuzzCatalogAssembly: whatever a server sends as its name, instructions
// and tools/list result, the snapshot either reports a parse error or
// assembles a catalog file that is valid JSON, keeps every tools entry byte
// for byte (up to whitespace), and that corpus reads back with the same
// name, instructions and entries.
func FuzzCatalogAssembly(f *testing.F) {
	f.Add("everything", "Use echo.", []byte(`{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`))
	f.Add("a\"b</script>", "\u2028", []byte(`{"tools":`+fixturedata.HostileTools+`,"nextCursor":"x"}`))
	f.Add("", "", []byte(`{"tools":[1,null,{"name":5}]}`))
	f.Fuzz(func(t *testing.T, name, instructions string, result []byte) {
		if !json.Valid(result) {
			return // the tap rejects the whole message before parsePage
		}
		if !utf8.ValidString(name) || !utf8.ValidString(instructions) {
			return // they come decoded from JSON: always UTF-8
		}
		tools, _, err := parsePage(result)
		if err != nil {
			return
		}
		snap := &Snapshot{Name: name, Instructions: instructions, HasInstructions: true, Tools: tools}
		for _, n := range []int{1, 2} {
			snaps := []*Snapshot{snap, snap}[:n]
			var buf bytes.Buffer
			if err := WriteCatalog(&buf, snaps); err != nil {
				t.Fatalf("WriteCatalog: %v", err)
			}
			if !json.Valid(buf.Bytes()) {
				t.Fatalf("invalid catalog JSON:\n%s", buf.Bytes())
			}
			servers, diags, err := corpus.ParseCatalog("fuzz.json", buf.Bytes())
			if err != nil {
				t.Fatalf("ParseCatalog: %v\n%s", err, buf.Bytes())
			}
			if len(servers) != n {
				t.Fatalf("%d servers, want %d", len(servers), n)
			}
			s := servers[0]
			if s.Name != name || s.Instructions != instructions {
				t.Fatalf("name %q instructions %q, want %q %q", s.Name, s.Instructions, name, instructions)
			}
			// Every entry is a tool or a diagnostic of a skipped one.
			skipped := 0
			for _, d := range diags {
				if d.Code == corpus.CodeToolNotObject || d.Code == corpus.CodeNameMissing {
					skipped++
				}
			}
			if len(s.Tools)*n+skipped != len(tools)*n {
				t.Fatalf("%d tools + %d skipped, want %d entries", len(s.Tools)*n, skipped, len(tools)*n)
			}
			for _, tool := range s.Tools {
				var a, b bytes.Buffer
				json.Compact(&a, tool.Raw)
				json.Compact(&b, tools[tool.Index+countSkippedBefore(tools, tool.Index)])
				if !bytes.Equal(a.Bytes(), b.Bytes()) {
					t.Fatalf("tool %d changed:\n%s\n%s", tool.Index, a.Bytes(), b.Bytes())
				}
			}
		}
	})
}

// countSkippedBefore maps a corpus tool index (skipped entries left out)
// back to the page index: the number of unusable entries before it.
func countSkippedBefore(tools []json.RawMessage, kept int) int {
	skipped, seen := 0, 0
	for _, raw := range tools {
		var m map[string]json.RawMessage
		usable := json.Unmarshal(raw, &m) == nil && m != nil
		if usable {
			var s string
			usable = json.Unmarshal(m["name"], &s) == nil && m["name"] != nil
		}
		if !usable {
			skipped++
			continue
		}
		if seen == kept {
			return skipped
		}
		seen++
	}
	return skipped
}

// FuzzLineReader: whatever a stdio server writes, the line reader passes
// JSON-RPC lines through unchanged and stops at the first bad or overlong
// line with an error naming that line, never panicking.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r\n\n"), uint8(40))
	f.Add([]byte("Starting server...\n{}"), uint8(8))
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxx\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n"), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		lr := newLineReader(io.NopCloser(bytes.NewReader(data)), newTap())
		lr.max = int(max) + 1
		got, err := io.ReadAll(lr)
		if !bytes.HasPrefix(data, got) {
			t.Fatalf("passed %q, not a prefix of the input", got)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "stdout line ") {
			t.Fatalf("error does not name the line: %v", err)
		}
		if err == nil && len(got) != len(data) {
			t.Fatalf("passed %d of %d bytes without an error", len(got), len(data))
		}
	})
}
