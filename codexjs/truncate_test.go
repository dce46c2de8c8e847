package codexjs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// W is §2.4's W(n, l): the warning header.
func W(n, l int) string { return warningHeader(n, l) }

const (
	s60 = "this is an example of a long output that should be truncated"
	s81 = s60 + "\nalso some other line"
)

// §2.4 "Code mode" and "formatted_truncate_text" vectors.
func TestFormattedTruncateText(t *testing.T) {
	if len(s60) != 60 || len(s81) != 81 {
		t.Fatal("fixture lengths")
	}
	tests := []struct {
		in   string
		p    policy
		want string
	}{
		// 40 bytes, Tokens(5): 20-byte budget, left 10 right 10, K = ceil((40−20)/4) = 5.
		{strings.Repeat("0123456789", 4), policy{n: 5}, W(10, 1) + "0123456789…5 tokens truncated…0123456789"},
		// Bytes(1): left 0, right 1; 13 of 14 characters removed.
		{"example output", policy{bytes: true, n: 1}, W(4, 1) + "…13 chars truncated…t"},
		// Tokens(1): 4 bytes, left 2 right 2, K = ceil((14−4)/4) = 3.
		{"example output", policy{n: 1}, W(4, 1) + "ex…3 tokens truncated…ut"},
		{"example output", policy{n: 10}, "example output"},
		{"example output", policy{bytes: true, n: 20}, "example output"},
		// Tokens(5): 20 bytes, K = ceil(40/4) = 10.
		{s60, policy{n: 5}, W(15, 1) + "this is an…10 tokens truncated… truncated"},
		// Bytes(30): left 15 right 15, 30 characters removed.
		{s60, policy{bytes: true, n: 30}, W(15, 1) + "this is an exam…30 chars truncated…ld be truncated"},
		{s81, policy{bytes: true, n: 30}, W(21, 2) + "this is an exam…51 chars truncated…some other line"},
		// Tokens(10): 40 bytes, K = ceil(41/4) = 11.
		{s81, policy{n: 10}, W(21, 2) + "this is an example o…11 tokens truncated…also some other line"},
	}
	for _, tt := range tests {
		if got := formattedTruncateText(tt.in, tt.p); got != tt.want {
			t.Errorf("%q %+v:\n got %q\nwant %q", tt.in, tt.p, got, tt.want)
		}
	}
}

// §2.4 UTF-8 vectors: characters straddling a boundary are dropped.
func TestTruncateUTF8(t *testing.T) {
	s := strings.Repeat("😀", 10) + "\nsecond line with text\n"
	if len(s) != 63 {
		t.Fatal(len(s))
	}
	// Tokens(8): 32 bytes, left 16 = four emoji, right 16; K = ceil(31/4) = 8.
	if got, want := truncateMiddle(s, policy{n: 8}), "😀😀😀😀…8 tokens truncated… line with text\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if got := approxTokens(len(s)); got != 16 {
		t.Errorf("original count %d", got)
	}
	// Bytes(20): left 10 (two emoji), right 10; 21 characters removed.
	if got, want := truncateMiddle(s, policy{bytes: true, n: 20}), "😀😀…21 chars truncated…with text\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	// Tokens(0): only the marker, K = ceil(6/4) = 2.
	if got, want := truncateMiddle("abcdef", policy{n: 0}), "…2 tokens truncated…"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if got := approxTokens(len("abcdef")); got != 2 {
		t.Errorf("original count %d", got)
	}
}

// §2.4 split_string vectors: (removed, prefix, suffix).
func TestSplitString(t *testing.T) {
	e5 := strings.Repeat("😀", 5)
	tests := []struct {
		s           string
		left, right int
		removed     int
		prefix, suf string
	}{
		{"hello world", 5, 5, 1, "hello", "world"},
		{"abc", 0, 0, 3, "", ""},
		{"abcdef", 3, 0, 3, "abc", ""},
		{"abcdef", 0, 3, 3, "", "def"},
		{"abcdef", 4, 4, 0, "abcd", "ef"}, // suffix clamped to the prefix end
		{"😀abc😀", 5, 5, 1, "😀a", "c😀"},
		{e5, 1, 1, 5, "", ""},
		{e5, 7, 7, 3, "😀", "😀"},
		{e5, 8, 8, 1, "😀😀", "😀😀"},
	}
	for _, tt := range tests {
		r, p, s := splitString(tt.s, tt.left, tt.right)
		if r != tt.removed || p != tt.prefix || s != tt.suf {
			t.Errorf("split(%q,%d,%d) = (%d,%q,%q), want (%d,%q,%q)", tt.s, tt.left, tt.right, r, p, s, tt.removed, tt.prefix, tt.suf)
		}
	}
}

