package live

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// TestRedirectToAnotherOrigin: a server that answers with a 307 to another
// origin (another port of 127.0.0.1 is another origin) does not get the
// request followed: the other server sees nothing — in particular not the
// Authorization header — and the handshake fails naming the Location,
// without the credentials of the URL.
func TestRedirectToAnotherOrigin(t *testing.T) {
	var stolen atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stolen.Add(1)
		http.Error(w, "thanks", http.StatusInternalServerError)
	}))
	defer evil.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, evil.URL+"/mcp", code)
			}))
			defer redir.Close()
			src, err := ParseURL(strings.Replace(redir.URL, "http://", "http://alice:hunter2@", 1))
			if err != nil {
				t.Fatal(err)
			}
			src.Header = Header{"Authorization": {"Bearer s3cret"}}
			_, err = Take(context.Background(), src, quick)
			if p, _ := PhaseOf(err); p != PhaseHandshake {
				t.Fatalf("phase %q: %v", p, err)
			}
			var re *redirectError
			if !errors.As(err, &re) {
				t.Errorf("not a refused redirect: %v", err)
			}
			want := "redirected to " + evil.URL + "/mcp (Location), another origin than http://***@" + strings.TrimPrefix(redir.URL, "http://")
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %v\nwants %q", err, want)
			}
			for _, secret := range []string{"hunter2", "alice", "s3cret"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error shows %q: %v", secret, err)
				}
			}
		})
	}
	if n := stolen.Load(); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// TestRedirectSameOrigin: a redirect within the origin is followed, with
// the headers (the fixture answers only with the token).
func TestRedirectSameOrigin(t *testing.T) {
	ts := sdkServer(t, true)
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/", http.StatusTemporaryRedirect)
	})
	mux.Handle("/", ts.Config.Handler)
	front := httptest.NewServer(mux)
	defer front.Close()
	snap, err := Take(context.Background(), Source{URL: front.URL + "/old", Header: Header{"Authorization": {"Bearer s3cret"}}}, quick)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Tools) != 3 {
		t.Errorf("%d tools, want 3", len(snap.Tools))
	}
}

// TestURLCredentialsNotShown: the user information of a --url is in no
// error: a server that cannot be reached, and one that answers 401.
func TestURLCredentialsNotShown(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer deny.Close()
	for _, base := range []string{closedURL, deny.URL} {
		for _, userinfo := range []string{"alice:hunter2", "ghp_T0KEN", "a%40b:p%2Fw"} {
			u := strings.Replace(base, "http://", "http://"+userinfo+"@", 1)
			_, err := Take(context.Background(), Source{URL: u}, quick)
			if err == nil {
				t.Fatalf("%s: no error", u)
			}
			msg := err.Error()
			for _, secret := range []string{"hunter2", "alice", "ghp_T0KEN", "a%40b", "a@b", "p%2Fw", "p/w"} {
				if strings.Contains(msg, secret) {
					t.Errorf("%s: the error shows %q: %v", u, secret, err)
				}
			}
			if !strings.Contains(msg, "http://***@127.0.0.1:") {
				t.Errorf("%s: no redacted URL in %v", u, err)
			}
		}
	}
}

func TestRedactURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://u:p@h/mcp", "https://***@h/mcp"},
		{"https://tok@h:8443/mcp?a=b@c", "https://***@h:8443/mcp?a=b@c"}, // the '@' of the query is not the authority's
		{"https://a@b@h/x", "https://***@h/x"},                           // the last '@' ends the user information
		{"https://h/mcp", "https://h/mcp"},
		{"not a url u:p@h", "not a url u:p@h"},
		{"https://u:p@h", "https://***@h"},
	} {
		if got := snap.RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	_, err := ParseURL("ftp://alice:hunter2@h/")
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "ftp://***@h/") {
		t.Errorf("ParseURL error %v", err)
	}
}

// TestURLSecretsNotShown: the credentials of a --url (user information
// and query parameters named like credentials) appear in no error: not
// from a handshake that fails on an HTTP status, not from an unreachable
// server (net/http quotes the URL), not from a refused redirect whose
// Location carries a token of its own; the other parameters stay.
func TestURLSecretsNotShown(t *testing.T) {
	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer deny.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer other.Close()
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp?access_token=LOCATIONTOKEN&v=2", http.StatusTemporaryRedirect)
	}))
	defer redir.Close()
	const query = "/mcp?token=QTOKEN&x=1&api_key=QKEY&sig=QSIG&password=QPW&secret=QSECRET"
	const shown = "/mcp?token=***&x=1&api_key=***&sig=***&password=***&secret=***"
	with := func(base string) string { return strings.Replace(base, "http://", "http://alice:hunter2@", 1) + query }
	host := func(base string) string { return strings.TrimPrefix(base, "http://") }
	for _, c := range []struct {
		name, url string
		phase     Phase
		want      string
	}{
		{"HTTP status", with(deny.URL), PhaseHandshake, `live server "http://***@` + host(deny.URL) + shown + `": handshake (initialize): HTTP 403 Forbidden: no`},
		{"unreachable", with("http://127.0.0.1:1"), PhaseStart, "cannot reach http://***@127.0.0.1:1" + shown + ": "},
		{"redirect", with(redir.URL), PhaseHandshake, "redirected to " + other.URL + "/mcp?access_token=***&v=2 (Location), another origin than http://***@" + host(redir.URL) + shown},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := ParseURL(c.url)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Take(context.Background(), src, quick)
			if p, _ := PhaseOf(err); p != c.phase || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("phase %q: %v\nwant %s: …%s", p, err, c.phase, c.want)
			}
			for e := err; e != nil; e = errors.Unwrap(e) {
				for _, secret := range []string{"hunter2", "alice", "QTOKEN", "QKEY", "QSIG", "QPW", "QSECRET", "LOCATIONTOKEN"} {
					if strings.Contains(e.Error(), secret) {
						t.Errorf("%T shows %q: %v", e, secret, e)
					}
				}
			}
			if s := src.String(); !strings.HasPrefix(s, "http://***@127.0.0.1:") || !strings.HasSuffix(s, shown) || src.Label() != s {
				t.Errorf("String() = %q", s)
			}
		})
	}
}
