package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// tapTransport is the http.RoundTripper under the SDK's streamable-HTTP
// client: it adds the user's headers (--header) to every request and shows
// every JSON-RPC message on the wire to the tap.
type tapTransport struct {
	base   http.RoundTripper
	header http.Header
	tap    *tap
	// done is cancelled when the session closes: it aborts requests the
	// SDK left waiting for a silent server, so no connection outlives Take.
	done context.Context

	mu       sync.Mutex
	dialErr  error  // the first error that kept a request from the server
	status   string // the last error status, "401 Unauthorized: body…"
	redirect error  // the first redirect refused (checkRedirect)
	tooBig   error  // the first body or event over maxMessage
}

// maxMessage is the most toolfind reads of one HTTP response body that is
// not an event stream, and of one server-sent event: MaxLineLength, the
// limit of one message from a stdio server (and the SDK's
// DefaultMaxEventSize). A variable so that tests can lower it.
var maxMessage = MaxLineLength

// oversize records, once, that the server sent more than maxMessage bytes
// in what (a body, an event) and returns the error the body's reader
// returns.
func (t *tapTransport) oversize(what string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tooBig == nil {
		t.tooBig = fmt.Errorf("%s is longer than %s, toolfind's limit for one JSON-RPC message from an HTTP server; it stopped reading there", what, byteLimit(maxMessage))
	}
	return t.tooBig
}

// overLimit returns the first oversize error, or nil.
func (t *tapTransport) overLimit() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tooBig
}

// maxRedirects is how many redirects one request may follow, as net/http's
// default policy.
const maxRedirects = 10

// checkRedirect is the http.Client's redirect policy: a redirect within
// the origin of the first request (RFC 6454 §4: scheme, host and port) is
// followed, up to maxRedirects; one to another origin is refused. The
// transport adds the user's headers (--header: tokens, API keys) to every
// request it carries, so following a redirect to another origin would hand
// them to whoever the server names; net/http's own rule (drop
// Authorization and cookies for another domain) does not apply to headers
// added below it.
func (t *tapTransport) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if !sameOrigin(first, req.URL) {
		err := &redirectError{from: snap.RedactURL(first.String()), to: snap.RedactURL(req.URL.String())}
		t.mu.Lock()
		if t.redirect == nil {
			t.redirect = err
		}
		t.mu.Unlock()
		return err
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

// refusedRedirect returns the first redirect checkRedirect refused, or nil.
func (t *tapTransport) refusedRedirect() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.redirect
}

// redirectError is a redirect to another origin, refused.
type redirectError struct{ from, to string }

func (e *redirectError) Error() string {
	return fmt.Sprintf("redirected to %s (Location), another origin than %s; toolfind follows no redirect to another origin, which would receive every header it sends (credentials): if you trust that server, use its URL instead", e.to, e.from)
}

