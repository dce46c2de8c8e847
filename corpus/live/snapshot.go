package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
)

// DefaultProtocolVersion is the MCP version toolfind asks for in
// initialize: the newest version that uses the initialize handshake (MCP
// 2025-11-25, Lifecycle §Initialization), which is what the simulated
// clients send. The SDK's newer default (2026-07-28) would try
// server/discover first.
const DefaultProtocolVersion = "2025-11-25"

// MaxPages bounds the tools/list pages of one server: a server whose
// every page has a new nextCursor would otherwise be listed until the
// timeout (or forever, if fast). Real servers use a few pages at most.
const MaxPages = 1000

// MaxListBytes bounds the size of all tools/list pages of one server
// together (64 MiB; the largest real catalogs are under 1 MiB), so a server
// cannot make toolfind hold more than that in memory.
const MaxListBytes = 64 << 20

// DefaultShutdownGrace is how long a stdio server gets to exit after its
// stdin is closed (and again after SIGTERM) before it is killed.
const DefaultShutdownGrace = 2 * time.Second

// DefaultTimeout bounds each phase of a snapshot (see snap.DefaultTimeout).
const DefaultTimeout = snap.DefaultTimeout

// Snapshot is what one live server published (see snap.Snapshot).
type Snapshot = snap.Snapshot

// WriteCatalog writes snapshots as a catalog file (see snap.WriteCatalog).
func WriteCatalog(w io.Writer, snaps []*Snapshot) error { return snap.WriteCatalog(w, snaps) }

// Merge returns a catalog with base's servers followed by the snapshots'
// servers, validated together (see snap.Merge).
func Merge(base *corpus.Catalog, snaps []*Snapshot) (*corpus.Catalog, error) {
	return snap.Merge(base, snaps)
}

// Options configure Take. The zero value is ready to use.
type Options struct {
	// Timeout bounds each phase; 0 means DefaultTimeout.
	Timeout time.Duration
	// ProtocolVersion is sent in initialize; "" means
	// DefaultProtocolVersion. From 2026-07-28 on the SDK tries
	// server/discover first and may answer tools/list from its cache, which
	// the tap cannot see; such versions are not supported here.
	ProtocolVersion string
	// Capabilities are the client capabilities declared in initialize; nil
	// means none at all. Some servers list more tools when the client
	// declares roots, sampling or elicitation (server-everything adds
	// get-roots-list for roots).
	Capabilities *mcp.ClientCapabilities
	// ClientName and ClientVersion are sent as clientInfo; empty means
	// "toolfind" and "dev".
	ClientName, ClientVersion string
	// HTTPTransport carries streamable-HTTP requests; nil means
	// http.DefaultTransport.
	HTTPTransport http.RoundTripper
	// Stderr, when set, also receives what stdio servers write to stderr
	// (it is always kept for error messages).
	Stderr io.Writer
	// ShutdownGrace: see DefaultShutdownGrace; 0 means the default.
	ShutdownGrace time.Duration
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = DefaultProtocolVersion
	}
	if o.Capabilities == nil {
		o.Capabilities = &mcp.ClientCapabilities{}
	}
	if o.ClientName == "" {
		o.ClientName = "toolfind"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.HTTPTransport == nil {
		o.HTTPTransport = http.DefaultTransport
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	return o
}

// session is one snapshot in progress.
type session struct {
	src       Source
	opts      Options
	tap       *tap
	proc      *proc         // stdio
	http      *tapTransport // streamable HTTP
	stopHTTP  context.CancelFunc
	transport mcp.Transport
	cs        *mcp.ClientSession
}

// Take starts (stdio) or connects to (HTTP) the server, runs the initialize
// handshake, follows tools/list through every nextCursor and shuts the
// server down again. Errors are *StartError, *HandshakeError, *ListError or
// *ParseError, each with its cause. A stdio server is always reaped before
// Take returns, also when ctx is cancelled.
func Take(ctx context.Context, src Source, opts Options) (snap *Snapshot, err error) {
	s, err := open(src, opts)
	if err != nil {
		return nil, err
	}
	defer func() { s.close(err == nil) }()
	if snap, err = s.handshake(ctx); err != nil {
		return nil, err
	}
	if err := s.list(ctx, snap); err != nil {
		return nil, err
	}
	snap.Duplicates = s.tap.duplicates()
	return snap, nil
}

// open starts the command (stdio) or prepares the HTTP client; the caller
// must close the session.
func open(src Source, opts Options) (*session, error) {
	opts = opts.withDefaults()
	s := &session{src: src, opts: opts, tap: newTap()}
	if (src.URL == "") == (len(src.Command) == 0) {
		return nil, errors.New("live: a source needs exactly one of Command and URL")
	}
	if src.URL != "" {
		done, cancel := context.WithCancel(context.Background())
		s.stopHTTP = cancel
		s.http = &tapTransport{base: opts.HTTPTransport, header: http.Header(src.Header), tap: s.tap, done: done}
		s.transport = &mcp.StreamableClientTransport{
			Endpoint:   src.URL,
			HTTPClient: &http.Client{Transport: s.http, CheckRedirect: s.http.checkRedirect},
			// toolfind needs no server-initiated messages, so it opens no
			// standalone GET stream.
			DisableStandaloneSSE: true,
		}
		return s, nil
	}
	p, err := startProc(src, opts.Stderr)
	if err != nil {
		return nil, &StartError{Failure: s.failure(startCause(err))}
	}
	s.proc = p
	s.transport = &mcp.IOTransport{
		Reader:        newLineReader(p.stdout, s.tap),
		Writer:        &tapWriter{w: p.stdin, tap: s.tap},
		MaxLineLength: MaxLineLength + 1, // lineReader enforces the limit
	}
	return s, nil
}

// handshake runs initialize within the phase timeout and reads its result.
func (s *session) handshake(ctx context.Context) (*Snapshot, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: s.opts.ClientName, Version: s.opts.ClientVersion},
		&mcp.ClientOptions{Capabilities: s.opts.Capabilities})
	hctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	deadline, _ := hctx.Deadline()
	cs, err := client.Connect(hctx, s.transport, &mcp.ClientSessionOptions{ProtocolVersion: s.opts.ProtocolVersion})
	cancel()
	if err != nil {
		return nil, s.handshakeError(ctx, deadline, err)
	}
	s.cs = cs
	return s.initialized()
}

