package writer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/jsonl"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Line is one model call of a written-queries file (see the package doc).
type Line struct {
	ID     string
	Prompt string
	Client string
	// Call is the search tool's input as the model sent it; nil when the
	// model made no call (written as null).
	Call   json.RawMessage
	Expect []string
	Writer string
	// Tags are every other key, as JSON.
	Tags map[string]json.RawMessage
	// idNumber records that the id was written as a number.
	idNumber bool
	// File and Num locate the line when it was read from a file.
	File string
	Num  int
}

// MaxLineBytes bounds one line of a written-queries file (16 MiB).
const MaxLineBytes = 16 << 20

// ReadFile reads a written-queries file.
func ReadFile(path string) ([]Line, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(path, f)
}

// LineError is a malformed line: file, line and field.
type LineError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *LineError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: field %q: %s", e.File, e.Line, e.Field, e.Msg)
}

// Parse reads written-queries JSON Lines from r; file names the source in
// errors.
func Parse(file string, r io.Reader) ([]Line, error) {
	sc := jsonl.NewScanner(r, MaxLineBytes)
	var out []Line
	for sc.Scan() {
		n := sc.Line()
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 || t[0] == '#' || bytes.HasPrefix(t, []byte("//")) {
			continue
		}
		l, err := parseLine(t)
		if err != nil {
			err.File, err.Line = file, n
			return nil, err
		}
		l.File, l.Num = file, n
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &LineError{File: file, Line: sc.Line() + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

func parseLine(t []byte) (Line, *LineError) {
	if t[0] != '{' {
		return Line{}, &LineError{Msg: "not a JSON object"}
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(t))
	if err := dec.Decode(&m); err != nil {
		return Line{}, &LineError{Msg: "invalid JSON: " + err.Error()}
	}
	if dec.More() {
		return Line{}, &LineError{Msg: "more than one JSON value on the line"}
	}
	var l Line
	// id: string or number.
	raw, ok := m["id"]
	if !ok {
		return l, &LineError{Field: "id", Msg: "missing"}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		l.ID = s
	} else {
		var num json.Number
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&num); err != nil {
			return l, &LineError{Field: "id", Msg: "must be a string or a number, got " + clip(string(raw))}
		}
		l.ID, l.idNumber = num.String(), true
	}
	if l.ID == "" {
		return l, &LineError{Field: "id", Msg: "empty"}
	}
	str := func(key string, required bool, dst *string) *LineError {
		raw, ok := m[key]
		if !ok {
			if required {
				return &LineError{Field: key, Msg: "missing"}
			}
			return nil
		}
		if err := json.Unmarshal(raw, dst); err != nil || string(raw) == "null" {
			return &LineError{Field: key, Msg: "must be a string, got " + clip(string(raw))}
		}
		return nil
	}
	if err := str("prompt", true, &l.Prompt); err != nil {
		return l, err
	}
	if err := str("client", true, &l.Client); err != nil {
		return l, err
	}
	if strings.TrimSpace(l.Client) == "" || search.ParseClientID(l.Client).Name == "" {
		return l, &LineError{Field: "client", Msg: "empty"}
	}
	if err := str("writer", false, &l.Writer); err != nil {
		return l, err
	}
	raw, ok = m["call"]
	switch {
	case !ok:
		return l, &LineError{Field: "call", Msg: "missing (write null for a prompt with no call)"}
	case string(bytes.TrimSpace(raw)) == "null":
	case len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '{':
		l.Call = append(json.RawMessage(nil), bytes.TrimSpace(raw)...)
	default:
		return l, &LineError{Field: "call", Msg: "must be a JSON object (the search tool's input) or null, got " + clip(string(raw))}
	}
	if raw, ok := m["expect"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &l.Expect); err != nil {
			return l, &LineError{Field: "expect", Msg: "must be an array of strings, got " + clip(string(raw))}
		}
	}
	for k, v := range m {
		switch k {
		case "id", "prompt", "client", "call", "expect", "writer":
			continue
		}
		if l.Tags == nil {
			l.Tags = map[string]json.RawMessage{}
		}
		l.Tags[k] = v
	}
	return l, nil
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Marshal writes the line as one JSON object: id, prompt, client, call,
// expect, writer, then the tags sorted by key. No HTML escaping.
func (l Line) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	if l.idNumber {
		b.WriteString(l.ID)
	} else {
		b.WriteString(ojson.JSString(l.ID))
	}
	b.WriteString(`,"prompt":`)
	b.WriteString(ojson.JSString(l.Prompt))
	b.WriteString(`,"client":`)
	b.WriteString(ojson.JSString(l.Client))
	b.WriteString(`,"call":`)
	if l.Call == nil {
		b.WriteString("null")
	} else {
		var c bytes.Buffer
		if err := json.Compact(&c, l.Call); err != nil {
			b.Write(l.Call)
		} else {
			b.Write(c.Bytes())
		}
	}
	b.WriteString(`,"expect":[`)
	for i, e := range l.Expect {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(ojson.JSString(e))
	}
	b.WriteString(`]`)
	if l.Writer != "" {
		b.WriteString(`,"writer":`)
		b.WriteString(ojson.JSString(l.Writer))
	}
	keys := make([]string, 0, len(l.Tags))
	for k := range l.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteByte(',')
		b.WriteString(ojson.JSString(k))
		b.WriteByte(':')
		var c bytes.Buffer
		if err := json.Compact(&c, l.Tags[k]); err != nil {
			b.Write(l.Tags[k])
		} else {
			b.Write(c.Bytes())
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// WriteLines writes lines as JSON Lines.
func WriteLines(w io.Writer, lines []Line) error {
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.Write(l.Marshal())
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// QuerySet turns the lines into the prompts they cover, in order of first
// appearance, each with its expect lists merged (resolved against cat,
// errors naming the line) and its tags; the prompt's id is its "id" tag.
// Two lines with the same id and different prompts are an error.
func QuerySet(source string, lines []Line, cat *corpus.Catalog) (*corpus.QuerySet, error) {
	res := corpus.NewResolver(cat)
	qs := &corpus.QuerySet{Source: source}
	at := map[string]int{}
	for _, l := range lines {
		i, ok := at[l.ID]
		if !ok {
			i = len(qs.Queries)
			at[l.ID] = i
			q := corpus.Query{Text: l.Prompt, File: l.File, Line: l.Num, Tags: map[string]string{"id": l.ID}}
			for k, v := range l.Tags {
				var s string
				if json.Unmarshal(v, &s) == nil {
					q.Tags[k] = s
				} else {
					q.Tags[k] = string(v)
				}
			}
			qs.Queries = append(qs.Queries, q)
		}
		q := &qs.Queries[i]
		if q.Text != l.Prompt {
			return nil, &LineError{File: l.File, Line: l.Num, Field: "prompt",
				Msg: fmt.Sprintf("id %s has another prompt on line %d", strconv.Quote(l.ID), q.Line)}
		}
		for j, e := range l.Expect {
			if slices.Contains(q.ExpectRaw, e) {
				continue
			}
			id, err := res.Resolve(e)
			if err != nil {
				return nil, &LineError{File: l.File, Line: l.Num, Field: fmt.Sprintf("expect[%d]", j), Msg: err.Error()}
			}
			q.ExpectRaw = append(q.ExpectRaw, e)
			if !slices.Contains(q.Expect, id) {
				q.Expect = append(q.Expect, id)
			}
		}
	}
	return qs, nil
}
