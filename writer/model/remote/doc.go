// Package remote runs the model writer's SDK backends in another
// process: the toolfind-model program (cmd/toolfind-model), which links
// the OpenAI and Anthropic SDKs (package writer/model/sdk) so that the
// toolfind command does not. The SDKs add about 85 MB to a binary and
// their package initialisation to every start; toolfind pays for them
// only when --writer model asks a model, by starting toolfind-model
// serve then.
//
// Backend is the toolfind side: a model.Backend that forwards each Ask
// (the request and the prompt) to one long-lived program, started at the
// first Ask, and returns its answer. Everything else stays in the calling
// process: the writer/model.Writer's cache, retries, totals and progress
// see the remote backend as they would the SDK's, so the command's output
// and cache file are the same either way. Serve is the program's side.
//
// # Protocol
//
// JSON Lines, one object a line, on the program's standard input and
// output (version Protocol):
//
//	→ {"id":0,"hello":{"protocol":1,"api":"openai","base_url":"…","model":"m","temperature":0.2,"max_tokens":4096}}
//	← {"id":0,"ready":{"protocol":1}}
//	→ {"id":7,"ask":{"request":{"tools":[…],"system":"…","parts":[…]},"prompt":"…","timeout_ms":119990}}
//	← {"id":7,"answer":{"call":{…},"input_tokens":412,"output_tokens":18}}
//	← {"id":8,"error":{"status":429,"message":"slow down","retry_after_ms":7000}}
//	← {"id":9,"error":{"transport":"Post \"…\": dial tcp …: connection refused"}}
//	→ {"id":10,"cancel":true}
//
// The hello comes first and once; the program answers ready, or an error
// with "fatal" and exits. Asks have ids 1, 2, …; several may be in flight
// and their answers come in any order, matched by id. An ask's
// timeout_ms is the time left before the caller's deadline; a cancel
// cancels the ask of that id (its answer, if any, is ignored). An error
// is exactly one of an HTTP status with the API's message and
// Retry-After (a model.APIError), a transport failure's text (retried by
// the writer like the SDK's) or "fatal": the backend's own failure, which
// ends the run. HTML characters are not escaped, so an answer's call
// arrives byte for byte. When its standard input ends, the program
// cancels what is running and exits.
//
// The API key never crosses the pipe or the command line: the program
// gets it in its environment, under model.KeyVar(api), and only there.
// The program's standard error is passed on. If the program exits while
// asks are in flight, each of them, and every later one, fails with a
// *model.BackendError naming its exit status and the line of its
// standard error that says why (a Go panic's first line, else the
// last); so does a program that is not toolfind-model (no ready line, or
// a line that is not the protocol) or speaks another protocol version.
// (The pipe's mechanics — the program's start, routing by id, its end,
// the serving loop — are package internal/pipeprog's, shared with
// corpus/live/remote.)
package remote