// startCause words a failure to start the command.
func startCause(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound) {
		return fmt.Errorf("command %q not found in PATH: %w", ee.Name, err)
	}
	return err
}

// failure describes a failed session. A stdio server is stopped first, so
// that its stderr tail is complete (a failed snapshot needs it no more).
func (s *session) failure(cause error) failure {
	if secrets := snap.Secrets(s.src.URL); secrets != nil {
		cause = &scrubbed{err: cause, secrets: secrets}
	}
	f := failure{Name: s.src.Name, Source: s.src.String(), Err: cause}
	if s.proc != nil {
		s.proc.stop(false, s.opts.ShutdownGrace)
		f.Stderr = s.proc.stderrTail()
	}
	return f
}

// close ends the session: after a success, the stdio server gets the MCP
// shutdown (stdin closed, then signals); after a failure it is signalled at
// once.
func (s *session) close(ok bool) {
	if s.stopHTTP != nil {
		defer s.stopHTTP()
	}
	closeSession := func() {
		if s.cs == nil {
			return
		}
		done := make(chan struct{})
		go func() { s.cs.Close(); close(done) }()
		t := time.NewTimer(s.opts.ShutdownGrace + 5*time.Second)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		}
	}
	if s.proc == nil {
		closeSession()
		return
	}
	if ok {
		closeSession()
		s.proc.stop(true, s.opts.ShutdownGrace)
		return
	}
	s.proc.stop(false, s.opts.ShutdownGrace)
	closeSession()
}

// exitWait is how long a failed exchange waits for the server process to
// be reaped before deciding it is still alive.
const exitWait = 500 * time.Millisecond

// cause finds why an exchange with the server (method) failed: output that
// is not JSON-RPC (parse), the process exiting, an unreachable or failing
// HTTP endpoint, the caller's cancellation, the phase timeout, or the SDK's
// own error. parse and exited are non-nil for those outcomes. deadline is
// the phase's: a process that exited after it timed out first (the SDK
// closes its stdin on the deadline, and most servers then exit at once),
// so the timeout is the cause, not the exit.
func (s *session) cause(parent context.Context, deadline time.Time, method string, sdkErr error) (cause error, parse *badOutput, exited *ExitError, unreachable bool) {
	if mis := s.tap.idMismatch(); mis != nil {
		return mis, nil, nil, false
	}
	if bad := s.tap.badOutput(); bad != nil {
		return bad.Err, bad, nil, false
	}
	timedOut := errors.Is(sdkErr, context.DeadlineExceeded) || errors.Is(sdkErr, context.Canceled)
	if s.proc != nil {
		wait := exitWait
		if timedOut {
			wait = 0
		}
		if ee, ok := s.proc.exitedWithin(wait); ok && !(timedOut && !s.proc.exitedAt.Before(deadline)) {
			return ee, nil, ee, false
		}
	}
	if s.http != nil {
		if err := s.http.refusedRedirect(); err != nil {
			return err, nil, nil, false
		}
		if err := s.http.overLimit(); err != nil {
			return err, nil, nil, false
		}
		if err := s.http.unreachable(); err != nil {
			return fmt.Errorf("cannot reach %s: %w", s.src, err), nil, nil, true
		}
		if st := s.http.httpStatus(); st != "" && !timedOut {
			return describeHTTP(st, sdkErr), nil, nil, false
		}
	}
	if parent.Err() != nil {
		return ErrInterrupted, nil, nil, false
	}
	if timedOut {
		n, top := s.tap.chatterSince()
		return &timeoutError{method: method, after: s.opts.Timeout, chatter: n, top: top}, nil, nil, false
	}
	return sdkErr, nil, nil, false
}

