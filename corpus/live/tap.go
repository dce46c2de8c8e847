package live

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// A tap watches the JSON-RPC traffic below the SDK, byte for byte, and
// keeps the raw result of each response to a request toolfind sent. The
// SDK decodes results into typed structs that drop unknown fields and
// normalise others; the tap is how a snapshot keeps every tool exactly as
// the server sent it.
//
// Over stdio the tap sees each line of the server's stdout before the SDK
// does (lineReader) and each line toolfind writes to its stdin
// (tapWriter); over streamable HTTP it sees each POST body and each JSON
// or server-sent-event response body (tapTransport).
type tap struct {
	mu      sync.Mutex
	methods map[string]string // request id key → method
	latest  map[string]string // method → id key of its latest request
	counts  map[string]int    // method → requests sent
	replies map[string]reply  // request id key → the server's first response
	order   map[string]int    // request id key → its number among its method's requests (1, 2, …)
	// dups are the responses to a request that had been answered already,
	// in the order they came (the first of each is the one kept).
	dups []Duplicate
	bad  *badOutput // the first server output that is not JSON-RPC
	// misID is the first response whose id has the wrong type for, or is
	// null instead of, the id of a request still unanswered; lastKey is
	// the id key of toolfind's latest request.
	misID   *IDMismatchError
	lastKey string
	// chatter counts, by method, the requests and notifications the server
	// sent since toolfind's latest request: a server that floods them while
	// never answering is told apart from a silent one.
	chatter map[string]int
}

// reply is one response: exactly one of Result and Error is set.
type reply struct {
	Result json.RawMessage
	Error  json.RawMessage
}

// badOutput is server output that is not JSON-RPC 2.0.
type badOutput struct {
	What string // "stdout line 3", "HTTP response body", "SSE event"
	Err  error
}

func (b *badOutput) Error() string { return b.What + ": " + b.Err.Error() }

func newTap() *tap {
	return &tap{methods: map[string]string{}, latest: map[string]string{}, counts: map[string]int{}, replies: map[string]reply{},
		order: map[string]int{}, chatter: map[string]int{}}
}

// wireMessage is the part of a JSON-RPC 2.0 message the tap looks at
// (JSON-RPC 2.0 §4 Request object, §5 Response object).
type wireMessage struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// sent records a message (or batch) toolfind wrote.
func (t *tap) sent(data []byte) {
	msgs, err := splitMessages(data)
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range msgs {
		if m.Method == nil || m.ID == nil {
			continue // a notification or a response to the server
		}
		k := idKey(m.ID)
		t.methods[k] = *m.Method
		t.latest[*m.Method] = k
		t.counts[*m.Method]++
		t.order[k] = t.counts[*m.Method]
		t.lastKey = k
		clear(t.chatter)
	}
}

