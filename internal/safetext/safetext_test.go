package safetext

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	cases := []struct {
		name, in, escape, block string
	}{
		{"plain ASCII is unchanged", "invoice_lookup", "invoice_lookup", "invoice_lookup"},
		{"letters, emoji, NBSP and backslash are unchanged", "Grüße 日本 🚀\u00a0C:\\x1b", "Grüße 日本 🚀\u00a0C:\\x1b", "Grüße 日本 🚀\u00a0C:\\x1b"},
		{"terminal title + clear screen", "\x1b]0;TITLE\x07\x1b[2J", `\x1b]0;TITLE\x07\x1b[2J`, `\x1b]0;TITLE\x07\x1b[2J`},
		{"newline and tab: Escape escapes, Block keeps", "a\nb\tc", `a\nb\tc`, "a\nb\tc"},
		{"CR and BS always escaped", "ok\rFAIL\b", `ok\rFAIL\x08`, `ok\rFAIL\x08`},
		{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7f`, `a\x00b\x7f`},
		{"C1 control NEL and CSI as runes", "a\u0085b\u009b", `a\u0085b\u009b`, `a\u0085b\u009b`},
		{"bidi override and isolate", "tool\u202eexe.txt\u2066x\u2069", `tool\u202eexe.txt\u2066x\u2069`, `tool\u202eexe.txt\u2066x\u2069`},
		{"zero-width space, joiner, BOM, soft hyphen", "a\u200bb\u200dc\ufeffd\u00ade", `a\u200bb\u200dc\ufeffd\u00ade`, `a\u200bb\u200dc\ufeffd\u00ade`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"Hangul filler and variation selector", "a\u3164b\ufe0fc", `a\u3164b\ufe0fc`, `a\u3164b\ufe0fc`},
		{"tag characters spell hidden text", "x\U000e0041\U000e007f", `x\U000e0041\U000e007f`, `x\U000e0041\U000e007f`},
		{"invalid UTF-8 bytes", "a\xffb\xc3", `a\xffb\xc3`, `a\xffb\xc3`},
		{"encoded surrogate is invalid UTF-8", "\xed\xa0\x80", `\xed\xa0\x80`, `\xed\xa0\x80`},
		{"empty", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Escape(c.in); got != c.escape {
				t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.escape)
			}
			if got := Block(c.in); got != c.block {
				t.Errorf("Block(%q) = %q, want %q", c.in, got, c.block)
			}
			if got, want := IsSafe(c.in), c.in == c.escape; got != want {
				t.Errorf("IsSafe(%q) = %v, want %v", c.in, got, want)
			}
		})
	}
}

func TestHTML(t *testing.T) {
	in := "<b onclick=\"x\">&'\x1b[2J\u202e</b>"
	want := `&lt;b onclick=&#34;x&#34;&gt;&amp;&#39;\x1b[2J\u202e&lt;/b&gt;`
	if got := HTML(in); got != want {
		t.Errorf("HTML(%q) = %q, want %q", in, got, want)
	}
}

func TestUnsafe(t *testing.T) {
	unsafe := []rune{0, 0x1b, '\n', '\t', 0x7f, 0x80, 0x9f, 0xad, 0x34f, 0x61c, 0x115f, 0x180e, 0x200b, 0x200e, 0x202a, 0x2060, 0x2066, 0x3164, 0xfe00, 0xfeff, 0xfff9, 0xffa0, 0x110bd, 0x1d173, 0xe0001, 0xe0100, 0xe0fff}
	safe := []rune{' ', '~', '\\', 0xa0, 0xac, 0xae, 0xe9, 0x2014, 0x3000, 0x1f680, 0xe000, 0xfffd}
	for _, r := range unsafe {
		if !Unsafe(r) {
			t.Errorf("Unsafe(%U) = false, want true", r)
		}
	}
	for _, r := range safe {
		if Unsafe(r) {
			t.Errorf("Unsafe(%U) = true, want false", r)
		}
	}
}

func TestWriterSplitRunes(t *testing.T) {
	// "é" is C3 A9 and U+202E is E2 80 AE: split both across writes.
	var out bytes.Buffer
	w := NewWriter(&out)
	for _, chunk := range []string{"caf\xc3", "\xa9 \xe2", "\x80", "\xae|\x1b\n", "\xe2\x80"} {
		if n, err := w.WriteString(chunk); err != nil || n != len(chunk) {
			t.Fatalf("Write(%q) = %d, %v", chunk, n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "café \\u202e|\\x1b\n\\xe2\\x80"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

func TestWriterKeepsFirstError(t *testing.T) {
	w := NewWriter(&failWriter{n: 1})
	if _, err := w.WriteString("ok\n"); err != nil {
		t.Fatalf("first write: %v", err)
	}
	if _, err := w.WriteString("fails"); err == nil || err.Error() != "disk full" {
		t.Fatalf("second write error = %v, want disk full", err)
	}
	if _, err := w.WriteString("again"); err == nil || err.Error() != "disk full" {
		t.Fatalf("third write error = %v, want disk full", err)
	}
	if err := w.Flush(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Flush error = %v, want disk full", err)
	}
}

// checkOutput fails when out could reach a terminal as anything but
// printable text: invalid UTF-8, or an unsafe rune other than the layout
// ones kept.
func checkOutput(t *testing.T, fn, in, out string, keepLayout bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%s(%q) = %q is not valid UTF-8", fn, in, out)
	}
	for _, r := range out {
		if keepLayout && (r == '\n' || r == '\t') {
			continue
		}
		if Unsafe(r) {
			t.Fatalf("%s(%q) = %q contains %U", fn, in, out, r)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]0;T\x07", "a\nb\tc\r", "\u202e\u200b\ufeff", "\xff\xc3", "\U000e0041", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, b := Escape(s), Block(s)
		checkOutput(t, "Escape", s, e, false)
		checkOutput(t, "Block", s, b, true)
		if strings.ContainsAny(e, "\n\t") {
			t.Fatalf("Escape(%q) = %q keeps a newline or tab", s, e)
		}
		if Escape(e) != e || Block(b) != b {
			t.Fatalf("escaping is not idempotent on %q", s)
		}
		if IsSafe(s) != (e == s) {
			t.Fatalf("IsSafe(%q) = %v but Escape = %q", s, IsSafe(s), e)
		}
		if Escape(b) != e {
			t.Fatalf("Escape(Block(%q)) = %q, want Escape = %q", s, Escape(b), e)
		}
	})
}

func FuzzWriter(f *testing.F) {
	f.Add("caf\xc3\xa9 \u202e\x1b\n", uint8(4))
	f.Add("\xe2\x80", uint8(1))
	f.Fuzz(func(t *testing.T, s string, step uint8) {
		n := int(step%7) + 1
		var out bytes.Buffer
		w := NewWriter(&out)
		for i := 0; i < len(s); i += n {
			if _, err := w.WriteString(s[i:min(i+n, len(s))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		checkOutput(t, "Writer", s, out.String(), true)
		if out.String() != Block(s) {
			t.Fatalf("Writer in chunks of %d wrote %q, Block(%q) = %q", n, out.String(), s, Block(s))
		}
	})
}

func BenchmarkEscape(b *testing.B) {
	clean := strings.Repeat("Look up an invoice by its number and return the customer, amount and due date. ", 10)
	hostile := strings.Repeat("Look up\x1b[2J an \u202einvoice\u200b by number.\n", 20)
	b.Run("clean", func(b *testing.B) {
		b.SetBytes(int64(len(clean)))
		for b.Loop() {
			_ = Escape(clean)
		}
	})
	b.Run("hostile", func(b *testing.B) {
		b.SetBytes(int64(len(hostile)))
		for b.Loop() {
			_ = Escape(hostile)
		}
	})
}
