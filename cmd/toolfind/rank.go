package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/textfit"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

// callText prints a call on one line: each JSON escape \n (a newline in
// the call's text, e.g. between lines of code) shows as ⏎, and the rest
// is escaped for the terminal.
func callText(c json.RawMessage) string {
	var b strings.Builder
	s := string(c)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == 'n' {
				b.WriteString("⏎")
			} else {
				b.WriteString(s[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return safetext.Escape(b.String())
}

// rankOptions are the flags of `toolfind rank`.
type rankOptions struct {
	io       *IOStreams
	global   *globalOptions
	query    string
	prompt   string
	writer   string
	format   string
	explain  bool
	shown    bool
	byClient bool
	rows     int
}

func newRankCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &rankOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "rank --query Q",
		Short: "Rank the catalog's tools for one query, per client",
		Long: `Rank shows, for each selected client, the tools its search returns for the query,
in the client's order, with scores, tie ranges and the text its model reads.

With several clients the table has one row per tool and one column per client: the
tool's rank in that client (3-4 for a tie), for the tools some client shows within its
limit. --by-client prints each client's own list instead, with scores; --explain and
--shown imply it. Lines fit the terminal (100 columns when not a terminal, or $COLUMNS).`,
		Example: `  toolfind rank --query invoice
  toolfind rank --client grok --query "create pull request" --catalog github.json --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runRank(cmd, opts) },
	}
	addVerbose(cmd, g)
	f := cmd.Flags()
	f.StringVarP(&opts.query, "query", "q", "", "the query the model would search for")
	f.StringVarP(&opts.prompt, "prompt", "p", "", "a user prompt: each client's model writes its own call first (see --writer), then it is ranked")
	f.StringVar(&opts.writer, "writer", "heuristic", "with --prompt: who writes each client's call (verbatim or heuristic)")
	addFormatFlag(f, &opts.format, "text", "json")
	f.BoolVar(&opts.explain, "explain", false, "show why each tool scored (text format)")
	f.BoolVar(&opts.shown, "shown", false, "print the exact text each model reads (text format)")
	f.BoolVar(&opts.byClient, "by-client", false, "one block per client with its own hit list (the default with one client, --explain or --shown)")
	f.IntVar(&opts.rows, "rows", 10, "table rows: tools in the several-client view (default 20 there), hits per client with --by-client (0: all); JSON always has all")
	return cmd
}

// rankOutput is the JSON shape of `rank` (the design's CLI contract).
type rankOutput struct {
	Query  string `json:"query,omitempty"`
	Prompt string `json:"prompt,omitempty"`
	// Writer says who wrote the calls of a --prompt (writer.LabelLine).
	Writer  string          `json:"writer,omitempty"`
	Results []search.Result `json:"results"`
}

func runRank(cmd *cobra.Command, opts *rankOptions) error {
	if strings.TrimSpace(opts.query) == "" && strings.TrimSpace(opts.prompt) == "" {
		return usageError("rank needs --query (a search) or --prompt (a user prompt the model turns into its call)")
	}
	if opts.query != "" && opts.prompt != "" {
		return usageError("rank takes --query or --prompt, not both")
	}
	var w writer.Writer
	if opts.prompt != "" {
		var err error
		if w, err = writer.ByName(opts.writer); err != nil {
			return usageError("--writer: %v", err)
		}
	} else if cmd.Flags().Changed("writer") {
		return usageError("--writer goes with --prompt")
	}
	if opts.global.limit < 0 {
		return usageError("--limit %d: must be 0 (client default) or more", opts.global.limit)
	}
	ctx := cmd.Context()
	cat, err := opts.global.loadCatalog(ctx)
	if err != nil {
		return err
	}
	var results []search.Result
	if q := (search.Query{Text: opts.query, Limit: opts.global.limit}); w == nil && cat.Len() >= streamTools {
		if results, err = opts.global.rankEach(ctx, cat, q); err != nil {
			return err
		}
	} else {
		sims, err := opts.global.simulators(cat)
		if err != nil {
			return err
		}
		ph := opts.global.run().begin("search", 0, false)
		if w != nil {
			results, err = writer.Rank(ctx, w, sims, opts.prompt, opts.global.limit)
		} else {
			results, err = toolfind.Rank(ctx, sims, q)
		}
		if err != nil {
			return err
		}
		ph.end(fmt.Sprintf("searched %s", count(len(sims), "client", "clients")))
	}
	if l := opts.global.limit; l > 0 {
		for i := range results {
			noteLimitIgnored(&results[i], l)
			for k := range results[i].Variants {
				noteLimitIgnored(&results[i].Variants[k], l)
			}
		}
	}
	var flat []search.Result
	for _, r := range results {
		flat = append(flat, r.All()...)
	}
	var writerLine string
	if w != nil {
		writerLine = writer.LabelLine(w.Name(), writtenClients(results))
	}
	if opts.format == "json" {
		return writeJSON(opts.io.Out, rankOutput{Query: opts.query, Prompt: opts.prompt, Writer: writerLine, Results: nonNilResults(flat)})
	}
	width := outputWidth(opts.io.Out)
	if writerLine != "" {
		for _, l := range wrap(esc(writerLine), width) {
			fmt.Fprintln(opts.io.Out, l)
		}
	}
	if len(results) > 1 && !opts.byClient && !opts.explain && !opts.shown {
		rows := opts.rows
		if !cmd.Flags().Changed("rows") {
			rows = 20
		}
		return writeRankCompact(opts.io.Out, results, opts.query+opts.prompt, rows, width)
	}
	return writeRankTable(opts.io.Out, flat, tableOptions{explain: opts.explain, shown: opts.shown, rows: opts.rows, width: width})
}

// writtenClients are the clients of the results whose calls a writer
// wrote, each once, in order.
func writtenClients(results []search.Result) []search.ClientID {
	var ids []search.ClientID
	seen := map[string]bool{}
	for _, r := range results {
		if r.Writer != "" && !seen[r.Client] {
			seen[r.Client] = true
			ids = append(ids, search.ParseClientID(r.Client))
		}
	}
	return ids
}

// noteLimitIgnored adds a note to a result whose client did not apply
// --limit (eager loading shows every tool, a code-mode script returns what
// it returns, a shortcut returns one tool), so a user does not take the
// limit for the cause of what it shows.
func noteLimitIgnored(r *search.Result, limit int) {
	if r.Limit == limit || (r.Limit < limit && len(r.Hits) == r.Limit) {
		return
	}
	r.Notes = append(r.Notes, fmt.Sprintf("--limit %d does not apply to this client (it shows %d)", limit, len(r.Hits)))
}

func nonNilResults(rs []search.Result) []search.Result {
	for i := range rs {
		if rs[i].Hits == nil {
			rs[i].Hits = []search.Hit{}
		}
	}
	if rs == nil {
		rs = []search.Result{}
	}
	return rs
}

// writeJSON writes v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// tableOptions say how much of each result the table prints.
type tableOptions struct {
	explain bool // the Why lines under each hit
	shown   bool // the text the model reads
	rows    int  // hits per result; 0 = all
	width   int  // line width the --explain lines wrap at (0: no wrapping)
}

// esc is the one escaping rule for text output (package internal/safetext):
// every single-line field a table prints goes through it, so nothing a
// catalog, a server or a script holds reaches the terminal as a control
// character.
func esc(s string) string { return safetext.Escape(s) }

// writeRankTable prints one block per client result. A result whose hits
// all score 0 (the client has no score: eager loading, code-mode scripts)
// prints "-" for the score.
func writeRankTable(w io.Writer, results []search.Result, opts tableOptions) error {
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := r.Client
		if r.Strategy != "" {
			title += " [" + r.Strategy + "]"
		}
		fmt.Fprintf(w, "%s — %d %s, limit %d, model reads %d tokens\n", esc(title), len(r.Hits), plural(len(r.Hits), "hit", "hits"), r.Limit, r.ShownTokens)
		if r.Call != nil {
			writeFolded(w, fmt.Sprintf("call (%s writer): %s", esc(r.Writer), esc(callText(r.Call))), "  ", opts.width)
		}
		if r.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", esc(r.Error))
		}
		for _, n := range r.Notes {
			if n != "toolfind: "+r.Error { // Codex's note repeats a stopped script's error
				// "  " before every line and "  " more before a
				// continuation: wrap to width − 4 so that both fit.
				for i, l := range wrap("note: "+esc(n), opts.width-4) {
					if i > 0 {
						l = "  " + l
					}
					fmt.Fprintf(w, "  %s\n", l)
				}
			}
		}
		switch {
		case len(r.Hits) == 0 && r.Error != "":
			fmt.Fprintln(w, "  (no tools: the search failed)")
		case len(r.Hits) == 0:
			fmt.Fprintln(w, "  (no tools found)")
		default:
			scored := false
			for _, h := range r.Hits {
				scored = scored || h.Score != 0
			}
			hits := r.Hits
			if opts.rows > 0 && len(hits) > opts.rows {
				hits = hits[:opts.rows]
			}
			// The rows are aligned on their own; each hit's reasons go
			// under it, wrapped to the width, so a long reason never
			// widens a column.
			var buf strings.Builder
			tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  RANK\tSCORE\tP(SHOWN)\tTOOL\tNAME")
			for _, h := range hits {
				score := "-"
				if scored {
					score = formatScore(h.Score)
				}
				tool, name := esc(string(h.Tool)), esc(h.Name)
				if opts.width > 0 {
					// RANK, SCORE and P(SHOWN) take about 30 columns;
					// the two names share the rest.
					n := max((opts.width-30)/2, 16)
					tool, name = textfit.ShortenMiddle(tool, n), textfit.ShortenMiddle(name, n)
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", rankText(h), score, formatP(h.PWithinLimit), tool, name)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			fmt.Fprintln(w, lines[0])
			for i, h := range hits {
				fmt.Fprintln(w, strings.TrimRight(lines[i+1], " "))
				if opts.explain {
					for _, why := range h.Why {
						for _, l := range wrap(esc(why), opts.width-8) {
							fmt.Fprintf(w, "        %s\n", l)
						}
					}
				}
			}
			if more := len(r.Hits) - len(hits); more > 0 {
				fmt.Fprintf(w, "  … %d more (--rows 0 prints all)\n", more)
			}
		}
		if opts.shown {
			fmt.Fprintln(w, "  --- shown to the model ---")
			for _, line := range strings.Split(r.Shown, "\n") {
				fmt.Fprintf(w, "  | %s\n", safetext.Block(line))
			}
		}
	}
	return nil
}

// wrap is textfit.Wrap with a floor of 20 columns.
func wrap(s string, width int) []string { return textfit.Wrap(s, max(width, 20)) }

func rankText(h search.Hit) string {
	if h.RankWorst > h.Rank {
		return fmt.Sprintf("%d-%d", h.Rank, h.RankWorst)
	}
	return strconv.Itoa(h.Rank)
}

// formatScore prints integers without a fraction and others with up to
// seven significant digits (float32 precision).
func formatScore(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', 7, 64)
}

func formatP(p float64) string {
	switch p {
	case 1:
		return "yes"
	case 0:
		return "no"
	}
	return strconv.FormatFloat(p*100, 'f', 1, 64) + "%"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