// received records a message (or batch) from the server. It returns an
// error, and remembers it as the tap's bad output, when data is not
// JSON-RPC 2.0.
func (t *tap) received(what string, data []byte) error {
	msgs, err := splitMessages(data)
	if err == nil {
		for _, m := range msgs {
			if err = checkMessage(m); err != nil {
				break
			}
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		err = fmt.Errorf("not a JSON-RPC 2.0 message: %w: %s", err, excerpt(data, 120))
		if t.bad == nil {
			t.bad = &badOutput{What: what, Err: err}
		}
		return t.bad
	}
	for _, m := range msgs {
		if m.Method != nil {
			// A request or notification from the server.
			if len(t.chatter) < 64 || t.chatter[*m.Method] > 0 {
				t.chatter[*m.Method]++
			} else {
				t.chatter["(other methods)"]++
			}
			continue
		}
		if m.ID == nil {
			continue
		}
		k := idKey(m.ID)
		if _, ours := t.methods[k]; !ours {
			if e := t.mismatch(m); e != nil {
				if t.misID == nil {
					t.misID = e
				}
				return e
			}
			continue
		}
		r := reply{Result: clone(m.Result), Error: clone(m.Error)}
		if first, dup := t.replies[k]; dup {
			// JSON-RPC 2.0 §5: one response per request. The SDK hands the
			// first to its caller and drops the others, and so do the
			// clients; keeping a later one would have toolfind check other
			// tools than the clients get.
			t.dups = append(t.dups, Duplicate{Method: t.methods[k], Request: t.order[k],
				Differs: !bytes.Equal(first.Result, r.Result) || !bytes.Equal(first.Error, r.Error)})
			continue
		}
		t.replies[k] = r
	}
	return nil
}

// IDMismatchError is a response whose id is null, or has the wrong JSON
// type (the string "1" for the number 1), where toolfind's request is
// still unanswered. JSON-RPC 2.0 §5 gives a response the id of its
// request, and the MCP SDK and the clients match ids by value and type: they
// never take it for the answer and wait until they time out (null is only
// for a request whose id the server could not read, §5.1).
type IDMismatchError struct {
	ID        json.RawMessage // as the server sent it
	RequestID json.RawMessage // toolfind's request's id
	Method    string          // the request's method
	Request   int             // the request's number among its method's requests (1, 2, …)
	RPCError  json.RawMessage // the response's error object, if it has one
}

func (e *IDMismatchError) Error() string {
	var b strings.Builder
	what := e.Method
	if e.Method == "tools/list" {
		what = fmt.Sprintf("tools/list (page %d)", e.Request)
	}
	id := string(e.ID)
	if len(id) > 40 {
		id = id[:40] + "…"
	}
	if id != "null" {
		id += " (" + kindOf(e.ID) + ")"
	}
	fmt.Fprintf(&b, "the server answered with id %s to toolfind's %s request, whose id is %s (%s)",
		id, what, e.RequestID, kindOf(e.RequestID))
	if e.RPCError != nil {
		fmt.Fprintf(&b, ", with the error %s", excerpt(e.RPCError, 200))
	}
	if string(e.ID) == "null" {
		b.WriteString("; JSON-RPC 2.0 §5 keeps a null id for a request whose id could not be read, so no client matches it to the request")
	} else {
		b.WriteString("; JSON-RPC 2.0 §5 answers a request with its id, of the same type, and the MCP SDK and the clients never match this answer to the request (they wait until they time out)")
	}
	return b.String()
}

// mismatch returns the IDMismatchError for response m (whose id is no
// request's) when its id is null, or the same value as an unanswered
// request's id in another type; else nil. Called with t.mu held.
func (t *tap) mismatch(m wireMessage) *IDMismatchError {
	raw := bytes.TrimSpace(m.ID)
	var k string
	switch {
	case string(raw) == "null":
		k = t.lastKey
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		k = idKey(json.RawMessage(s))
		if !strings.HasPrefix(k, "n:") {
			return nil
		}
	default:
		k = "s:" + string(raw)
	}
	method, ours := t.methods[k]
	if !ours {
		return nil
	}
	if _, answered := t.replies[k]; answered {
		return nil
	}
	e := &IDMismatchError{ID: clone(raw), Method: method, Request: t.order[k], RPCError: clone(m.Error)}
	switch k[:2] {
	case "n:":
		e.RequestID = json.RawMessage(k[2:])
	default:
		e.RequestID, _ = json.Marshal(k[2:])
	}
	return e
}

// idMismatch returns the first IDMismatchError, or nil.
func (t *tap) idMismatch() *IDMismatchError {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.misID
}

// Duplicate is a response the server sent to a request it had answered
// already (see snap.Duplicate).
type Duplicate = snap.Duplicate

// duplicates returns the repeated responses seen so far.
func (t *tap) duplicates() []Duplicate {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.dups)
}

// reply returns the response to the latest request of method, if it came.
func (t *tap) reply(method string) (reply, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k, ok := t.latest[method]
	if !ok {
		return reply{}, false
	}
	r, ok := t.replies[k]
	return r, ok
}

// chatterSince returns how many requests and notifications the server
// sent since toolfind's latest request, and the method it sent most (the
// first by name among equals).
func (t *tap) chatterSince() (n int, top string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	best := 0
	for m, c := range t.chatter {
		n += c
		if c > best || c == best && m < top {
			best, top = c, m
		}
	}
	return n, top
}

// badOutput returns the first output that was not JSON-RPC, or nil.
func (t *tap) badOutput() *badOutput {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bad
}

// splitMessages decodes one JSON-RPC message or a batch (an array of them).
func splitMessages(data []byte) ([]wireMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("empty")
	}
	if !json.Valid(data) {
		return nil, errors.New("invalid JSON")
	}
	if data[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(data, &raws); err != nil {
			return nil, err
		}
		if len(raws) == 0 {
			return nil, errors.New("empty batch")
		}
		out := make([]wireMessage, 0, len(raws))
		for _, r := range raws {
			m, err := decodeMessage(r)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		return out, nil
	}
	m, err := decodeMessage(data)
	if err != nil {
		return nil, err
	}
	return []wireMessage{m}, nil
}

func decodeMessage(data []byte) (wireMessage, error) {
	var m wireMessage
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return m, errors.New("not a JSON object")
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, errors.New("a member has the wrong type")
	}
	return m, nil
}

// checkMessage applies JSON-RPC 2.0 §4–5: "jsonrpc" is exactly "2.0"; a
// message has a method (request, notification) or an id (response); a
// response has a result or an error.
func checkMessage(m wireMessage) error {
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		return errors.New(`"jsonrpc" is not "2.0"`)
	}
	if m.Method != nil {
		return nil
	}
	if m.ID == nil {
		return errors.New(`no "method" and no "id"`)
	}
	if m.Result == nil && m.Error == nil {
		return errors.New(`a response without "result" or "error"`)
	}
	return nil
}

