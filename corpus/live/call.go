package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// ToolCall is one live tools/call (see snap.ToolCall).
type ToolCall = snap.ToolCall

// Call starts (or connects to) the server, runs the handshake and
// tools/list as Take does, then calls one tool with args (a JSON object;
// nil means {}) and shuts the server down. Calling a tool can have
// effects: callers must have the user's explicit consent. The result is
// taken from the wire (the tap) whatever the SDK makes of it, so a result
// the SDK would reject is still reported. Errors are Take's, a
// *ParseError for a result that is not a JSON object, or a *CallError.
// The timeout bounds the call like the other phases.
func Call(ctx context.Context, src Source, opts Options, tool string, args json.RawMessage) (c *ToolCall, err error) {
	if tool == "" {
		return nil, errors.New("live: no tool to call")
	}
	if t := bytes.TrimSpace(args); len(t) == 0 {
		args = json.RawMessage("{}")
	} else if t[0] != '{' || !json.Valid(t) {
		return nil, fmt.Errorf("live: the arguments of %s must be a JSON object", tool)
	}
	s, err := open(src, opts)
	if err != nil {
		return nil, err
	}
	defer func() { s.close(err == nil) }()
	snap, err := s.handshake(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.list(ctx, snap); err != nil {
		return nil, err
	}
	raw, err := s.call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	snap.Duplicates = s.tap.duplicates()
	return &ToolCall{Snapshot: snap, Result: raw}, nil
}

// call sends tools/call and returns the raw result.
func (s *session) call(parent context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(parent, s.opts.Timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	before := s.tap.count("tools/call")
	_, sdkErr := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	r, got := s.tap.reply("tools/call")
	got = got && s.tap.count("tools/call") > before
	if got && s.tap.badOutput() == nil {
		if r.Error != nil {
			return nil, &CallError{Failure: s.failure(rpcError(r.Error)), Tool: tool}
		}
		if t := bytes.TrimSpace(r.Result); len(t) == 0 || t[0] != '{' {
			return nil, &ParseError{Failure: s.failure(fmt.Errorf("the result is %s, not an object", kindOf(t))), What: "tools/call result"}
		}
		return r.Result, nil
	}
	if sdkErr == nil {
		sdkErr = errors.New("the SDK accepted a tools/call answer that toolfind did not see")
	}
	cause, bad, exited, _ := s.cause(parent, deadline, "tools/call", sdkErr)
	switch {
	case bad != nil:
		return nil, &ParseError{Failure: s.failure(cause), What: bad.What}
	case exited != nil:
		return nil, &CallError{Failure: s.failure(exited), Tool: tool}
	}
	return nil, &CallError{Failure: s.failure(cause), Tool: tool}
}
