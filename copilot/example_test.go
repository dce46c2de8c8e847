package copilot_test

import (
	"fmt"

	"github.com/toolfind/toolfind/copilot"
)

func ExampleSanitizePart() {
	fmt.Println(copilot.FullName("my.server/with@chars", "unicode_tést"))
	// Output: my-server-with-chars-xn--unicode_tst-jbb
}

func ExampleDecide() {
	// 17 builtins + 13 MCP tools = 30: not above the threshold; 31 is.
	fmt.Println(copilot.Decide("claude-sonnet-4.5", copilot.Anthropic, 30, true))
	fmt.Println(copilot.Decide("claude-sonnet-4.5", copilot.Anthropic, 31, true))
	fmt.Println(copilot.Decide("gpt-5.4", copilot.Responses, 31, true))
	fmt.Println(copilot.Decide("gpt-4.1", copilot.OpenAI, 200, true))
	// Output:
	// full
	// deferred
	// hosted
	// full
}
