package clientproc

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// MaxBody bounds one request body an emulated API reads (a client's
// requests with 1,000+ tools are a few MB).
const MaxBody = 256 << 20

// API is the plumbing of one run's emulated model API: an HTTP server on
// 127.0.0.1, the signal that the run's answer is in (Finish, Done) and the
// first error a request gave (Fail, Err). What it answers is the handler's.
type API struct {
	ln   net.Listener
	srv  *http.Server
	done chan struct{}
	once sync.Once

	mu  sync.Mutex
	err error
}

// StartAPI serves h on a free port of 127.0.0.1; what names the API in
// errors (e.g. "emulated Gemini API").
func StartAPI(what string, h http.Handler) (*API, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	a := &API{ln: ln, done: make(chan struct{})}
	a.srv = &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = a.srv.Serve(ln) }()
	return a, nil
}

// URL is the API's base URL: http://127.0.0.1:PORT.
func (a *API) URL() string { return "http://" + a.ln.Addr().String() }

// Close stops serving; open connections are closed.
func (a *API) Close() { _ = a.srv.Close() }

// Finish says the run's answer is in (or that there will be none); it
// may be called more than once.
func (a *API) Finish() { a.once.Do(func() { close(a.done) }) }

// Done is closed by Finish.
func (a *API) Done() <-chan struct{} { return a.done }

// Fail keeps err when it is the run's first.
func (a *API) Fail(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		a.err = err
	}
}

// Err is the first error given to Fail.
func (a *API) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// ReadBody reads a request's body, at most MaxBody bytes.
func ReadBody(r *http.Request) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r.Body, MaxBody))
}
