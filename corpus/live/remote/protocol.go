package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"time"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/internal/pipeprog"
)

// Protocol is the version of the line protocol (package doc). A program
// that speaks another one is refused at the handshake.
const Protocol = 1

// Options configure a snapshot taken by the program: the fields of
// corpus/live.Options that cross the pipe (the SDK's capabilities, an
// HTTP transport and a stderr writer cannot).
type Options struct {
	// Timeout bounds each phase; 0 means snap.DefaultTimeout.
	Timeout time.Duration
	// ProtocolVersion is sent in initialize; "" means the default
	// (corpus/live.DefaultProtocolVersion).
	ProtocolVersion string
	// ClientName and ClientVersion are sent as clientInfo; empty means
	// "toolfind" and "dev".
	ClientName, ClientVersion string
	// ShutdownGrace is how long a stdio server gets to exit after its
	// stdin is closed (and again after SIGTERM); 0 means the default.
	ShutdownGrace time.Duration
}

// request is one line toolfind writes to the program: exactly one of
// Hello (id 0, the first line), Take, Call or Cancel (ids 1, 2, …).
type request struct {
	ID     int64    `json:"id"`
	Hello  *hello   `json:"hello,omitempty"`
	Take   *takeReq `json:"take,omitempty"`
	Call   *callReq `json:"call,omitempty"`
	Cancel bool     `json:"cancel,omitempty"`
}

type hello struct {
	Protocol int `json:"protocol"`
}

// takeReq asks for corpus/live.TakeAll; TimeLeftNS, when more than 0, is
// the time left before the caller's deadline.
type takeReq struct {
	Sources    []wireSource `json:"sources"`
	Options    wireOptions  `json:"options"`
	TimeLeftNS int64        `json:"time_left_ns,omitempty"`
}

// callReq asks for corpus/live.Call.
type callReq struct {
	Source     wireSource  `json:"source"`
	Options    wireOptions `json:"options"`
	Tool       text        `json:"tool"`
	Arguments  []byte      `json:"arguments,omitempty"`
	TimeLeftNS int64       `json:"time_left_ns,omitempty"`
}

// wireOptions are Options; durations in nanoseconds, so that a message
// quoting --timeout reads as it would in process.
type wireOptions struct {
	TimeoutNS       int64 `json:"timeout_ns,omitempty"`
	ProtocolVersion text  `json:"protocol_version,omitempty"`
	ClientName      text  `json:"client_name,omitempty"`
	ClientVersion   text  `json:"client_version,omitempty"`
	ShutdownGraceNS int64 `json:"shutdown_grace_ns,omitempty"`
}

func optionsOf(o Options) wireOptions {
	return wireOptions{TimeoutNS: int64(o.Timeout), ProtocolVersion: text(o.ProtocolVersion), ClientName: text(o.ClientName),
		ClientVersion: text(o.ClientVersion), ShutdownGraceNS: int64(o.ShutdownGrace)}
}

func (o wireOptions) options() Options {
	return Options{Timeout: time.Duration(o.TimeoutNS), ProtocolVersion: string(o.ProtocolVersion), ClientName: string(o.ClientName),
		ClientVersion: string(o.ClientVersion), ShutdownGrace: time.Duration(o.ShutdownGraceNS)}
}

// wireSource is a snap.Source.
type wireSource struct {
	Name    text              `json:"name,omitempty"`
	Command []text            `json:"command,omitempty"`
	URL     text              `json:"url,omitempty"`
	Header  map[string][]text `json:"header,omitempty"`
	Dir     text              `json:"dir,omitempty"`
	Env     []text            `json:"env,omitempty"`
}

func sourceOf(s snap.Source) wireSource {
	w := wireSource{Name: text(s.Name), Command: texts(s.Command), URL: text(s.URL), Dir: text(s.Dir), Env: texts(s.Env)}
	if s.Header != nil {
		w.Header = make(map[string][]text, len(s.Header))
		for k, vs := range s.Header {
			w.Header[k] = texts(vs)
		}
	}
	return w
}

func (w wireSource) source() snap.Source {
	s := snap.Source{Name: string(w.Name), Command: strs(w.Command), URL: string(w.URL), Dir: string(w.Dir), Env: strs(w.Env)}
	if w.Header != nil {
		s.Header = make(snap.Header, len(w.Header))
		for k, vs := range w.Header {
			s.Header[k] = strs(vs)
		}
	}
	return s
}

// reply is one line the program writes: exactly one of Ready (id 0),
// Took, Called, Error or Fatal.
type reply struct {
	ID     int64      `json:"id"`
	Ready  *hello     `json:"ready,omitempty"`
	Took   *took      `json:"took,omitempty"`
	Called *called    `json:"called,omitempty"`
	Error  *wireError `json:"error,omitempty"`
	Fatal  string     `json:"fatal,omitempty"`
}

