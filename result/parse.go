package result

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/internal/jsonpos"
	"github.com/toolfind/toolfind/ojson"
)

// CallResult is one MCP CallToolResult (MCP 2025-11-25, schema
// CallToolResult): the content blocks, the optional structuredContent, the
// isError flag and _meta, with the parsed value kept member order and all.
type CallResult struct {
	// Value is the whole result as parsed (for a JSON-RPC envelope, its
	// "result").
	Value ojson.Value
	// Content are the blocks of "content", in order.
	Content []Block
	// Structured is "structuredContent" (Kind ojson.Invalid when absent;
	// an explicit null is Kind ojson.Null and counts as present).
	Structured ojson.Value
	// IsError is "isError"; absent means false.
	IsError bool
	// Meta is "_meta" (Kind ojson.Invalid when absent). No client shows it.
	Meta ojson.Value
}

// Block is one content block (MCP 2025-11-25 ContentBlock).
type Block struct {
	// Type is "text", "image", "audio", "resource", "resource_link" or, for
	// a block the schema does not know, whatever the server sent.
	Type string
	// Text is a text block's text.
	Text string
	// MimeType and Data are an image or audio block's (Data is the base64
	// text as sent).
	MimeType, Data string
	// URI, Name and Description are a resource_link's; URI and Text (or
	// Data for a blob, MimeType) an embedded resource's.
	URI, Name, Description string
	// Blob marks an embedded resource that holds a blob, not text.
	Blob bool
	// Annotated says the block carries "annotations" or "_meta".
	Annotated bool
	// Value is the block as sent.
	Value ojson.Value
}