func (s *session) handshakeError(parent context.Context, deadline time.Time, sdkErr error) error {
	if r, ok := s.tap.reply("initialize"); ok && s.tap.badOutput() == nil {
		if r.Error != nil {
			return &HandshakeError{Failure: s.failure(rpcError(r.Error))}
		}
		// The server answered, but the SDK could not use the answer.
		return &ParseError{Failure: s.failure(sdkErr), What: "initialize result"}
	}
	cause, bad, exited, unreachable := s.cause(parent, deadline, "initialize", sdkErr)
	switch {
	case bad != nil:
		return &ParseError{Failure: s.failure(cause), What: bad.What}
	case exited != nil:
		return &StartError{Failure: s.failure(fmt.Errorf("%w before answering initialize", exited))}
	case unreachable:
		return &StartError{Failure: s.failure(cause)}
	}
	return &HandshakeError{Failure: s.failure(cause)}
}

// rpcError turns a JSON-RPC error object into a *jsonrpc.Error cause.
func rpcError(raw json.RawMessage) error {
	var we jsonrpc.Error
	if err := json.Unmarshal(raw, &we); err != nil {
		return fmt.Errorf("the server answered with a malformed JSON-RPC error: %s", excerpt(raw, 200))
	}
	return fmt.Errorf("the server answered with JSON-RPC error %d: %w", we.Code, &we)
}

// initialized reads the initialize result (the SDK has accepted it).
func (s *session) initialized() (*Snapshot, error) {
	snap := &Snapshot{Source: s.src, Name: s.src.Name}
	res := s.cs.InitializeResult()
	if res != nil {
		snap.Instructions = res.Instructions
		snap.ProtocolVersion = res.ProtocolVersion
	}
	if r, ok := s.tap.reply("initialize"); ok {
		var m struct {
			ServerInfo   json.RawMessage `json:"serverInfo"`
			Instructions json.RawMessage `json:"instructions"`
		}
		if json.Unmarshal(r.Result, &m) == nil {
			if t := bytes.TrimSpace(m.ServerInfo); len(t) > 0 && t[0] == '{' {
				snap.ServerInfo = clone(t)
			}
			snap.HasInstructions = m.Instructions != nil && string(bytes.TrimSpace(m.Instructions)) != "null"
		}
	}
	if snap.Name == "" && res != nil && res.ServerInfo != nil {
		snap.Name = nameFromServerInfo(res.ServerInfo.Name)
	}
	if snap.Name == "" {
		snap.Name = defaultName(s.src)
	}
	return snap, nil
}