type took struct {
	Snapshots []wireSnapshot `json:"snapshots"`
}

type called struct {
	Snapshot wireSnapshot `json:"snapshot"`
	Result   []byte       `json:"result"`
}

// wireSnapshot is a snap.Snapshot without its Source (the request's).
// The tools and serverInfo cross as base64, byte for byte: a JSON string
// would lose invalid UTF-8, and json.RawMessage would be compacted.
type wireSnapshot struct {
	Name            text            `json:"name"`
	Instructions    text            `json:"instructions,omitempty"`
	HasInstructions bool            `json:"has_instructions,omitempty"`
	ServerInfo      []byte          `json:"server_info,omitempty"`
	ProtocolVersion text            `json:"protocol_version,omitempty"`
	Tools           [][]byte        `json:"tools"`
	Pages           int             `json:"pages"`
	FirstPage       int             `json:"first_page,omitempty"`
	Duplicates      []wireDuplicate `json:"duplicates,omitempty"`
}

// wireDuplicate is a snap.Duplicate.
type wireDuplicate struct {
	Method  text `json:"method"`
	Request int  `json:"request"`
	Differs bool `json:"differs,omitempty"`
}

func snapshotOf(s *snap.Snapshot) wireSnapshot {
	w := wireSnapshot{Name: text(s.Name), Instructions: text(s.Instructions), HasInstructions: s.HasInstructions,
		ServerInfo: s.ServerInfo, ProtocolVersion: text(s.ProtocolVersion), Pages: s.Pages, FirstPage: s.FirstPage}
	if s.Tools != nil {
		w.Tools = make([][]byte, len(s.Tools))
		for i, t := range s.Tools {
			w.Tools[i] = t
		}
	}
	for _, d := range s.Duplicates {
		w.Duplicates = append(w.Duplicates, wireDuplicate{Method: text(d.Method), Request: d.Request, Differs: d.Differs})
	}
	return w
}

func (w wireSnapshot) snapshot(src snap.Source) *snap.Snapshot {
	s := &snap.Snapshot{Source: src, Name: string(w.Name), Instructions: string(w.Instructions), HasInstructions: w.HasInstructions,
		ProtocolVersion: string(w.ProtocolVersion), Pages: w.Pages, FirstPage: w.FirstPage}
	if w.ServerInfo != nil {
		s.ServerInfo = json.RawMessage(w.ServerInfo)
	}
	if w.Tools != nil {
		s.Tools = make([]json.RawMessage, len(w.Tools))
		for i, t := range w.Tools {
			s.Tools[i] = json.RawMessage(t)
		}
	}
	for _, d := range w.Duplicates {
		s.Duplicates = append(s.Duplicates, snap.Duplicate{Method: string(d.Method), Request: d.Request, Differs: d.Differs})
	}
	return s
}

// text is a string that crosses the pipe byte for byte: a JSON string
// when it is UTF-8, else {"bytes": BASE64} (a JSON string would turn
// each invalid byte into U+FFFD, and a command's argument or the error
// naming it would change).
type text string

func (t text) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(t)) {
		return json.Marshal(string(t))
	}
	return json.Marshal(struct {
		Bytes []byte `json:"bytes"`
	}{[]byte(t)})
}

