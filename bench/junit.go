package bench

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JUnit XML, the subset CI systems read (Jenkins, GitLab, GitHub test
// reporters). A check's verdict is WriteJUnitGates (a test case per
// gate). A bench's report, which judges nothing, is WriteJUnit: one
// <testsuite> per client, one <testcase> per query.
// Strategy variant rows are left out: they show how a client searches, and
// the client's verdict is its own row's.
// A test case fails unless an expected tool is shown in every tie order
// (Outcome.Found): a tool shown in only some orders is a finding the
// server author should see. The failure's message gives the rank; its
// text the tools shown instead. A simulator error is an <error>. Queries
// without expected tools are <skipped>. Times are 0: the simulation's
// speed is not what is tested, and the file stays identical run to run.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  *junitText      `xml:"system-out,omitempty"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(w io.Writer) error {
	if r.summary {
		return errSummary
	}
	suites := junitSuites{Name: "toolfind", Time: "0"}
	index := map[string]int{}
	for _, c := range r.Clients {
		if c.Variant {
			continue
		}
		index[c.Client] = len(suites.Suites)
		suites.Suites = append(suites.Suites, junitSuite{
			Name: c.Client,
			Time: "0",
			Properties: []junitProperty{
				{"limit", strconv.Itoa(c.Limit)},
				{"found_at_1", num(c.FoundAt1, 6)},
				{"found_at_limit", num(c.FoundAtLimit, 6)},
				{"mrr", num(c.MRR, 6)},
			},
		})
	}
	for i := range r.Outcomes {
		o := &r.Outcomes[i]
		k, ok := index[o.Client]
		if !ok {
			continue
		}
		s := &suites.Suites[k]
		tc := junitCase{
			Name:      caseName(o),
			Classname: "toolfind." + o.Client,
			File:      r.Queries,
			Line:      o.Line,
			Time:      "0",
		}
		switch {
		case o.Error != "":
			tc.Error = &junitProblem{Message: o.Error, Type: "simulator_error"}
			s.Errors++
		case len(o.Expect) == 0:
			tc.Skipped = &junitProblem{Message: "no expected tools"}
			s.Skipped++
		case !o.Found:
			typ := "not_found"
			if o.PWithinLimit > 0 {
				typ = "tie_order"
			}
			tc.Failure = &junitProblem{
				Message: fmt.Sprintf("%s not certainly shown: %s", joinIDs(o.Expect), missHeadline(o)),
				Type:    typ,
				Text:    xmlSafe(failureText(o)),
			}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	for _, s := range suites.Suites {
		suites.Tests += s.Tests
		suites.Failures += s.Failures
		suites.Errors += s.Errors
		suites.Skipped += s.Skipped
	}
	return writeJUnit(w, suites)
}

// caseName names a test case after its query, with the expected tools:
// "create an invoice → billing/invoice_lookup".
func caseName(o *Outcome) string {
	if len(o.Expect) == 0 {
		return o.Query
	}
	return o.Query + " → " + joinIDs(o.Expect)
}

func missHeadline(o *Outcome) string {
	switch {
	case o.Rank == 0:
		return "not among the hits"
	case o.PWithinLimit > 0:
		return fmt.Sprintf("rank %s, shown in %s of tie orders (limit %d)", RankText(o.Rank, o.RankWorst), Percent(o.PWithinLimit), o.Limit)
	}
	return fmt.Sprintf("rank %s, beyond limit %d", RankText(o.Rank, o.RankWorst), o.Limit)
}

func failureText(o *Outcome) string {
	var b strings.Builder
	for _, t := range o.Tools {
		if t.Rank == 0 {
			fmt.Fprintf(&b, "%s: not a hit\n", t.Tool)
			continue
		}
		fmt.Fprintf(&b, "%s: rank %s, shown in %s of tie orders\n", t.Tool, RankText(t.Rank, t.RankWorst), Percent(t.PWithinLimit))
	}
	if len(o.OutrankedBy) > 0 {
		label := "outranked by"
		if o.Rank == 0 {
			label = "shown instead"
		}
		fmt.Fprintf(&b, "%s: %s\n", label, joinIDs(o.OutrankedBy))
	}
	return b.String()
}

// xmlSafe replaces the characters XML 1.0 cannot carry (most control
// characters, lone surrogates, U+FFFE, U+FFFF) with U+FFFD; encoding/xml
// does so for attributes and text but not inside CDATA.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// WriteJUnitGates writes a check's verdict as JUnit XML: one <testsuite>
// per row that a gate judges, in row order, with the row's metrics as
// properties and the queries it does not certainly show in its
// <system-out>; one <testcase> per gate (Report.Gates), in order: a
// failing gate is a <failure> (message: why; text: the tools behind
// it), a gate that does not judge the row is <skipped> with the reason.
// So the file fails exactly when the check does: failures="0" for a
// check that passes.
func (r *Report) WriteJUnitGates(w io.Writer, gates []Gate) error {
	if r.summary {
		return errSummary
	}
	suites := junitSuites{Name: "toolfind check", Time: "0"}
	index := map[string]int{}
	metrics := map[string]ClientMetrics{}
	for _, c := range r.Clients {
		metrics[c.Client] = c
	}
	misses, _ := r.misses()
	suite := func(client string) *junitSuite {
		if k, ok := index[client]; ok {
			return &suites.Suites[k]
		}
		c := metrics[client]
		s := junitSuite{Name: client, Time: "0", Properties: []junitProperty{
			{"limit", rowLimit(c)},
			{"found_at_1", num(c.FoundAt1, 6)},
			{"found_at_limit", num(c.FoundAtLimit, 6)},
			{"mrr", num(c.MRR, 6)},
			{"mean_rank", num(c.MeanRank, 6)},
			{"mean_read_tokens", num(c.MeanReadTokens, 6)},
		}}
		if c.Uncapped {
			s.Properties = append(s.Properties, junitProperty{"uncapped", "true"})
		}
		if c.Writer != "" {
			s.Properties = append(s.Properties, junitProperty{"writer", c.WriterLabel})
		}
		if ms := misses[client]; len(ms) > 0 {
			var b strings.Builder
			fmt.Fprintf(&b, "%d %s not certainly shown:\n", len(ms), plural(len(ms), "query", "queries"))
			for _, o := range ms {
				fmt.Fprintf(&b, "%s → %s: %s\n", o.Query, joinIDs(o.Expect), missText(o))
			}
			s.SystemOut = &junitText{Text: xmlSafe(b.String())}
		}
		index[client] = len(suites.Suites)
		suites.Suites = append(suites.Suites, s)
		return &suites.Suites[len(suites.Suites)-1]
	}
	// Suites in row order, whatever the order of the gates.
	judged := map[string]bool{}
	for _, g := range gates {
		judged[g.Client] = true
	}
	for _, c := range r.Clients {
		if judged[c.Client] {
			suite(c.Client)
		}
	}
	for _, g := range gates {
		s := suite(g.Client)
		tc := junitCase{Name: g.Name, Classname: "toolfind." + g.Client, Time: "0"}
		if g.kind == "baseline" || g.Query != "" {
			o := Outcome{Query: g.Query, Expect: g.Expect}
			tc.Name = g.Name + ": " + caseName(&o)
			tc.File, tc.Line = r.Queries, g.Line
		}
		switch {
		case g.Failed():
			typ := g.kind
			if typ == "" {
				typ = "gate"
			}
			tc.Failure = &junitProblem{Message: g.Failure, Type: typ, Text: xmlSafe(g.Detail)}
			s.Failures++
		case g.Skipped != "":
			tc.Skipped = &junitProblem{Message: g.Skipped}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	for _, s := range suites.Suites {
		suites.Tests += s.Tests
		suites.Failures += s.Failures
		suites.Skipped += s.Skipped
	}
	return writeJUnit(w, suites)
}

// writeJUnit encodes the suites after the XML header.
func writeJUnit(w io.Writer, suites junitSuites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(suites); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