// ParseError is a result file that is not a CallToolResult. It names the
// file, the line and column, and the field (a JSON Pointer written as a
// path: content[2].text).
type ParseError struct {
	File      string
	Line, Col int // 0 when unknown
	Field     string
	Msg       string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Parse reads a CallToolResult: a JSON object with a "content" array and
// optional "structuredContent", "isError" and "_meta" (MCP 2025-11-25), or a
// JSON-RPC 2.0 response whose "result" is one (captured traffic). Unknown
// members are ignored, as clients ignore them. name labels errors.
//
// Checked, because a client could not use the result otherwise: the root
// is an object; content is an array of objects, each with a string "type";
// a text block has a string "text"; an image or audio block has string
// "data" and "mimeType"; a resource block has a "resource" object with a
// string "uri" and a string "text" or "blob"; a resource_link has string
// "uri" and "name"; isError is a boolean; _meta is an object. A block of
// another type is kept as it is (clients drop or placeholder it).
func Parse(name string, data []byte) (*CallResult, error) {
	v, err := ojson.Parse(data)
	if err != nil {
		pe := &ParseError{File: name, Msg: "not JSON: " + strings.TrimPrefix(err.Error(), "ojson: ")}
		var se *jsonpos.SyntaxError
		if _, jerr := jsonpos.Build(data); errors.As(jerr, &se) {
			pe.Line, pe.Col = lineCol(data, se.Offset)
			pe.Msg = "not JSON: " + se.Msg
		}
		return nil, pe
	}
	p := &parser{name: name, data: data}
	root := ""
	if v.Kind == ojson.Object {
		if _, rpc := v.Get("jsonrpc"); rpc {
			if e, ok := v.Get("error"); ok {
				return nil, p.errorf("/error", "the file holds a JSON-RPC error, not a result: %s", e.JS(""))
			}
			r, ok := v.Get("result")
			if !ok {
				return nil, p.errorf("", `a JSON-RPC response without "result"`)
			}
			v, root = r, "/result"
		}
	}
	if v.Kind != ojson.Object {
		return nil, p.errorf(root, "a CallToolResult is a JSON object, not %s", kindName(v.Kind))
	}
	r := &CallResult{Value: v}
	content, ok := v.Get("content")
	if !ok {
		return nil, p.errorf(root, `missing "content" (a CallToolResult needs a content array)`)
	}
	if content.Kind != ojson.Array {
		return nil, p.errorf(root+"/content", "want an array of content blocks, got %s", kindName(content.Kind))
	}
	for i, item := range content.Array() {
		b, err := p.block(fmt.Sprintf("%s/content/%d", root, i), item)
		if err != nil {
			return nil, err
		}
		r.Content = append(r.Content, b)
	}
	if sc, ok := v.Get("structuredContent"); ok {
		r.Structured = sc
	}
	if ie, ok := v.Get("isError"); ok {
		if ie.Kind != ojson.Bool {
			return nil, p.errorf(root+"/isError", "want a boolean, got %s", kindName(ie.Kind))
		}
		r.IsError = ie.Bool
	}
	if m, ok := v.Get("_meta"); ok {
		if m.Kind != ojson.Object {
			return nil, p.errorf(root+"/_meta", "want an object, got %s", kindName(m.Kind))
		}
		r.Meta = m
	}
	return r, nil
}

type parser struct {
	name string
	data []byte
	ix   *jsonpos.Index
}

// errorf builds a ParseError for the value at ptr, locating it lazily.
func (p *parser) errorf(ptr, format string, args ...any) error {
	e := &ParseError{File: p.name, Field: fieldPath(ptr), Msg: fmt.Sprintf(format, args...)}
	if p.ix == nil {
		p.ix, _ = jsonpos.Build(p.data)
	}
	if p.ix != nil {
		if pos, ok := p.ix.Lookup(ptr); ok {
			e.Line, e.Col = p.ix.LineCol(pos.Start())
		}
	}
	return e
}

func (p *parser) block(ptr string, v ojson.Value) (Block, error) {
	if v.Kind != ojson.Object {
		return Block{}, p.errorf(ptr, "a content block is an object, not %s", kindName(v.Kind))
	}
	b := Block{Value: v}
	_, ann := v.Get("annotations")
	_, meta := v.Get("_meta")
	b.Annotated = ann || meta
	var err error
	str := func(key string, required bool) string {
		if err != nil {
			return ""
		}
		s, ok := v.Get(key)
		switch {
		case !ok && required:
			err = p.errorf(ptr, "a %q block needs a string %q", b.Type, key)
		case ok && s.Kind != ojson.String:
			err = p.errorf(ptr+"/"+jsonpos.Escape(key), "want a string, got %s", kindName(s.Kind))
		}
		return s.Str()
	}
	t, ok := v.Get("type")
	if !ok {
		return Block{}, p.errorf(ptr, `a content block needs a string "type"`)
	}
	if t.Kind != ojson.String {
		return Block{}, p.errorf(ptr+"/type", "want a string, got %s", kindName(t.Kind))
	}
	b.Type = t.Str()
	switch b.Type {
	case "text":
		b.Text = str("text", true)
	case "image", "audio":
		b.Data = str("data", true)
		b.MimeType = str("mimeType", true)
	case "resource_link":
		b.URI = str("uri", true)
		b.Name = str("name", true)
		b.Description = str("description", false)
		b.MimeType = str("mimeType", false)
	case "resource":
		res, ok := v.Get("resource")
		if !ok || res.Kind != ojson.Object {
			return Block{}, p.errorf(ptr, `a "resource" block needs a "resource" object`)
		}
		rp := &parser{name: p.name, data: p.data, ix: p.ix}
		b.URI, err = rp.stringAt(ptr+"/resource", res, "uri", true)
		if err == nil {
			b.MimeType, err = rp.stringAt(ptr+"/resource", res, "mimeType", false)
		}
		if err == nil {
			if _, ok := res.Get("text"); ok {
				b.Text, err = rp.stringAt(ptr+"/resource", res, "text", true)
			} else if _, ok := res.Get("blob"); ok {
				b.Blob = true
				b.Data, err = rp.stringAt(ptr+"/resource", res, "blob", true)
			} else {
				err = rp.errorf(ptr+"/resource", `an embedded resource needs a string "text" or "blob"`)
			}
		}
		p.ix = rp.ix
	}
	if err != nil {
		return Block{}, err
	}
	return b, nil
}

func (p *parser) stringAt(ptr string, v ojson.Value, key string, required bool) (string, error) {
	s, ok := v.Get(key)
	if !ok {
		if required {
			return "", p.errorf(ptr, "needs a string %q", key)
		}
		return "", nil
	}
	if s.Kind != ojson.String {
		return "", p.errorf(ptr+"/"+jsonpos.Escape(key), "want a string, got %s", kindName(s.Kind))
	}
	return s.Str(), nil
}

// fieldPath writes a JSON Pointer as a path: /result/content/2/text →
// result.content[2].text.
func fieldPath(ptr string) string { return jsonpos.FieldName(jsonpos.Tokens(ptr)) }

func kindName(k ojson.Kind) string {
	switch k {
	case ojson.Object, ojson.Array:
		return "an " + k.String()
	case ojson.Invalid:
		return "nothing"
	case ojson.Null:
		return "null"
	}
	return "a " + k.String()
}

// lineCol is the 1-based line and code-point column of a byte offset.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line, start := jsonpos.LineOf(data, off) // "\n", "\r\n" or a lone "\r" ends a line
	return line, len([]rune(string(data[start:off]))) + 1
}
