package gemini

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Result delivery constants (gemini.md §4.2).
const (
	// TruncateThreshold is DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD: a single
	// text part longer than this many UTF-16 units is cut.
	TruncateThreshold = 40000
	// TokenLimit is tokenLimit(model) for the Gemini models.
	TokenLimit = 1048576
	// DefaultModel is the model the simulation assumes (the oracle's).
	DefaultModel = "gemini-2.5-flash"
)

// DeliverOptions describe the call a result answers.
type DeliverOptions struct {
	// Model is the model id; "" is DefaultModel. Models starting
	// "gemini-3-" lose images (§4.1).
	Model string
	// Threshold is tools.truncateToolOutputThreshold; 0 is the default
	// 40,000, a negative value turns truncation off (the setting's 0 or
	// less).
	Threshold int
	// PromptTokens is the last request's prompt token count: the cut is at
	// min(4 × (1,048,576 − PromptTokens), Threshold).
	PromptTokens int
	// Args are the call's arguments as the model sent them (JSON object;
	// "" is {}): an error result quotes them.
	Args string
	// CallID is the call's id, for the saved file's name; "" stands for
	// the id the CLI makes ("<name>_<epoch ms>_<n>").
	CallID string
	// OutputSchema says the tool declares an outputSchema: the MCP SDK
	// then refuses a successful result without structuredContent (its
	// Client.callTool; found with the real CLI). Whether structuredContent
	// matches the schema (the SDK's Ajv check) is not simulated.
	OutputSchema bool
}

// threshold is getTruncateToolOutputThreshold() (§4.2).
func (o DeliverOptions) threshold() int {
	t := o.Threshold
	if t == 0 {
		t = TruncateThreshold
	}
	return min(4*(TokenLimit-o.PromptTokens), t)
}

// InlineData is binary content the request carries as its own part.
type InlineData struct {
	MimeType string `json:"mime_type"`
	Data     string `json:"data"`
}

// Delivery is what the model gets of one MCP tool result: the
// functionResponse part's "response" and the parts after it.
type Delivery struct {
	// Response is functionResponse.response as JSON: {"output": …},
	// {"error": …} or {}.
	Response string `json:"response"`
	// Text is the output or error text ("" for {}).
	Text  string `json:"text"`
	Error bool   `json:"error,omitempty"`
	// Inline are the sibling inlineData parts after the functionResponse,
	// in order.
	Inline []InlineData `json:"inline,omitempty"`
	// Dropped are the MIME types of binary content the model never gets
	// (audio and video always; everything for gemini-3-* models).
	Dropped []string `json:"dropped,omitempty"`
	// Truncated says the single text part was cut: Threshold is where,
	// OriginalChars the wrapped text's length, Omitted what was left out,
	// SavedFile the path the notice names (a stand-in: the real one holds
	// the session id and the call's time).
	Truncated     bool   `json:"truncated,omitempty"`
	Threshold     int    `json:"threshold"`
	OriginalChars int    `json:"original_chars,omitempty"`
	Omitted       int    `json:"omitted,omitempty"`
	SavedFile     string `json:"saved_file,omitempty"`
	// Notes say which rules applied.
	Notes []string `json:"notes,omitempty"`
}

// OriginalCharsOr is OriginalChars when the text was cut, else n.
func (d Delivery) OriginalCharsOr(n int) int {
	if d.Truncated {
		return d.OriginalChars
	}
	return n
}

// part is one Part of the CLI's llmContent.
type part struct {
	text   string
	isText bool
	inline *InlineData
}