// list follows tools/list through every page (MCP 2025-11-25, Server
// Features/Pagination: a missing or empty nextCursor ends the list; the
// cursor is opaque and sent back unchanged).
func (s *session) list(parent context.Context, snap *Snapshot) error {
	ctx, cancel := context.WithTimeout(parent, s.opts.Timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	seen := map[string]int{}
	cursor := ""
	size := 0
	for page := 1; ; page++ {
		if page > MaxPages {
			return &ListError{Failure: s.failure(fmt.Errorf("the server answered %d pages, each with a new nextCursor; toolfind stops at %d pages (the list would likely never end)", MaxPages, MaxPages)),
				Page: page}
		}
		before := s.tap.count("tools/list")
		_, sdkErr := s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		snap.Pages = page
		r, got := s.tap.reply("tools/list")
		got = got && s.tap.count("tools/list") > before
		if got && s.tap.badOutput() == nil {
			if r.Error != nil {
				return &ListError{Failure: s.failure(rpcError(r.Error)), Page: page}
			}
			// The raw result decides, whatever the SDK made of it: it
			// rejects some tools that clients keep.
			tools, next, err := parsePage(r.Result)
			if err != nil {
				return &ParseError{Failure: s.failure(err), What: fmt.Sprintf("tools/list page %d result", page)}
			}
			snap.Tools = append(snap.Tools, tools...)
			if page == 1 {
				snap.FirstPage = len(tools)
			}
			if size += len(r.Result); size > MaxListBytes {
				return &ListError{Failure: s.failure(fmt.Errorf("the tools/list pages so far add up to more than %s, toolfind's limit for one server", byteLimit(MaxListBytes))),
					Page: page}
			}
			if next == "" {
				return nil
			}
			if p, dup := seen[next]; dup {
				return &ParseError{Failure: s.failure(fmt.Errorf("nextCursor %q was already returned by page %d; the list would never end", next, p)),
					What: fmt.Sprintf("tools/list page %d result", page)}
			}
			seen[next] = page
			cursor = next
			continue
		}
		if sdkErr == nil {
			sdkErr = errors.New("the SDK accepted a tools/list answer that toolfind did not see")
		}
		cause, bad, exited, _ := s.cause(parent, deadline, "tools/list", sdkErr)
		if te, ok := cause.(*timeoutError); ok && te.chatter == 0 {
			te.pages = page - 1
		}
		switch {
		case bad != nil:
			return &ParseError{Failure: s.failure(cause), What: bad.What}
		case exited != nil:
			return &ListError{Failure: s.failure(exited), Page: page}
		}
		return &ListError{Failure: s.failure(cause), Page: page}
	}
}

// parsePage reads one tools/list result (MCP 2025-11-25, schema
// ListToolsResult): an object with a "tools" array and an optional string
// "nextCursor". Each array entry is kept as raw bytes, whatever it is.
func parsePage(result json.RawMessage) (tools []json.RawMessage, next string, err error) {
	t := bytes.TrimSpace(result)
	if len(t) == 0 || t[0] != '{' {
		return nil, "", fmt.Errorf("the result is %s, not an object", kindOf(t))
	}
	var page struct {
		Tools      json.RawMessage `json:"tools"`
		NextCursor json.RawMessage `json:"nextCursor"`
	}
	if err := json.Unmarshal(t, &page); err != nil {
		return nil, "", fmt.Errorf("the result is not a JSON object: %v", err)
	}
	if page.Tools == nil {
		return nil, "", errors.New(`the result has no "tools" member`)
	}
	if tt := bytes.TrimSpace(page.Tools); tt[0] != '[' {
		return nil, "", fmt.Errorf(`"tools" is %s, not an array`, kindOf(tt))
	}
	if err := json.Unmarshal(page.Tools, &tools); err != nil {
		return nil, "", fmt.Errorf(`"tools": %v`, err)
	}
	if nc := bytes.TrimSpace(page.NextCursor); len(nc) > 0 && string(nc) != "null" {
		if nc[0] != '"' {
			return nil, "", fmt.Errorf(`"nextCursor" is %s, not a string`, kindOf(nc))
		}
		if err := json.Unmarshal(nc, &next); err != nil {
			return nil, "", fmt.Errorf(`"nextCursor": %v`, err)
		}
	}
	for i := range tools {
		tools[i] = clone(tools[i])
	}
	return tools, next, nil
}

// kindOf names the JSON kind of a raw value for messages.
func kindOf(raw []byte) string {
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// TakeAll snapshots every source concurrently and returns the snapshots in
// source order. When one fails the others are stopped, and the error of
// the first failing source (in source order) is returned.
func TakeAll(ctx context.Context, srcs []Source, opts Options) ([]*Snapshot, error) {
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	snaps := make([]*Snapshot, len(srcs))
	errs := make([]error, len(srcs))
	var wg sync.WaitGroup
	for i, src := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			snaps[i], errs[i] = Take(ctx2, src, opts)
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	var first error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if first == nil {
			first = err
		}
		// Failures caused by stopping the others come after the real one.
		if ctx.Err() != nil || !errors.Is(err, ErrInterrupted) {
			return nil, err
		}
	}
	if first != nil {
		return nil, first
	}
	return snaps, nil
}

// count returns how many requests of method were sent.
func (t *tap) count(method string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.counts[method]
}

// Catalog snapshots every source (see TakeAll) and returns them as a
// validated catalog (see Merge).
func Catalog(ctx context.Context, srcs []Source, opts Options) (*corpus.Catalog, error) {
	snaps, err := TakeAll(ctx, srcs, opts)
	if err != nil {
		return nil, err
	}
	return Merge(nil, snaps)
}
