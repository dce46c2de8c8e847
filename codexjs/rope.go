package codexjs

import (
	"strings"
	"unicode/utf8"
)

// rope is a text held as pieces, so that a large printed output (a
// filter's JSON over 1,111 tools is over a megabyte) is truncated without
// ever being concatenated: §2 needs only its length, its line count, its
// first and last 20,000 bytes.
type rope struct {
	parts []string
	n     int
}

func (r *rope) add(s string) {
	if s != "" {
		r.parts = append(r.parts, s)
		r.n += len(s)
	}
}

func (r *rope) String() string {
	if len(r.parts) == 1 {
		return r.parts[0]
	}
	var b strings.Builder
	b.Grow(r.n)
	for _, p := range r.parts {
		b.WriteString(p)
	}
	return b.String()
}

// slice returns bytes [from, to).
func (r *rope) slice(from, to int) string {
	if from >= to {
		return ""
	}
	var b strings.Builder
	b.Grow(to - from)
	off := 0
	for _, p := range r.parts {
		end := off + len(p)
		if end > from && off < to {
			a, z := max(from-off, 0), min(to-off, len(p))
			b.WriteString(p[a:z])
		}
		off = end
		if off >= to {
			break
		}
	}
	return b.String()
}

func (r *rope) byteAt(i int) byte {
	off := 0
	for _, p := range r.parts {
		if i < off+len(p) {
			return p[i-off]
		}
		off += len(p)
	}
	return 0
}

// lines counts lines as Rust's str::lines() does.
func (r *rope) lines() int {
	if r.n == 0 {
		return 0
	}
	n := 0
	for _, p := range r.parts {
		n += strings.Count(p, "\n")
	}
	if r.byteAt(r.n-1) != '\n' {
		n++
	}
	return n
}

// truncateMiddleTokens is truncateMiddle for a token policy on a rope.
func (r *rope) truncateMiddleTokens(t int) string {
	maxBytes := t * BytesPerToken
	if r.n == 0 {
		return ""
	}
	if maxBytes > 0 && r.n <= maxBytes {
		return r.String()
	}
	marker := "…" + itoa(approxTokens(r.n-max(maxBytes, 0))) + " tokens truncated…"
	if maxBytes == 0 {
		return "…" + itoa(approxTokens(r.n)) + " tokens truncated…"
	}
	left := maxBytes / 2
	right := maxBytes - left
	prefixEnd := min(left, r.n)
	for prefixEnd > 0 && prefixEnd < r.n && !utf8.RuneStart(r.byteAt(prefixEnd)) {
		prefixEnd--
	}
	suffixStart := max(r.n-right, 0)
	for suffixStart < r.n && !utf8.RuneStart(r.byteAt(suffixStart)) {
		suffixStart++
	}
	suffixStart = max(suffixStart, prefixEnd)
	return r.slice(0, prefixEnd) + marker + r.slice(suffixStart, r.n)
}