// Deliver maps a CallToolResult (the JSON value the server answered,
// result) of the tool serverTool, which the model calls as name, to what
// the model gets (gemini.md §4):
//
//  1. isError true: {"error": "MCP tool '<tool>' reported tool error for
//     function call: {"name":<tool>,"args":<args>} with response:
//     [{"functionResponse":{"name":<tool>,"response":<result>}}]"}, the
//     result as the MCP SDK parsed it (NormalizeResult). Never cut.
//  2. content not an array: one text part "[Error: Could not parse tool
//     response]".
//  3. Each block becomes parts (transformMcpContentToParts): text →
//     WrapUntrusted(text); image and audio → "[Tool '<tool>' provided the
//     following <type> data with mime-type: <mime>]" + inlineData; an
//     embedded resource with non-empty text → WrapUntrusted(text); with a
//     blob → "[Tool '<tool>' provided the following embedded resource with
//     mime-type: <mime or application/octet-stream>]" + inlineData;
//     resource_link → "Resource Link: <title or name> at <uri>"; anything
//     else is dropped. structuredContent is never read.
//  4. Exactly one part, a text longer than the threshold (DeliverOptions):
//     Truncate.
//  5. convertToFunctionResponse: audio and video inlineData are removed
//     and "[SYSTEM: Binary content (<mimes>) stripped from response due to
//     protocol limitations.]" goes first; the texts are joined with "\n"
//     into {"output": …}; no text gives {} — or, with binary parts left,
//     {"output":"Binary content provided (<n> item(s))."}; the other
//     inlineData follow as sibling parts, except for models starting
//     "gemini-3-", whose request loses them (history hardening).
func Deliver(serverTool, name string, result ojson.Value, opts DeliverOptions) Delivery {
	model := opts.Model
	if model == "" {
		model = DefaultModel
	}
	d := Delivery{Threshold: opts.threshold()}
	result = result.Dedup()
	isErr, _ := result.Get("isError")
	failed := isErr.Kind == ojson.Bool && isErr.Bool
	if st, ok := result.Get("structuredContent"); opts.OutputSchema && !failed && (!ok || st.Kind == ojson.Null) {
		d = ErrorDelivery(serverTool, opts.Args, "MCP error -32600: Tool "+serverTool+" has an output schema but did not return structured content")
		d.Threshold = opts.threshold()
		d.Notes = append(d.Notes, "the tool has an outputSchema but the result has no structuredContent: Gemini CLI's MCP SDK turns the result into an error")
		return d
	}
	if failed {
		d.Error = true
		d.Text = toolError(serverTool, opts.Args, NormalizeResult(result))
		d.Response = `{"error":` + ojson.JSString(d.Text) + `}`
		d.Notes = append(d.Notes, "isError: the model gets the whole result as JSON in an error message, structuredContent included; nothing is cut")
		return d
	}
	parts := contentParts(serverTool, result)
	if st, ok := result.Get("structuredContent"); ok && st.Exists() {
		d.Notes = append(d.Notes, "structuredContent is ignored: the model reads only content")
	}
	if len(parts) == 1 && parts[0].isText && d.Threshold > 0 {
		if n := search.UTF16Len(parts[0].text); n > d.Threshold {
			d.SavedFile = SavedFilePath(name, opts.CallID)
			t, omitted := Truncate(parts[0].text, d.SavedFile, d.Threshold)
			parts[0].text = t
			d.Truncated, d.OriginalChars, d.Omitted = true, n, omitted
		}
	}
	var texts []string
	var inline, unsupported []InlineData
	for _, p := range parts {
		switch {
		case p.isText:
			texts = append(texts, p.text)
		case p.inline != nil:
			if strings.HasPrefix(p.inline.MimeType, "audio/") || strings.HasPrefix(p.inline.MimeType, "video/") {
				unsupported = append(unsupported, *p.inline)
			} else {
				inline = append(inline, *p.inline)
			}
		}
	}
	if len(unsupported) > 0 {
		var mimes []string
		for _, u := range unsupported {
			if !contains(mimes, u.MimeType) {
				mimes = append(mimes, u.MimeType)
			}
			d.Dropped = append(d.Dropped, u.MimeType)
		}
		texts = append([]string{"[SYSTEM: Binary content (" + strings.Join(mimes, ", ") + ") stripped from response due to protocol limitations.]"}, texts...)
	}
	switch {
	case len(texts) > 0:
		d.Text = strings.Join(texts, "\n")
		d.Response = `{"output":` + ojson.JSString(d.Text) + `}`
	case len(inline) > 0:
		d.Text = "Binary content provided (" + itoa(len(inline)) + " item(s))."
		d.Response = `{"output":` + ojson.JSString(d.Text) + `}`
	default:
		d.Response = `{}`
	}
	if len(inline) > 0 {
		if strings.HasPrefix(model, "gemini-3-") {
			for _, x := range inline {
				d.Dropped = append(d.Dropped, x.MimeType)
			}
			d.Notes = append(d.Notes, "images and other binary content are lost for "+model+" (functionResponse.parts is removed from every request)")
		} else {
			d.Inline = inline
		}
	}
	return d
}

// ErrorDelivery is what the model gets when the call fails with an error
// instead of a result (a JSON-RPC error answer, message "MCP error
// <code>: <message>", or an error of the MCP SDK): McpCallableTool wraps
// it as {"error":{"message":…,"isError":true}}, which the CLI reports as
// a tool error (§4.1, observed for "MCP error -32603: boom from server").
func ErrorDelivery(serverTool, args, message string) Delivery {
	resp := ojson.ObjectOf(ojson.Member{Key: "error", Value: ojson.ObjectOf(
		ojson.Member{Key: "message", Value: ojson.StringOf(message)},
		ojson.Member{Key: "isError", Value: ojson.Value{Kind: ojson.Bool, Bool: true}})})
	d := Delivery{Error: true, Text: toolError(serverTool, args, resp), Threshold: TruncateThreshold}
	d.Response = `{"error":` + ojson.JSString(d.Text) + `}`
	return d
}

// toolError is the CLI's text for a tool error: "MCP tool '<tool>'
// reported tool error for function call: {"name":<tool>,"args":<args>}
// with response: [{"functionResponse":{"name":<tool>,"response":<r>}}]".
func toolError(serverTool, args string, response ojson.Value) string {
	args = strings.TrimSpace(args)
	if args == "" {
		args = "{}"
	} else if v, err := ojson.Parse([]byte(args)); err == nil {
		args = v.JS("")
	}
	var b strings.Builder
	b.WriteString("MCP tool '" + serverTool + "' reported tool error for function call: ")
	b.WriteString(`{"name":`)
	ojson.AppendJSString(&b, serverTool)
	b.WriteString(`,"args":` + args + `} with response: [{"functionResponse":{"name":`)
	ojson.AppendJSString(&b, serverTool)
	b.WriteString(`,"response":`)
	response.AppendJS(&b, "")
	b.WriteString(`}}]`)
	return b.String()
}

