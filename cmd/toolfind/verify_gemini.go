package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/verify/geminicli"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// runVerifyGemini is `verify --client gemini`: one run of the installed
// Gemini CLI over the catalog, compared tool by tool (verify/geminicli).
func runVerifyGemini(cmd *cobra.Command, opts *verifyOptions, id search.ClientID) error {
	if opts.queries != "" || len(opts.query) > 0 {
		return usageError("--client gemini takes no queries: Gemini CLI has no tool search; verify calls every declared tool once")
	}
	if opts.bundle != "" {
		return usageError("--bundle goes with --client claude")
	}
	var result json.RawMessage
	if opts.result != "" {
		data, err := os.ReadFile(opts.result)
		if err != nil {
			return badInput(fmt.Errorf("--result: %w", err))
		}
		v, err := ojson.Parse(data)
		if err != nil || v.Kind != ojson.Object {
			return badInput(fmt.Errorf("--result %s: not a JSON object (a CallToolResult): %v", opts.result, err))
		}
		result = json.RawMessage(v.JS(""))
	}
	ctx := cmd.Context()
	cat, err := opts.global.loadCatalog(ctx)
	if err != nil {
		return err
	}
	binary := opts.binary
	if binary == "" {
		if binary, err = geminicli.FindBinary(); err != nil {
			return usageError("%v", err)
		}
	} else if binary, err = geminicli.ResolveBinary(binary); err != nil {
		return usageError("%v", err)
	}
	release, err := geminicli.Version(ctx, binary)
	if err != nil {
		return liveError(err)
	}
	want := id.String()
	if id.Version == "" {
		want = "gemini@" + release
	}
	prof, res, err := search.LookupRelease(want)
	if err != nil {
		return usageError("--client: %v", err)
	}
	errOut := safetext.NewWriter(opts.io.ErrOut)
	defer errOut.Flush()
	if res.Note != "" {
		fmt.Fprintf(errOut, "toolfind: note: %s\n", res.Note)
	}
	if res.Warning != "" {
		fmt.Fprintf(errOut, "toolfind: warning: %s\n", res.Warning)
	}
	copts, err := opts.global.options()
	if err != nil {
		return err
	}
	s, err := search.Build(prof, cat, copts[prof.ID.Name])
	if err != nil {
		return usageError("--client: %v", err)
	}
	sim, ok := s.(*gemini.Simulator)
	if !ok {
		return usageError("--client %s: not a Gemini CLI profile", prof.ID)
	}
	servers, err := mcpstub.FromCatalog(cat)
	if err != nil {
		return badInput(err)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding toolfind's own executable for the stub servers: %w", err)
	}
	cfg := sim.Declarations().Config
	runner := &geminicli.Runner{Binary: binary, Servers: servers, StubCommand: []string{self, "mcp-stub"},
		Trusted: cfg.Trusted, AllTrusted: cfg.AllTrusted, YOLO: cfg.YOLO, Keep: opts.keep}
	fmt.Fprintf(errOut, "toolfind: verifying Gemini CLI %s (%s) against %s: %d %s, %d declared %s called once each\n",
		release, binary, prof.ID, len(servers), plural(len(servers), "server", "servers"),
		len(sim.Declarations().MCP), plural(len(sim.Declarations().MCP), "tool", "tools"))
	vctx, cancel := context.WithTimeout(ctx, opts.timeout)
	defer cancel()
	rep, err := geminicli.Verify(vctx, runner, sim, cat, result)
	if err != nil {
		return liveError(err)
	}
	rep.Client = "gemini " + release
	rep.Profile = prof.ID.String()
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
