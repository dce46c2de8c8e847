// Package claude simulates Claude Code's ToolSearch: for a catalog of MCP
// tools and a query, it returns the tools the real Claude Code returns, in
// the same order, and the text its model reads. Section references (§) are
// to the shared spec specs/claude.md; rules marked "probed" were settled by
// running the real Claude Code 2.1.328 through the oracle harness.
//
// # Profiles
//
//	claude@2.1.332  default (the bare name "claude"): 2.1.329 plus ToolSearch's
//	                input schema requiring only "query" (§0)
//	claude@2.1.329  2.1.328 plus the failed-list note on empty results (§0)
//	claude@2.1.328  coarse parts; descriptions cut to 4,096 characters when
//	                listed/searched, 16,384 once loaded
//	claude@2.1.283  the seed article's release: same scoring, 2,048 / 2,048
//	claude@2.1.88   legacy: no coarse parts, parts from the wire name, 2,048
//
// Any release resolves to the newest profile not newer than it (§0):
// claude@2.1.330 is answered by 2.1.329, a release newer than 2.1.332 by
// 2.1.332 with a warning (search.LookupRelease). Rankings are the same from
// 2.1.328 on (§0: reruns on 2.1.332 and 2.1.333).
//
// # Failed tool lists (§0, 2.1.329 and later)
//
// When a connected server's tools/list failed, an empty result is
// "No matching deferred tools found" followed by a note naming those
// servers: configured names, sorted by UTF-16 code units, at most 30 then
// "; …and N more" (order and raw names probed on 2.1.332). A catalog
// represents a failed list as Claude Code meets one: a server whose answer
// fails the MCP SDK's validation as a whole (§2, e.g. one tool with
// "properties": null) — exactly what `toolfind verify` serves to the real
// client.
//
// Options: builtins (default true) puts Claude Code's deferred built-ins into
// the pool: for 2.1.328 CronCreate, CronDelete, CronList, EnterWorktree,
// ExitWorktree, Monitor, NotebookEdit, SendMessage, TaskStop, WebFetch,
// WebSearch; 2.1.283 has the same without Monitor (observed), and 2.1.88 is
// given 2.1.283's set (unverified). All are searched with 2.1.328's word
// sets, the only ones we have, so built-in hits of the older profiles are
// approximate. max-description replaces both description caps,
// as CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH does (that it moves the load cap
// too is an assumption).
//
// # Pool (§2)
//
// A server whose tools/list answer fails the MCP SDK's validation contributes
// nothing: one tool with a missing or non-object inputSchema, an inputSchema
// "type" other than "object", non-object "properties", "required" not an
// array of strings, a non-string (or null) title or description, a
// non-object outputSchema, _meta or annotations, a non-boolean annotation
// hint or non-array icons drops the whole server. A single tool is skipped
// when a top-level property key fails ^[a-zA-Z0-9_.-]{1,64}$, a property
// schema at any depth of "properties" is neither an object nor a boolean,
// or its full name is over 128 characters (probed: 128 kept, 129 skipped).
// A tool is hidden when _meta.ui.visibility is an array without "model" or a
// string not containing "model". A repeated tool name keeps the first
// definition. Names: every character outside [A-Za-z0-9_-] becomes "_", one
// per UTF-16 unit ("naïve" → "na_ve", "😀" → "__"); the model sees
// mcp__<server>__<tool>. Tools with _meta["anthropic/alwaysLoad"] === true
// are loaded up front, so they are not in the deferred (search) pool.
//
// The pool is Claude Code's built-ins sorted by name, then the MCP tools
// sorted by name, each by JavaScript localeCompare (ICU root collation:
// case-insensitive first, lowercase first on a tie, "_" < "-" < "." <
// digits < letters). A sanitised name that two tools share keeps the first
// in this order. Equal scores keep pool order, so built-ins win ties.
//
// Claude Code's own tools get ToolIDs "builtin/<Name>" (builtin/WebFetch,
// builtin/Read); their texts are not reproduced, only the derived word sets
// the search needs (builtins-2.1.328.json).
//
// # Name decomposition (§1)
//
//	MCP tool (2.1.156+):  coarse = [lower(server), lower(tool)]  (raw names, empty dropped)
//	                      parts  = each coarse part split on /[\s_.]+/  (never "-", never camelCase)
//	MCP tool (2.1.88):    parts  = lower(wire name) minus "mcp__", split on "__" then "_"
//	built-in:             parts  = name with a space at each [a-z][A-Z], "_" → " ", lower, split
//	                      coarse = [lower(name)]
//	all:                  full   = parts joined with " "
//
// # Search (§1)
//
// The query is cut to 16,384 characters. Then, in order:
//
//  1. select: — /^select:(.+)$/i ("." stops at a newline). Names split on
//     ",", trimmed, empties dropped, at most 64. Each is looked up
//     case-sensitively: the tool with that exact name (deferred pool first,
//     then every tool, loaded ones included); else every MCP tool whose bare
//     name, raw or sanitised, is that name. Name order, no duplicates,
//     unknown names left out, max_results ignored.
//
//  2. Exact name — the trimmed query equals a name (case-sensitive, then
//     case-insensitive; deferred pool first, then every tool including the
//     core tools Agent, Bash, Edit, ListAgents, Read, ReportFindings,
//     ScheduleWakeup, Skill, ToolSearch, Workflow, Write): that one tool.
//
//  3. Prefix — the lowercased query starts with "mcp__" and is longer than
//     5: the deferred tools whose lowercased name starts with it, in pool
//     order, at most max_results, if any.
//
//  4. Terms — the lowercased query split on whitespace, first 32 words.
//     "+word" (longer than 1) is required. Scored terms: required then
//     optional. A tool stays only if every required term is in a part or a
//     coarse part (equal or substring), or a whole word (\bterm\b, ASCII
//     word characters) of its description or search hint.
//
//  5. Score each remaining tool with the table below, term by term.
//
//  6. Drop score 0, stable sort by score (highest first), cut to
//     max_results (default 5, no maximum). Nothing found:
//     "No matching deferred tools found".
//
// Scores per scored term, S being the tool's running total:
//
//	signal                                MCP   built-in
//	a part equals the term                +12   +10
//	  else a part contains it             +6    +5
//	a coarse part equals the term         +12   +10
//	  else a coarse part contains it      +4    +3
//	full contains it, only while S == 0   +3    +3
//	\bterm\b in the search hint           +4    +4
//	\bterm\b in the description           +2    +2
//
// (A term never holds whitespace, so it is inside full exactly when it is
// inside a part: the full signal can only fire when the part signal did,
// i.e. when S > 0. It never scores; it is kept for fidelity.)
//
// The description searched is the listed one (cut to the listing cap plus
// "… [truncated]"), lowercased; the search hint is
// _meta["anthropic/searchHint"] when a string, whitespace collapsed,
// trimmed, cut to 4,096, lowercased. Server instructions, titles, schemas
// and annotations are not searched.
//
// # Worked examples (§4, the demo catalog; reproduced by the real 2.1.328)
//
// Servers accounts (add_notes "Adds billing notes.") and billing
// (customer_lookup alwaysLoad; digest "Summarizes each invoice."; export
// "Pushes data." hint "invoice export"; findInvoice "Finds records.";
// invoice_lookup "Looks up one record by ID."; ledger "Summarizes
// invoices.").
//
//	invoice  → invoice_lookup 16  part "invoice" 12 + coarse "invoice_lookup" contains 4
//	           findInvoice    10  part "findinvoice" contains 6 + coarse contains 4
//	           export          4  hint
//	           digest          2  description
//	           (ledger 0: "invoices" is not the word "invoice"; add_notes 0)
//	billing  → digest, export, findInvoice, invoice_lookup, ledger  24 each
//	           (part 12 + coarse 12; the tie keeps pool order), add_notes 2
//	customer → nothing: customer_lookup is always loaded, so not deferred
//	notes    → add_notes 18, WebFetch 2, WebSearch 2 (built-ins' descriptions)
//
// # What the model reads
//
// Result.Shown is the matched tools' loaded definitions, one
// <function>{"description": …, "name": …, "parameters": …}</function> line
// each inside <functions>, as the ToolSearch prompt describes the API's
// expansion of its tool_reference blocks (the exact expansion is not
// observable), or the no-match text. When nothing matches and the query is
// exactly the bare name of an always-loaded tool, Claude Code 2.1.328 adds
// a reminder that the tool is already available (observed with the oracle
// for "customer_lookup"; "Customer_Lookup" and "customer" do not trigger it);
// Shown then carries it after a blank line. ShownTokens is §3's estimate:
// ceil((UTF-8 bytes of the schema JSON + of the description) / 2.5) per tool
// (built-ins: from their description length only).
//
// # Approvals (search.Approver; seed "Notes on MCP Design", Annotations)
//
// Claude Code's permission check for MCP calls, measured on 2.1.283 (five
// tools × five modes, with and without the allow rule mcp__demo__*; the
// newer profiles are assumed to decide the same, 2.1.88 is not
// simulated), in order: a tool Claude Code does not offer is denied; a
// matching deny rule denies (documented precedence, not measured);
// _meta["anthropic/requiresUserInteraction"] asks on every call, even in
// bypassPermissions, and dontAsk refuses it; plan mode asks for every tool
// without readOnlyHint: true and runs a read-only one only under an allow
// rule; bypassPermissions runs; a matching allow rule runs; anything else
// asks, and dontAsk refuses instead. acceptEdits decides MCP calls as
// default does; auto (a classifier model) is not simulated. Read-only
// tools run at the same time, the others one after another. Rules:
// mcp__SERVER, mcp__SERVER__*, mcp__SERVER__TOOL on the sanitised names;
// --settings reads a settings.json's permissions.allow and .deny. The
// measured table and each step's source are in approval.go.
//
// # Performance
//
// New builds the pool only: names, parts, the descriptions to search (an
// ASCII one kept in its own case and matched through ASCII case folding,
// no lowercase copy; the others lowercased) and the collation order
// (compared in place, the names being ASCII), the MCP tools' entries in
// one slice; the name maps, the search index and a tool's rendered
// definition are built on first need. The first keyword query scans
// the tools (what a single `rank` needs); later queries use the index,
// built once: the parts and coarse parts of all deferred tools are
// concatenated into one text per field under a suffix array, so a term's
// substring matches are one lookup; descriptions and hints are indexed by
// word run, so a term of word characters is one map lookup (\b around a
// word-character term means "is a whole run of word characters"), and a
// term with other characters is checked with search.ContainsWord only on
// the texts holding its rarest word run. A term's matches are kept as
// postings (tool, points, passes as required) in a bounded cache, so a
// term repeated across the queries of a bench run costs one lookup, and a
// query adds up its terms' postings. No regexp is compiled per query. A
// search.Query with Brief (bench) gets no Why, <functions> text, notes or
// extra, and its token estimate is computed from the schema's length
// (ojson.Value.JSLen) without rendering it.
package claude
