package live

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestIDKey(t *testing.T) {
	// 1, 1.0 and 1e0 are one number; "1" is a string.
	for _, tt := range []struct{ raw, want string }{
		{`1`, "n:1"}, {`1.0`, "n:1"}, {`1e0`, "n:1"}, {`"1"`, "s:1"}, {` 7 `, "n:7"}, {`null`, "r:null"},
	} {
		if got := idKey(json.RawMessage(tt.raw)); got != tt.want {
			t.Errorf("idKey(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestTap(t *testing.T) {
	tp := newTap()
	tp.sent([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n"))
	tp.sent([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	tp.sent([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	// A notification, a server request, a reply to an id we never sent,
	// and a batch carrying our replies (ids spelled 1.0 and 2).
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","id":1,"method":"roots/list"}`,
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`[{"jsonrpc":"2.0","id":1.0,"result":{"protocolVersion":"2025-11-25"}},{"jsonrpc":"2.0","id":2,"result":{"tools":[ {"name" : "x"} ]}}]`,
	} {
		if err := tp.received("test", []byte(msg)); err != nil {
			t.Fatalf("received(%s): %v", msg, err)
		}
	}
	r, ok := tp.reply("tools/list")
	if !ok || string(r.Result) != `{"tools":[ {"name" : "x"} ]}` || r.Error != nil {
		t.Errorf("tools/list reply %s %v", r.Result, ok)
	}
	if r, ok := tp.reply("initialize"); !ok || string(r.Result) != `{"protocolVersion":"2025-11-25"}` {
		t.Errorf("initialize reply %s %v", r.Result, ok)
	}
	if _, ok := tp.reply("ping"); ok {
		t.Error("reply to a request never sent")
	}
	if tp.count("tools/list") != 1 || tp.count("notifications/initialized") != 0 {
		t.Error("counts")
	}
}

func TestTapRejects(t *testing.T) {
	for msg, want := range map[string]string{
		`hello`:                                "invalid JSON",
		`{"jsonrpc":"1.0","id":1,"result":{}}`: `"jsonrpc" is not "2.0"`,
		`{"id":1,"result":{}}`:                 `"jsonrpc" is not "2.0"`,
		`{"jsonrpc":"2.0"}`:                    `no "method" and no "id"`,
		`{"jsonrpc":"2.0","id":1}`:             `a response without "result" or "error"`,
		`[]`:                                   "empty batch",
		`[1]`:                                  "not a JSON object",
		`"str"`:                                "not a JSON object",
		`{"jsonrpc":"2.0","method":5}`:         "a member has the wrong type",
		`{"jsonrpc":"2.0","id":1,"result":{}} {}`: "invalid JSON",
	} {
		tp := newTap()
		err := tp.received("stdout line 4", []byte(msg))
		var bad *badOutput
		if !errors.As(err, &bad) || bad.What != "stdout line 4" || !strings.Contains(err.Error(), want) {
			t.Errorf("received(%s) = %v, want %q", msg, err, want)
		}
		if tp.badOutput() != bad {
			t.Errorf("badOutput not remembered for %s", msg)
		}
	}
}

func TestLineReader(t *testing.T) {
	in := "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r\n\n  \n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}"
	tp := newTap()
	lr := newLineReader(io.NopCloser(strings.NewReader(in)), tp)
	got, err := io.ReadAll(lr)
	if err != nil || string(got) != in {
		t.Fatalf("passed %q, %v; want the input unchanged", got, err)
	}
	// Line 3 is garbage: lines 1–2 pass, then the error names line 3.
	tp = newTap()
	lr = newLineReader(io.NopCloser(strings.NewReader("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n\nStarting server...\n{}")), tp)
	got, err = io.ReadAll(lr)
	if string(got) != "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n\n" || err == nil || !strings.HasPrefix(err.Error(), `stdout line 3: not a JSON-RPC 2.0 message: invalid JSON: "Starting server..."`) {
		t.Errorf("got %q, %v", got, err)
	}
	// A line over the limit.
	tp = newTap()
	lr = newLineReader(io.NopCloser(strings.NewReader(strings.Repeat("x", 100))), tp)
	lr.max = 10
	const want = "stdout line 1: the line is longer than 10 bytes, the limit for one JSON-RPC message from a stdio server"
	if _, err := io.ReadAll(lr); err == nil || err.Error() != want {
		t.Errorf("long line: %v\nwant %s", err, want)
	}
	// The same with a newline after it, and a line of exactly the limit
	// (with "\r\n") before it.
	tp = newTap()
	in = "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}" // 31 bytes
	lr = newLineReader(io.NopCloser(strings.NewReader(in+"\r\n"+strings.Repeat("x", 32)+"\n"+in+"\n")), tp)
	lr.max = 31
	got, err = io.ReadAll(lr)
	if want := "stdout line 2: the line is longer than 31 bytes, the limit for one JSON-RPC message from a stdio server"; err == nil || err.Error() != want || string(got) != in+"\r\n" {
		t.Errorf("long line with a newline: %q, %v\nwant %s", got, err, want)
	}
	if got := byteLimit(MaxLineLength); got != "16777216 bytes (16 MiB)" {
		t.Errorf("byteLimit(MaxLineLength) = %q", got)
	}
}

// referenceSSE is the slow, obvious event-stream reader: split the whole
// body at '\n', drop a trailing '\r', and apply the field rules.
func referenceSSE(body string) []string {
	var events []string
	var data []string
	has := false
	flush := func() {
		if has {
			events = append(events, strings.Join(data, "\n"))
		}
		data, has = nil, false
	}
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			flush()
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, ok := strings.Cut(line, ":")
		if ok && field == "data" {
			data = append(data, strings.TrimSpace(value))
			has = true
		}
	}
	flush()
	return events
}

func sseEvents(body string, chunk int) []string {
	var got []string
	p := sseParser{onData: func(b []byte) { got = append(got, string(b)) }}
	for i := 0; i < len(body); i += chunk {
		p.write([]byte(body[i:min(i+chunk, len(body))]))
	}
	p.end()
	return got
}

func TestSSE(t *testing.T) {
	tests := []struct {
		body string
		want []string
	}{
		{"event: message\ndata: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"id: 1\r\ndata:{\"a\":1}\r\n\r\n", []string{`{"a":1}`}},
		{": keep-alive\n\ndata: a\ndata: b\n\n", []string{"a\nb"}}, // comment; two data lines join with \n
		{"retry: 100\n\n", nil},                     // no data, no event
		{"data: last", []string{"last"}},            // the end of the body dispatches
		{"data:  padded  \n\n", []string{"padded"}}, // value trimmed, as the SDK does
		{"nodata\ndata: x\n\n", []string{"x"}},      // a line without ':' is ignored
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 2, 3, 1000} {
			if got := sseEvents(tt.body, chunk); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%q in chunks of %d: %q, want %q", tt.body, chunk, got, tt.want)
			}
		}
		if ref := referenceSSE(tt.body); !reflect.DeepEqual(ref, tt.want) {
			t.Errorf("reference %q: %q", tt.body, ref)
		}
	}
}

func TestParsePage(t *testing.T) {
	tests := []struct {
		result string
		tools  []string
		next   string
		err    string
	}{
		{`{"tools":[]}`, nil, "", ""},
		{`{"tools":[{"name":"a"}, 5 ,"x"],"nextCursor":"c2"}`, []string{`{"name":"a"}`, `5`, `"x"`}, "c2", ""},
		{`{"tools":[],"nextCursor":null}`, nil, "", ""},
		{`{"tools":[],"nextCursor":""}`, nil, "", ""},
		{`{"tools":[],"nextCursor":2}`, nil, "", `"nextCursor" is a number, not a string`},
		{`{"tools":{}}`, nil, "", `"tools" is an object, not an array`},
		{`{"tools":null}`, nil, "", `"tools" is null, not an array`},
		{`{}`, nil, "", `the result has no "tools" member`},
		{`[]`, nil, "", "the result is an array, not an object"},
		{`null`, nil, "", "the result is null, not an object"},
	}
	for _, tt := range tests {
		tools, next, err := parsePage(json.RawMessage(tt.result))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("parsePage(%s) error %v, want %q", tt.result, err, tt.err)
			}
			continue
		}
		var got []string
		for _, tool := range tools {
			got = append(got, string(tool))
		}
		if err != nil || !reflect.DeepEqual(got, tt.tools) || next != tt.next {
			t.Errorf("parsePage(%s) = %q %q %v", tt.result, got, next, err)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 16}
	io.WriteString(b, "line one\nline two\nline three\n\n")
	// 16 bytes kept: "two\nline three\n\n"; the cut line "two" is dropped.
	if got := b.tail(10); got != "line three" {
		t.Errorf("tail = %q", got)
	}
	b = &tailBuffer{max: 1024}
	io.WriteString(b, "a\nb\nc\x1b[31m\xff\n")
	if got := b.tail(2); got != `b`+"\n"+`c\x1b[31m\xff` {
		t.Errorf("tail = %q", got)
	}
}
