package result_test

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/result"
)

// A tool returns 60,000 characters of text in 1,000 lines of 59 characters.
// Claude Code (estimate 15,000 tokens, under the limit; over 50,000
// characters) saves it and shows a 2,000-character preview; Codex cuts the
// middle of its 61,039-byte JSON; Grok Build keeps the first 20,000 bytes;
// OpenCode 1 keeps 853 whole lines (59 + 852 × 60 = 51,179 bytes).
func Example() {
	text := strings.Repeat(strings.Repeat("x", 59)+"\n", 1000)
	r, err := result.Parse("page.json", []byte(`{"content":[{"type":"text","text":"`+strings.ReplaceAll(text, "\n", `\n`)+`"}]}`))
	if err != nil {
		panic(err)
	}
	ds, err := result.Deliver(result.Input{Result: r}, result.Options{})
	if err != nil {
		panic(err)
	}
	for _, d := range ds {
		fmt.Printf("%-17s %-8s %6d bytes shown\n", d.Client, d.Verdict, d.ShownBytes)
	}
	// Output:
	// claude@2.1.328    replaced   2184 bytes shown
	// codex@0.171.0     cut       40153 bytes shown
	// grok@1.0.0        cut       20129 bytes shown
	// opencode@1.18.33  cut       51491 bytes shown
	// gemini@0.61.0     cut       40230 bytes shown
	// copilot@1.0.102   replaced    783 bytes shown
}
