// Package model is the "model" writer: a real model, reached through its
// API, writes each client's search call from what that client shows it.
//
// # Core and backends
//
// This package is the writer's core and links no SDK: it renders each
// client's Request once, keeps the cache, the retries, the running totals
// and the progress, and asks a Backend for each answer it does not hold.
// A Backend sends one request and turns the API's reply into an Answer
// with ToolCall or NoToolCall (so every backend reads answers alike):
//
//   - package writer/model/sdk: the official SDKs (openai-go/v3 for
//     Chat Completions, anthropic-sdk-go/v2 for Messages); sdk.New(cfg)
//     is the writer with them, as the toolfind command uses it;
//   - any other Backend (a test's stub, a program's own client).
//
// # What is sent
//
// For one (client, prompt) the writer renders the client's surface
// (search.Writable.Surface, with the user's --surface-file texts when
// given) and sends one request:
//
//   - tools: every tool of the surface, as the client offers them, with
//     its name, description and input schema (Claude Code's ToolSearch;
//     Grok's search_tool and use_tool; Codex's exec as {"code": string}
//     — the real exec is a freeform tool whose input is the code itself;
//     codex-search's tool_search; OpenCode's execute);
//   - the system prompt: the surface's "system" texts, joined by a blank
//     line (OpenCode v2's catalog); none when the surface has none;
//   - one user message: each "system-reminder" text wrapped in
//     <system-reminder>…</system-reminder> as its own text part, the way
//     Claude Code places its deferred-tools list (specs/claude.md
//     background §1) and Grok Build its connected-servers list
//     (specs/grok.md B.1), then any "user" texts, then the prompt;
//   - tool_choice forcing Tools[0], the search tool (OpenAI
//     {"type":"function","function":{"name":…}}, Anthropic
//     {"type":"tool","name":…}), so the answer is the model's search call;
//   - temperature when --temperature is set; max tokens 4096.
//
// The call is the input of the answer's first call of the search tool. An
// answer with no such call, or whose input is not a JSON object, is a
// writer.NoCallError whose reason says which: it is recorded and counted,
// never retried and never fatal.
//
// # Cache
//
// Every answer, a call or a no-call, is appended to a JSON Lines cache as
// soon as it arrives (so an interrupted run keeps what it paid for), keyed
// by (api, model, temperature, client, surface hash, prompt, sample). A
// rerun with the same inputs sends no request. The surface hash is the
// SHA-256 of the request's tools, system text and reminders, so changing
// the catalog, the client version or a --surface-file text asks again.
//
// # Errors
//
// 429, 5xx, 408, 409 and timeouts or broken connections are retried with
// exponential backoff (Config.Backoff doubling to 30 s, Retry-After
// honoured, Config.Retries times). 401 and 403 say the key was refused,
// 404 that the model or URL does not exist, other 4xx quote the API's
// message; each ends the run (later calls fail at once with the same
// error). A backend's own failure (a *BackendError) ends the run the
// same way, unretried, and counts no request. The API key is sent only in
// the request's auth header: it is never part of an error, the cache or
// any output.
package model
