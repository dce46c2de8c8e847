package remote

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolfind/toolfind/jsbox"
)

// Protocol is the version of the line protocol (package doc). A program
// that speaks another one is refused at the handshake.
const Protocol = 1

// call is one line toolfind writes to the program: exactly one of Hello
// (id 0, the first line), Codex, OpenCode, Compile, Exec, Run, Found or
// Cancel (ids 1, 2, …; Found and Cancel name a Run or Exec in flight).
type call struct {
	ID       int64          `json:"id"`
	Hello    *hello         `json:"hello,omitempty"`
	Codex    *codexSetup    `json:"codex,omitempty"`
	OpenCode *openCodeSetup `json:"opencode,omitempty"`
	Compile  *compileCall   `json:"compile,omitempty"`
	Exec     *execCall      `json:"exec,omitempty"`
	Run      *runCall       `json:"run,omitempty"`
	Found    *found         `json:"found,omitempty"`
	Cancel   bool           `json:"cancel,omitempty"`
}

type hello struct {
	Protocol int `json:"protocol"`
}

// codexSetup is jsbox.CodexSetup on the wire.
type codexSetup struct {
	Tools   []codexTool `json:"tools"`
	Limits  limits      `json:"limits"`
	Console bool        `json:"console,omitempty"`
}

type codexTool struct {
	Name        text `json:"name"`
	Description text `json:"description"`
	CallName    text `json:"call_name"`
	Tool        text `json:"tool,omitempty"`
	Freeform    bool `json:"freeform,omitempty"`
}

type limits struct {
	TimeoutNS      int64  `json:"timeout_ns"`
	MaxOutputBytes int    `json:"max_output_bytes"`
	MaxCallStack   int    `json:"max_call_stack"`
	MaxHeapGrowth  uint64 `json:"max_heap_growth"`
}

// openCodeSetup is jsbox.OpenCodeSetup on the wire.
type openCodeSetup struct {
	Tools        []openCodeTool `json:"tools"`
	GlobalSearch bool           `json:"global_search,omitempty"`
	TimeoutNS    int64          `json:"timeout_ns"`
}

type openCodeTool struct {
	Namespace text `json:"namespace"`
	Local     text `json:"local"`
}

// compileCall checks code in a Codex session.
type compileCall struct {
	Session int64 `json:"session"`
	Code    text  `json:"code"`
}

// execCall is jsbox.CodexRun in a Codex session.
type execCall struct {
	Session int64   `json:"session"`
	Code    text    `json:"code"`
	Query   text    `json:"query"`
	Terms   []text  `json:"terms"`
	YieldMs float64 `json:"yield_ms"`
	Trusted bool    `json:"trusted,omitempty"`
}

// runCall is one OpenCode run in an OpenCode session.
type runCall struct {
	Session int64 `json:"session"`
	Code    text  `json:"code"`
}

// found answers a search() call of a run: the result's JSON, or the
// error the call throws.
type found struct {
	JSON  text `json:"json,omitempty"`
	Error text `json:"error,omitempty"`
}

// reply is one line the program writes: exactly one of Ready (id 0),
// Opened (a session's id), Compiled, Output, Ran, Search (a run asks
// toolfind's search) or Error.
type reply struct {
	ID       int64        `json:"id"`
	Ready    *hello       `json:"ready,omitempty"`
	Opened   bool         `json:"opened,omitempty"`
	Compiled *compiled    `json:"compiled,omitempty"`
	Output   *codexOutput `json:"output,omitempty"`
	Ran      *ran         `json:"ran,omitempty"`
	Search   *searchInput `json:"search,omitempty"`
	Error    *text        `json:"error,omitempty"`
}

// compiled is a Compile's answer: Error is nil when the code compiles.
type compiled struct {
	Error *compileError `json:"error,omitempty"`
}

type compileError struct {
	Message text `json:"message"`
	Line    int  `json:"line,omitempty"`
	Column  int  `json:"column,omitempty"`
}

// codexOutput is jsbox.CodexOutput on the wire.
type codexOutput struct {
	Status   text       `json:"status"`
	Items    []text     `json:"items,omitempty"`
	Calls    []wireCall `json:"calls,omitempty"`
	Error    text       `json:"error,omitempty"`
	TimedOut bool       `json:"timed_out,omitempty"`
	Notices  []text     `json:"notices,omitempty"`
}

