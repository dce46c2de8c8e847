package search

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/collate"
)

// TestContainsWord freezes what Node's new RegExp("\\b" + escape(w) + "\\b").test(t)
// returned for each pair (node -e, v20).
func TestContainsWord(t *testing.T) {
	tests := []struct {
		text, word string
		want       bool
	}{
		{"get the invoice", "invoice", true},
		{"invoices", "invoice", false}, // seed: "invoice" does not match "invoices"
		{"re-invoice", "invoice", true},
		{"x_invoice", "invoice", false}, // '_' is a word character
		{"one-shot", "-", true},         // \b-\b needs word characters around '-'
		{"a - b", "-", false},
		{"a-b", "-", true},
		{"c++ code", "c++", false}, // after '+' comes ' ': no \b
		{"use c++", "c++", false},
		{"c++", "c++", false},
		{"(foo)", "(foo)", false},
		{"a(foo)b", "(foo)", true},
		{"naïve", "na", true}, // non-ASCII is not \w
		{"naïve", "ve", true},
		{"", "x", false},
		{"invoice.", "invoice", true},
		{"e2e tests", "e2e", true},
		{"$var", "$var", false},
		{"a $var", "$var", false},
		{"x$var", "$var", true},
		{"aaa invoice", "invoice", true}, // a later occurrence counts
		{"invoicex invoice", "invoice", true},
	}
	for _, tt := range tests {
		if got := ContainsWord(tt.text, tt.word); got != tt.want {
			t.Errorf("ContainsWord(%q, %q) = %v, want %v", tt.text, tt.word, got, tt.want)
		}
	}
}