// sameOrigin reports whether a and b have the same origin (RFC 6454 §4):
// scheme, host (case-insensitive) and port, a missing port being the
// scheme's default.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		switch strings.ToLower(u.Scheme) {
		case "http":
			return "80"
		case "https":
			return "443"
		}
		return ""
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func (t *tapTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(t.done, cancel)
	release := func() { stop(); cancel() }
	req = req.Clone(ctx)
	for k, vs := range t.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, MaxLineLength))
			body.Close()
			t.tap.sent(data)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.mu.Lock()
		if t.dialErr == nil && isDialError(err) {
			t.dialErr = err
		}
		t.mu.Unlock()
		release()
		return nil, err
	}
	resp.Body = &releaseBody{ReadCloser: resp.Body, release: release}
	if resp.StatusCode >= 400 {
		head := make([]byte, 512)
		n, _ := io.ReadFull(resp.Body, head)
		head = head[:n]
		t.mu.Lock()
		t.status = strings.TrimSpace(resp.Status)
		if b := bytes.TrimSpace(head); len(b) > 0 {
			t.status += ": " + printable(string(b))
		}
		t.mu.Unlock()
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		resp.Body = &cappedBody{rc: resp.Body, left: maxMessage - n, over: func() error { return t.oversize("the HTTP error response body") }}
		return resp, nil
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "text/event-stream" {
		// Every body but an event stream is read whole by the SDK.
		resp.Body = &cappedBody{rc: resp.Body, left: maxMessage, over: func() error { return t.oversize("the HTTP response body") }}
	}
	if req.Method != http.MethodPost {
		return resp, nil
	}
	switch mt {
	case "application/json":
		resp.Body = &jsonTapBody{rc: resp.Body, tap: t.tap}
	case "text/event-stream":
		b := &sseTapBody{rc: resp.Body, over: func() error { return t.oversize("an SSE event") }}
		b.p = sseParser{max: maxMessage, onData: func(data []byte) {
			// An event without data (the priming event a resumable server
			// sends first) carries no message; the SDK skips it too.
			if len(data) > 0 {
				var mis *IDMismatchError
				if err := t.tap.received("SSE event", data); errors.As(err, &mis) && b.mis == nil {
					b.mis = mis
				}
			}
		}}
		resp.Body = b
	}
	return resp, nil
}

// httpStatus returns the last HTTP error status with the start of its
// body, or "".
func (t *tapTransport) httpStatus() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status
}

func (t *tapTransport) unreachable() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dialErr
}

// isDialError reports whether err kept the request from reaching the
// server at all (DNS, connection refused, TLS handshake).
func isDialError(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// releaseBody frees a request's context when its body is closed.
type releaseBody struct {
	io.ReadCloser
	release func()
}

func (b *releaseBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

type readCloser struct {
	io.Reader
	io.Closer
}

// cappedBody fails with over() once more than left bytes have been read
// from it, so that a server cannot make the SDK read (and hold) a body of
// any size.
type cappedBody struct {
	rc   io.ReadCloser
	left int
	over func() error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.over()
	}
	if len(p) > b.left+1 {
		p = p[:b.left+1] // one byte more tells a body of exactly the limit from a longer one
	}
	n, err := b.rc.Read(p)
	b.left -= n
	if b.left < 0 {
		return 0, b.over()
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// jsonTapBody shows an application/json response body to the tap once it
// has been read to the end.
type jsonTapBody struct {
	rc   io.ReadCloser
	tap  *tap
	buf  []byte
	done bool
}

func (b *jsonTapBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if len(b.buf)+n <= maxMessage {
		b.buf = append(b.buf, p[:n]...)
	}
	if errors.Is(err, io.EOF) && !b.done {
		b.done = true
		if len(bytes.TrimSpace(b.buf)) > 0 {
			var mis *IDMismatchError
			if err := b.tap.received("HTTP response body", b.buf); errors.As(err, &mis) {
				return n, mis // the SDK fails the request at once
			}
		}
	}
	return n, err
}

func (b *jsonTapBody) Close() error { return b.rc.Close() }

// sseTapBody shows each event of a text/event-stream response to the tap as
// it is read.
type sseTapBody struct {
	rc   io.ReadCloser
	p    sseParser
	over func() error // the error once an event is longer than p.max
	done bool
	mis  error // an event's IDMismatchError: the SDK fails the request at once
}

func (b *sseTapBody) Read(p []byte) (int, error) {
	if b.p.broken {
		return 0, b.over()
	}
	n, err := b.rc.Read(p)
	b.p.write(p[:n])
	if b.p.broken {
		return 0, b.over()
	}
	if err != nil && !b.done {
		b.done = true
		if errors.Is(err, io.EOF) {
			b.p.end()
		}
	}
	if b.mis != nil {
		return 0, b.mis
	}
	return n, err
}

func (b *sseTapBody) Close() error { return b.rc.Close() }

// describeHTTP names an HTTP failure for an error message.
func describeHTTP(status string, err error) error {
	if status != "" {
		return fmt.Errorf("HTTP %s", status)
	}
	return err
}