// wireCall is jsbox.Call on the wire; Arguments is the JSON of the call's
// arguments (decoded as encoding/json decodes into any, as the sandbox
// does).
type wireCall struct {
	Tool      text            `json:"tool,omitempty"`
	Name      text            `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Rejected  text            `json:"rejected,omitempty"`
}

// ran is jsbox.OpenCodeOutput on the wire.
type ran struct {
	Output   text  `json:"output,omitempty"`
	Failed   bool  `json:"failed,omitempty"`
	Error    text  `json:"error,omitempty"`
	Called   []int `json:"called,omitempty"`
	Searches int   `json:"searches,omitempty"`
}

// searchInput is jsbox.SearchInput on the wire.
type searchInput struct {
	Query     text  `json:"query"`
	Namespace *text `json:"namespace,omitempty"`
	Limit     int   `json:"limit,omitempty"`
	Offset    int   `json:"offset,omitempty"`
}

// text is a string that crosses the pipe byte for byte: valid UTF-8 as
// itself, anything else (a catalog's or a script file's stray bytes,
// which JSON would turn into U+FFFD) as base64 after a NUL and "base64:"
// (so does a text that starts with that marker). It is a TextMarshaler,
// so encoding/json writes and reads it as the plain string it is.
type text string

// textMarker starts a text sent as base64.
const textMarker = "\x00base64:"

// MarshalText implements encoding.TextMarshaler.
func (t text) MarshalText() ([]byte, error) {
	if utf8.ValidString(string(t)) && !strings.HasPrefix(string(t), textMarker) {
		return []byte(t), nil
	}
	b := make([]byte, len(textMarker)+base64.StdEncoding.EncodedLen(len(t)))
	copy(b, textMarker)
	base64.StdEncoding.Encode(b[len(textMarker):], []byte(t))
	return b, nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *text) UnmarshalText(b []byte) error {
	if !bytes.HasPrefix(b, []byte(textMarker)) {
		*t = text(b)
		return nil
	}
	raw := make([]byte, base64.StdEncoding.DecodedLen(len(b)-len(textMarker)))
	n, err := base64.StdEncoding.Decode(raw, b[len(textMarker):])
	if err != nil {
		return fmt.Errorf("base64 text: %v", err)
	}
	*t = text(raw[:n])
	return nil
}

func texts(ss []string) []text {
	if ss == nil {
		return nil
	}
	out := make([]text, len(ss))
	for i, s := range ss {
		out[i] = text(s)
	}
	return out
}

func strs(ts []text) []string {
	if ts == nil {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

// readLine reads one line into buf (reused: the caller decodes the line
// before the next read), its newline included when there is one.
func readLine(r *bufio.Reader, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// encode renders a message as one line. HTML characters are not escaped.
func encode(v any) ([]byte, error) {
	var l lineEncoder
	if err := l.encode(v); err != nil {
		return nil, err
	}
	return l.buf.Bytes(), nil
}

// lineEncoder renders messages as lines into one buffer, reused from
// line to line (a run's output can be megabytes, sent again and again).
type lineEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// encode renders v into l.buf, replacing what it held. An exec's output
// (megabytes of text items, on every run) is written straight into the
// buffer; anything else goes through encoding/json.
func (l *lineEncoder) encode(v any) error {
	l.buf.Reset()
	if r, ok := v.(reply); ok && r.Output != nil {
		b := appendOutputReply(l.buf.AvailableBuffer(), r.ID, r.Output)
		l.buf.Write(b)
		return nil
	}
	if l.enc == nil {
		l.enc = json.NewEncoder(&l.buf)
		l.enc.SetEscapeHTML(false)
	}
	return l.enc.Encode(v)
}

// appendOutputReply appends {"id":id,"output":{…}} and a newline, as
// encoding/json would write it (the same fields, omitempty alike).
func appendOutputReply(b []byte, id int64, o *codexOutput) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"output":{"status":`...)
	b = appendText(b, o.Status)
	list := func(b []byte, key string, ts []text) []byte {
		if len(ts) == 0 {
			return b
		}
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":[`...)
		for i, t := range ts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendText(b, t)
		}
		return append(b, ']')
	}
	b = list(b, "items", o.Items)
	if len(o.Calls) > 0 {
		b = append(b, `,"calls":[`...)
		for i, c := range o.Calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			if c.Tool != "" {
				b = append(b, `"tool":`...)
				b = appendText(b, c.Tool)
				b = append(b, ',')
			}
			b = append(b, `"name":`...)
			b = appendText(b, c.Name)
			b = append(b, `,"arguments":`...)
			b = append(b, c.Arguments...)
			if c.Rejected != "" {
				b = append(b, `,"rejected":`...)
				b = appendText(b, c.Rejected)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if o.Error != "" {
		b = append(b, `,"error":`...)
		b = appendText(b, o.Error)
	}
	if o.TimedOut {
		b = append(b, `,"timed_out":true`...)
	}
	b = list(b, "notices", o.Notices)
	return append(b, "}}\n"...)
}

// appendText appends t as a JSON string (MarshalText's form): quotes,
// backslashes and control characters escaped, nothing else.
func appendText(b []byte, t text) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	appendEscaped := func(b []byte, s string) []byte {
		start := 0
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c >= 0x20 && c != '"' && c != '\\' {
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			start = i + 1
		}
		return append(b, s[start:]...)
	}
	if utf8.ValidString(string(t)) && !strings.HasPrefix(string(t), textMarker) {
		b = appendEscaped(b, string(t))
	} else {
		m, _ := t.MarshalText()
		b = appendEscaped(b, string(m))
	}
	return append(b, '"')
}

