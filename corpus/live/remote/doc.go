// Package remote takes snapshots of live MCP servers, and calls their
// tools, in another process, one that runs corpus/live's Serve: the
// toolfind command starts itself as that child (its live-server child)
// when a command is given live servers. The child outlives a toolfind
// that is killed (SIGKILL, the OOM killer, a CI timeout) long enough to
// stop and reap every server's whole process tree, which toolfind
// itself, once killed, could not.
//
// Client is the toolfind side: TakeAll, Take and Call have corpus/live's
// signatures (with Options, the part of corpus/live.Options that crosses
// the pipe) and return the same snapshots and the same errors — the same
// messages, phases, causes for errors.Is (snap.ErrTimeout,
// snap.ErrInterrupted, exec.ErrNotFound, fs.ErrPermission …) and types
// for errors.As (*snap.StartError … *snap.CallError, *snap.ExitError).
// Serve is the program's side, given corpus/live's functions (Handler).
//
// # Protocol
//
// JSON Lines, one object a line, on the program's standard input and
// output (version Protocol):
//
//	→ {"id":0,"hello":{"protocol":1}}
//	← {"id":0,"ready":{"protocol":1}}
//	→ {"id":1,"take":{"sources":[{"command":["srv","--stdio"]}],"options":{"timeout_ns":30000000000,"client_version":"1.4.0"}}}
//	← {"id":1,"took":{"snapshots":[{"name":"srv","tools":["eyJuYW1lIjoiYSJ9"],"pages":1}]}}
//	→ {"id":2,"call":{"source":{"url":"http://127.0.0.1:8080/mcp"},"options":{},"tool":"echo","arguments":"e30="}}
//	← {"id":2,"error":{"text":"live server \"…\": handshake (initialize): …","phase":"handshake","source":"…",
//	     "cause":{"text":"no answer to initialize within 30s; …","is":["timeout"]}}}
//	→ {"id":3,"cancel":true}
//
// The hello comes first and once; the program answers ready, or "fatal"
// and exits. Requests have ids 1, 2, …; several may be in flight and
// their answers come in any order, matched by id. A request's
// time_left_ns is the time left before the caller's deadline. A cancel
// cancels the request of that id, which is still answered — with the
// interrupted error corpus/live returns once it has stopped and reaped
// the servers — so that a cancelled Client call returns, as
// corpus/live's do, only when no server is left running.
//
// A snapshot's tools, serverInfo, a call's arguments and result cross
// as base64: byte for byte, which neither a JSON string (invalid UTF-8
// becomes U+FFFD) nor an embedded JSON value (re-indented, and a
// pretty-printed HTTP body has newlines) would keep. Other strings are
// JSON strings, or {"bytes": BASE64} when they are not UTF-8 (a command
// line can be anything).
//
// An error crosses as its chain: each link with its text and what it is
// — a phase error with its fields (name, source, stderr tail, page,
// what, tool), a *snap.ExitError, one of the sentinels (timeout,
// interrupted, not-found, canceled, deadline-exceeded, eof,
// unexpected-eof, not-exist, permission), or an error known by its text,
// which errors.Is matches with the sentinels it matched in the program
// ("is") and which wraps its cause(s). The client rebuilds the chain, so
// the text of every link, and of the whole error, is the program's.
// Types other than these (a *jsonrpc.Error from the SDK, a *net.OpError)
// keep their text but not their type.
//
// # Lifetime
//
// Client starts the program at its first request and ends it at Close,
// by closing its standard input: the program cancels what is running,
// stops and reaps the servers, and exits. If toolfind dies instead (a
// SIGKILL), the pipe closes all the same; on Linux the program also gets
// SIGTERM (Pdeathsig), which does the same. The program ignores SIGINT:
// a terminal's Ctrl-C reaches toolfind, which cancels its requests.
//
// If the program exits while requests are in flight, each of them, and
// every later one, fails with a *ProgramError naming its exit status and
// the line of its standard error that says why (a panic's first line);
// so does a program that is not a toolfind live-server child (no ready line, or a line
// that is not the protocol) or speaks another protocol version.
package remote
