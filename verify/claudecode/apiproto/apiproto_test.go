package apiproto

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecode(t *testing.T) {
	for _, tt := range []struct {
		line string
		want Message
	}{
		{`{"type":"input","input":{"query":"a","max_results":3}}`, Message{Type: TypeInput, Input: json.RawMessage(`{"query":"a","max_results":3}`)}},
		{` {"type":"unlisted","servers":["a","b"]}` + "\r\n", Message{Type: TypeUnlisted, Servers: []string{"a", "b"}}},
		{`{"type":"unlisted"}`, Message{Type: TypeUnlisted}},
		{`{"type":"url","url":"http://127.0.0.1:4242"}`, Message{Type: TypeURL, URL: "http://127.0.0.1:4242"}},
		{`{"type":"call"}`, Message{Type: TypeCall}},
		{`{"type":"done"}`, Message{Type: TypeDone}},
		{`{"type":"state","state":{"called":true,"required":[],"offered":null,"unlisted":["x"],"captured":{"content":"t","is_error":true,"extra":[{"type":"text"}]}}}`,
			Message{Type: TypeState, State: &State{Called: true, Required: []string{}, Unlisted: []string{"x"},
				Captured: &Capture{Content: json.RawMessage(`"t"`), IsError: true, Extra: []json.RawMessage{json.RawMessage(`{"type":"text"}`)}}}}},
	} {
		got, err := Decode([]byte(tt.line))
		require.NoError(t, err, tt.line)
		assert.Equal(t, tt.want, got, tt.line)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"", "empty line"},
		{"  \n", "empty line"},
		{"hello", "not a protocol message: invalid character 'h' looking for beginning of value"},
		{`{"type":"call"} {}`, "not a protocol message: text after the JSON object"},
		{`{"type":"call","id":1}`, `not a protocol message: json: unknown field "id"`},
		{`{"type":7}`, "not a protocol message: json: cannot unmarshal number into Go struct field Message.type of type string"},
		{`{}`, `message without "type"`},
		{`{"type":"hello"}`, `unknown message type "hello"`},
		{`{"type":"input"}`, `"input" message without a JSON object in "input"`},
		{`{"type":"input","input":null}`, `"input" message without a JSON object in "input"`},
		{`{"type":"input","input":"q"}`, `"input" message without a JSON object in "input"`},
		{`{"type":"url","url":"127.0.0.1:80"}`, `"url" message with "127.0.0.1:80", not an http:// URL`},
		{`{"type":"url","url":"http://"}`, `"url" message with "http://", not an http:// URL`},
		{`{"type":"state"}`, `"state" message without "state"`},
		{`{"type":"state","state":null}`, `"state" message without "state"`},
	} {
		_, err := Decode([]byte(tt.line))
		if assert.Error(t, err, tt.line) {
			assert.Equal(t, tt.want, err.Error(), tt.line)
		}
	}
}

// TestEncodeRoundTrip: what Encode writes, Decode reads back, one line
// each; nil and empty lists stay apart in a state.
func TestEncodeRoundTrip(t *testing.T) {
	for _, m := range []Message{
		{Type: TypeInput, Input: json.RawMessage(`{"query":"x <y>"}`)},
		{Type: TypeUnlisted, Servers: []string{"a"}},
		{Type: TypeUnlisted},
		{Type: TypeURL, URL: "http://127.0.0.1:1"},
		{Type: TypeCall},
		{Type: TypeDone},
		{Type: TypeState, State: &State{Required: []string{}}},
		{Type: TypeState, State: &State{Called: true, Offered: []string{"Read"}, Captured: &Capture{Content: json.RawMessage(`[]`), Extra: []json.RawMessage{}}}},
	} {
		line := Encode(m)
		assert.Equal(t, byte('\n'), line[len(line)-1])
		got, err := Decode(line)
		require.NoError(t, err, string(line))
		assert.Equal(t, m, got, string(line))
	}
	assert.Equal(t, `{"type":"input"}`+"\n", string(Encode(Message{Type: TypeInput, Input: json.RawMessage(`{`)})))
}

func TestBlocks(t *testing.T) {
	assert.Equal(t, []json.RawMessage{json.RawMessage(`{"type":"a"}`), json.RawMessage(`7`)}, Blocks(json.RawMessage(`[{"type":"a"},7]`)))
	assert.Equal(t, []json.RawMessage{json.RawMessage(`{"text":"hi \u003c","type":"text"}`)}, Blocks(json.RawMessage(`"hi <"`)))
	assert.Nil(t, Blocks(json.RawMessage(`7`)))
	assert.Nil(t, Blocks(nil))
}

// FuzzDecode: no line makes Decode panic; what it accepts, Encode writes
// back as a line it accepts again, equal.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"input","input":{"query":"a"}}`, `{"type":"unlisted","servers":["a"]}`, `{"type":"url","url":"http://127.0.0.1:1"}`,
		`{"type":"call"}`, `{"type":"done"}`, `{"type":"state","state":{"called":true,"captured":{"content":"x","extra":[1]}}}`,
		`{"type":"state","state":{}}`, `{}`, `[`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := Decode(line)
		if err != nil {
			return
		}
		again, err := Decode(Encode(m))
		if err != nil {
			t.Fatalf("%q: re-encoded %q: %v", line, Encode(m), err)
		}
		if string(Encode(again)) != string(Encode(m)) {
			t.Fatalf("%q: %q then %q", line, Encode(m), Encode(again))
		}
	})
}
