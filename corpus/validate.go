package corpus

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/ojson"
)

// Severity grades a Diagnostic.
type Severity int

// Error means at least one client will drop the tool or its whole server;
// Warning means clients keep it but something is likely lost (cut text,
// shadowed tool); Info is worth knowing.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// MarshalText makes severities read as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic codes. They are stable: lint output and tests depend on them.
const (
	CodeToolNotObject      = "tool-not-object"
	CodeNameMissing        = "name-missing"
	CodeNameInvalid        = "name-invalid"
	CodeDescriptionType    = "description-type"
	CodeDescriptionEmpty   = "description-empty"
	CodeDescriptionLong    = "description-long"
	CodeSuspiciousText     = "suspicious-text"
	CodeInputSchemaMissing = "input-schema-missing"
	CodeInputSchemaType    = "input-schema-type"
	CodePropertiesType     = "properties-type"
	CodeRequiredType       = "required-type"
	CodeRequiredUnknown    = "required-unknown"
	CodePropertyKeyInvalid = "property-key-invalid"
	CodeDuplicateTool      = "duplicate-tool"
	CodeSharedToolName     = "shared-tool-name"
	// CodeDuplicateResponse: a live server answered one request twice
	// (corpus/live/snap.Duplicate).
	CodeDuplicateResponse = "duplicate-response"
)

