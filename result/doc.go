// Package result answers the second half of "will the model use my tool":
// of a tool's result (an MCP CallToolResult), what does each client's
// model receive? Finding a tool is search's job; whether the model ever
// sees what the tool returned depends on each client's output cap.
//
// Parse reads a CallToolResult (or a JSON-RPC response holding one);
// Deliver reports, per client, the exact text (and block list) the model
// gets, its size, a verdict — Whole, Cut (how much was kept, where) or
// Replaced (by a file reference) — and, when a cap bit, the server-author
// advice of the seed "How to optimise your MCP tools by knowing how agents
// call them". Sizes: shown_chars counts UTF-16 code units (JavaScript's
// length, Claude Code's "characters"), shown_bytes UTF-8 bytes.
//
// # Claude Code 2.1.328 (specs/claude.md §3, background §5; seed "Notes on MCP Design")
//
//  1. Content. On success a present structuredContent (null counts)
//     replaces every text block by JSON.stringify(structuredContent);
//     images (and other non-text blocks) are kept before it. On isError
//     the model gets an error message instead: the blocks' text and
//     resource links joined with "\n" ("Unknown error" when none; images
//     and structuredContent dropped). _meta is never shown. An embedded text
//     resource reads "[Resource from {server} at {uri}] {text}", a
//     resource_link "[Resource link: {name}] {uri} ({description})".
//  2. Tokens (MAX_MCP_OUTPUT_TOKENS, 25,000). Estimate: each text's
//     length / 4 rounded, plus 1,600 per image. ≤ 12,500 passes; a text
//     estimate over 100,000 fails; in between Claude Code asks the API for
//     an exact count — offline that count is ClaudeOptions.CountTokens
//     (--count-tokens) or, when not given, the estimate, and the delivery
//     says so. Over the limit: text is saved to a file and replaced by the
//     path-only notice "Error: result (N characters[ across L lines])
//     exceeds maximum allowed tokens. Output has been saved to PATH." +
//     "Format: …" + reading instructions (a stand-in of their exact length:
//     Claude Code's own text is not reproduced); output with images is cut
//     to 100,000 characters and a truncation notice. A tool whose _meta
//     sets "anthropic/maxResultSizeChars" skips this check for text-only
//     output.
//  3. File rule. Text over 50,000 characters (or min(maxResultSizeChars,
//     500,000)) is saved and replaced by <persisted-output> with the size,
//     the path and a 2,000-character preview of the saved text — for a
//     content array its JSON.stringify(blocks, null, 2), so JSON escapes
//     use part of the preview.
//
// Worked boundaries (seed rows A–D): 50,000 characters → whole; 50,001 →
// replaced with preview; 100,000 at 25,000 tokens → replaced with preview;
// 100,000 at 25,001 tokens → replaced, path only.
//
// # Codex code mode 0.171.0 (specs/codex.md §2, §0)
//
// The model sees only what its script prints. For
// text(JSON.stringify(result)) — content, structuredContent, isError — the
// exec output is cut as the codexjs package does for every exec: over
// 10,000 tokens × 4 = 40,000 bytes, one item "Warning: truncated output
// (original token count: N)\nTotal output lines: L\n\n" + the first
// 20,000 bytes + "…K tokens truncated…" + the last 20,000 bytes, after the
// "Script completed\nWall time 0.0 seconds\nOutput:\n" header. No file.
//
// # Grok Build 1.0.0 (specs/grok.md §B.5)
//
// Text over 20,000 bytes is cut at the last character boundary at or
// below 20,000 and followed by "\n\n[MCP output truncated: showing first
// 19.5 KB of {total}. Full output written to: {path}.{steer}]".
//
// # OpenCode 1.18.33 eager (specs/opencode.md §C.1, §0)
//
// Text blocks joined with "\n\n"; over 2,000 lines or 51,200 bytes, whole
// lines are kept from the head, then "...N bytes|lines truncated..." and
// the saved-file hint (the opencode package's Truncate).
//
// Paths of saved files stand for the clients' session paths, which hold
// ids a simulation cannot know; shown sizes are exact up to the path's
// length.
package result
