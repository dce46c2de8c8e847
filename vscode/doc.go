// Package vscode simulates how VS Code Copilot Chat presents MCP tools to
// its model (copilot.md §3, §5), from the MIT-licensed source of
// microsoft/vscode-copilot-chat at 2026-03-28 (profile vscode@2026.3.28)
// and VS Code core. Nothing here was run against the real client.
//
// # Mechanism (§3.1)
//
// Per request: a Claude model whose id starts claude-sonnet-4.5,
// claude-sonnet-4.6, claude-opus-4.5 or claude-opus-4.6 (not Haiku) gets
// Anthropic tool search; GPT-5.4 and newer get OpenAI Responses tool
// search; both only in the Agent location and not for a subagent, and
// each can be turned off. Then grouping is skipped, every tool is sent,
// the core built-ins (CoreTools) first and the rest, every MCP tool, with
// defer_loading; the prompt lists the deferred names sorted
// (DeferredNames). With server-mode search the first entry is
// tool_search_tool_regex (Anthropic) or {"type":"tool_search"} (OpenAI),
// which run at the provider: toolfind ranks nothing there. Every other
// model (the default, gpt-4.1; Gemini; older GPT and Claude; BYOK) gets
// virtual tools.
//
// # Virtual tools (§3.2–§3.4)
//
// With fewer than 64 tools (built-ins + MCP) every tool is flat. From 64
// on, built-ins stay flat, and the MCP tools, bucketed per server, share
// 88 − built-ins slots (AllocateSlots). Per server: slots ≥ tools → flat;
// 1 slot → one group of all its tools; otherwise clusters, targetClusters
// = min(slots, ceil(tools/4)), clusters of one tool become single tools
// (after the groups) and singles beyond the slots are dropped. Group names
// are deduplicated with _2, _3, …. Each group is a stub named
// "activate_" + name, with no parameters and the description
// SummaryPrefix + summary + SummarySuffix; calling it is answered with
// "Tools activated: a, b" and the next request lists the group's tools in
// its place (Session). With a prompt, activate_embeddings adds the 10 MCP
// tools most like it, always expanded. Over 128 functions, the expanded
// group used longest ago collapses (96 right after a cache invalidation);
// a request still over 128 fails with "Tool limit exceeded (n/128)".
//
// Worked example (§4.2): 51 built-ins and servers of 24, 10 and 13 tools
// (98 ≥ 64): 88 − 51 = 37 slots → 21, 7, 9 (AllocateSlots); with the
// registration fallback, 20 + 6 + 8 = 34 flat tools and 3 groups, 37
// entries, 88 functions with the built-ins.
//
// # MCP names (§3.5)
//
// "mcp_" + the server label lowercased, each run of characters outside
// [a-z0-9_.-] turned into "_", clipped to 13 characters, then "_" ("2_",
// "3_", … when taken), then the tool name. The extension checks names
// against ^[a-zA-Z0-9_-]+$; a '.' kept from the label fails it.
//
// # What is approximate (§3.6)
//
// VS Code asks an LLM for group names and summaries and uses Copilot
// embeddings for cluster membership, the activate_embeddings top 10 and
// its client-side tool_search. toolfind has neither; the stand-ins are
// options, and every output (show, rank notes, lint messages) names the
// ones it used:
//
//   - --vscode-embeddings words (default): tf-idf cosine over the words of
//     "name\n\ndescription" (words.go), average-linkage clustering to the
//     target count, top 10 by similarity; none: no embeddings, as for a
//     signed-out BYOK user (2026-03: clustered servers are dropped,
//     microsoft/vscode#327424); registration: the later fallback of PR
//     #328469 (slots − 1 tools flat in registration order, the rest in one
//     group).
//   - --vscode-group-names words (default): a server's single group is
//     <server>_tools, a cluster <its commonest name word>_tools; fallback:
//     VS Code's own group_<i> for a failed LLM call. Both summaries are VS
//     Code's fallback text "Contains the tools: a, b, …".
//   - --vscode-builtins (51, the §4.2 example): the built-ins are counted,
//     not named.
//
// # Search
//
// With virtual tools the model never searches (search.NoSearch): a
// search's hits are the tools whose definitions the request carries, each
// at rank 1; tools behind stubs are one call away and no hit. With
// server-side tool search no hit is ranked; with --vscode-search-mode
// client the stand-in ranks the deferred tools, 5 by default.
package vscode