// Diagnostic is one problem found in a catalog. Server, Tool and Field say
// where; Field is a JSON path inside the tool ("inputSchema.properties").
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	// Client names the client profile a problem is specific to
	// ("claude@2.1.328"); empty for problems of the catalog itself.
	Client  string `json:"client,omitempty"`
	File    string `json:"file,omitempty"`
	Server  string `json:"server,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	if d.Client != "" {
		b.WriteString(d.Client)
		b.WriteString(": ")
	}
	if d.Server != "" || d.Tool != "" {
		fmt.Fprintf(&b, "%s/%s: ", d.Server, d.Tool)
	}
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	fmt.Fprintf(&b, " [%s]", d.Code)
	return b.String()
}

// validMCPToolName is the MCP naming rule: 1–128 characters of
// A-Za-z0-9_-. (MCP specification, "Tool names"), ^[A-Za-z0-9_.-]{1,128}$.
func validMCPToolName(s string) bool { return nameChars(s, 128) }

// ValidPropertyKey reports whether k is a property key the Anthropic API
// accepts, ^[a-zA-Z0-9_.-]{1,64}$ (claude spec §3); Claude Code skips a
// tool with any other key.
func ValidPropertyKey(k string) bool { return nameChars(k, 64) }

// nameChars reports whether s is 1 to max bytes of [A-Za-z0-9_.-].
func nameChars(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// LongDescription is the length in characters above which a description is
// reported as long: Claude Code 2.1.283 cuts at 2,048 (claude spec §3) and
// Grok Build at 2,046 (grok spec B.3).
const LongDescription = 2048

// suspicious are phrases and characters typical of prompt injection in
// tool metadata. They are reported, never removed: clients show them
// verbatim.
var suspicious = []string{
	"ignore previous instructions", "ignore all previous", "ignore the previous",
	"disregard previous", "disregard all", "<system>", "</system>", "<important>",
	"system prompt", "do not tell the user", "don't tell the user",
	"\u200b", "\u200c", "\u200d", "\u2060", "\u202e", "\u202d", "\ufeff",
}

// Validate checks every tool and server of the catalog and returns the
// diagnostics in catalog order. It never panics on any parsed input.
func Validate(c *Catalog) []Diagnostic {
	var out []Diagnostic
	names := sortToolNames(c)
	buf := make([]byte, 0, names.longest) // findSuspicious's scratch space
	i := 0                                // the tool's position in catalog order
	for _, s := range c.Servers {
		for _, t := range s.Tools {
			d := func(sev Severity, code, field, format string, args ...any) {
				out = append(out, Diagnostic{Severity: sev, Code: code, File: s.Source, Server: s.Name, Tool: t.Name,
					Field: field, Message: fmt.Sprintf(format, args...)})
			}
			i++
			if names.dup[i-1] {
				d(Warning, CodeDuplicateTool, "name", "tool name repeated in this server; clients keep the first definition (OpenCode keeps the last)")
				continue
			}
			if !validMCPToolName(t.Name) {
				d(Warning, CodeNameInvalid, "name", "name %q breaks the MCP naming rule (1-128 characters of A-Za-z0-9_-.); clients rewrite the other characters", clip(t.Name, 60))
			}
			switch {
			case t.HasDescription && strings.TrimSpace(t.Description) == "":
				d(Warning, CodeDescriptionEmpty, "description", "description is empty; only the name can be matched")
			case !t.HasDescription:
				d(Warning, CodeDescriptionEmpty, "description", "description is missing; only the name can be matched")
			}
			if n := utf8.RuneCountInString(t.Description); n > LongDescription {
				d(Warning, CodeDescriptionLong, "description", "description has %d characters; Claude Code 2.1.283 cuts it at 2,048 and Grok Build at 2,046", n)
			}
			if phrase := findSuspicious(t.Description, &buf); phrase != "" {
				d(Warning, CodeSuspiciousText, "description", "description contains %q, typical of prompt injection; clients show it verbatim", phrase)
			}
			out = append(out, validateSchema(s, t)...)
		}
	}
	// A name of several servers: once per server after the first, names
	// in sorted order.
	for _, g := range names.shared {
		first := ""
		for _, k := range names.order[g.start:g.end] {
			if names.dup[k] {
				continue
			}
			srv := c.Servers[names.server[k]].Name
			if first == "" {
				first = srv
				continue
			}
			out = append(out, Diagnostic{Severity: Info, Code: CodeSharedToolName, File: c.Server(srv).Source, Server: srv, Tool: g.name,
				Field: "name", Message: fmt.Sprintf("tool name also used by server %q; a bare name cannot tell them apart", first)})
		}
	}
	return out
}

// toolNames are a catalog's tools (by position in catalog order) sorted
// by name: a name repeated within a server (dup, after its first) and a
// name of several servers (shared) are tools next to each other, found
// without a map of every name.
type toolNames struct {
	order   []int32 // positions, by name, then catalog order
	server  []int32 // position -> server index
	dup     []bool  // position -> the name was already used in its server
	shared  []nameGroup
	longest int // bytes of the longest description
}

// nameGroup is order[start:end], the tools of one name.
type nameGroup struct {
	name       string
	start, end int
}

func sortToolNames(c *Catalog) toolNames {
	n := c.Len()
	tn := toolNames{order: make([]int32, n), server: make([]int32, 0, n), dup: make([]bool, n)}
	tools := make([]*Tool, 0, n)
	for si, s := range c.Servers {
		for _, t := range s.Tools {
			tn.order[len(tools)] = int32(len(tools))
			tools = append(tools, t)
			tn.server = append(tn.server, int32(si))
			tn.longest = max(tn.longest, len(t.Description))
		}
	}
	// By name, then position: the order a stable sort gives, with the
	// faster unstable one.
	slices.SortFunc(tn.order, func(a, b int32) int {
		if c := strings.Compare(tools[a].Name, tools[b].Name); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for start := 0; start < n; {
		name := tools[tn.order[start]].Name
		end, servers := start+1, 1
		for ; end < n && tools[tn.order[end]].Name == name; end++ {
			// Servers are in catalog order and a server's tools together:
			// a tool in its predecessor's server repeats the name there.
			if tn.server[tn.order[end]] == tn.server[tn.order[end-1]] {
				tn.dup[tn.order[end]] = true
			} else {
				servers++
			}
		}
		if servers > 1 {
			tn.shared = append(tn.shared, nameGroup{name, start, end})
		}
		start = end
	}
	return tn
}

func validateSchema(s *Server, t *Tool) []Diagnostic {
	var out []Diagnostic
	d := func(sev Severity, code, field, format string, args ...any) {
		out = append(out, Diagnostic{Severity: sev, Code: code, File: s.Source, Server: s.Name, Tool: t.Name,
			Field: field, Message: fmt.Sprintf(format, args...)})
	}
	sch := t.InputSchema
	switch sch.Kind {
	case ojson.Invalid:
		d(Error, CodeInputSchemaMissing, "inputSchema", "inputSchema is missing; Claude Code drops every tool of this server")
		return out
	case ojson.Object:
	default:
		d(Error, CodeInputSchemaType, "inputSchema", "inputSchema is a %s, not an object; Claude Code drops every tool of this server", sch.Kind)
		return out
	}
	props, hasProps := sch.Get("properties")
	if hasProps && props.Kind != ojson.Object {
		d(Error, CodePropertiesType, "inputSchema.properties", "properties is a %s, not an object; Claude Code drops every tool of this server", props.Kind)
	}
	if req, ok := sch.Get("required"); ok {
		if req.Kind != ojson.Array {
			d(Error, CodeRequiredType, "inputSchema.required", "required is a %s, not an array of strings; Claude Code drops every tool of this server", req.Kind)
		} else {
			for i, r := range req.Array() {
				if r.Kind != ojson.String {
					d(Error, CodeRequiredType, fmt.Sprintf("inputSchema.required[%d]", i), "required entry is a %s, not a string", r.Kind)
					continue
				}
				if props.Kind == ojson.Object {
					if _, ok := props.Get(r.Str()); !ok {
						d(Warning, CodeRequiredUnknown, fmt.Sprintf("inputSchema.required[%d]", i), "required names %q, which is not in properties", r.Str())
					}
				}
			}
		}
	}
	if props.Kind == ojson.Object && slices.ContainsFunc(props.Members(), func(m ojson.Member) bool { return !ValidPropertyKey(m.Key) }) {
		for _, k := range props.Keys() {
			if !ValidPropertyKey(k) {
				d(Error, CodePropertyKeyInvalid, "inputSchema.properties", "property key %q fails ^[a-zA-Z0-9_.-]{1,64}$; Claude Code skips this tool", clip(k, 60))
			}
		}
	}
	return out
}

// suspiciousASCII are the phrases of suspicious that are ASCII, in order.
var suspiciousASCII = func() (out []string) {
	for _, p := range suspicious {
		if ascii.Is(p) {
			out = append(out, p)
		}
	}
	return out
}()

// findSuspicious returns the first phrase of suspicious that s contains
// once lowercased, or "". buf is scratch space, reused between calls.
func findSuspicious(s string, buf *[]byte) string {
	if ascii.Is(s) {
		// Without non-ASCII text only the ASCII phrases can occur, and
		// ASCII case folding is what strings.ToLower does to them: s is
		// lowercased into buf, then searched for each phrase (strings.Index
		// looks for the first byte with vector instructions).
		b := ascii.AppendLower((*buf)[:0], s)
		*buf = b
		low := unsafe.String(unsafe.SliceData(b), len(b)) // b is not written while low is used
		for _, p := range suspiciousASCII {
			if strings.Contains(low, p) {
				return p
			}
		}
		return ""
	}
	// strings.ToLower, rune by rune into buf (an invalid byte becomes
	// U+FFFD there too).
	b := (*buf)[:0]
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	*buf = b
	low := unsafe.String(unsafe.SliceData(b), len(b)) // b is not written while low is used
	for _, p := range suspicious {
		if strings.Contains(low, p) {
			return p
		}
	}
	return ""
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
