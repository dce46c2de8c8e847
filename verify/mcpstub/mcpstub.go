// Package mcpstub is a minimal MCP server over stdio that serves one
// catalog server's tools exactly as the catalog holds them, so that a real
// client (Claude Code, …) can be run against a catalog without the servers
// that published it.
//
// Protocol: newline-delimited JSON-RPC 2.0 on stdin/stdout (the MCP stdio
// transport). The stub answers
//
//	initialize   protocolVersion echoed from the client (2025-06-18 when it
//	             sends none), capabilities {"tools": {}}, serverInfo with the
//	             server's name, and "instructions" when the server has any
//	ping         {}
//	tools/list   every tool in one page: {"tools": [RAW, RAW, …]}
//
// Each RAW is the tool's JSON object byte for byte as the catalog holds it,
// with only insignificant whitespace removed (a line of the transport
// cannot hold a newline): duplicate keys, odd escapes, invalid schemas and
// duplicate tools all go through, so the client validates exactly what the
// catalog's server published. A catalog entry that toolfind could not read
// as a tool (not an object, no string name) has lost its bytes; it is served
// as null, which fails a client's validation the same way. Notifications
// are ignored; any other method gets JSON-RPC error -32601; a batch gets a
// batch of answers. The stub stops when stdin ends.
//
// A stub file holds one server: {"name", "instructions", "tools"}. Run as
// `mcp-stub SERVER.json [MARKER]`, the stub creates the file MARKER when it
// answers tools/list (before the answer is written), so whoever started the client can tell whether
// the client had every server's tools when it searched.
package mcpstub

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/toolfind/toolfind/corpus"
)

// Server is one catalog server as the stub serves it.
type Server struct {
	Name         string            `json:"name"`
	Instructions string            `json:"instructions,omitempty"`
	Tools        []json.RawMessage `json:"tools"`
	// Results, when not nil, makes the stub answer tools/call: the
	// CallToolResult for each tool name, byte for byte (compacted); a name
	// without one gets JSON-RPC error -32602. Nil answers tools/call with
	// -32601, like any unknown method.
	Results map[string]json.RawMessage `json:"results,omitempty"`
	// CallLog, when set, is a file the stub appends each tools/call's
	// params to, one JSON object a line, before it answers.
	CallLog string `json:"call_log,omitempty"`
	// FirstPage, when between 1 and len(Tools) - 1, splits tools/list in
	// two pages: the first FirstPage tools with nextCursor "2", then the
	// rest for cursor "2".
	FirstPage int `json:"first_page,omitempty"`

	pages [][]byte // serve's two tools/list results (first, rest)
}

// FromCatalog turns a catalog into stub servers, in catalog order. Tools
// keep their raw bytes (compacted); entries the catalog could not read as
// tools (the parse diagnostics corpus.CodeToolNotObject and
// corpus.CodeNameMissing) are served as null at the end of their server's
// list.
func FromCatalog(cat *corpus.Catalog) ([]Server, error) {
	unreadable := map[*corpus.Server]int{}
	for _, d := range cat.Diagnostics {
		if d.Code != corpus.CodeToolNotObject && d.Code != corpus.CodeNameMissing {
			continue
		}
		for _, s := range cat.Servers {
			if s.Name == d.Server && s.Source == d.File {
				unreadable[s]++
			}
		}
	}
	out := make([]Server, 0, len(cat.Servers))
	for _, s := range cat.Servers {
		srv := Server{Name: s.Name, Instructions: s.Instructions, Tools: make([]json.RawMessage, 0, len(s.Tools)), FirstPage: s.FirstPage}
		for _, t := range s.Tools {
			var b bytes.Buffer
			if err := json.Compact(&b, t.Raw); err != nil {
				return nil, fmt.Errorf("server %q tool %q: %w", s.Name, t.Name, err)
			}
			srv.Tools = append(srv.Tools, b.Bytes())
		}
		for range unreadable[s] {
			srv.Tools = append(srv.Tools, json.RawMessage("null"))
		}
		out = append(out, srv)
	}
	return out, nil
}

// Marshal returns the server as a stub file.
func (s Server) Marshal() ([]byte, error) {
	if s.Tools == nil {
		s.Tools = []json.RawMessage{}
	}
	return json.Marshal(s)
}

// ReadFile reads a stub file.
func ReadFile(path string) (Server, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Server{}, err
	}
	var s Server
	if err := json.Unmarshal(data, &s); err != nil {
		return Server{}, fmt.Errorf("%s: %w", path, err)
	}
	if s.Tools == nil {
		return Server{}, fmt.Errorf("%s: no \"tools\" array", path)
	}
	return s, nil
}

// Main runs the stub for the stub file named by args[0] on the given
// streams and returns the exit status (2: usage, 1: unreadable file). With
// args[1], that file is created as the first tools/list is answered
// (before the answer is written).
func Main(args []string, in io.Reader, out, errOut io.Writer) int {
	if len(args) != 1 && len(args) != 2 {
		fmt.Fprintln(errOut, "usage: mcp-stub SERVER.json [MARKER]")
		return 2
	}
	s, err := ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(errOut, "mcp-stub:", err)
		return 1
	}
	var listed func()
	if len(args) == 2 {
		marker := args[1]
		listed = func() {
			if err := os.WriteFile(marker, nil, 0o600); err != nil {
				fmt.Fprintln(errOut, "mcp-stub:", err)
			}
		}
	}
	if err := serve(s, in, out, listed); err != nil {
		fmt.Fprintln(errOut, "mcp-stub:", err)
		return 1
	}
	return 0
}

