// Package live snapshots running MCP servers — a command speaking stdio or
// a streamable-HTTP endpoint — with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk), so that every toolfind command
// can read tools from the server an author is developing, exactly as a
// client would receive them.
//
// # What a snapshot is
//
// Take runs one session and shuts it down again:
//
//  1. start: run the command in a process group of its own (stdio), or
//     prepare the HTTP client with the --header values (HTTP);
//  2. handshake: initialize with protocolVersion "2025-11-25", no client
//     capabilities and clientInfo {"toolfind", version}, then
//     notifications/initialized (MCP 2025-11-25, Lifecycle);
//  3. list: tools/list without a cursor, then with each nextCursor until
//     one is absent or "" (MCP 2025-11-25, Pagination). A cursor that
//     repeats is a parse failure, not an endless loop; more than MaxPages
//     (1000) pages, or more than MaxListBytes (64 MiB) of them, is a list
//     failure;
//  4. shut down: close stdin, wait DefaultShutdownGrace, SIGTERM, wait,
//     SIGKILL — always to the whole process group, and always reaped
//     (MCP 2025-11-25, Lifecycle §Shutdown). On Linux every process whose
//     environment holds the server's TOOLFIND_LIVE_SERVER tag (TagVariable)
//     is killed too, so a grandchild that left the group with setsid does
//     not outlive the snapshot (one that also cleared its environment
//     does). An HTTP session is ended with DELETE by the SDK.
//
// The timeout (Options.Timeout, --timeout, default 30 s) bounds steps 1–2
// together and step 3 (all pages) together.
//
// The snapshot keeps the server name, the initialize instructions and
// serverInfo, and every entry of every page's "tools" array as the raw
// bytes the server sent. The SDK decodes results into typed structs that
// drop unknown members and would reject a tool whose fields have the wrong
// types, so the bytes are taken below it: a tap reads every stdout line of
// a stdio server before the SDK does (and every line written to its stdin,
// to know which request id is tools/list), and an http.RoundTripper reads
// every POST body and every JSON or text/event-stream response. Given
//
//	{"jsonrpc":"2.0","id":2,"result":{"tools":[
//	  {"name":"alpha","inputSchema":{"type":"object","properties":null}},
//	  {"name":"alpha","description":"dup"},
//	  "not an object"],"nextCursor":""}}
//
// the snapshot holds the three entries byte for byte — the null
// properties, the duplicate and the string included — and corpus reports
// them (properties-type, duplicate-tool, tool-not-object) exactly as it
// would for a file.
//
// # Names
//
// A server's name is the "name=" prefix of --server/--url when given; else
// the initialize serverInfo.name after its last '/'
// ("mcp-servers/everything" → "everything", because '/' separates server
// and tool in a corpus.ToolID); else the command's base name or the URL's
// host. Two servers of one name are an error asking for a prefix.
//
// --server values are split into words like a POSIX shell, without
// expansion (SplitCommand):
//
//	billing=./bin/billing-mcp --region 'eu west'  →  name "billing",
//	                                                 [./bin/billing-mcp --region "eu west"]
//
// # Failures
//
// Each failure is one of four types, by phase, with its cause:
//
//	*StartError      command not found or not executable; the process exited
//	                 before answering initialize (*ExitError, with the
//	                 stderr tail); the URL refused the connection
//	*HandshakeError  initialize got no answer in time (ErrTimeout: the
//	                 server is alive but silent, or flooding — the message
//	                 counts the requests and notifications it sent
//	                 meanwhile), a JSON-RPC error (*jsonrpc.Error), an HTTP
//	                 error status, an answer whose id is null or of the
//	                 wrong type ("1" for 1: *IDMismatchError, at once —
//	                 the SDK and the clients never match it and would wait
//	                 out the timeout)
//	*ListError       the same for a tools/list page (Page says which); the
//	                 process exited mid-list; the list did not end within
//	                 the timeout (the message counts the pages answered) or
//	                 within MaxPages pages or MaxListBytes bytes
//	*ParseError      the server answered but broke the contract: a stdout
//	                 line or HTTP body that is not JSON-RPC 2.0, a stdout
//	                 line over MaxLineLength (16 MiB), an
//	                 initialize result the SDK cannot use, a tools/list
//	                 result without a "tools" array, a non-string or
//	                 repeating nextCursor
//
// Output on a stdio server's stdout that is not JSON-RPC (a start-up
// banner, a log line) fails the snapshot at once, naming the line. This is
// stricter than clients built on the TypeScript SDK, which skip such a line
// and go on; the Go SDK fails the connection as toolfind does.
//
// A cancelled context (Ctrl-C) ends any phase with ErrInterrupted after
// the server's process group has been killed and reaped. Error messages
// read
//
//	live server "./srv --stdio": handshake (initialize): no answer to
//	initialize within 1s; the server is running but silent (timed out; see
//	--timeout)
//	  server stderr (last lines):
//	    | srv: waiting for license server…
//
// # Catalog files
//
// WriteCatalog writes one snapshot as {"server", "instructions",
// "x_server_info", "tools"} and several as {"servers": [{"name", …}]},
// indented by two spaces; json.Indent changes whitespace between tokens
// only, so members, their order, duplicate keys, escapes such as \u0041 and
// number spellings such as 1.50E+2 are kept. corpus.ParseCatalog reads the
// file back to the same tools (Snapshot.Servers does exactly that on the
// compact form), and Merge adds snapshots to catalogs loaded from files.
package live
