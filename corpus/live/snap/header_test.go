package snap

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
)

// TestCanonicalKey: header names as net/http writes them, for token keys,
// mixed case, hyphens at the ends and keys it leaves alone.
func TestCanonicalKey(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"authorization", "Authorization"},
		{"x-api-KEY", "X-Api-Key"},
		{"X-Api-Key", "X-Api-Key"}, // canonical already: returned as it is
		{"-x--y-", "-X--Y-"},
		{"www-authenticate", "Www-Authenticate"},
		{"x_y.z~1", "X_y.z~1"},
		{"", ""},
		{"a b", "a b"},                 // a space: not a token, unchanged
		{"caf\xc3\xa9", "caf\xc3\xa9"}, // non-ASCII: unchanged
		{"x:y", "x:y"},
	} {
		if got := CanonicalKey(tt.in); got != tt.want {
			t.Errorf("CanonicalKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := http.CanonicalHeaderKey(tt.in); got != tt.want {
			t.Errorf("net/http: %q is %q, this table says %q", tt.in, got, tt.want)
		}
	}
}

func TestHeaderAdd(t *testing.T) {
	h := Header{}
	h.Add("x-token", "a")
	h.Add("X-TOKEN", "b")
	h.Add("Accept", "c")
	want := http.Header{}
	want.Add("x-token", "a")
	want.Add("X-TOKEN", "b")
	want.Add("Accept", "c")
	if len(h) != 2 || len(h["X-Token"]) != 2 || h["X-Token"][1] != "b" || h["Accept"][0] != "c" {
		t.Errorf("Add: %q", h)
	}
	if got := http.Header(h); got.Get("x-token") != "a" || len(got.Values("X-Token")) != 2 || len(got) != len(want) {
		t.Errorf("as http.Header %q, net/http builds %q", got, want)
	}
}

// FuzzCanonicalKey: the same key as net/http's for every string.
func FuzzCanonicalKey(f *testing.F) {
	for _, s := range []string{"x-api-key", "Content-Type", "a b", "-", "ÿ", "X-A-b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := CanonicalKey(key), http.CanonicalHeaderKey(key); got != want {
			t.Fatalf("CanonicalKey(%q) = %q, net/http %q", key, got, want)
		}
	})
}

// TestParseHeaderValue: a value with a control character other than HTAB
// is refused when the flag is parsed, as net/http would refuse it when the
// request is sent; tabs, spaces and non-ASCII text (obs-text) pass.
func TestParseHeaderValue(t *testing.T) {
	for _, tt := range []struct{ in, v, err string }{
		{"K: a\tb", "a\tb", ""},
		{"K: a \u202e b", "a \u202e b", ""},
		{"K: a\x07b", "", `--header "K: a\ab": value has the control character '\a', not allowed in an HTTP header value`},
		{"K: \x1b[31mred", "", `--header "K: \x1b[31mred": value has the control character '\x1b', not allowed in an HTTP header value`},
		{"K: a\x7f", "", `--header "K: a\x7f": value has the control character '\x7f', not allowed in an HTTP header value`},
		{"K: a\nb", "", `--header "K: a\nb": value has a line break or NUL`},
	} {
		k, v, err := ParseHeader(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseHeader(%q) error %v, want %s", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || k != "K" || v != tt.v {
			t.Errorf("ParseHeader(%q) = %q %q %v, want K %q", tt.in, k, v, err, tt.v)
		}
	}
}

// FuzzParseHeader: every header ParseHeader accepts is one net/http's
// Transport sends (its checks of names and values pass; the dial that
// follows is refused without touching the network).
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"K: v", "K: a\tb", "K: \x07", "K: é", "K:"} {
		f.Add(s)
	}
	errDial := errors.New("no dial")
	tr := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return nil, errDial }}
	f.Fuzz(func(t *testing.T, spec string) {
		k, v, err := ParseHeader(spec)
		if err != nil {
			return
		}
		req, _ := http.NewRequest("GET", "http://example.com/", nil)
		req.Header.Set(k, v)
		if _, err := tr.RoundTrip(req); !errors.Is(err, errDial) {
			t.Fatalf("ParseHeader(%q) accepted %q: %q, net/http: %v", spec, k, v, err)
		}
	})
}
