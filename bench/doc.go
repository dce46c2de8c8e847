// Package bench evaluates client simulators over a labelled query set:
// every selected client answers every query, each answer is scored
// against the query's expected tools, and the scores are summed up per
// client, per tag value and per tool, then rendered as a table, JSON,
// Markdown, JUnit XML or a self-contained HTML report. Thresholds and a
// baseline comparison turn a report into a CI gate (Report.Check,
// Compare).
//
// # Running
//
// Run searches in parallel with a pool of Options.Workers goroutines
// (GOMAXPROCS by default) over the jobs query × simulator; each job's
// outcomes are stored at the job's index, so the report is the same, byte
// for byte, whatever the scheduling. Results are scored as soon as they
// arrive and then dropped: memory grows with the number of outcomes, not
// with the text the models would read. Queries are asked with
// search.Query.Brief, since bench reads only the hits' ranks and the
// token estimate: a simulator may skip the text and explanations.
//
// # Rows
//
// Every simulator gives one row, named after its profile
// ("claude@2.1.328"). A Result's Variants (Codex code mode runs several
// search scripts per query) are scored too, each as a row of its own
// labelled "client [strategy]" ("codex@0.171.0 [regex]"), placed after the
// client's row; the primary Result is what the client row scores. A
// simulator's error for a query (a panic included) is recorded in the
// client row's outcome (Outcome.Error, counted as not found and in
// ClientMetrics.Errors); the variant rows then have no outcome for that
// query. A Result that failed on its own (search.Result.Error: a script
// that threw, timed out or never finished) is scored as what the model
// saw and also counted in Errors (and TimedOut); the table adds an ERRORS
// column and a line per row, "codex@0.171.0: 12 of 2,487 runs timed out"
// (ClientMetrics.ErrorSummary). Variant rows are diagnostics: thresholds
// apply to them only when named, and the JUnit format leaves them out.
//
// # Written calls
//
// With Options.Writers, each client's model writes its calls (package
// writer) and the client replays them; a query counts as found when any
// of its calls shows an expected tool (the best call's outcome, each
// expected tool at its best over the calls, tokens summed). A prompt for
// which the model made no call is an outcome of its own (NoCall), not
// found. A writer that covers only some prompts per client (a
// written-queries file with lines for Claude on some prompts and for
// Codex on others: writer.Covering) gives a client no outcome for a
// prompt it has no line for: each client is scored over the prompts
// written for it (ClientMetrics.Queries and Runs count them), never
// charged a miss for a prompt nobody asked its model.
//
// # One outcome
//
// A simulator's hits carry Rank and RankWorst: the range of positions a
// tool can take among the tools tied with it, equal when the client orders
// ties deterministically. PWithinLimit is the probability that the tool is
// shown. Hits with the same (Rank, RankWorst) form a tie group of n =
// RankWorst − Rank + 1 tools; when the client breaks ties at random (a
// uniform shuffle, as Grok Build's HashSet does), a group straddling the
// limit shows k of its n tools and each member has PWithinLimit = k/n.
// From that the outcome of a query with expected tools E is exact:
//
//   - Let X be the position, inside its group, of the first expected tool
//     in the shuffle, m the expected tools in the group. Then
//     P(X > j) = C(n−j, m)/C(n, m) and P(X = j) = P(X > j−1)·m/(n−j+1).
//     Groups are visited in rank order; the first one holding an expected
//     tool decides, unless none of its expected tools is among its k shown
//     slots (probability P(X > k)), in which case the next one does.
//   - Dist[i] = P(the first expected tool shown is at position i+1);
//     PWithinLimit (found-any) = ΣDist; PAt1 = Dist[0];
//     RR (expected reciprocal rank) = Σ Dist[i]/(i+1);
//     MeanRank = Σ Dist[i]·(i+1) / PWithinLimit.
//   - PAllWithinLimit (found-all) = Π over groups of C(n−m, k−m)/C(n, k)
//     = Π_{i<m} (k−i)/(n−i); 0 when an expected tool is not a hit.
//   - Rank is the first position of the best group holding an expected
//     tool; RankWorst the last position the best-placed one can take,
//     RankWorst(group) − m + 1.
//   - A group whose PWithinLimit·n is not a whole number (a client with
//     another tie model) is read as independent tools, each shown with
//     probability p at the group's first position.
//
// A hit ranked below 1 or beyond 16,384 (a simulator bug) is ignored, and a
// RankWorst beyond that is cut to it.
// Probabilities are rounded to six decimals, so that sums print the same
// whatever the order they were taken in.
//
// Worked example 1 (deterministic ties, limit 5): hits a 1, b 2, x 3, each
// shown (p 1); expecting x gives Rank 3, PWithinLimit 1, PAt1 0, RR 1/3 =
// 0.333333, MeanRank 3, OutrankedBy [a b].
//
// Worked example 2 (random ties, limit 3): hits a 1 (p 1), then b, c, x, d
// tied at 2-5, each with p 2/4 (n 4, k 2 slots). Expecting x (m 1): P(X =
// j) = 1/4 for every j, shown for j ≤ 2 at positions 2 and 3, so Dist =
// [0, 0.25, 0.25], PWithinLimit 0.5, RR 0.25/2 + 0.25/3 = 0.208333,
// MeanRank (0.25·2 + 0.25·3)/0.5 = 2.5, Rank 2, RankWorst 5.
//
// Worked example 3: the same, expecting both x and d (m 2): P(X = 1) =
// 2/4, P(X > 1) = 1/2, P(X = 2) = 1/2·2/3 = 1/3, P(X > 2) = 1/2·1/3 = 1/6 =
// C(2,2)/C(4,2). PWithinLimit = 5/6 = 0.833333, RR = 0.5/2 + (1/3)/3 =
// 0.361111, PAllWithinLimit = (2/4)·(1/3) = 0.166667, Rank 2, RankWorst 4.
//
// # Metrics per client row
//
// Over the queries that expect at least one tool (ClientMetrics): found@1
// = mean PAt1; found@limit = mean PWithinLimit (the expected share over
// tie orders), with the band [share with PWithinLimit = 1, share with
// PWithinLimit > 0] the real client's share falls in; MRR = mean RR; mean
// and p95 (nearest rank) of MeanRank over the queries found in some order;
// not found = queries with PWithinLimit = 0; mean shown tokens over all
// queries. Example: three queries with PWithinLimit 1, 0.5 and 0 give
// found@limit 0.5, band 1/3–2/3, not found 1.
//
// Breakdowns (Options.By) compute the same metrics per value of a tag key,
// values in byte order, queries without the tag last (value ""). The
// per-tool view (Options.PerTool) gives, for every expected tool, the
// number of queries expecting it and, per row, the expected number that
// show it (Σ of its own PWithinLimit) with the tie band.
//
// # Order
//
// Rows: simulators in the order given, each followed by its variant rows
// in order of first appearance. Outcomes: query-major (every row's outcome
// for query 1, then query 2, …). Breakdown groups and per-tool rows are
// sorted; maps are never iterated unsorted.
//
// # Formats
//
// Report.Write renders: Table (aligned columns for a terminal: the client
// rows, the breakdowns, the per-tool view, then up to ten misses per row
// with the tools shown instead); JSON (the design's shape, {"clients":
// […], "outcomes": […]} plus "by" and "per_tool" when asked; ReadReport
// reads it back as a baseline); Markdown (the same tables, misses folded in
// <details>, for a pull request comment or a CI job summary); JUnit XML
// (for a bench, which judges nothing, one test case per query and client,
// failing unless an expected tool is shown in every tie order; a check's
// verdict is WriteJUnitGates, see "Checks"); HTML (one self-contained file: the tables,
// per-client rank distributions as inline SVG bar charts, and a heatmap of
// queries × clients coloured by rank).
//
// # Uncapped rows
//
// Some clients set no cap on what their model reads (search.Result.
// Uncapped): Codex code mode's model reads all its script prints, and a
// script that filters ALL_TOOLS by a broad pattern prints most of the
// catalog (azure-e2e, heuristic writer: found@limit 1.000 while the tool's
// mean rank is 98.6 and found@1 0.009); OpenCode's eager mode sends every
// tool. Such a row's found@limit says only that the tool is somewhere in
// the text. The table, Markdown and HTML show its LIMIT as "none" and its
// FOUND@LIMIT as "n/a", and a note gives what decides instead: the rank,
// found@1, MRR and the tokens the model reads to reach the tool
// (ClientMetrics.MeanReadTokens, from search.Hit.ReadTokens, else the
// whole result). JSON keeps every figure and marks the row "uncapped".
//
// # Checks
//
// Report.Gates judges a report: per row, each threshold (found@limit and
// MRR minimums, mean rank and read tokens maximums, per client when named:
// "claude=0.9"), whether its searches ran without error, and, against a
// baseline, each (query, client row). A found@limit minimum for every
// client fails an uncapped row only where the tool is not in what its
// model reads at all, and otherwise skips it, saying why; one named for
// it is an error (ErrUncappedFoundAtLimit). WriteJUnitGates writes the gates as JUnit,
// one test case per gate, so the file fails exactly when the check does.
// Report.Check returns the failing thresholds per row; Compare matches a
// report with a baseline (rows by label, or by client name when the
// version changed; queries by text, expected tools and occurrence) and
// lists every query whose PWithinLimit or RR went down in a client row
// (variant rows are not compared).
package bench