func (t *text) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '{' {
		var v struct {
			Bytes []byte `json:"bytes"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*t = text(v.Bytes)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = text(s)
	return nil
}

func texts(ss []string) []text {
	if ss == nil {
		return nil
	}
	t := make([]text, len(ss))
	for i, s := range ss {
		t[i] = text(s)
	}
	return t
}

func strs(ts []text) []string {
	if ts == nil {
		return nil
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return s
}

// wireError is one error of a chain, from the top: its own text, what it
// is, and its cause(s). What it is, at most one of:
//
//   - Phase (with Name, Source, Stderr and the phase's detail: After,
//     Page, What or Tool): a *snap.StartError, HandshakeError, ListError,
//     ParseError or CallError, whose cause is Cause;
//   - Exit: a *snap.ExitError;
//   - Sentinel: one of the sentinels errors.Is tests for (sentinels);
//   - none: an error known by its text only, which errors.Is matches
//     with the sentinels in Is (a live timeout: "timeout") and which
//     wraps Cause, or Causes (an error wrapping several).
type wireError struct {
	Text     text         `json:"text"`
	Phase    string       `json:"phase,omitempty"`
	Name     text         `json:"name,omitempty"`
	Source   text         `json:"source,omitempty"`
	Stderr   text         `json:"stderr,omitempty"`
	AfterNS  int64        `json:"after_ns,omitempty"`
	Page     int          `json:"page,omitempty"`
	What     text         `json:"what,omitempty"`
	Tool     text         `json:"tool,omitempty"`
	Exit     *wireExit    `json:"exit,omitempty"`
	Sentinel string       `json:"sentinel,omitempty"`
	Is       []string     `json:"is,omitempty"`
	Cause    *wireError   `json:"cause,omitempty"`
	Causes   []*wireError `json:"causes,omitempty"`
}

type wireExit struct {
	Status text `json:"status"`
	Code   int  `json:"code"`
}

// sentinels are the errors that keep their identity across the pipe, so
// that errors.Is finds them in a chain as it would in process.
var sentinels = []struct {
	name string
	err  error
}{
	{"timeout", snap.ErrTimeout},
	{"interrupted", snap.ErrInterrupted},
	{"not-found", exec.ErrNotFound},
	{"canceled", context.Canceled},
	{"deadline-exceeded", context.DeadlineExceeded},
	{"eof", io.EOF},
	{"unexpected-eof", io.ErrUnexpectedEOF},
	{"not-exist", fs.ErrNotExist},
	{"permission", fs.ErrPermission},
}

func sentinel(name string) error {
	for _, s := range sentinels {
		if s.name == name {
			return s.err
		}
	}
	return nil
}

// maxErrorDepth bounds the chain of a decoded error.
const maxErrorDepth = 64

// errorOf is the wire form of err's chain.
func errorOf(err error) *wireError {
	return errorAt(err, 0)
}

func errorAt(err error, depth int) *wireError {
	w := &wireError{Text: text(err.Error())}
	if depth == maxErrorDepth {
		return w // the rest of the chain is lost, not the text
	}
	var f *snap.Failure
	switch e := err.(type) {
	case *snap.StartError:
		w.Phase, f = string(snap.PhaseStart), &e.Failure
	case *snap.HandshakeError:
		w.Phase, f, w.AfterNS = string(snap.PhaseHandshake), &e.Failure, int64(e.After)
	case *snap.ListError:
		w.Phase, f, w.Page = string(snap.PhaseList), &e.Failure, e.Page
	case *snap.ParseError:
		w.Phase, f, w.What = string(snap.PhaseParse), &e.Failure, text(e.What)
	case *snap.CallError:
		w.Phase, f, w.Tool = string(snap.PhaseCall), &e.Failure, text(e.Tool)
	case *snap.ExitError:
		w.Exit = &wireExit{Status: text(e.Status), Code: e.Code}
		return w
	}
	if f != nil {
		w.Name, w.Source, w.Stderr = text(f.Name), text(f.Source), text(f.Stderr)
		if f.Err != nil {
			w.Cause = errorAt(f.Err, depth+1)
		}
		return w
	}
	for _, s := range sentinels {
		if err == s.err {
			w.Sentinel = s.name
			return w
		}
	}
	if x, ok := err.(interface{ Is(error) bool }); ok {
		for _, s := range sentinels {
			if x.Is(s.err) {
				w.Is = append(w.Is, s.name)
			}
		}
	}
	switch x := err.(type) {
	case interface{ Unwrap() error }:
		if c := x.Unwrap(); c != nil {
			w.Cause = errorAt(c, depth+1)
		}
	case interface{ Unwrap() []error }:
		for _, c := range x.Unwrap() {
			if c != nil {
				w.Causes = append(w.Causes, errorAt(c, depth+1))
			}
		}
	}
	return w
}

// err is the error the wire form stands for, or why it cannot be one.
func (w *wireError) err() (error, error) { return w.errAt(0) }

func (w *wireError) errAt(depth int) (error, error) {
	if depth > maxErrorDepth {
		return nil, errors.New("an error chain deeper than 64")
	}
	kinds := 0
	for _, set := range []bool{w.Phase != "", w.Exit != nil, w.Sentinel != ""} {
		if set {
			kinds++
		}
	}
	if kinds > 1 {
		return nil, errors.New(`an error with more than one of "phase", "exit" and "sentinel"`)
	}
	if w.Cause != nil && len(w.Causes) > 0 {
		return nil, errors.New(`an error with both "cause" and "causes"`)
	}
	var causes []error
	for _, c := range append([]*wireError{w.Cause}, w.Causes...) {
		if c == nil {
			continue
		}
		e, err := c.errAt(depth + 1)
		if err != nil {
			return nil, err
		}
		causes = append(causes, e)
	}
	switch {
	case w.Phase != "":
		if w.Cause == nil {
			return nil, fmt.Errorf("a %s error without a cause", w.Phase)
		}
		f := snap.Failure{Name: string(w.Name), Source: string(w.Source), Err: causes[0], Stderr: string(w.Stderr)}
		switch snap.Phase(w.Phase) {
		case snap.PhaseStart:
			return &snap.StartError{Failure: f}, nil
		case snap.PhaseHandshake:
			return &snap.HandshakeError{Failure: f, After: time.Duration(w.AfterNS)}, nil
		case snap.PhaseList:
			return &snap.ListError{Failure: f, Page: w.Page}, nil
		case snap.PhaseParse:
			return &snap.ParseError{Failure: f, What: string(w.What)}, nil
		case snap.PhaseCall:
			return &snap.CallError{Failure: f, Tool: string(w.Tool)}, nil
		}
		return nil, fmt.Errorf("phase %q: want start, handshake, list, parse or call", w.Phase)
	case len(causes) > 0 && (w.Exit != nil || w.Sentinel != ""):
		return nil, errors.New(`an "exit" or "sentinel" error with a cause`)
	case w.Exit != nil:
		return &snap.ExitError{Status: string(w.Exit.Status), Code: w.Exit.Code}, nil
	case w.Sentinel != "":
		s := sentinel(w.Sentinel)
		if s == nil {
			return nil, fmt.Errorf("sentinel %q: not one this program knows", w.Sentinel)
		}
		return s, nil
	}
	e := &textError{text: string(w.Text)}
	for _, name := range w.Is {
		s := sentinel(name)
		if s == nil {
			return nil, fmt.Errorf("is %q: not a sentinel this program knows", name)
		}
		e.is = append(e.is, s)
	}
	if w.Cause != nil {
		return &wrapError{textError: *e, cause: causes[0]}, nil
	}
	if len(w.Causes) > 0 {
		return &joinError{textError: *e, causes: causes}, nil
	}
	return e, nil
}

// textError is an error that crossed the pipe by its text, matching the
// sentinels it matched in the program.
type textError struct {
	text string
	is   []error
}

func (e *textError) Error() string { return e.text }

func (e *textError) Is(target error) bool {
	for _, s := range e.is {
		if s == target {
			return true
		}
	}
	return false
}

// wrapError is a textError that wrapped one cause.
type wrapError struct {
	textError
	cause error
}

func (e *wrapError) Unwrap() error { return e.cause }

// joinError is a textError that wrapped several causes.
type joinError struct {
	textError
	causes []error
}

func (e *joinError) Unwrap() []error { return e.causes }

// encode renders a message as one line. HTML characters are not escaped.
func encode(v any) ([]byte, error) { return pipeprog.Encode(v) }

// decodeRequest reads one line written by toolfind.
func decodeRequest(line []byte) (request, error) {
	var r request
	if err := json.Unmarshal(line, &r); err != nil {
		return request{}, fmt.Errorf("not a JSON object: %v", err)
	}
	n := 0
	for _, set := range []bool{r.Hello != nil, r.Take != nil, r.Call != nil, r.Cancel} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return request{}, errors.New(`want exactly one of "hello", "take", "call" and "cancel"`)
	case r.Hello != nil && r.ID != 0:
		return request{}, fmt.Errorf("hello with id %d: want 0", r.ID)
	case r.Hello == nil && r.ID < 1:
		return request{}, fmt.Errorf("id %d: want 1 or more", r.ID)
	case r.Take != nil && (r.Take.TimeLeftNS < 0 || r.Take.Options.TimeoutNS < 0 || r.Take.Options.ShutdownGraceNS < 0):
		return request{}, fmt.Errorf("take %d: a negative duration", r.ID)
	case r.Call != nil && (r.Call.TimeLeftNS < 0 || r.Call.Options.TimeoutNS < 0 || r.Call.Options.ShutdownGraceNS < 0):
		return request{}, fmt.Errorf("call %d: a negative duration", r.ID)
	}
	return r, nil
}

// decodeReply reads one line written by the program; a reply's error is
// checked to stand for an error (wireError.err).
func decodeReply(line []byte) (reply, error) {
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		return reply{}, fmt.Errorf("not a JSON object: %v", err)
	}
	n := 0
	for _, set := range []bool{r.Ready != nil, r.Took != nil, r.Called != nil, r.Error != nil, r.Fatal != ""} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return reply{}, errors.New(`want exactly one of "ready", "took", "called", "error" and "fatal"`)
	case r.ID < 0:
		return reply{}, fmt.Errorf("id %d: want 0 or more", r.ID)
	case r.Ready != nil && r.ID != 0:
		return reply{}, fmt.Errorf("ready with id %d: want 0", r.ID)
	case (r.Took != nil || r.Called != nil || r.Error != nil) && r.ID == 0:
		return reply{}, errors.New("an answer with id 0: want 1 or more")
	}
	if r.Error != nil {
		if _, err := r.Error.err(); err != nil {
			return reply{}, fmt.Errorf("error of id %d: %v", r.ID, err)
		}
	}
	return r, nil
}
