package claude

import (
	"strings"
	"testing"

	"github.com/toolfind/toolfind/internal/ascii"
	"github.com/toolfind/toolfind/search"
)

// foldRef is what containsWordFold stands for: \bword\b in the lowercase
// copy of an ASCII text.
func foldRef(text, word string) bool {
	return search.ContainsWord(string(ascii.AppendLower(nil, text)), word)
}

// TestContainsWordFold: matches in any case of the text, whole words only,
// never a word with an uppercase or non-ASCII letter (the lowercase text
// has none).
func TestContainsWordFold(t *testing.T) {
	for _, tt := range []struct {
		text, word string
		want       bool
	}{
		{"Create an Invoice.", "invoice", true},
		{"INVOICES", "invoice", false}, // no \b after it
		{"Re-Invoice", "invoice", true},
		{"Re-Invoice", "re-invoice", true},
		{"Re-Invoice", "Invoice", false}, // the lowercase text has no I
		{"naive", "naïve", false},
		{"iI iI", "ii", true},
		{"Ii", "i", false},
		{"a_B c", "a_b", true},
		{"x<Name>y", "<name>", true}, // \b next to < and > needs a word character outside them
		{"<Name>", "<name>", false},
		{"x <Name>", "name>", false}, // the \b after > needs a word character next to it: the end has none
		{"", "", false},
		{"A", "", true},
		{"short", "shorter", false},
		{"Go Gopher go", "go", true},
		{"goGo go", "go", true},
	} {
		if got := containsWordFold(tt.text, tt.word); got != tt.want {
			t.Errorf("containsWordFold(%q, %q) = %v, want %v", tt.text, tt.word, got, tt.want)
		}
		if ref := foldRef(tt.text, tt.word); ref != tt.want {
			t.Errorf("reference(%q, %q) = %v, want %v", tt.text, tt.word, ref, tt.want)
		}
	}
}

// FuzzContainsWordFold holds containsWordFold to the lowercase copy it
// replaces, for any ASCII text and any word.
func FuzzContainsWordFold(f *testing.F) {
	f.Add("Create an Invoice.", "invoice")
	f.Add("Re-Invoice x-MS-version", "x-ms-version")
	f.Add("aAaAa", "aa")
	f.Add("<Name> v1.2", "v1.2")
	f.Fuzz(func(t *testing.T, text, word string) {
		if !ascii.Is(text) {
			text = strings.ToValidUTF8(text, "")
			text = strings.Map(func(r rune) rune { return r % 128 }, text)
		}
		if got, want := containsWordFold(text, word), foldRef(text, word); got != want {
			t.Fatalf("containsWordFold(%q, %q) = %v, reference %v", text, word, got, want)
		}
	})
}

// FuzzAppendJSLower holds the buffer lowercasing of non-ASCII descriptions
// to search.JSLower, and jsLowerLen to its length.
func FuzzAppendJSLower(f *testing.F) {
	for _, s := range []string{"", "İstanbul", "Naïve ÜNÏCODE σΣ", "\xff\xc4\xc4\xb0x", "\xe2\xc4\xb0", "ẞ K Ω Å", "\u0130\u0130"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := search.JSLower(s)
		if got := string(appendJSLower([]byte("x"), s)); got != "x"+want {
			t.Fatalf("appendJSLower(%q) = %q, want %q", s, got[1:], want)
		}
		if n := jsLowerLen(s); n != len(want) {
			t.Fatalf("jsLowerLen(%q) = %d, want %d", s, n, len(want))
		}
	})
}
