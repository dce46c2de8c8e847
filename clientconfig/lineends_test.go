package clientconfig

import "testing"

// TestLineIndexLineEnds: the line of an offset counts "\n", "\r\n" (once)
// and a lone "\r" (old Mac files) as line ends: offset 9, the "x" of the
// third line, is on line 3 whatever the line ends.
func TestLineIndexLineEnds(t *testing.T) {
	for _, c := range []struct{ data, end string }{{"{\n \"a\":\n x}", "\\n"}, {"{\r\n\"a\":\r\nx}", "\\r\\n"}, {"{\r \"a\":\r x}", "\\r"}} {
		off := len(c.data) - 2
		if got := lineIndex([]byte(c.data), off); got != 3 {
			t.Errorf("%s: line %d, want 3", c.end, got)
		}
	}
}