// §2.4 item merging (the text-only cases; images are not simulated).
func TestTruncateTextItems(t *testing.T) {
	tests := []struct {
		items []string
		p     policy
		want  []string
	}{
		// 17 joined bytes, Tokens(2): 8 bytes, K = ceil(9/4) = 3.
		{[]string{"abcdefgh", "ijklmnop"}, policy{n: 2}, []string{W(5, 2) + "abcd…3 tokens truncated…mnop"}},
		// An empty leading item adds no separator: "abc", 3 bytes.
		{[]string{"", "abc"}, policy{bytes: true, n: 0}, []string{W(1, 1) + "…3 chars truncated…"}},
		// Under budget: the items come back unchanged and separate.
		{[]string{"a", "b"}, policy{n: 1}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		got := truncateTextItems(tt.items, tt.p)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: got %q want %q", tt.items, got, tt.want)
		}
	}
}

// The second cap (§0): 1.2 × 10,000 = 12,000 tokens over the items, the
// 47-byte header (12 tokens) included; the first item that does not fit
// is middle-cut to the 11,988 tokens left, without a warning header.
func TestSecondCap(t *testing.T) {
	header := "Script completed\nWall time 0.0 seconds\nOutput:\n"
	big := strings.Repeat("y", 60000)
	got := secondCap([]string{header, big, "dropped"}, DefaultMaxOutputTokens)
	if len(got) != 2 || got[0] != header {
		t.Fatalf("got %d items", len(got))
	}
	// 11,988 tokens = 47,952 bytes; K = ceil((60,000 − 47,952)/4) = 3,012.
	want := strings.Repeat("y", 23976) + "…3012 tokens truncated…" + strings.Repeat("y", 23976)
	if got[1] != want {
		t.Errorf("cut item is %d bytes", len(got[1]))
	}
	small := secondCap([]string{header, "a", "b"}, DefaultMaxOutputTokens)
	if len(small) != 3 {
		t.Errorf("items that fit must stay: %q", small)
	}
}

func TestRustLineCount(t *testing.T) {
	for s, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\n\n": 2, "\n": 1} {
		if got := rustLineCount(s); got != want {
			t.Errorf("%q: %d want %d", s, got, want)
		}
	}
}

func FuzzTruncateMiddle(f *testing.F) {
	f.Add("example output", 1, false)
	f.Add(strings.Repeat("😀", 10)+"\nsecond", 8, true)
	f.Fuzz(func(t *testing.T, s string, n int, bytes bool) {
		if n < 0 || n > 1<<20 || !utf8.ValidString(s) {
			return
		}
		p := policy{bytes: bytes, n: n}
		got := truncateMiddle(s, p)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 from %q", s)
		}
		if len(s) <= p.byteBudget() && s != "" && n > 0 && got != s {
			t.Fatalf("fitting text changed")
		}
		_, pre, suf := splitString(s, p.byteBudget()/2, p.byteBudget()-p.byteBudget()/2)
		if len(pre)+len(suf) > p.byteBudget() || !strings.HasPrefix(s, pre) || !strings.HasSuffix(s, suf) {
			t.Fatalf("split broke the budget or the text: %q %q", pre, suf)
		}
	})
}

// FuzzRopeMatchesString: truncating pieces (the native strategies' path)
// gives exactly what truncating the joined text gives.
func FuzzRopeMatchesString(f *testing.F) {
	f.Add("abc😀def", "ghi\njkl", 3, 2)
	f.Add(strings.Repeat("é", 40), "", 5, 1)
	f.Fuzz(func(t *testing.T, a, b string, cut, tokens int) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) || tokens < 0 || tokens > 1000 || cut < 0 {
			return
		}
		cut = min(cut, len(a))
		items := [][]string{{a[:cut], a[cut:]}, {b}}
		var flat []string
		for _, it := range items {
			if s := strings.Join(it, ""); s != "" {
				flat = append(flat, s)
			}
		}
		var pieces [][]string
		for _, it := range items {
			if strings.Join(it, "") != "" {
				pieces = append(pieces, it)
			}
		}
		got := strings.Join(truncateRopeItems(pieces, tokens), "\x00")
		want := strings.Join(truncateTextItems(flat, policy{n: tokens}), "\x00")
		if got != want {
			t.Fatalf("rope %q\nstring %q", got, want)
		}
	})
}