// maxLine bounds one incoming JSON-RPC message.
const maxLine = 64 << 20

// Serve answers the JSON-RPC messages read from r, one per line, on w until
// r ends. It returns nil at end of input and an error only when writing
// fails or a line exceeds 64 MiB.
func Serve(s Server, r io.Reader, w io.Writer) error { return serve(s, r, w, nil) }

// serve is Serve calling listed (when not nil) once, before the first
// tools/list answer is written.
func serve(s Server, r io.Reader, w io.Writer, listed func()) error {
	tools := s.Tools
	cut := len(tools)
	if s.FirstPage > 0 && s.FirstPage < len(tools) {
		cut = s.FirstPage
	}
	first, err := page(tools[:cut], 0, cut < len(tools))
	if err != nil {
		return err
	}
	rest, err := page(tools[cut:], cut, false)
	if err != nil {
		return err
	}
	s.pages = [][]byte{first, rest}
	bw := bufio.NewWriter(w)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var reply []byte
		if line[0] == '[' {
			reply = batch(s, first, line)
		} else {
			reply = answer(s, first, line)
		}
		if reply == nil {
			continue
		}
		// The marker exists before the client can read the tools: created
		// after the answer, a client that searches at once would be
		// reported as having searched without this server.
		if listed != nil && bytes.Contains(line, []byte(`"tools/list"`)) {
			listed()
			listed = nil
		}
		bw.Write(reply)
		bw.WriteByte('\n')
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return nil
}

func batch(s Server, list, line []byte) []byte {
	var msgs []json.RawMessage
	if json.Unmarshal(line, &msgs) != nil {
		return rpcError(json.RawMessage("null"), -32700, "parse error")
	}
	var replies [][]byte
	for _, m := range msgs {
		if r := answer(s, list, m); r != nil {
			replies = append(replies, r)
		}
	}
	if len(replies) == 0 {
		return nil
	}
	return append(append([]byte{'['}, bytes.Join(replies, []byte{','})...), ']')
}

// page is one tools/list result: the tools from index at, and nextCursor
// "2" when more follows.
func page(tools []json.RawMessage, at int, more bool) ([]byte, error) {
	var list bytes.Buffer
	list.WriteString(`{"tools":[`)
	for i, t := range tools {
		if i > 0 {
			list.WriteByte(',')
		}
		if err := json.Compact(&list, t); err != nil {
			return nil, fmt.Errorf("tool %d: %w", at+i, err)
		}
	}
	list.WriteString(`]`)
	if more {
		list.WriteString(`,"nextCursor":"2"`)
	}
	list.WriteString(`}`)
	return list.Bytes(), nil
}

// answer handles one message; nil for notifications and responses.
func answer(s Server, list, msg []byte) []byte {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return rpcError(json.RawMessage("null"), -32700, "parse error")
	}
	if req.Method == nil || len(req.ID) == 0 {
		return nil // a response to nothing we sent, or a notification
	}
	switch *req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.ProtocolVersion == "" {
			p.ProtocolVersion = "2025-06-18"
		}
		res := map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": s.Name, "version": "0.0.0-toolfind-stub"},
		}
		if s.Instructions != "" {
			res["instructions"] = s.Instructions
		}
		b, _ := json.Marshal(res)
		return rpcResult(req.ID, b)
	case "ping":
		return rpcResult(req.ID, []byte(`{}`))
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.Cursor != "" && len(s.pages) == 2 {
			return rpcResult(req.ID, s.pages[1])
		}
		return rpcResult(req.ID, list)
	case "tools/call":
		if s.Results == nil {
			break
		}
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if s.CallLog != "" {
			logCall(s.CallLog, req.Params)
		}
		res, ok := s.Results[p.Name]
		if !ok {
			return rpcError(req.ID, -32602, "unknown tool: "+p.Name)
		}
		var b bytes.Buffer
		if json.Compact(&b, res) != nil {
			return rpcError(req.ID, -32603, "the stub's result for "+p.Name+" is not JSON")
		}
		return rpcResult(req.ID, b.Bytes())
	}
	return rpcError(req.ID, -32601, "method not found: "+*req.Method)
}

// logCall appends one tools/call's params to the call log.
func logCall(path string, params json.RawMessage) {
	var b bytes.Buffer
	if json.Compact(&b, params) != nil {
		b.Reset()
		b.WriteString("null")
	}
	b.WriteByte('\n')
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, _ = f.Write(b.Bytes())
	_ = f.Close()
}

func rpcResult(id json.RawMessage, result []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":`)
	b.Write(result)
	b.WriteByte('}')
	return b.Bytes()
}

func rpcError(id json.RawMessage, code int, msg string) []byte {
	m, _ := json.Marshal(msg)
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, m))
}
