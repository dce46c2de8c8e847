// Package snap holds what a program needs to work with live MCP servers
// without linking the MCP Go SDK: the Source of a server and its flag
// parsers (ParseServer, ParseURL, ParseHeader, SplitCommand), the
// Snapshot a server published and the catalog files made of snapshots
// (WriteCatalog, Merge), and the failures of a snapshot, one type per
// phase (StartError, HandshakeError, ListError, ParseError, CallError),
// with their causes ErrTimeout, ErrInterrupted and ExitError.
//
// Taking a snapshot needs the SDK: package corpus/live does it in
// process, and package corpus/live/remote asks a child process that runs
// corpus/live (toolfind's live-server child) over a pipe and returns the
// same values and errors. corpus/live re-exports every name of this package, so its users
// see no difference. See corpus/live for what a snapshot is, how servers
// are named and what each phase's failures mean.
//
// A failure's message is
//
//	live server NAME (SOURCE): PHASE (DETAIL): CAUSE
//	  server stderr (last lines):
//	    | LINE
//
// with `live server "SOURCE"` when the server has no "name=" prefix, and
// the stderr block only when a stdio server wrote to stderr.
package snap