// idKey makes equal JSON-RPC ids equal strings: 1 and 1.0 are the same
// number; "1" is a string.
func idKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return "s:" + s
		}
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "r:" + string(raw)
}

func clone(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

// MaxLineLength is the longest stdout line (one JSON-RPC message, the
// newline not counted) a stdio server may send, as the SDK's
// DefaultMaxLineLength (16 MiB). A longer line is a parse error naming the
// line and the limit.
const MaxLineLength = 16 << 20

// lineReader passes a stdio server's stdout through to the SDK line by
// line, showing each line to the tap first. A line that is not JSON-RPC
// stops the stream with the tap's badOutput error (the SDK would fail on it
// too, less precisely). Blank lines pass.
type lineReader struct {
	r       *bufio.Reader
	c       io.Closer
	tap     *tap
	max     int
	n       int // lines read
	pending []byte
	err     error
}

func newLineReader(rc io.ReadCloser, t *tap) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(rc, 64<<10), c: rc, tap: t, max: MaxLineLength}
}

func (l *lineReader) Read(p []byte) (int, error) {
	for len(l.pending) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		line, err := l.readLine()
		if len(line) > 0 {
			l.n++
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if terr := l.tap.received(fmt.Sprintf("stdout line %d", l.n), t); terr != nil {
					l.err = terr
					return 0, terr
				}
			}
			l.pending = line
		}
		if err != nil {
			l.err = err
		}
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// readLine reads up to and including '\n' (or to EOF), at most l.max bytes
// before the "\r\n" or "\n".
func (l *lineReader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(bytes.TrimRight(line, "\r\n")) > l.max {
			bad := &badOutput{What: fmt.Sprintf("stdout line %d", l.n+1),
				Err: fmt.Errorf("the line is longer than %s, the limit for one JSON-RPC message from a stdio server", byteLimit(l.max))}
			l.tap.mu.Lock()
			if l.tap.bad == nil {
				l.tap.bad = bad
			}
			l.tap.mu.Unlock()
			return nil, bad
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

func (l *lineReader) Close() error { return l.c.Close() }

// tapWriter shows each message toolfind writes to a stdio server's stdin
// to the tap (the SDK writes one whole message per Write call).
type tapWriter struct {
	w   io.WriteCloser
	tap *tap
}

func (w *tapWriter) Write(p []byte) (int, error) {
	w.tap.sent(p)
	return w.w.Write(p)
}

func (w *tapWriter) Close() error { return w.w.Close() }

// sseParser splits a text/event-stream body into events as bytes arrive,
// the way the SDK's reader does (HTML Living Standard §9.2.6, as the SDK
// implements it): lines end with LF (a CR before it is dropped); a line
// starting with ':' is a comment; "field: value" loses the blanks around
// value; consecutive data fields join with '\n'; a blank line, or the end of
// the body, dispatches the event if it has data. Only "data" matters here.
// An event longer than max stops the parser.
type sseParser struct {
	onData  func([]byte)
	max     int
	line    []byte
	data    []byte
	hasData bool
	broken  bool
}

func (p *sseParser) write(b []byte) {
	for len(b) > 0 && !p.broken {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.line = append(p.line, b...)
			b = nil
		} else {
			p.line = append(p.line, b[:i]...)
			b = b[i+1:]
		}
		if p.max > 0 && len(p.line)+len(p.data) > p.max {
			p.broken = true
			return
		}
		if i >= 0 {
			p.endLine()
		}
	}
}

func (p *sseParser) endLine() {
	line := bytes.TrimRight(p.line, "\r")
	defer func() { p.line = p.line[:0] }()
	if len(line) == 0 {
		p.dispatch()
		return
	}
	if line[0] == ':' {
		return
	}
	field, value, ok := bytes.Cut(line, []byte{':'})
	if !ok || string(field) != "data" {
		return
	}
	if p.hasData {
		p.data = append(p.data, '\n')
	}
	p.data = append(p.data, bytes.TrimSpace(value)...)
	p.hasData = true
}

func (p *sseParser) dispatch() {
	if p.hasData {
		p.onData(p.data)
	}
	p.data, p.hasData = nil, false
}

// end is called at the end of the body: a last line without a newline
// still counts, and a pending event is dispatched.
func (p *sseParser) end() {
	if p.broken {
		return
	}
	if len(p.line) > 0 {
		p.endLine()
	}
	p.dispatch()
}

// byteLimit words a size limit: "16777216 bytes (16 MiB)", "10 bytes".
func byteLimit(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d bytes (%d MiB)", n, n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
