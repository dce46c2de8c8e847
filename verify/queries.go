package verify

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/toolfind/toolfind/internal/jsonl"
	"github.com/toolfind/toolfind/internal/userfile"
)

// MaxQueryLine bounds one line of a query file (1 MiB, the line ending
// not counted), as corpus.MaxQueryLine bounds bench's: a longer line is an
// error naming the file, the line and the limit.
const MaxQueryLine = 1 << 20

// ReadQueries reads a query file (see the package documentation).
func ReadQueries(path string) ([]Query, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseQueries(path, f)
}

// ParseQueries reads JSON Lines queries from r; name labels errors as
// name:line: field: problem. Blank lines and lines starting with '#' are
// skipped. An empty file is an error.
func ParseQueries(name string, r io.Reader) ([]Query, error) {
	// The scanner's limit counts the line ending ("\r\n").
	sc := jsonl.NewScanner(r, MaxQueryLine+2)
	var out []Query
	for sc.Scan() {
		line := sc.Line()
		if len(bytes.TrimSuffix(sc.Bytes(), []byte("\r"))) > MaxQueryLine {
			return nil, tooLong(name, line)
		}
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		q, err := parseQuery(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		q.Line = line
		out = append(out, q)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, tooLong(name, sc.Line()+1)
	} else if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, sc.Line()+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no queries", name)
	}
	return out, nil
}

func tooLong(name string, line int) error {
	return fmt.Errorf("%s:%d: line is longer than %d bytes (%d MiB), the limit for one query line", name, line, MaxQueryLine, MaxQueryLine>>20)
}

func parseQuery(b []byte) (Query, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return Query{}, fmt.Errorf("not a JSON object: %v", err)
	}
	var q Query
	raw, ok := m["query"]
	if !ok {
		return Query{}, fmt.Errorf(`"query": missing`)
	}
	if err := json.Unmarshal(raw, &q.Text); err != nil {
		return Query{}, fmt.Errorf(`"query": must be a string`)
	}
	for _, key := range []string{"max_results", "limit"} {
		raw, ok := m[key]
		if !ok || string(raw) == "null" {
			continue
		}
		var n int
		if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
			return Query{}, fmt.Errorf("%q: %s is not a whole number of 1 or more", key, raw)
		}
		q.Limit = n
		break
	}
	return q, nil
}
