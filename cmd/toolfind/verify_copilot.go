package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/copilot"
	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/verify"
	"github.com/toolfind/toolfind/verify/copilotcli"
)

// copilotVerifyReport is `verify --client copilot --format json`.
type copilotVerifyReport struct {
	Client  string                 `json:"client"`
	Profile string                 `json:"profile"`
	Model   string                 `json:"model"`
	API     string                 `json:"api"`
	Entries copilotcli.EntryReport `json:"entries"`
	Search  *verify.Report         `json:"search,omitempty"`
}

func checkVerifyCopilot(opts *verifyOptions) ([]verify.Query, error) {
	if opts.result != "" {
		return nil, usageError("--result goes with --client gemini")
	}
	if opts.bundle != "" {
		return nil, usageError("--bundle goes with --client claude")
	}
	return verifyQueries(opts)
}

// runVerifyCopilot runs the user's Copilot CLI offline against the
// catalog: once to capture the tool entries and the deferral decision,
// then once per query (a tool_search_tool pattern).
func runVerifyCopilot(cmd *cobra.Command, opts *verifyOptions, t *verifyTarget, queries []verify.Query) error {
	ctx := cmd.Context()
	o, errOut, release, binary, prof, servers := t.options, t.errOut, t.release, t.binary, t.prof, t.servers
	// verify runs the CLI offline (COPILOT_OFFLINE=true): two builtins
	// fewer than online, which the simulation must count the same way.
	o[copilot.OptOffline] = "true"
	s, err := t.build(o)
	if err != nil {
		return err
	}
	sim, ok := s.(*copilot.Simulator)
	if !ok {
		return usageError("--client %s: not a Copilot CLI profile", prof.ID)
	}
	popts, _ := copilot.ParseOptions(o)
	runner := &copilotcli.Runner{Binary: binary, Servers: servers, StubCommand: t.stub,
		Model: sim.Model(), API: sim.API(), NeverDefer: popts.NeverDefer, Keep: opts.keep}
	fmt.Fprintf(errOut, "toolfind: verifying Copilot CLI %s (%s) against %s offline, %s over %s: %d %s, %d %s\n",
		release, binary, prof.ID, sim.Model(), sim.API(), len(servers), plural(len(servers), "server", "servers"),
		len(queries), plural(len(queries), "query", "queries"))
	capture, err := runner.Capture(ctx)
	if err != nil {
		return liveError(err)
	}
	out := copilotVerifyReport{Client: "copilot " + release, Profile: prof.ID.String(), Model: sim.Model(), API: string(sim.API()),
		Entries: copilotcli.CompareEntries(sim, capture.Tools)}
	var runErr error
	if len(queries) > 0 {
		if !sim.Searchable() {
			fmt.Fprintf(errOut, "toolfind: note: the simulation gives this model and wire no tool_search_tool (%s); the queries check that the CLI offers none either\n", sim.Mode())
		}
		rep, err := runVerifyQueries(cmd, opts, runner, sim, queries)
		rep.Client = out.Client
		out.Search, runErr = rep, err
	}
	if opts.format == "json" {
		if err := writeJSON(opts.io.Out, out); err != nil {
			return err
		}
	} else {
		sw := safetext.NewWriter(opts.io.Out)
		for _, d := range out.Entries.Diffs {
			fmt.Fprintf(sw, "entry %s\n", esc(d))
		}
		fmt.Fprintln(sw, out.Entries.Summary())
		if err := sw.Flush(); err != nil {
			return err
		}
		if out.Search != nil {
			if err := writeVerifyText(opts.io.Out, out.Search); err != nil {
				return err
			}
		}
	}
	if runErr != nil {
		return runErr
	}
	var problems []string
	if !out.Entries.Agrees() {
		problems = append(problems, out.Entries.Summary())
	}
	if out.Search != nil && (out.Search.Mismatch > 0 || out.Search.Failed > 0) {
		problems = append(problems, out.Search.Summary())
	}
	if len(problems) > 0 {
		if out.Search != nil && out.Search.Mismatch == 0 && out.Entries.Agrees() {
			return liveError(errors.New(strings.Join(problems, "; ")))
		}
		return checkFailed(errors.New(strings.Join(problems, "; ")))
	}
	return nil
}