// decodeCall reads one line written by toolfind.
func decodeCall(line []byte) (call, error) {
	var c call
	if err := json.Unmarshal(line, &c); err != nil {
		return call{}, fmt.Errorf("not a JSON object: %v", err)
	}
	n := 0
	for _, set := range []bool{c.Hello != nil, c.Codex != nil, c.OpenCode != nil, c.Compile != nil, c.Exec != nil, c.Run != nil, c.Found != nil, c.Cancel} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return call{}, errors.New(`want exactly one of "hello", "codex", "opencode", "compile", "exec", "run", "found" and "cancel"`)
	case c.Hello != nil && c.ID != 0:
		return call{}, fmt.Errorf("hello with id %d: want 0", c.ID)
	case c.Hello == nil && c.ID < 1:
		return call{}, fmt.Errorf("id %d: want 1 or more", c.ID)
	case c.Codex != nil && c.Codex.Limits.invalid():
		return call{}, fmt.Errorf("codex %d: limits %+v: want every limit more than 0", c.ID, c.Codex.Limits)
	case c.OpenCode != nil && c.OpenCode.TimeoutNS <= 0:
		return call{}, fmt.Errorf("opencode %d: timeout_ns %d: want more than 0", c.ID, c.OpenCode.TimeoutNS)
	case c.Compile != nil && c.Compile.Session < 1, c.Exec != nil && c.Exec.Session < 1, c.Run != nil && c.Run.Session < 1:
		return call{}, fmt.Errorf("call %d: no session", c.ID)
	}
	return c, nil
}

func (l limits) invalid() bool {
	return l.TimeoutNS <= 0 || l.MaxOutputBytes <= 0 || l.MaxCallStack <= 0 || l.MaxHeapGrowth == 0
}

// decodeReply reads one line written by the program.
func decodeReply(line []byte) (reply, error) {
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		return reply{}, fmt.Errorf("not a JSON object: %v", err)
	}
	n := 0
	for _, set := range []bool{r.Ready != nil, r.Opened, r.Compiled != nil, r.Output != nil, r.Ran != nil, r.Search != nil, r.Error != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return reply{}, errors.New(`want exactly one of "ready", "opened", "compiled", "output", "ran", "search" and "error"`)
	case r.ID < 0:
		return reply{}, fmt.Errorf("id %d: want 0 or more", r.ID)
	case r.Ready != nil && r.ID != 0:
		return reply{}, fmt.Errorf("ready with id %d: want 0", r.ID)
	case r.Ready == nil && r.Error == nil && r.ID == 0:
		return reply{}, errors.New("a reply with id 0 that is not ready or an error")
	}
	if r.Output != nil {
		for i, c := range r.Output.Calls {
			if len(c.Arguments) == 0 {
				return reply{}, fmt.Errorf("output %d: call %d has no arguments", r.ID, i+1)
			}
		}
	}
	if r.Ran != nil {
		for _, k := range r.Ran.Called {
			if k < 0 {
				return reply{}, fmt.Errorf("ran %d: called tool %d: want 0 or more", r.ID, k)
			}
		}
	}
	return r, nil
}

// The conversions between jsbox's types and the wire's.

