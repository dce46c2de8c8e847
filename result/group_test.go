package result

import (
	"math"
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// TestGroupIsEnglishPrinter checks group against the printer it replaced
// (golang.org/x/text/message in English, which result no longer imports so
// that every toolfind process does not initialise it).
func TestGroupIsEnglishPrinter(t *testing.T) {
	english := message.NewPrinter(language.English)
	for _, n := range []int{0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 65536, 99999, 100000,
		218237, 999999, 1000000, 1234567, 25000, 100000000, 1 << 40, math.MaxInt64,
		-1, -999, -1000, -1049, -1234567, math.MinInt64 + 1} {
		if got, want := group(n), english.Sprint(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}
