// Package remote runs package jsbox's scripts in another process, one that
// serves an engine (package jsbox/gojabox) with Serve: the toolfind
// command starts itself as that child when a run first needs JavaScript
// (a model's script to replay, a --codex-script, --codex-engine goja), so
// that a model-written script that gets past a limit the engine enforces
// from inside (one native step goja cannot interrupt, memory faster than
// its sampling) ends the child, which toolfind reports, not toolfind.
//
// Engine is the toolfind side: a jsbox.Engine whose sessions forward
// every compile, exec and run to one long-lived program, started when the
// first session opens, and return its answers. Everything but the
// JavaScript stays in the calling process: the simulators turn an output
// into a result as they do for the in-process engine, so the command's
// output is the same either way. Serve is the program's side.
//
// # Protocol
//
// JSON Lines, one object a line, on the program's standard input and
// output (version Protocol):
//
//	→ {"id":0,"hello":{"protocol":1}}
//	← {"id":0,"ready":{"protocol":1}}
//	→ {"id":1,"codex":{"tools":[{"name":"mcp__gh__list","description":"…","call_name":"mcp__ghlist","tool":"gh/list"},…],"limits":{"timeout_ns":2000000000,…}}}
//	← {"id":1,"opened":true}
//	→ {"id":2,"exec":{"session":1,"code":"text(QUERY)","query":"pr","terms":["pr"],"yield_ms":10000}}
//	← {"id":2,"output":{"status":"Script completed","items":["pr"]}}
//	→ {"id":3,"opencode":{"tools":[{"namespace":"gh","local":"list"}],"timeout_ns":2000000000}}
//	← {"id":3,"opened":true}
//	→ {"id":4,"run":{"session":3,"code":"return await tools.$codemode.search({query: \"pr\"})"}}
//	← {"id":4,"search":{"query":"pr"}}
//	→ {"id":4,"found":{"json":"{\"items\": …}"}}
//	← {"id":4,"ran":{"output":"…","searches":1}}
//	→ {"id":5,"cancel":true}
//	← {"id":6,"error":"exec: no codex session 9"}
//
// The hello comes first and once; the program answers ready, or an error
// and exits. A session (codex, opencode) is opened once per catalog with
// what every run shares, and named by its call's id; compile, exec and
// run name their session. Calls have ids 1, 2, …; several may be in
// flight and their replies come in any order, matched by id. A run's
// search() is a question to toolfind (search, with the run's id), which
// answers with found (the result's JSON, or the error the call throws)
// while the run waits. A cancel stops the call of that id (its reply, if
// any, is ignored). Every limit of a run (time, memory, output, call
// depth) is enforced by the program, where the script runs, with the
// in-process engine's messages: the time a run spends includes its
// searches, as it does in one process. Behind the engine's own time limit
// is a hard one: a run not answered within its limit and Config.Overrun
// (30 s) kills the program, and that run and every later call fail
// saying so.
//
// Strings cross byte for byte: one that is not valid UTF-8 (which JSON
// would turn into U+FFFD) is written as "\u0000base64:" and its bytes in
// base64 (and so is one that starts with that marker). HTML characters
// are not escaped. The program's standard error is passed on. If the
// program exits while calls are in flight, each of them, and every later
// one, fails with an error naming its exit status and the last line it
// wrote on standard error; so does a program that is not a toolfind JavaScript child (no
// ready line, or a line that is not the protocol) or speaks another
// protocol version.
package remote