// contentParts is transformMcpContentToParts (step 2 and 3 of Deliver).
func contentParts(tool string, result ojson.Value) []part {
	content, ok := result.Get("content")
	if !ok {
		content = ojson.ArrayOf() // the SDK's default([])
	}
	if content.Kind != ojson.Array {
		return []part{{text: "[Error: Could not parse tool response]", isText: true}}
	}
	var out []part
	str := func(v ojson.Value, key string) string {
		x, _ := v.Get(key)
		if x.Kind == ojson.String {
			return x.Str()
		}
		return ""
	}
	for _, b := range content.Array() {
		switch str(b, "type") {
		case "text":
			out = append(out, part{text: WrapUntrusted(str(b, "text")), isText: true})
		case "image", "audio":
			mime := str(b, "mimeType")
			out = append(out, part{text: "[Tool '" + tool + "' provided the following " + str(b, "type") + " data with mime-type: " + mime + "]", isText: true},
				part{inline: &InlineData{MimeType: mime, Data: str(b, "data")}})
		case "resource":
			r, _ := b.Get("resource")
			if t := str(r, "text"); t != "" {
				out = append(out, part{text: WrapUntrusted(t), isText: true})
			} else if blob := str(r, "blob"); blob != "" {
				mime := str(r, "mimeType")
				if mime == "" {
					mime = "application/octet-stream"
				}
				out = append(out, part{text: "[Tool '" + tool + "' provided the following embedded resource with mime-type: " + mime + "]", isText: true},
					part{inline: &InlineData{MimeType: mime, Data: blob}})
			}
		case "resource_link":
			title := str(b, "title")
			if title == "" {
				title = str(b, "name")
			}
			out = append(out, part{text: "Resource Link: " + title + " at " + str(b, "uri"), isText: true})
		}
	}
	return out
}

// WrapUntrusted is the CLI's wrapUntrusted (utils/textUtils.js, §4.1):
// "<untrusted_context>\n" + text with every "</untrusted_context>"
// escaped as "&lt;/untrusted_context&gt;" + "\n</untrusted_context>".
func WrapUntrusted(text string) string {
	return "<untrusted_context>\n" + strings.ReplaceAll(text, "</untrusted_context>", "&lt;/untrusted_context&gt;") + "\n</untrusted_context>"
}

// Truncate is formatTruncatedToolOutput (utils/fileUtils.js, §4.2): a
// text longer than max UTF-16 units keeps its first floor(0.2 × max)
// units and its last max − that, under the notice
//
//	Output too large. Showing first <head> and last <tail> characters. For full output see: <file>
//	<head text>
//
//	... [<omitted> characters omitted] ...
//
//	<tail text>
//
// with the numbers grouped by thousands (toLocaleString). 100,041 units at
// 40,000 keep 8,000 + 32,000 and omit 60,041.
func Truncate(text, file string, max int) (string, int) {
	n := search.UTF16Len(text)
	if n <= max {
		return text, 0
	}
	head := max * 2 / 10 // Math.floor(max * 0.2)
	tail := max - head
	u := utf16Of(text)
	omitted := n - head - tail
	return "Output too large. Showing first " + textfit.Thousands(head) + " and last " + textfit.Thousands(tail) +
		" characters. For full output see: " + file + "\n" + fromUTF16(u[:head]) + "\n\n... [" + textfit.Thousands(omitted) +
		" characters omitted] ...\n\n" + fromUTF16(u[n-tail:]), omitted
}

// SavedFilePath stands for the file the CLI saves a cut result to
// (saveTruncatedToolOutput, §4.2): <project temp dir>/tool-outputs/
// session-<session id>/<call id>.txt, the internal call id being
// "<name>__<name>_<epoch ms>_<n>" and every character outside
// [A-Za-z0-9_-] replaced by "_", lower-cased.
// An empty callID stands for the CLI's own, written <time>.
func SavedFilePath(name, callID string) string {
	id := strings.ToLower(safeFilePart(name + "__" + name + "_"))
	if callID == "" {
		id += "<time>_0"
	} else {
		id = strings.ToLower(safeFilePart(name + "__" + callID))
	}
	return "~/.gemini/tmp/<project>/tool-outputs/session-<session-id>/" + id + ".txt"
}

// safeFilePart is sanitizeFilenamePart: every character outside
// [A-Za-z0-9_-] becomes "_".
func safeFilePart(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

func utf16Of(s string) []uint16 { return utf16.Encode([]rune(s)) }

// fromUTF16 decodes units; a surrogate cut in half becomes U+FFFD, as
// Node writes it in UTF-8.
func fromUTF16(u []uint16) string { return string(utf16.Decode(u)) }
