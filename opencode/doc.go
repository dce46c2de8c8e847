// Package opencode simulates how OpenCode 1.18.33 shows MCP tools to its
// model, in its two modes (spec: shared/specs/opencode.md; §0, verified
// on the real 1.18.33 with opencode-oracle, overrides the older sections).
//
// # Profiles
//
//	opencode@1.18.33           eager loading, 1.x's default (verified)
//	opencode-codemode@1.18.33  OPENCODE_EXPERIMENTAL_CODE_MODE=true (verified)
//	opencode-codemode@2        the v2 sources of §C.2 (unverified)
//
// # Names
//
// An MCP tool's OpenCode name is {server}_{tool}, each part with every
// character outside [a-zA-Z0-9_-] replaced by "_" (Sanitize, ToolKey;
// §C.1). Tools live in one object keyed by that name, so a repeated name
// keeps the last definition. Code mode splits the name back into a path
// namespace.tool: the namespace is the longest connected (sanitised)
// server name that prefixes the name followed by "_" — so with servers
// "svc" and "svc_admin", svc's tool "admin_reset" becomes
// svc_admin.reset. Paths render as tools.ns.tool, with ["…"] for a
// segment that is not an identifier: tools["chrome-devtools"].list_pages
// (RenderPath).
//
// # Servers and schemas the MCP SDK refuses
//
// OpenCode lists tools through the MCP SDK, which validates the whole
// tools/list answer: one tool with a non-string description or title, an
// inputSchema that is not an object of type "object", properties that are
// not an object of objects, or a "required" that is not an array of
// strings makes OpenCode run without any tool of that server (verified
// with opencode-oracle for each of these). An invalid outputSchema
// (including a $ref the validator cannot resolve) only makes OpenCode list
// the server again without output schemas: its tools then return
// Promise<unknown> (verified for an outputSchema of type "string").
// Reporter lists both.
//
// # Eager mode (§C.1, §0)
//
// Every MCP tool is a top-level function tool next to 10 built-ins, sent
// with every request: parameters are the input schema with type "object",
// properties defaulted to {} and additionalProperties false
// (EagerParameters). Nothing is searched, so every tool is found: the
// simulator reports each at rank 1 and the cost, round(chars/4) of the
// whole tools array. Results go through Truncate (below); content items
// are joined by JoinEager.
//
// # Code mode: the catalog (§C.2 steps 1–6, §0)
//
// The model gets one tool, execute, whose description ends with the
// "## Available tools" section. Each tool's line is
//
//	"  - " + Signature + " // " + FirstLine(description)
//
// (no " // …" when the first line is empty). FirstLine is the first line,
// trimmed, cut to 119 UTF-16 units + "..." when longer than 120. The
// signature is `{path}(input: {T}): Promise<{O}>`, T and O rendered from
// the JSON schemas as multi-line TypeScript (renderType): objects as
// "{\n" + members + "\n}", one member a line, indented two spaces per
// nesting level, each "name: T," or "name?: T," (optional unless
// required; non-identifier names JSON-quoted), after a JSDoc comment made
// of the property description's lines and the tags @deprecated,
// @default JSON, @format F, @minItems N, @maxItems N ("/** one line */",
// else a block); additionalProperties objects add "[key: string]: T,";
// arrays are Array<T>; enum and const print JSON values joined by " | ";
// anyOf/oneOf join alternatives with " | " (all numeric → number; {object,
// array} → {}; any unknown alternative → unknown) and intersect the rest
// of the schema with " & "; allOf intersects; local $refs (#/$defs/X,
// #/definitions/X) expand, recursive or missing ones are unknown; deeper
// than 8 levels is unknown; O is unknown without an outputSchema. Any
// shape the JavaScript renderer throws on (a null property schema, a
// non-string description, enum not an array…) makes the whole T unknown.
//
// A line costs Tokens(line) = round(UTF-16 length / 4). PlanCatalog fills
// a 2,000 budget round-robin: namespaces in localeCompare order each take
// their cheapest remaining line (ties by path) while it fits; one that
// does not fit drops out for good. Shown lines print in path order under
// "- ns (N tools[, K shown | , none shown])". The header is "(COMPLETE
// list - …)" when all fit, else "(PARTIAL - K of N shown; find the rest
// with tools.$codemode.search)" and the section ends with the search
// function's signature.
//
// Worked example (github.json, 117 tools; oracle-verified): one namespace,
// so the cheapest lines go first; the 29 cheapest cost 39 to 83 tokens
// each, 1,928 in all; the 30th costs 83, more than the 72 left, and github
// drops out: "PARTIAL - 29 of 117 shown". With filesystem and memory
// connected, the round-robin shares the budget: filesystem 9 of 14,
// github 8 of 117, memory 8 of 9, 25 of 140 in all (1,979 used).
//
// # Code mode: tools.$codemode.search (§C.2, §0)
//
// A tool the catalog shows is found without searching. For the rest the
// model calls search({query, namespace?, limit = 10, offset = 0}):
//
//   - the trimmed query (minus a leading "tools.") naming a path exactly,
//     or equal to a rendered path, returns that tool alone;
//   - else Tokenize: split camelCase, lowercase, split on non-[a-z0-9];
//     each term has Forms: itself, minus "es" (length > 3), minus "s"
//     (length > 2);
//   - per term, a signal counts once if any form passes it: +20 the
//     lowercased path equals the form or ends with "." + form; +8 the path
//     contains it; +4 the description contains it; +2 the search text
//     (path, description, property names and descriptions) contains it;
//   - keep score > 0 (all when there are no terms), sort by score then
//     path (localeCompare), slice [offset, offset+limit).
//
// The model reads JSON.stringify({items: [{path, description, signature}],
// remaining, next: {offset} | null}, null, 2) (SearchResult.JSON), cut by
// Truncate like any tool output.
//
// Worked example (§C.2): tools github.create_issue ("Create an issue"),
// github.list_issues ("List issues"), linear.save_issue ("Save an issue");
// query "create issues" gives terms create and issues (forms issues,
// issu, issue):
//
//	github.create_issue  create 8+4+2 = 14, issues 8+4+2 = 14  → 28
//	github.list_issues   create 0,         issues 8+4+2 = 14  → 14
//	linear.save_issue    create 0,         issues 8+4+2 = 14  → 14
//
// create_issue ranks first; the two 14s tie and go by path:
// github.list_issues, then linear.save_issue. On github.json the real
// OpenCode returns create_issue (28), four tools at 20, one at 16 and
// four at 14, remaining 34 — the simulator's answer, byte for byte.
//
// # Output truncation (§C.1, §0)
//
// Eager results and execute results are cut by Truncate: at most 2,000
// lines and 51,200 bytes, whole lines from the head; then
// "\n\n...N lines|bytes truncated...\n\n" and a hint naming the saved
// file. A text ending in "\n" has one more, empty, line.
//
// # Results
//
// opencode returns every visible tool at rank 1 and, as Shown, the MCP
// tool definitions; ShownTokens is the whole tools array, built-ins
// included. opencode-codemode returns search()'s items in order (strategy
// "search"), each hit's Extra["in_catalog"] telling whether the catalog
// already shows it; Shown is the catalog section, a blank line and the
// search result; ShownTokens counts both; Extra carries them separately
// ("catalog", "search_result"). A variant (strategy "catalog") lists the
// catalog's tools at rank 1.
//
// # Written scripts
//
// CodeMode.Replay runs a model's execute call. One that is exactly one
// search call as the writers write it runs natively; any other code runs
// in the process's JavaScript engine (package jsbox: goja, in this
// process or in a child process), as the body of an async function
// whose search() calls come back to this package's search; its returned
// value is the output (strings as they are, others as JSON.stringify(v,
// null, 2)), cut by Truncate. Found: the tools it called, in call order,
// then the tools whose path is visible in the output. With no engine set
// such a run fails with jsbox.ErrNoEngine.
package opencode
