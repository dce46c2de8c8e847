package suggest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/ojson"
)

// Field is what an edit changes, least intrusive first (the order in which
// candidates are tried).
type Field string

// The fields an edit can change.
const (
	// Hint sets _meta["anthropic/searchHint"]: Claude Code searches it
	// (specs/claude.md §1 "Text fields"); no other client reads it.
	Hint Field = "search_hint"
	// Description puts words at the front of the description, where every
	// client's cut keeps them (Claude's listing cap, Codex's 1,000-byte
	// plugin cut, OpenCode code mode's catalog line, Grok's limits all cut
	// the end).
	Description Field = "description"
	// Title sets the top-level title (Codex's tool_search indexes it,
	// specs/codex.md §5.1 "Text indexed per MCP tool", item 5).
	Title Field = "title"
	// Name renames the tool: breaking, since callers use the name.
	Name Field = "name"
)

// HintKey is the _meta key of Claude Code's search hint
// (specs/claude.md §1 "Text fields").
const HintKey = "anthropic/searchHint"

// Change is one field of one tool set to a new value.
type Change struct {
	Field Field `json:"field"`
	// Before and After are the field's values ("" when absent).
	Before string `json:"before"`
	After  string `json:"after"`
	// Words are the words the change adds, as the prompts spell them.
	Words []string `json:"words"`
	// Sentence is the sentence a description change inserts (sentenceFor).
	Sentence string `json:"sentence,omitempty"`
	// Breaking marks a change that breaks the server's callers (a rename).
	Breaking bool `json:"breaking,omitempty"`
}

// toolRef locates a tool: its server and its position in the server's
// tools/list (names may repeat, positions do not).
type toolRef struct {
	server string
	index  int
}

func refOf(t *corpus.Tool) toolRef { return toolRef{t.Server, t.Index} }

// currentValue reads a field's present value from a tool.
func currentValue(t *corpus.Tool, f Field) string {
	switch f {
	case Hint:
		s, _ := t.MetaString(HintKey)
		return s
	case Description:
		return t.Description
	case Title:
		return t.Title
	case Name:
		return t.Name
	}
	return ""
}

// setMember returns the JSON object obj with member key set to value (raw
// JSON): the last member of that name is replaced in place, or a member is
// appended when there is none. Every other byte is kept.
func setMember(obj []byte, key string, value []byte) ([]byte, error) {
	d := ojson.NewDecoder(obj)
	start, end := -1, -1
	if d.Peek() != ojson.Object {
		return nil, fmt.Errorf("not a JSON object")
	}
	err := d.Object(func(k string) error {
		s := d.Start()
		if err := d.Skip(); err != nil {
			return err
		}
		if k == key {
			start, end = s, d.Offset()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if start >= 0 {
		b.Write(obj[:start])
		b.Write(value)
		b.Write(obj[end:])
		return b.Bytes(), nil
	}
	// Append before the closing brace.
	closeAt := bytes.LastIndexByte(obj[:d.Offset()], '}')
	inner := bytes.TrimSpace(obj[bytes.IndexByte(obj, '{')+1 : closeAt])
	b.Write(obj[:closeAt])
	if len(inner) > 0 {
		b.WriteByte(',')
	}
	k, _ := json.Marshal(key)
	b.Write(k)
	b.WriteByte(':')
	b.Write(value)
	b.Write(obj[closeAt:])
	return b.Bytes(), nil
}

// jsonString encodes s as a JSON string without HTML escaping, with the
// characters a terminal or editor would act on or hide (bidi overrides,
// other controls: safetext.Unsafe) written as \uXXXX escapes, so an edit
// never puts an invisible character into the author's file.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if safetext.IsSafe(string(out)) {
		return out
	}
	var e bytes.Buffer
	for _, r := range string(out) {
		switch {
		case !safetext.Unsafe(r):
			e.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&e, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&e, `\u%04x`, r)
		}
	}
	return e.Bytes()
}

// applyChange returns the tool's raw JSON with the change made.
func applyChange(raw []byte, c Change) ([]byte, error) {
	switch c.Field {
	case Hint:
		meta := []byte("{}")
		v, err := ojson.Parse(raw)
		if err != nil {
			return nil, err
		}
		if m, ok := v.Get("_meta"); ok && m.Kind == ojson.Object {
			// Keep the other _meta members: splice the existing object.
			d := ojson.NewDecoder(raw)
			err := d.Object(func(k string) error {
				s := d.Start()
				if err := d.Skip(); err != nil {
					return err
				}
				if k == "_meta" {
					meta = append([]byte(nil), raw[s:d.Offset()]...)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		meta, err = setMember(meta, HintKey, jsonString(c.After))
		if err != nil {
			return nil, err
		}
		return setMember(raw, "_meta", meta)
	case Description, Title, Name:
		return setMember(raw, string(c.Field), jsonString(c.After))
	}
	return nil, fmt.Errorf("unknown field %q", c.Field)
}

// reparse reads an edited tool object back as a tool of server at index,
// through the catalog parser, so every derived field (schemas, meta,
// annotations) is what loading the edited file would give.
func reparse(server string, index int, raw []byte) (*corpus.Tool, error) {
	var doc bytes.Buffer
	doc.WriteString(`{"server":`)
	doc.Write(jsonString(server))
	doc.WriteString(`,"tools":[`)
	doc.Write(raw)
	doc.WriteString("]}")
	servers, _, err := corpus.ParseCatalog("suggest", doc.Bytes())
	if err != nil {
		return nil, err
	}
	if len(servers) != 1 || len(servers[0].Tools) != 1 {
		return nil, fmt.Errorf("the edited tool did not read back as one tool")
	}
	t := servers[0].Tools[0]
	t.Index = index
	return t, nil
}

// editTool returns a copy of t with the changes made.
func editTool(t *corpus.Tool, changes []Change) (*corpus.Tool, error) {
	raw := []byte(t.Raw)
	for _, c := range changes {
		var err error
		if raw, err = applyChange(raw, c); err != nil {
			return nil, fmt.Errorf("tool %s: %s: %w", t.ID(), c.Field, err)
		}
	}
	nt, err := reparse(t.Server, t.Index, raw)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.ID(), err)
	}
	return nt, nil
}

// withTools returns a catalog sharing cat's servers except those holding a
// replaced tool, which are copied with the replacement in place. cat is not
// modified.
func withTools(cat *corpus.Catalog, repl map[toolRef]*corpus.Tool) *corpus.Catalog {
	out := &corpus.Catalog{Diagnostics: cat.Diagnostics, Servers: make([]*corpus.Server, len(cat.Servers))}
	for i, s := range cat.Servers {
		out.Servers[i] = s
		var tools []*corpus.Tool
		for j, t := range s.Tools {
			nt, ok := repl[refOf(t)]
			if !ok {
				continue
			}
			if tools == nil {
				tools = append([]*corpus.Tool(nil), s.Tools...)
			}
			tools[j] = nt
		}
		if tools != nil {
			cs := *s
			cs.Tools = tools
			out.Servers[i] = &cs
		}
	}
	return out
}

// humanize turns a tool name into words: "appconfig_kv_get" → "Appconfig
// kv get", "listIssues" → "List issues".
func humanize(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			b.WriteByte(' ')
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z' && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prevLower = r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
	}
	return upperFirst(strings.Join(strings.Fields(strings.ToLower(b.String())), " "))
}

// upperFirst capitalises the first letter of s (a whole rune: a name may
// start with a non-ASCII one).
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
