package search

import (
	"encoding/json"
	"testing"
)

func TestCallFields(t *testing.T) {
	m, err := CallObject(json.RawMessage(`{"query":"a","limit":5.0,"n":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if q, err := CallString(m, "query", true); q != "a" || err != nil {
		t.Errorf("query = %q, %v", q, err)
	}
	// 5.0 is a whole number; null is absent.
	if n, err := CallInt(m, "limit"); n != 5 || err != nil {
		t.Errorf("limit = %d, %v", n, err)
	}
	if n, err := CallInt(m, "n"); n != 0 || err != nil {
		t.Errorf("n = %d, %v", n, err)
	}
	if _, err := CallString(m, "n", true); err == nil || err.Error() != `call: field "n" is missing` {
		t.Errorf("null required: %v", err)
	}
	for raw, want := range map[string]string{
		``:             "call: not a JSON object: ",
		`[1]`:          "call: not a JSON object: [1]",
		`{"a":1`:       "call: unexpected end of JSON input",
		`{"limit":-1}`: `call: field "limit": -1 is not a whole number ≥ 0`,
	} {
		m, err := CallObject(json.RawMessage(raw))
		if err == nil {
			_, err = CallInt(m, "limit")
		}
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", raw, err, want)
		}
	}
}

func TestMarshalCall(t *testing.T) {
	got := string(MarshalCall("query", "select:a<b>&c", "max_results", 5))
	if want := `{"query":"select:a<b>&c","max_results":5}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func FuzzCallObject(f *testing.F) {
	f.Add(`{"query":"x","max_results":3}`)
	f.Add(`{"code":"text(1)"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, raw string) {
		m, err := CallObject(json.RawMessage(raw))
		if err != nil {
			return
		}
		// Every member reads as a string or a number or fails cleanly.
		for k := range m {
			_, _ = CallString(m, k, true)
			if n, err := CallInt(m, k); err == nil && n < 0 {
				t.Fatalf("negative %d", n)
			}
		}
	})
}
