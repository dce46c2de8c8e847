package ojson_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

func ExampleAppendUnquoted() {
	b := ojson.AppendUnquoted(nil, `say \"hi\" \u00e9 \ud83d\ude00 \ud800`)
	fmt.Println(string(b))
	// Output: say "hi" é 😀 �
}

// TestAppendUnquoted: the decoding is encoding/json's.
func TestAppendUnquoted(t *testing.T) {
	for _, body := range []string{``, `plain`, `\"\\\/\b\f\n\r\t`, `\u0000\u001f\u00e9\u20AC`, `\ud83d\ude00`, `\ud83d`, `\ude00\ud83d`,
		`\ud83d\u0041`, `\ud83dx`, "na\xffve", "\xed\xa0\x80", `\ud83d\ud83d\ude00`} {
		var want string
		if err := json.Unmarshal([]byte(`"`+body+`"`), &want); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got := string(ojson.AppendUnquoted([]byte("x"), body)); got != "x"+want {
			t.Errorf("AppendUnquoted(%q) = %q, want %q", body, got, "x"+want)
		}
	}
}
