// Package suggest finds edits to an MCP server's tool definitions that
// make its tools findable by the agent clients, and proves each one by
// re-simulating every client on the whole query set.
//
// # Input
//
// A catalog, a Builder that makes the selected clients' simulators over
// any catalog, and a labelled query set, with the writer of each client's
// calls (package writer; none means the query text is the search), as
// bench.Run takes them.
//
// # Algorithm
//
//  1. Before: bench.Run over every query. A (query, client) pair is
//     missed when its found-probability (bench.Outcome.PWithinLimit, over
//     the client's tie orders) is below 1. Strategy-variant rows are
//     diagnostics and are left out.
//  2. Targets: every expected tool of a missed pair, the most missed
//     first (ties by id).
//  3. Words, per target: the words of its missed prompts and of the calls
//     written for them (intent.Keywords: lowercased, split at punctuation
//     and camelCase, stop and filler words out, Snowball stems), less
//     those the tool's name, title, description or hint already has,
//     numbers and words under three letters. A word is generic, and
//     dropped, when more than 2p+1 prompts that do not expect the tool use
//     it, p being the missed prompts that do: "show" or "list" would fix
//     one prompt by pulling the tool into many others. The rest are ranked
//     by missed prompts, then missed pairs, then fewest other prompts,
//     then alphabetically, and spelled as the prompts spell them most.
//  4. Candidates, least intrusive first, each field tried with the top 1,
//     2, 4, 8 words and the most the budget allows:
//     - search hint: _meta["anthropic/searchHint"] gains the words (at
//     most Options.HintWords); tried only for Claude pairs whose call is a
//     keyword search, since a select: call looks names up
//     (specs/claude.md §1);
//     - description: "Words, more words. " in front of it, where every
//     client's cut keeps them (Claude's listing cap, Codex's 1,000-byte
//     plugin cut, OpenCode code mode's catalog line and Grok's limits all
//     cut the end); at most 4 words and Options.DescriptionBudget
//     characters;
//     - title: "Title (words)" (the humanized name when there is no title;
//     at most 4 words, 60 characters); tried only for Codex tool_search
//     pairs, the one search that indexes titles (specs/codex.md §5.1);
//     - name (Options.Rename): the words appended in the name's own style;
//     always flagged breaking, and the query set's expectations follow it.
//  5. Screening: a candidate is applied to a copy of the working catalog
//     (the tool's JSON object is edited member by member and read back
//     through the catalog parser) and every client is re-simulated, the
//     writer included, on the queries it can change: those expecting the
//     tool, and those whose prompt or written calls use one of the added
//     words. It is rejected when it makes any pair worse (a regression)
//     or improves none. Per field, the sizes are tried in order until one
//     fixes every missed pair the field reaches; the best (largest total
//     gain, then fewest words) is accepted into the working catalog and
//     the next field is tried on top of it.
//  6. Verification: the accepted edits are applied to the input catalog and
//     the whole corpus is re-simulated (a collection statistic such as
//     BM25's average length moves every score a little). While some pair
//     is worse than before, the edit most to blame is dropped (its tool
//     shown instead of the expected one counts twice, its words in the
//     prompt once; the last accepted when nothing is to blame) and the
//     corpus is run again; then edits whose tool's pairs no longer improve
//     are dropped too. The figures of the last run are the report's
//     "after", which is exactly what bench reports on the edited catalog.
//
// With Options.Holdout, a seeded shuffle holds a share of the queries out:
// steps 2–6 see only the rest, and the report gives both parts' figures
// and the held-out pairs the edits made worse.
//
// # Example
//
// The notes fixture (testdata/notes.json, TestNotesVerbatim) has
// archive_note, "Move a note out of the active list into the archive.",
// expected by three prompts: "stash the meeting memo away", "stash my old
// memo", "put the draft memo away in storage". No client finds it with
// the prompt as the query. Its words rank memo (3 missed prompts), then
// away and stash (2 each; "memo" is also in "create a memo about lunch",
// which expects create_note: one other prompt, 1 ≤ 2·3+1, so not
// generic). The hint comes first: "memo" fixes every Claude pair, so no
// more words are tried for it. Then the description, its words ranked
// again without memo (the tool's hint has it now): "Stash, away. Move a
// note …" shows the tool to Grok, Codex's tool_search and OpenCode code
// mode for all three prompts and moves no other prompt's tool, so it is
// kept. Codex code mode's all-terms script needs every word of a prompt
// in one tool, which a four-word lead-in does not give: it stays at 0%
// for these prompts.
//
// # Documents
//
// EditDocument writes the edits into the input document: only the edited
// tool objects change, every other byte is kept. Its JSON Merge Patch
// (RFC 7386) replaces the member holding the tools, because a merge patch
// cannot reach into an array.
package suggest