// reference: Go's regexp \b is ASCII-based like JavaScript's without the u flag.
func referenceContainsWord(text, word string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`).MatchString(text)
}

func FuzzContainsWord(f *testing.F) {
	f.Add("get the invoice", "invoice")
	f.Add("one-shot", "-")
	f.Add("a(foo)b", "(foo)")
	f.Fuzz(func(t *testing.T, text, word string) {
		if word == "" || !validUTF8(text) || !validUTF8(word) {
			return
		}
		if got, want := ContainsWord(text, word), referenceContainsWord(text, word); got != want {
			t.Fatalf("ContainsWord(%q, %q) = %v, regexp says %v", text, word, got, want)
		}
	})
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// TestLocaleCompare freezes the order Node's Array.prototype.sort with
// localeCompare gave for these names (node -e, v20, ICU root).
func TestLocaleCompare(t *testing.T) {
	in := []string{"a_b", "a-b", "a.b", "ab", "aB", "Ab", "AB", "a1", "a10", "a2", "a_1", "a-1", "A_b",
		"mcp__x__Tool", "mcp__x__tool", "mcp__x__tool_2", "mcp__x__tool-2", "mcp__x__tool.2", "mcp__x__tool2",
		"mcp__x__tool10", "mcp__x__toolA", "mcp__x__toola", "z", "Z", "_z", "-z", ".z", "0z", "9z", "é", "e", "f"}
	want := []string{"_z", "-z", ".z", "0z", "9z", "a_1", "a_b", "A_b", "a-1", "a-b", "a.b", "a1", "a10", "a2",
		"ab", "aB", "Ab", "AB", "e", "é", "f", "mcp__x__tool", "mcp__x__Tool", "mcp__x__tool_2", "mcp__x__tool-2",
		"mcp__x__tool.2", "mcp__x__tool10", "mcp__x__tool2", "mcp__x__toola", "mcp__x__toolA", "z", "Z"}
	got := append([]string(nil), in...)
	SortLocale(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("SortLocale:\n got %v\nwant %v", got, want)
	}
	// The claude spec §1 example chain.
	chain := []string{"mcp__a__x", "mcp__A__x", "mcp__a_b__x", "mcp__a-b__x", "mcp__a.b__x", "mcp__ab__x"}
	for i := 1; i < len(chain); i++ {
		if LocaleCompare(chain[i-1], chain[i]) != -1 || LocaleCompare(chain[i], chain[i-1]) != 1 {
			t.Errorf("want %s < %s", chain[i-1], chain[i])
		}
	}
	if LocaleCompare("same", "same") != 0 {
		t.Error("equal strings should compare 0")
	}
	keys := LocaleKeys(want)
	for i := 1; i < len(keys); i++ {
		if string(keys[i-1]) > string(keys[i]) {
			t.Errorf("key order breaks between %q and %q", want[i-1], want[i])
		}
	}
}

func TestTruncation(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string, int) (string, bool)
		in   string
		n    int
		want string
		cut  bool
	}{
		{"runes fits", TruncateRunes, "héllo", 5, "héllo", false},
		{"runes cut", TruncateRunes, "héllo", 2, "hé", true},
		{"runes zero", TruncateRunes, "abc", 0, "", true},
		{"runes negative", TruncateRunes, "abc", -1, "", true},
		{"bytes fits", TruncateBytes, "héllo", 6, "héllo", false},
		{"bytes inside é backs off", TruncateBytes, "héllo", 2, "h", true}, // é is 2 bytes at 1..2
		{"bytes after é", TruncateBytes, "héllo", 3, "hé", true},
		{"utf16 fits", SliceUTF16, "a😀b", 4, "a😀b", false}, // 😀 is 2 units
		{"utf16 splits pair", SliceUTF16, "a😀b", 2, "a\uFFFD", true},
		{"utf16 before pair", SliceUTF16, "a😀b", 1, "a", true},
		{"utf16 after pair", SliceUTF16, "a😀b", 3, "a😀", true},
	}
	for _, tt := range tests {
		got, cut := tt.fn(tt.in, tt.n)
		if got != tt.want || cut != tt.cut {
			t.Errorf("%s: (%q, %d) = %q, %v; want %q, %v", tt.name, tt.in, tt.n, got, cut, tt.want, tt.cut)
		}
	}
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"a😀é", 4},                          // 1 + 2 + 1
		{"create_invoice(input: {}) x", 27}, // ASCII: a unit a byte
		{"", 0},
		{"a\xffb\xe2\x82", 5},     // each invalid byte is a U+FFFD, 1 unit
		{"0123456789abcdef😀", 18}, // past the 8-byte ASCII words
	} {
		if n := UTF16Len(tc.in); n != tc.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tc.in, n, tc.want)
		}
	}
	if CeilDiv(5, 2) != 3 || CeilDiv(4, 2) != 2 || CeilDiv(0, 3) != 0 {
		t.Error("CeilDiv")
	}
}

func BenchmarkContainsWord(b *testing.B) {
	text := strings.Repeat("lorem ipsum dolor sit amet ", 40) + "invoice"
	for b.Loop() {
		ContainsWord(text, "invoice")
	}
}

func BenchmarkLocaleCompare(b *testing.B) {
	for b.Loop() {
		LocaleCompare("mcp__github__create_pull_request", "mcp__github__create_pull_request_review")
	}
}

func TestSanitizeNameAndJSLower(t *testing.T) {
	tests := []struct{ in, want string }{
		{"invoice_lookup", "invoice_lookup"},
		{"close-ticket", "close-ticket"},
		{"get.item", "get_item"},
		{"unicode_naïve_tool", "unicode_na_ve_tool"}, // claude spec §2, observed
		{"e_😀_x", "e____x"},                          // two UTF-16 units, two "_"
		{"a b/c", "a_b_c"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := SanitizeName(tt.in); got != tt.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	lower := []struct{ in, want string }{
		{"FindInvoice", "findinvoice"},
		{"İstanbul", "i\u0307stanbul"}, // JavaScript's SpecialCasing, not Go's "istanbul"
		{"ÀÉÎ", "àéî"},
	}
	for _, tt := range lower {
		if got := JSLower(tt.in); got != tt.want {
			t.Errorf("JSLower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJSTrim(t *testing.T) {
	// U+FEFF is JavaScript whitespace, U+0085 is not (Go's unicode.IsSpace
	// says the opposite for both).
	if got := JSTrim("\ufeff\u00a0 x \u2028\t"); got != "x" {
		t.Errorf("JSTrim = %q", got)
	}
	if got := JSTrim("\u0085x\u0085"); got != "\u0085x\u0085" {
		t.Errorf("JSTrim trimmed U+0085: %q", got)
	}
}

// FuzzLocaleKeys: comparing collation keys byte-wise gives LocaleCompare's
// answer (what SortLocale relies on for long lists), ties included.
func FuzzLocaleKeys(f *testing.F) {
	f.Add("mcp__x__tool", "mcp__x__Tool")
	f.Add("a_b", "a-b")
	f.Add("é", "e\u0301")
	f.Add("same", "same")
	f.Fuzz(func(t *testing.T, a, b string) {
		k := LocaleKeys([]string{a, b})
		if got, want := bytes.Compare(k[0], k[1]), LocaleCompare(a, b); got != want {
			t.Fatalf("keys compare %d, LocaleCompare(%q, %q) = %d", got, a, b, want)
		}
	})
}

// TestSortLocaleLong: past 32 names SortLocale sorts on keys; the order
// is the comparison sort's, stable for equal names.
func TestSortLocaleLong(t *testing.T) {
	base := []string{"a_b", "a-b", "a.b", "ab", "aB", "Ab", "AB", "a1", "a10", "a2", "é", "e", "e\u0301", "_z", "Z"}
	var in []string
	for i := 0; i < 5; i++ {
		in = append(in, base...)
	}
	want := append([]string(nil), in...)
	sort.SliceStable(want, func(i, j int) bool { return LocaleCompare(want[i], want[j]) < 0 })
	got := append([]string(nil), in...)
	SortLocale(got)
	if !slices.Equal(got, want) {
		t.Errorf("SortLocale over %d names:\n got %q\nwant %q", len(in), got, want)
	}
}

// TestASCIINameKeys compares the collator-free keys of names made of
// [A-Za-z0-9_-] with the collator on every pair of strings up to three
// characters over a sample of that alphabet.
func TestASCIINameKeys(t *testing.T) {
	alpha := []string{"_", "-", "0", "9", "a", "A", "b", "B", "z", "Z"}
	words := []string{""}
	prev := []string{""}
	for n := 0; n < 3; n++ {
		var next []string
		for _, p := range prev {
			for _, c := range alpha {
				next = append(next, p+c)
			}
		}
		words = append(words, next...)
		prev = next
	}
	keys := asciiNameKeys(words)
	if keys == nil {
		t.Fatal("no keys for names of [A-Za-z0-9_-]")
	}
	if asciiNameKeys([]string{"a", "a.b"}) != nil {
		t.Fatal(`keys for "a.b", outside [A-Za-z0-9_-]`)
	}
	c := collators.Get().(*collate.Collator)
	defer collators.Put(c)
	for i, a := range words {
		for j, b := range words {
			if got, want := bytes.Compare(keys[i], keys[j]), c.CompareString(a, b); got != want {
				t.Fatalf("keys compare %d, collator(%q, %q) = %d", got, a, b, want)
			}
		}
	}
}

// TestASCIILocaleCompare holds the fast rule to the collator: every pair
// of strings of up to 3 characters over a sample alphabet (1,111 strings,
// all pairs), then random longer ones over the whole fast alphabet.
func TestASCIILocaleCompare(t *testing.T) {
	alpha := "aAbBzZ09_-."
	ss := []string{""}
	for n, prev := 0, []string{""}; n < 3; n++ {
		var next []string
		for _, p := range prev {
			for i := 0; i < len(alpha); i++ {
				next = append(next, p+alpha[i:i+1])
			}
		}
		ss, prev = append(ss, next...), next
	}
	full := "_-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		b := make([]byte, 1+r.IntN(12))
		for i := range b {
			b[i] = full[r.IntN(len(full))]
		}
		ss = append(ss, string(b))
	}
	require.Len(t, ss, 1+11+121+1331+3000)
	keys := LocaleKeys(ss)
	bad := 0
	for i := range ss {
		require.True(t, ASCIICollatable(ss[i]), ss[i])
		for j := range ss {
			if i > 1500 && j > 1500 && (i+j)%7 != 0 {
				continue // a sample of the random pairs
			}
			if got, want := ASCIILocaleCompare(ss[i], ss[j]), bytes.Compare(keys[i], keys[j]); got != want && bad < 10 {
				bad++
				t.Errorf("ASCIILocaleCompare(%q, %q) = %d, collator %d", ss[i], ss[j], got, want)
			}
		}
	}
}
