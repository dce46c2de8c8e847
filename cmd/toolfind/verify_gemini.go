package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/geminicli"
)

func checkVerifyGemini(opts *verifyOptions) ([]verify.Query, error) {
	if opts.queries != "" || len(opts.query) > 0 {
		return nil, usageError("--client gemini takes no queries: Gemini CLI has no tool search; verify calls every declared tool once")
	}
	if opts.bundle != "" {
		return nil, usageError("--bundle goes with --client claude")
	}
	if opts.result != "" {
		data, err := userfile.ReadFile(opts.result)
		if err != nil {
			return nil, badInput(fmt.Errorf("--result: %w", err))
		}
		v, err := ojson.Parse(data)
		if err != nil || v.Kind != ojson.Object {
			return nil, badInput(fmt.Errorf("--result %s: not a JSON object (a CallToolResult): %v", opts.result, err))
		}
		opts.resultJSON = json.RawMessage(v.JS(""))
	}
	return nil, nil
}

// runVerifyGemini is `verify --client gemini`: one run of the installed
// Gemini CLI over the catalog, compared tool by tool (verify/geminicli).
func runVerifyGemini(cmd *cobra.Command, opts *verifyOptions, t *verifyTarget, _ []verify.Query) error {
	s, err := t.build(nil)
	if err != nil {
		return err
	}
	sim, ok := s.(*gemini.Simulator)
	if !ok {
		return usageError("--client %s: not a Gemini CLI profile", t.prof.ID)
	}
	cfg := sim.Declarations().Config
	runner := &geminicli.Runner{Binary: t.binary, Servers: t.servers, StubCommand: t.stub,
		Trusted: cfg.Trusted, AllTrusted: cfg.AllTrusted, YOLO: cfg.YOLO, Keep: opts.keep}
	fmt.Fprintf(t.errOut, "toolfind: verifying Gemini CLI %s (%s) against %s: %d %s, %d declared %s called once each\n",
		t.release, t.binary, t.prof.ID, len(t.servers), plural(len(t.servers), "server", "servers"),
		len(sim.Declarations().MCP), plural(len(sim.Declarations().MCP), "tool", "tools"))
	vctx, cancel := context.WithTimeout(cmd.Context(), opts.timeout)
	defer cancel()
	rep, err := geminicli.Verify(vctx, runner, sim, t.cat, opts.resultJSON)
	if err != nil {
		return liveError(err)
	}
	rep.Client = "gemini " + t.release
	rep.Profile = t.prof.ID.String()
	if opts.format == "json" {
		if err := writeJSON(opts.io.Out, rep); err != nil {
			return err
		}
	} else if err := writeGeminiVerifyText(opts.io.Out, rep); err != nil {
		return err
	}
	if !rep.Agrees() {
		return checkFailed(errors.New(rep.Summary()))
	}
	return nil
}

// writeGeminiVerifyText prints each tool's verdicts and first
// differences, the whole-request checks and the summary; every text from
// the catalog or the client is escaped.
func writeGeminiVerifyText(w io.Writer, rep *geminicli.Report) error {
	sw := safetext.NewWriter(w)
	for i, o := range rep.Tools {
		verdict := "match"
		switch {
		case o.Declaration != geminicli.Match || o.Result == geminicli.Mismatch:
			verdict = "MISMATCH"
		case o.Result == geminicli.Unchecked:
			verdict = "declaration match, result not compared"
		}
		name := o.Name
		if o.Tool != "" {
			name = string(o.Tool) + " as " + o.Name
		}
		fmt.Fprintf(sw, "[%d/%d] %s  %s\n", i+1, len(rep.Tools), verdict, esc(name))
		if o.Declaration != geminicli.Match {
			fmt.Fprintf(sw, "  declaration: %s %s\n", o.Declaration, esc(o.DeclarationDiff))
		}
		if o.Result == geminicli.Mismatch {
			fmt.Fprintf(sw, "  result: %s\n", esc(o.ResultDiff))
		}
		if o.Note != "" {
			fmt.Fprintf(sw, "  note: %s\n", esc(o.Note))
		}
	}
	check := func(what string, c geminicli.Check) {
		if c.Match {
			fmt.Fprintf(sw, "%s: match\n", what)
		} else {
			fmt.Fprintf(sw, "%s: MISMATCH %s\n", what, esc(c.Diff))
		}
	}
	check("declaration order (built-ins included)", rep.Order)
	check("server instructions", rep.Instructions)
	fmt.Fprintln(sw, rep.Summary())
	return sw.Flush()
}
