// Package codexjs simulates the two ways Codex CLI 0.171.0 lets its model
// find MCP tools (spec ../shared/specs/codex.md; §0, verified on the real
// CLI, overrides the older sections):
//
//   - codex (code mode): the model writes JavaScript that filters the
//     ALL_TOOLS global and prints with text(); Codex truncates what it
//     prints. This package builds ALL_TOOLS exactly, runs the model's
//     filters in goja (through package jsbox), truncates as Codex does, and
//     reports which tools are visible in what the model reads.
//   - codex-search (tool_search): BM25 over one text per deferred MCP tool.
//
// Both are registered as profile 0.171.0 (import the package; the CLI
// flags are --codex-<option> and --codex-search-<option>).
//
// # ALL_TOOLS (§0, §1.2–1.5)
//
// 1. Servers. A server whose name has a character outside
// [A-Za-z0-9_.:/@-] is not registered (observed character by character on
// 0.171.0). A tool Codex's MCP client cannot read — no inputSchema object,
// a non-string description… — fails the server's whole tools/list.
// Tools whose _meta.ui.visibility lacks "model" are left out.
//
// 2. Names (§1.3a). Server and tool names are sanitised (every character
// outside [A-Za-z0-9_] becomes one _), the namespace is mcp__<server>.
// Exact duplicates are dropped (first wins). Namespaces that collide after
// sanitising get "_" + the first 12 hex digits of SHA-1 of
// "server\0server\0", colliding tool names the same of
// "server\0server\0\0tool\0tool". In raw-identity order, a name whose
// namespace + "__" + name exceeds 128 bytes, or whose namespace+name is
// taken, is cut and hashed:
//
//	probe / "L"×130  →  mcp__probe + "__" + "L"×103 + "_2894d93cd459"   (128 bytes)
//	my-server, my_server / t  →  mcp__my_server_497a8b629ad2__t, mcp__my_server_b7840dcbfd2d__t
//
// The code-mode name joins namespace and name with "__", or directly when
// the namespace ends in _ or the name starts with _ (mcp__probe_underscore).
// The JS identifier keeps _ $ and ASCII letters (and digits after the first
// character), anything else becomes _; the first tool of an identifier wins.
//
// 3. Text. An entry is {name, description}; the description is the tool
// description, a blank line and the trimmed server instructions (when not
// blank), then "\n\nexec tool declaration:\n```ts\n" + declaration + "\n```":
//
//	declare const tools: { mcp__weather__get_forecast(args: {
//	  // City name
//	  city: string;
//	  days?: number;
//	}): Promise<CallToolResult>; };
//
// 4. Input schemas (§4): missing or null properties become {}; sanitise
// (booleans → {"type":"string"}, const → enum, unknown types dropped, type
// inferred from properties/items/enum/format/minimum…, an untyped schema
// without those cleared to {}, defaults properties:{} and
// items:{"type":"string"}; $ref and combinators exempt); unused $defs
// pruned; while the canonical compact JSON exceeds 5,000 bytes: strip
// descriptions, drop definitions, collapse complex schemas at depth ≥ 3,
// replace compositions by {}; finally keep only $ref, type, description,
// encrypted, enum, items, properties, required, additionalProperties,
// anyOf, oneOf, allOf, $defs, definitions (a value of the wrong shape
// makes Codex skip the tool, as does a top-level type "null"). Numbers and
// enum literals keep their JSON text and key order (1.0, 1e+21 print as
// written).
//
// 5. TypeScript (§4.6): first rule wins — $ref (local pointers, at most 2
// expansions of one pointer per path and 32 in all; siblings give
// "(ref) & (siblings)"), const, enum, anyOf/oneOf (" | "), allOf (" & ",
// unions parenthesised), type arrays, then string, number|integer →
// number, boolean, null, Array<T>, tuples, objects: properties sorted,
// "?" unless required, odd names JSON-quoted, [key: string]: T for
// additionalProperties (unknown when absent with no properties), one line
// unless a property has a description, which then gives "  // line"
// comments. Longer than 16,000 bytes (or 64,000 bytes of work) → unknown.
// The output type is CallToolResult<T> with T the raw outputSchema, or
// CallToolResult when T is unknown.
//
// 6. Codex's own 11 entries (apply_patch … write_stdin) sort among the MCP
// entries by name. Their texts are not reproduced: each is a stand-in
// built line by line from sizes recorded with codex-oracle
// (builtins-0.171.0.json): the real JSON byte size, and per line the
// length, indent, trailing spaces, spaces, JSON escapes and lowercase word
// runs; the exec declaration's frame ("exec tool declaration:", "```ts",
// "declare const tools: { <name>(" … "; };", "```") is written as for MCP
// entries. So every MCP entry sits at its real byte offset in a dump,
// [a-z0-9_] filters decide as on the real text, per description and per
// line, and a script that splits descriptions into lines, paragraphs or
// words, or cuts them at the declaration, prints as many bytes as on the
// real text (testdata/oracle-0.171.0/builtin-scripts.json).
//
// Agent Plugins (option plugin, §3): descriptions and instructions cut to
// 1,000 bytes at a character boundary; a tool whose namespace spec exceeds
// 8,000 bytes, or that takes the running total over 64,000, is hidden (the
// spec size is estimated from the Responses namespace shape [inf]).
//
// Checked against the real Codex 0.171.0 (testdata/oracle-0.171.0): every
// MCP entry of all 15 shared catalogs and of the 70 livemcpbench catalogs
// of ../shared/corpora (527 tools never looked at while writing this
// package) — names, byte lengths, SHA-256 — and the length of each whole
// dump; whole entries of our probe catalogs (schema edge cases, names,
// collisions, rejected tools, app-only tools in naming, server names).
//
// # Running a script (§1.7, §2)
//
// The exec input may start with a "// @exec: {json}" pragma
// (yield_time_ms, max_output_tokens); a bad one is rejected with Codex's
// message as the whole output. The code runs in goja (the process's
// engine of package jsbox: jsbox/gojabox in this process, or a child
// process through jsbox/remote, which print the same bytes; with no engine
// set, a run that needs JavaScript fails with jsbox.ErrNoEngine) as the
// body of an
// async function (top-level await works) in strict mode, with the globals
// ALL_TOOLS, tools (every call recorded; it resolves to a CallToolResult
// with isError true and a "not executed in simulation" text; a non-object
// argument rejects with "tool `<ns><name>` expects a JSON object for
// arguments"), text() (primitives by ToString, others by JSON.stringify,
// "undefined" when that gives nothing; empty texts add no item), exit(),
// store/load, notify, setTimeout/clearTimeout on a virtual clock (pending
// timers do not keep the script alive; a script still pending after
// yield_time_ms, default 10,000, reports "Script running with cell ID 1"),
// QUERY and TERMS. There is no console (option console adds one that
// prints), no import (a static one fails with "Unsupported import in
// exec: fs", import() rejects with "unsupported import in exec"), no host
// access.
// Errors print as V8 prints err.stack: "Error: boom\n    at
// exec_main.mjs:2:7" (goja's messages differ from V8's in places; syntax
// errors carry goja's wording).
//
// Sandbox: a wall-clock limit (option timeout, default 2s; the run is
// interrupted and reported as a running cell with an error note), a call
// depth of 10,000, 64 MiB of text() output, a 1 GiB heap-growth watchdog,
// and V8's string length limit on repeat/padStart/padEnd/join (RangeError
// "Invalid string length") so one native call cannot ask for gigabytes.
//
// The result the model reads: the text items are joined with "\n"; within
// the budget (4 bytes per token, default 10,000 tokens) they stay as they
// are, otherwise they become one item
//
//	Warning: truncated output (original token count: N)\nTotal output lines: L\n\n
//	+ the first 4t/2 bytes + "…K tokens truncated…" + the last 4t/2 bytes
//
// with N = ceil(bytes/4), K = ceil((bytes − 4t)/4), cuts on character
// boundaries. The header item "Script completed|failed\nWall time 0.0
// seconds\nOutput:\n" goes first; then a second cap of 1.2 × 10,000 tokens
// walks the items, header included, middle-cutting the first that does not
// fit (seen only when a pragma raises the budget). Result.Shown is the
// header followed by the items joined with "\n". Example (§0):
// github.json's dump is 217,561 bytes → N = 54,391, K = 44,391, a
// 40,107-byte item; text("x".repeat(50000)) → N = 12,500, K = 2,500.
//
// # Strategies
//
// A tool is found by a strategy when its identifier appears, whole, in the
// text the model reads (after truncation); its rank is its order of first
// appearance. Extra says how much was printed, whether truncation hid
// anything (hidden: printed tools no longer visible) and the calls made.
// The built-ins are the filters models write (a broad dump first, then
// narrower filters), over TERMS — the query lowercased, split at
// non-word characters, NLTK stop words dropped:
//
//	all-terms  entries whose lowercased name+"\n"+description contains every term; text(JSON.stringify(hits))
//	any-term   … contains some term
//	name       names containing every term, one per line
//	dump       text(JSON.stringify(ALL_TOOLS))
//
// Example, github.json, "pull request" (TERMS pull, request): all-terms
// prints 33 entries (65,967 bytes), the middle cut leaves 21 visible:
// actions_list … assign_copilot_to_issue, then request_pull_request_reviewers
// … update_pull_request_title; create_pull_request is hidden. The name
// strategy prints 19 names, all visible. The real Codex printed exactly
// this (TestStrategiesMatchCodex).
//
// Built-ins run on a native Go path by default (option engine) that prints
// the same bytes as the goja run (TestNativeMatchesGoja, every shared
// catalog), and need no engine; goja runs them from compiled programs kept
// by the engine, on pooled runtimes.
// A user script (option script) runs in a fresh runtime each time, as
// Codex gives every exec a fresh isolate, and is the primary result.
//
// # tool_search (§0, §5.1)
//
// One document per MCP tool of ALL_TOOLS: flat name (namespace + tool name,
// no separator: mcp__githubget_me), tool name, raw tool name, raw server
// name, title, description, trimmed instructions, sorted top-level property
// names, joined by spaces. Scored with package search/bm25 (bm25 crate
// 2.3.2 in float32: k1 1.2, b 0.75); default limit 8. Codex returns equal
// scores in hash-set order, so each tie band is reported as Rank..RankWorst
// with PWithinLimit = the share of the band inside the limit. Codex's own
// deferred multi_agent_v1 tools are left out by default (their search text
// is not established; option agent-tools adds an approximation). Shown is
// the tool_search_output tools: namespaces in first-seen order, each tool a
// deferred function with its normalised parameters. Checked against the
// real tool_search, ties as sets and namespaces grouped as Codex returns
// them: 55 queries over 5 shared catalogs and 30 over the 59 livemcpbench
// servers without CJK text agree, and so do 30 of 30 over all 70 servers
// (CJK text transliterated by deunicode's own table, see search/bm25).
//
// # Approvals (§6; search.Approver, shared by both profiles as codex@0.171.0)
//
// Modes are the approval_mode values. auto: destructiveHint true asks;
// else readOnlyHint true runs; else it asks unless destructiveHint and
// openWorldHint are both false (a missing hint counts as true). prompt
// always asks, writes asks unless read-only, approve never asks. A call
// that would ask is run under approval_policy never with sandbox_mode
// danger-full-access and refused under any other sandbox. A tool may run
// in parallel when it is read-only or its server sets
// supports_parallel_tool_calls. Rules are config settings KEY=VALUE as
// codex -c takes them; --settings reads a config.toml (approval.go).
package codexjs
