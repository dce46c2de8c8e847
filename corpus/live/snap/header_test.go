package snap

import (
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
