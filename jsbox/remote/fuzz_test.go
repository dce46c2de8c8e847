package remote

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// The decoders of pipe lines never panic; what they accept re-encodes to
// a line they accept again, with the same meaning.

func FuzzDecodeCall(f *testing.F) {
	for _, s := range []string{
		`{"id":0,"hello":{"protocol":1}}`,
		`{"id":1,"codex":{"tools":[{"name":"a","description":"\u0000base64:/w==","call_name":"a"}],"limits":{"timeout_ns":1,"max_output_bytes":1,"max_call_stack":1,"max_heap_growth":1},"console":true}}`,
		`{"id":2,"exec":{"session":1,"code":"text(1)","query":"q","terms":["q"],"yield_ms":10000,"trusted":true}}`,
		`{"id":3,"opencode":{"tools":[{"namespace":"n","local":"l"}],"global_search":true,"timeout_ns":5}}`,
		`{"id":4,"run":{"session":3,"code":"return 1"}}`,
		`{"id":4,"found":{"json":"{}","error":"e"}}`,
		`{"id":5,"compile":{"session":1,"code":"x"}}`,
		`{"id":6,"cancel":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := decodeCall(line)
		if err != nil {
			return
		}
		b, err := encode(c)
		if err != nil {
			t.Fatalf("accepted %q, cannot encode it: %v", line, err)
		}
		c2, err := decodeCall(b)
		if err != nil {
			t.Fatalf("accepted %q, not its encoding %q: %v", line, b, err)
		}
		if b2, _ := encode(c2); !bytes.Equal(b, b2) {
			t.Fatalf("%q: encodings differ:\n%s\n%s", line, b, b2)
		}
	})
}

func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		`{"id":0,"ready":{"protocol":1}}`,
		`{"id":1,"opened":true}`,
		`{"id":2,"compiled":{"error":{"message":"SyntaxError: x","line":1,"column":2}}}`,
		`{"id":3,"output":{"status":"Script completed","items":["a","\u0000base64:/w=="],"calls":[{"tool":"t","name":"n","arguments":{"a":[1,2.5,null]},"rejected":"r"}],"error":"e","timed_out":true,"notices":["n"]}}`,
		`{"id":4,"ran":{"output":"o","failed":true,"error":"e","called":[0,2],"searches":1}}`,
		`{"id":4,"search":{"query":"q","namespace":"ns","limit":2,"offset":1}}`,
		`{"id":5,"error":"no session"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := decodeReply(line)
		if err != nil {
			return
		}
		if r.Output != nil {
			if _, err := r.Output.output(); err != nil {
				return // arguments that are not JSON: the engine's error
			}
		}
		b, err := encode(r)
		if err != nil {
			t.Fatalf("accepted %q, cannot encode it: %v", line, err)
		}
		r2, err := decodeReply(b)
		if err != nil {
			t.Fatalf("accepted %q, not its encoding %q: %v", line, b, err)
		}
		if b2, _ := encode(r2); !bytes.Equal(b, b2) {
			t.Fatalf("%q: encodings differ:\n%s\n%s", line, b, b2)
		}
	})
}

// Any bytes cross as a text unchanged; any JSON a text accepts decodes
// to what it re-encodes to.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "plain", "\xff", "é<>&\u2028", `"\u0000base64:/w=="`, `"x"`, "\x00base64:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(text(s))
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var back text
		if err := json.Unmarshal(b, &back); err != nil || string(back) != s {
			t.Fatalf("%q: wire %s, back %q, %v", s, b, back, err)
		}
		var any text
		if json.Unmarshal([]byte(s), &any) == nil {
			b, err := json.Marshal(any)
			var again text
			if err != nil || json.Unmarshal(b, &again) != nil || again != any {
				t.Fatalf("%q decodes to %q, which does not cross back (%s, %v)", s, any, b, err)
			}
		}
	})
}

// An exec's output written by hand is the line encoding/json writes
// (strings aside: json escapes <, >, & and U+2028/9 too), and decodes to
// the same reply.
func FuzzOutputReply(f *testing.F) {
	f.Add("Script completed", "item\n\"q\"\t\x01<&>\b\f\x7f\\", "\xff\xfe", "mcp__x", `{"a":[1,"<"]}`, "rejected", "notice", true)
	f.Add("", "", "", "", `null`, "", "", false)
	f.Fuzz(func(t *testing.T, status, item1, item2, name, args, rejected, notice string, timedOut bool) {
		if !json.Valid([]byte(args)) {
			return
		}
		var compact bytes.Buffer
		json.Compact(&compact, []byte(args))
		o := &codexOutput{Status: text(status), Items: []text{text(item1), text(item2)}, TimedOut: timedOut, Error: text(item2),
			Calls:   []wireCall{{Tool: text(name), Name: text(name), Arguments: compact.Bytes(), Rejected: text(rejected)}},
			Notices: []text{text(notice)}}
		line := appendOutputReply(nil, 7, o)
		r, err := decodeReply(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		var l lineEncoder
		l.enc = json.NewEncoder(&l.buf)
		l.enc.SetEscapeHTML(false)
		if err := l.enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		r2, err := decodeReply(l.buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		got, _ := r.Output.output()
		want, _ := r2.Output.output()
		if r.ID != 7 || fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) || string(r.Output.Items[0]) != item1 || string(r.Output.Items[1]) != item2 {
			t.Fatalf("%q decodes to %#v, not %#v", line, got, want)
		}
		plain := !strings.ContainsAny(status+item1+item2+name+rejected+notice, "\u2028\u2029") && utf8.ValidString(status+item1+item2+name+rejected+notice)
		var j bytes.Buffer
		enc := json.NewEncoder(&j)
		enc.SetEscapeHTML(false)
		enc.Encode(reply{ID: 7, Output: o})
		if plain && !bytes.Equal(line, j.Bytes()) {
			t.Fatalf("by hand\n%s\nencoding/json\n%s", line, j.Bytes())
		}
	})
}
