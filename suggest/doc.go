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
//  3. Words, per target and field: the words of its missed prompts and of
//     the calls written for them (intent.Keywords: lowercased, split at
//     punctuation and camelCase, stop and filler words out, Snowball
//     stems), less those the tool's name, title, description or hint
//     already has, numbers and words under three letters. A word is
//     generic, and dropped, when more than 2p+1 prompts that do not expect
//     the tool use it, p being the missed prompts that do. The rest are
//     ranked by missed prompts, then missed pairs, then fewest other
//     prompts, then alphabetically, and spelled as the prompts spell them
//     most ("VMs").
//  4. The tool's vocabulary, not one prompt's: a word is kept only when
//     the learning prompts that expect the tool (found or missed) use it
//     in two folds at least (cross-validation folds: the learning queries
//     dealt by position into 3), or when one does and the word is the
//     tool's own all the same: an action verb ("resize"), a longer form or
//     a part of a word of its name ("vms" for compute_vm_get, "config" for
//     appconfig_kv_get), the initials of words of its name or description
//     ("WAF" for Well-Architected Framework), or a word of its input
//     schema. "groceries", "d4s" or "staging" are none of these.
//  5. Candidates, least intrusive field first:
//     - search hint: _meta["anthropic/searchHint"] gains the words as
//     keywords (at most Options.HintWords); tried only for Claude pairs
//     whose call is a keyword search, since a select: call looks names up
//     (specs/claude.md §1);
//     - description: one sentence written by a template (sentenceFor):
//     "Also use it to resize or scale disks." (actions and the name's
//     object), "Also use it when asked to count." (no object), "Also use
//     it for VMs and cost." (other words), or both clauses; at most 4
//     words and Options.DescriptionBudget characters. It ends the first
//     paragraph, or follows the first sentence when that paragraph would
//     end past 1,000 bytes (Codex's cut), so every client's cut keeps it;
//     - title: "Title (words)" (the humanized name when there is no title;
//     at most 4 words, 60 characters); tried only for Codex tool_search
//     pairs, the one search that indexes titles (specs/codex.md §5.1);
//     - name (Options.Rename): the words appended in the name's own style;
//     always flagged breaking, and the query set's expectations follow it.
//  6. Cross-validation chooses each edit: for each number of words n (1,
//     2, 4 and the most the budget allows) and each fold k, the top n
//     words learned without fold k (steps 3–4 on the other folds) are
//     phrased and re-simulated (a candidate is applied to a copy of the
//     working catalog, the tool's JSON object edited member by member and
//     read back through the catalog parser, and every client is re-run,
//     the writer included, on the learning queries it can change: those
//     expecting the tool, and those whose prompt or calls use a word of
//     the added text). The size kept is the one whose edits gain most on
//     the folds they were not learned on and make none of those folds'
//     pairs worse, the fewest words among equals; when every size makes a
//     held-out fold worse, the edit is rejected ("learned without a fold,
//     it makes N of that fold's pairs worse"). That size's words learned
//     on every fold make the edit, which must then fix a learning pair and
//     make none worse; it joins the working catalog and the next field is
//     tried on top of it.
//  7. Verification: the accepted edits are applied to the input catalog and
//     the whole corpus is re-simulated (a collection statistic such as
//     BM25's average length moves every score a little). While some pair
//     is worse than before, the edit most to blame is dropped (its tool
//     shown instead of the expected one counts twice, its words in the
//     prompt once; the last accepted when nothing is to blame) and the
//     corpus is run again; then edits whose tool's pairs no longer improve
//     are dropped too. The figures of the last run are the report's
//     "after", which is exactly what bench reports on the edited catalog.
//
// With Options.Holdout, a seeded shuffle holds a share of the queries out
// (Options.HeldOut: a rule such as AlternateLines, the even-numbered
// lines): steps 2–7 see only the rest, and the report gives both parts'
// figures and the held-out pairs the edits made worse. Zero regressions
// is a promise about the queries the edits were learned on; the held-out
// part is reported as it comes out.
//
// What cross-validation can and cannot show: a tool whose missed prompts
// all sit in one fold has nothing in the other folds to be helped, so for
// it the folds check only that the edit hurts no prompt it was not learned
// on; the vocabulary rule (step 4) is what keeps one prompt's words out.
//
// # Example
//
// The notes fixture (testdata/notes.json, TestNotesVerbatim) has
// archive_note, "Move a note out of the active list into the archive.",
// expected by three prompts, in folds 1, 2 and 0: "stash the meeting
// memo away", "stash my old memo", "put the draft memo away in storage".
// No client finds it with the prompt as the query. Its words: memo (3
// missed prompts, 3 folds), away and stash (2 each, 2 folds), then
// meeting, old, draft, storage and put (one prompt each; only put, an
// action verb, is the tool's vocabulary). The hint comes first: "memo
// away" fixes every Claude pair. Then the description, its words ranked
// again without memo and away (the hint has them): "Also use it for
// stash." shows the tool to Codex's tool_search and OpenCode code mode
// for every prompt and to Grok for the two stash prompts, and moves no
// other prompt's tool. Codex's tool_search title gains the last word,
// "put". Grok still misses "put the draft memo away in storage": its
// words are that prompt's alone.
//
// # Documents
//
// EditDocument writes the edits into the input document: only the edited
// tool objects change, every other byte is kept. Its JSON Merge Patch
// (RFC 7386) replaces the member holding the tools, because a merge patch
// cannot reach into an array.
package suggest
