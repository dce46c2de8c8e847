// Package grok simulates Grok Build 1.0.0's search_tool, the only way its
// model finds MCP tools (grok.md B.1–B.5). Profile: grok@1.0.0 (default).
//
// # Registration (B.4)
//
// Each tool becomes server__tool. Grok refuses (skips, with a log line) a
// name that does not have exactly one "__" boundary (overlaps count, so
// "a___b" is refused), has an empty side, or fails
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$. Tools whose _meta.ui.visibility lacks
// "model" are not searchable. Both are reported through Problems
// (search.Reporter). A second tool of the same name in one server is
// reported and not indexed (Grok's rule is not established, B.6).
//
// # Document (B.2)
//
// One document per tool:
//
//	"{server} {tool} {description} {param names…} {split pieces…}"
//
// where the params are the top-level input-schema property names in
// order, and the pieces come from SplitIdentifier over the server name,
// the tool name and each param: split on "__", "_", "-", then before an
// uppercase ASCII letter that follows a lowercase one. Example: server
// "github", tool "get_me", no params → "github get_me <description>  github
// get me".
//
// # Search (B.2)
//
//  1. Exact name first: the trimmed, lowercased query equal to a tool's
//     lowercased qualified name or bare name returns that tool alone
//     (first in catalog order) with score 1.0, whatever the limit.
//  2. Otherwise the query is normalised (NormalizeQuery: "create_issue" →
//     "create_issue create issue") and scored with BM25 exactly as the
//     bm25 crate does (package search/bm25).
//  3. The first limit candidates (default 5, at most 255) are returned.
//
// Grok orders equal scores at random. A Hit's Rank and RankWorst span its
// tie group, and PWithinLimit is the chance it is among the first limit:
// a group at places a..b (1-based) with the limit L inside it gives each
// member (L − a + 1)/(b − a + 1). Example: "widget" with limit 3 over
// alpha ("widget widget"), beta, gamma, delta ("widget"): alpha is 1st for
// sure; beta, gamma and delta share places 2–4, each with P = 2/3.
//
// # What the model reads (B.3)
//
// Result.Shown is search_tool's text: serde_json pretty JSON
// {"results": [{"server", "tools": [{"tool_name", "description",
// "score", "input_schema"}]}], "total_hidden_tools", "status", "note"}.
// Results are grouped by server, groups ordered by their best score
// (stable), tools inside a group in BM25 order; where Grok's order is
// random, Shown uses catalog order. Scores are the float32 widened to f64
// as serde_json prints it (7.016247 → 7.016246795654297). Descriptions
// longer than 2,048 bytes and characters are cut to 2,033 characters plus
// "… [truncated]"; the input schema is never cut. total_hidden_tools is
// the number of searchable tools. ShownTokens is ⌈bytes/4⌉.
//
// View (search.Viewer) returns what search_tool shows for one tool.
package grok
