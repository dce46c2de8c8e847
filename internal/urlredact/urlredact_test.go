package urlredact

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://u:p@h/mcp", "https://***@h/mcp"},
		{"https://h/mcp?token=abc", "https://h/mcp?token=***"},
		{"https://h/mcp?q=1&api_key=K&page=2", "https://h/mcp?q=1&api_key=***&page=2"},
		{"https://h/mcp?access_token=A;sig=S#frag", "https://h/mcp?access_token=***;sig=***#frag"},
		{"https://h/?Password=p&secret=s&key=k&X-Api-Key=x&client_secret=c", "https://h/?Password=***&secret=***&key=***&X-Api-Key=***&client_secret=***"},
		{"https://h/?apikey=1&accessToken=2&token=", "https://h/?apikey=***&accessToken=***&token="}, // an empty value shows nothing
		{"https://u:p@h:8443/mcp?a=b@c&token=t", "https://***@h:8443/mcp?a=b@c&token=***"},
		{"https://h/mcp?design=1&q=x", "https://h/mcp?design=1&q=x"}, // "design" is no credential's name
		{"not a url ?token=t", "not a url ?token=***"},
		{"https://h/mcp", "https://h/mcp"},
	} {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestScrubNetHTTPError: the text of a net/http error, which quotes the
// URL it was given, loses the credentials of user information and query.
func TestScrubNetHTTPError(t *testing.T) {
	raw := "http://alice:hunter2@127.0.0.1:1/mcp?token=tok%2Fen&x=1&sig=SIG"
	_, err := http.Post(raw, "application/json", nil)
	if err == nil {
		t.Skip("port 1 answered")
	}
	got := Error(fmt.Errorf("wrapped: %w", err), raw)
	for _, secret := range []string{"hunter2", "alice", "tok%2Fen", "tok/en", "SIG"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q shows %q", got, secret)
		}
	}
	if !strings.Contains(got, "token=***&x=1&sig=***") {
		t.Errorf("%q", got)
	}
	if Error(nil, raw) != "" || Error(errors.New("x"), raw) != "x" {
		t.Error("Error of nil or of a text without secrets")
	}
}
