// Package copilot simulates GitHub Copilot CLI 1.0.102 (copilot.md §1):
// the tool entries it sends for MCP tools, when it defers them, and its
// client-side search tool_search_tool, a regular expression the model
// writes. Profile: copilot@1.0.102 (default). Every rule below was checked
// against the real CLI run offline against an emulated model API.
//
// # Names (§1.2)
//
// A tool is "<server>-<tool>". Each part: a name with a non-ASCII
// character has each such "."-separated label replaced by "xn--" +
// punycode, case kept; then every byte outside [A-Za-z0-9_-] becomes "-"
// ("my.server/with@chars" → "my-server-with-chars", "unicode_tést" →
// "xn--unicode_tst-jbb"). Names equal after this keep one tool, the one
// whose raw (server, tool) sorts last; the others are not sent. Names are
// cut to 64 characters; when cuts collide, the first in raw order keeps
// the cut and later ones end in a counter (63 characters + "2", "3", …).
//
// # Order
//
// Builtins first, then the MCP tools by raw server name, then by final
// name (byte order). Search results, Responses namespaces and the
// deferred-tools reminder's source all follow this catalog order.
//
// # Schemas (§1.3)
//
// See schema.go: validation keywords move into the node's description as
// "{minLength: 1, maxLength: 9}" in a fixed order; on the Anthropic wire
// every keyword the Messages API does not take forms a second group;
// keys come out sorted, added keys after them; numbers as the CLI prints
// them (Number). Descriptions are never cut; a missing one is "".
//
// # Deferral (§1.1)
//
// Counted with the builtins (16 or 17 by model, 2 more without
// COPILOT_OFFLINE), more than 30 tools turn deferral on for:
//
//   - Claude 4 and later (Haiku from 4.5) over the Anthropic wire: MCP
//     tools get defer_loading: true and tool_search_tool is appended
//     (mode Deferred);
//   - the same models over chat completions: tool_search_tool and the
//     reminder are added but every definition is still sent (ReminderOnly);
//   - GPT-5.4 and later (not Codex models) over the Responses wire: one
//     namespace per server, functions with defer_loading, and OpenAI's
//     hosted tool_search, which runs at OpenAI and is not simulated
//     (Hosted).
//
// Every other pair sends everything (Full). Servers with "deferTools":
// "never" are never deferred. The deferred tools are listed in a
// <system_reminder> of the first user turn (Reminder).
//
// # Search (§1.1)
//
// tool_search_tool {"pattern", "limit"}: new RegExp(pattern, "i") (goja),
// tested against each deferred tool's final name, description and each
// top-level parameter's name and raw description, one text at a time;
// tools matched by name come first, then by description, then by a
// parameter, each in catalog order; the first limit (default 5) are
// returned as tool_reference blocks. Worked example (probe catalog,
// pattern "target"): tier-zz_target (name), tier-aa_other (description
// "mentions target"), tier-ab_x (parameter target_p), tier-ac_y
// (parameter described "a target here") — catalog order would have put
// zz_target last. No match: "No tools found matching pattern '<p>'.";
// an invalid pattern: "Error: Invalid regex pattern '<p>': <reason>".
//
// # Results (§1.4)
//
// Deliver: text blocks joined with nothing between them, embedded text
// resources inlined, resource links and images dropped,
// structuredContent appended after "\n\n" unless the text is its JSON,
// errors prefixed "MCP server '<server>': "; over 20,480 UTF-8 bytes the
// text is saved to a file and the model gets a notice with a
// 500-character preview.
package copilot