func wireCodexSetup(s jsbox.CodexSetup) *codexSetup {
	w := &codexSetup{Tools: make([]codexTool, len(s.Tools)), Console: s.Console}
	for i, t := range s.Tools {
		w.Tools[i] = codexTool{Name: text(t.Name), Description: text(t.Description), CallName: text(t.CallName), Tool: text(t.Tool), Freeform: t.Freeform}
	}
	l := s.Limits.WithDefaults()
	w.Limits = limits{TimeoutNS: int64(l.Timeout), MaxOutputBytes: l.MaxOutputBytes, MaxCallStack: l.MaxCallStack, MaxHeapGrowth: l.MaxHeapGrowth}
	return w
}

func (w *codexSetup) setup() jsbox.CodexSetup {
	s := jsbox.CodexSetup{Tools: make([]jsbox.CodexTool, len(w.Tools)), Console: w.Console,
		Limits: jsbox.Limits{Timeout: time.Duration(w.Limits.TimeoutNS), MaxOutputBytes: w.Limits.MaxOutputBytes,
			MaxCallStack: w.Limits.MaxCallStack, MaxHeapGrowth: w.Limits.MaxHeapGrowth}}
	for i, t := range w.Tools {
		s.Tools[i] = jsbox.CodexTool{Name: string(t.Name), Description: string(t.Description), CallName: string(t.CallName), Tool: string(t.Tool), Freeform: t.Freeform}
	}
	return s
}

func wireOpenCodeSetup(s jsbox.OpenCodeSetup) *openCodeSetup {
	w := &openCodeSetup{Tools: make([]openCodeTool, len(s.Tools)), GlobalSearch: s.GlobalSearch, TimeoutNS: int64(s.Timeout)}
	for i, t := range s.Tools {
		w.Tools[i] = openCodeTool{Namespace: text(t.Namespace), Local: text(t.Local)}
	}
	return w
}

func (w *openCodeSetup) setup() jsbox.OpenCodeSetup {
	s := jsbox.OpenCodeSetup{Tools: make([]jsbox.OpenCodeTool, len(w.Tools)), GlobalSearch: w.GlobalSearch, Timeout: time.Duration(w.TimeoutNS)}
	for i, t := range w.Tools {
		s.Tools[i] = jsbox.OpenCodeTool{Namespace: string(t.Namespace), Local: string(t.Local)}
	}
	return s
}

func wireCodexOutput(o jsbox.CodexOutput) (*codexOutput, error) {
	w := &codexOutput{Status: text(o.Status), Items: texts(o.Items), Error: text(o.Error), TimedOut: o.TimedOut, Notices: texts(o.Notices)}
	for _, c := range o.Calls {
		args, err := encode(c.Arguments)
		if err != nil {
			return nil, fmt.Errorf("call of %s: arguments: %v", c.Name, err)
		}
		w.Calls = append(w.Calls, wireCall{Tool: text(c.Tool), Name: text(c.Name), Arguments: bytes.TrimSuffix(args, []byte("\n")), Rejected: text(c.Rejected)})
	}
	return w, nil
}

func (w *codexOutput) output() (jsbox.CodexOutput, error) {
	o := jsbox.CodexOutput{Status: string(w.Status), Items: strs(w.Items), Error: string(w.Error), TimedOut: w.TimedOut, Notices: strs(w.Notices)}
	for i, c := range w.Calls {
		var args any
		if err := json.Unmarshal(c.Arguments, &args); err != nil {
			return jsbox.CodexOutput{}, fmt.Errorf("call %d: arguments: %v", i+1, err)
		}
		o.Calls = append(o.Calls, jsbox.Call{Tool: string(c.Tool), Name: string(c.Name), Arguments: args, Rejected: string(c.Rejected)})
	}
	return o, nil
}

func wireRan(o jsbox.OpenCodeOutput) *ran {
	return &ran{Output: text(o.Output), Failed: o.Failed, Error: text(o.Error), Called: o.Called, Searches: o.Searches}
}

func (w *ran) output() jsbox.OpenCodeOutput {
	return jsbox.OpenCodeOutput{Output: string(w.Output), Failed: w.Failed, Error: string(w.Error), Called: w.Called, Searches: w.Searches}
}

func wireSearchInput(in jsbox.SearchInput) *searchInput {
	w := &searchInput{Query: text(in.Query), Limit: in.Limit, Offset: in.Offset}
	if in.Namespace != nil {
		ns := text(*in.Namespace)
		w.Namespace = &ns
	}
	return w
}

func (w *searchInput) input() jsbox.SearchInput {
	in := jsbox.SearchInput{Query: string(w.Query), Limit: w.Limit, Offset: w.Offset}
	if w.Namespace != nil {
		ns := string(*w.Namespace)
		in.Namespace = &ns
	}
	return in
}
