package model

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStatusTextIsNetHTTPs: every code from 0 to 999 has net/http's
// phrase ("" where it has none), so error texts are what they were.
func TestStatusTextIsNetHTTPs(t *testing.T) {
	named := 0
	for code := 0; code < 1000; code++ {
		if got, want := statusText(code), http.StatusText(code); got != want {
			t.Errorf("statusText(%d) = %q, net/http says %q", code, got, want)
		}
		if statusText(code) != "" {
			named++
		}
	}
	assert.Equal(t, 62, named)                                   // 4 1xx + 10 2xx + 8 3xx + 29 4xx + 11 5xx
	assert.Equal(t, "Request Entity Too Large", statusText(413)) // RFC 9110 §15.5.14 renamed it Content Too Large
}

func TestParseHTTPTime(t *testing.T) {
	want := time.Date(1994, time.November, 6, 8, 49, 37, 0, time.UTC)
	for _, s := range []string{
		"Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate, RFC 9110 §5.6.7
		"Sunday, 06-Nov-94 08:49:37 GMT", // obsolete RFC 850 format
		"Sun Nov  6 08:49:37 1994",       // ANSI C asctime()
	} {
		got, err := parseHTTPTime(s)
		require.NoError(t, err, s)
		assert.True(t, want.Equal(got), "%s: %v", s, got)
	}
	for _, s := range []string{"", "7", "tomorrow", "Sun, 06 Nov 1994 08:49:37 UTC"} {
		_, err := parseHTTPTime(s)
		_, herr := http.ParseTime(s)
		assert.Error(t, err, s)
		assert.Equal(t, herr.Error(), err.Error(), s)
	}
	// A date in the future is a wait, capped at 60 s (StatusError).
	soon := time.Now().Add(30 * time.Second).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	d := StatusError(503, "x", soon).RetryAfter
	assert.True(t, d > 25*time.Second && d <= 30*time.Second, "%v", d)
	assert.Equal(t, 60*time.Second, StatusError(503, "x", time.Now().Add(time.Hour).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")).RetryAfter)
}

// FuzzParseHTTPTime: a Retry-After header is outside input; the parse
// agrees with net/http's on every string.
func FuzzParseHTTPTime(f *testing.F) {
	for _, s := range []string{"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseHTTPTime(s)
		want, herr := http.ParseTime(s)
		if (err == nil) != (herr == nil) || err == nil && !got.Equal(want) {
			t.Fatalf("%q: got %v, %v; net/http %v, %v", s, got, err, want, herr)
		}
	})
}
