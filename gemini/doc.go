// Package gemini simulates how Google Gemini CLI 0.61.0 shows MCP tools to
// its model (spec: shared/specs/gemini.md; checked against the real CLI
// run headless, gemini.md §6, and by `toolfind verify --client gemini`).
//
// # No tool search (§1)
//
// Every active tool is declared in every request, in one
// [{"functionDeclarations": […]}]: the built-ins first (8 in a headless
// run, 10 when a server has resources, 17 + activate_skill under YOLO;
// their texts are the CLI's own, builtins.json), then the MCP tools by
// server name (localeCompare), each server's tools in its order. There is
// no cap: above 512 declarations the Gemini API refuses every request
// (Problems reports it). Only the first tools/list page is read. So the
// simulator returns every declared tool at rank 1 and the cost, the
// tools array's length / 4 (the CLI's own estimate for a JSON part).
//
// # Names (§2)
//
// mcp_{server}_{tool} (no second "mcp_" when the joined name starts with
// it); every UTF-16 unit outside [A-Za-z0-9_.:-] becomes "_"; above 63
// units the first 30 + "..." + the last 30 (ToolName). A name registered
// again keeps its place and takes the later tool: the last registered
// wins, within a server and across servers (which connect in parallel;
// the simulation takes catalog order).
//
//	edge/echo_tool           mcp_edge_echo_tool
//	my server.v2/b_c         mcp_my_server.v2_b_c
//	ünï/tøøl                 mcp__n__t__l
//	edge/a_tool.with-odd/chars and spaces and a really long name that goes past sixty four chars
//	                         mcp_edge_a_tool.with-odd_chars...hat_goes_past_sixty_four_chars
//
// # Declarations (§3)
//
// {"name", "description" (uncut, "" when absent), "parametersJsonSchema"}:
// the inputSchema with the MCP SDK's key order (type, properties,
// required first), every two-entry [X,"null"] type turned into X +
// nullable: true, and the boolean wait_for_previous appended to the
// properties (Parameters). Title, annotations, outputSchema, icons and
// _meta never reach the model. One tool the MCP SDK refuses (Listable)
// leaves its whole server without tools.
//
// # What is not declared (§1, §2, §5)
//
// A headless run (gemini -p) declares a server's tools only when an
// allow rule covers it ("trust": true, mcp.allowed,
// --allowed-mcp-server-names; Config.Trusted), and only when the rule's
// wildcard mcp_{server}_* matches the name: a server name with a
// replaced character, or a name cut past the prefix, is denied even when
// trusted. The CLI also drops a tool whose name without the server prefix
// is a built-in the run denies (write_file, replace, run_shell_command,
// web_fetch, write_todos, activate_skill, ask_user, exit_plan_mode,
// list_background_processes, read_background_output in a headless run;
// ask_user under YOLO): found with the real CLI, not in the spec. Each
// reason is a Reason; Search's notes and Problems name the tools.
//
// # Instructions (§3)
//
// Each server's instructions, uncut, as "The following are instructions
// provided by the tool server '<name>':\n---[start of server
// instructions]---\n…\n---[end of server instructions]---", joined by a
// blank line inside <loaded_context><project_context> at the end of the
// first user message (Instructions), also for servers none of whose
// tools is declared.
//
// # Results (§4)
//
// Deliver maps a CallToolResult to the function response: text wrapped in
// <untrusted_context> (its closing tag escaped) and joined with "\n" into
// {"output": …}; images and blobs as a notice + inlineData parts after the
// response (lost for gemini-3-* models); audio stripped with a SYSTEM
// line; resource links as "Resource Link: <title or name> at <uri>";
// structuredContent ignored; isError (and a thrown error) as
// {"error": "MCP tool '<tool>' reported tool error …"} quoting the whole
// result as the SDK parsed it; a tool with an outputSchema that answers
// without structuredContent is an error too (the SDK's check, found with
// the real CLI). A single text part longer than min(40,000, 4 ×
// (1,048,576 − prompt tokens)) characters keeps its first 20% and last
// 80% under "Output too large. Showing first 8,000 and last 32,000
// characters. For full output see: <file>" (Truncate): a 100,000-character
// text is wrapped to 100,041 and 60,041 are omitted.
//
// # Approvals (§5)
//
// Approve follows the policy engine's tiers (see approval.go): modes
// default (interactive: ask without an allow rule), headless (deny), yolo
// (run) and plan (ask for readOnlyHint, deny the rest).
package gemini
