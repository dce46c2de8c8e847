package ascii

import (
	"bytes"
	"strings"
	"testing"
)

// lowerNaive is the definition: A–Z become a–z, every other byte stays.
func lowerNaive(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func isNaive(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestEveryByteEveryPosition puts each of the 256 byte values at each
// position of a 19-byte text (two words and a tail) among uppercase
// letters and '@' and '[' (the neighbours of A and Z).
func TestEveryByteEveryPosition(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 19; pos++ {
			b := []byte(strings.Repeat("Z@A[", 5)[:19])
			b[pos] = byte(c)
			s := string(b)
			if got, want := string(AppendLower([]byte("Q"), s)), "Q"+lowerNaive(s); got != want {
				t.Fatalf("AppendLower(%q) = %q, want %q", s, got, want)
			}
			if got, want := Is(s), isNaive(s); got != want {
				t.Fatalf("Is(%q) = %v, want %v", s, got, want)
			}
		}
	}
}

func TestExamples(t *testing.T) {
	for _, tc := range []struct {
		in, lower string
		ascii     bool
	}{
		{"", "", true},
		{"Create INVOICE for Customer_42", "create invoice for customer_42", true},
		{"Ünïcode ÄÖÜ stays, ASCII goes", "Ünïcode ÄÖÜ stays, ascii goes", false}, // only A–Z change
		{"\x7f@[`{AZaz", "\x7f@[`{azaz", true},
	} {
		if got := string(AppendLower(nil, tc.in)); got != tc.lower {
			t.Errorf("AppendLower(%q) = %q, want %q", tc.in, got, tc.lower)
		}
		if got := Is(tc.in); got != tc.ascii {
			t.Errorf("Is(%q) = %v, want %v", tc.in, got, tc.ascii)
		}
	}
}

func FuzzLower(f *testing.F) {
	f.Add("Hello, WORLD — ÀÉ [Z]")
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		LowerInPlace(b)
		if want := lowerNaive(s); !bytes.Equal(b, []byte(want)) {
			t.Fatalf("LowerInPlace(%q) = %q, want %q", s, b, want)
		}
		if Is(s) != isNaive(s) {
			t.Fatalf("Is(%q) = %v", s, Is(s))
		}
	})
}

func BenchmarkLowerInPlace(b *testing.B) {
	text := []byte(strings.Repeat("List the OPEN pull requests of a GitHub repository. ", 200))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		LowerInPlace(text)
	}
}
