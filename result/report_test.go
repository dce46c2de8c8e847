package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A hostile result cannot reach the terminal as control characters: the
// text report escapes them (internal/safetext); JSON keeps them exact.
func TestReportEscapes(t *testing.T) {
	r := textResult(t, "ok\x1b]0;pwned\x07\x1b[2J\u202eevil\r\nnext")
	ds, err := Deliver(Input{Result: r}, Options{Clients: []string{"grok"}})
	if err != nil {
		t.Fatal(err)
	}
	var txt, js bytes.Buffer
	if err := WriteText(&txt, "evil\x1b[31m.json", r, ds, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(txt.String(), "\x1b\x07\r\u202e") {
		t.Errorf("raw control characters in the text report: %q", txt.String())
	}
	for _, want := range []string{"result evil\\x1b[31m.json: ", "    | ok\\x1b]0;pwned\\x07\\x1b[2J\\u202eevil\\r\n    | next\n"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, txt.String())
		}
	}
	if err := WriteJSON(&js, ds); err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil || rep.Results[0].Shown != "ok\x1b]0;pwned\x07\x1b[2J\u202eevil\r\nnext" {
		t.Errorf("JSON: %v %q", err, js.String())
	}
}

// An empty report is {"results": []}, never null.
func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, nil); err != nil || b.String() != "{\n  \"results\": []\n}\n" {
		t.Errorf("%v %q", err, b.String())
	}
}
