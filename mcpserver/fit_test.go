package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/codexjs"
	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/opencode"
	"github.com/toolfind/toolfind/result"
)

// TestSmallestCap: the budget is the smallest of the clients' result caps
// (in bytes of ASCII text, where characters, bytes and UTF-16 units
// agree), so a client whose cap changes below it fails here.
func TestSmallestCap(t *testing.T) {
	caps := map[string]int{
		"grok":     result.GrokMaxOutputBytes,                              // 20,000 bytes
		"copilot":  copilot.LargeOutputBytes,                               // 20,480 bytes
		"codex":    codexjs.DefaultMaxOutputTokens * codexjs.BytesPerToken, // 40,000 bytes of script output
		"gemini":   gemini.TruncateThreshold,                               // 40,000 characters
		"claude":   result.ClaudeMaxResultChars,                            // 50,000 characters
		"opencode": opencode.MaxBytes,                                      // 51,200 bytes
	}
	smallest := "grok"
	for c, n := range caps {
		if n < caps[smallest] {
			smallest = c
		}
	}
	assert.Equal(t, "grok", smallest)
	assert.Equal(t, caps[smallest], MaxResultBytes+noteRoom)
	assert.Less(t, MaxResultLines, opencode.MaxLines) // 1,900 < 2,000 lines
}

// deliveries is what each client's model receives of one text block.
func deliveries(t *testing.T, text string) []result.Delivery {
	t.Helper()
	data, err := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": text}}})
	require.NoError(t, err)
	r, err := result.Parse("result", data)
	require.NoError(t, err)
	ds, err := result.Deliver(result.Input{Result: r}, result.Options{})
	require.NoError(t, err)
	return ds
}

func TestFit(t *testing.T) {
	// 19,500 = 20,000 − 500 bytes: the most a cut result keeps before its
	// note (Grok Build's cap less the note's room).
	assert.Equal(t, 19_500, MaxResultBytes)
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	for _, tc := range []struct {
		name string
		text string
		cut  bool
		// head is the bytes kept before the note.
		head int
	}{
		{"short: unchanged", "hello\n", false, 6},
		// 200 lines × 100 = 20,000 bytes: Grok Build saves a result over
		// 20,000 bytes, Copilot CLI over 20,480; 20,000 itself passes both,
		// and below the 20,000-byte check the text is whole everywhere.
		{"20,000 bytes: whole in every client", strings.Repeat(line, 200), false, 20_000},
		// 201 lines: cut to 195 lines (19,500 bytes), at a line end.
		{"20,100 bytes: cut at the last line end under 19,500", strings.Repeat(line, 201), true, 19_500},
		// 2,001 short lines (4,002 bytes): OpenCode keeps 2,000 lines,
		// toolfind at most 1,900 (3,800 bytes) and the note.
		{"2,001 lines: cut to 1,900", strings.Repeat("a\n", 2_001), true, 3_800},
		// 19,000 quotes and a line break: Codex's JSON.stringify doubles
		// every quote, 38,002 bytes and its header: under 40,000, whole.
		{"quotes: whole", strings.Repeat(`"`, 19_000) + "\n", false, 19_001},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fit(tc.text, "ask for less")
			for _, d := range deliveries(t, got) {
				assert.Equal(t, result.Whole, d.Verdict, "%s: %s", d.Client, d.Detail)
			}
			if !tc.cut {
				assert.Equal(t, tc.text, got)
				return
			}
			head, note, ok := strings.Cut(got, "\n[toolfind cut this result")
			require.True(t, ok, got[len(got)-200:])
			assert.Equal(t, tc.head, len(head))
			assert.True(t, strings.HasPrefix(tc.text, head))
			assert.True(t, strings.HasSuffix(head, "\n"))
			assert.True(t, strings.HasSuffix(note, "so that every agent client shows it whole; for the rest, ask for less]\n"), note)
		})
	}
}

// TestFitEscapes: a text whose JSON escapes make Codex's script output
// longer than its 40,000 bytes (control characters become \u00XX, 6
// bytes each) is cut further until Codex delivers it whole.
func TestFitEscapes(t *testing.T) {
	text := strings.Repeat("\x01", 9_000) + "\n" + strings.Repeat("\x01", 9_000) + "\n"
	require.False(t, wholeEverywhere(text))
	got := fit(text, "")
	// Limits tried: 18,002 (all), 16,201 (the first line, 9,001 bytes:
	// 54,006 in Codex's output), 8,100, 7,290, 6,561 (mid-line, 39,366
	// escaped bytes with Codex's header: under its 40,000).
	head, _, ok := strings.Cut(got, "\n[toolfind cut this result to 6561 of its 18002 bytes")
	require.True(t, ok, "%q", got[6_000:])
	assert.Equal(t, strings.Repeat("\x01", 6_561), head)
	for _, d := range deliveries(t, got) {
		assert.Equal(t, result.Whole, d.Verdict, "%s: %s", d.Client, d.Detail)
	}
}

func FuzzFit(f *testing.F) {
	f.Add("hello\n", 1)
	f.Add("é\n", 20_000)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 30_000 || len(s) == 0 {
			return
		}
		text := strings.Repeat(s, n/len(s)+1)
		got := fit(text, "")
		if !wholeEverywhere(got) {
			t.Fatalf("fit(%d bytes) = %d bytes, not whole everywhere", len(text), len(got))
		}
		if got != text && !strings.Contains(got, "[toolfind cut this result") {
			t.Fatalf("cut without a note")
		}
	})
}
