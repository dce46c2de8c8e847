package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/lint"
)

func init() { commands = append(commands, command{"lint", newLintCmd}) }

// defaultLintConfig is read from the working directory when --config is
// not given.
const defaultLintConfig = ".toolfind.yaml"

// lintOptions are the flags of `toolfind lint`.
type lintOptions struct {
	io          *IOStreams
	global      *globalOptions
	format      string
	failOn      string
	minSeverity string
	enable      []string
	disable     []string
	config      string
	verbose     bool
	listRules   bool
}

func newLintCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &lintOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Report what to fix in the catalog: one finding per cause, with each client's consequence",
		Long: `Lint reports each root cause once, at the file, line and column of the JSON member
that causes it, with what each simulated client does because of it (drops a server, rejects,
hides, renames, cuts): broken schemas and names, every definition of a repeated name (and which
one each client keeps), text aimed at the model (instruction phrases, hidden Unicode, base64)
in descriptions, titles, parameter descriptions, server instructions and _meta, findability
computed with each client's search, and the limits of clients not simulated (Cursor, Gemini
CLI, VS Code Copilot, Goose). Live servers (--server, --url) are located by server and tool.

Exit status: 0 when no finding is an error (or of the --fail-on severity or worse), 1 when one
is, 2 for bad flags or input. --fail-on none always exits 0 after the report.

--list-rules lists the rules and their default severities. A .toolfind.yaml in the working
directory (or --lint-config FILE) sets per-rule severities:

  lint:
    min-severity: warning
    fail-on: error
    rules:
      server-name: error
      claude-name-unrelated: off`,
		Example: `  toolfind lint --catalog my-server.json
  toolfind lint --catalog my-server.json --verbose
  toolfind lint --catalog my-server.json --format sarif > lint.sarif
  toolfind lint --catalog my-server.json --fail-on warning --disable own-name-tie`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, opts) },
	}
	f := cmd.Flags()
	addFormatFlag(f, &opts.format, "text", "json", "sarif")
	f.StringVar(&opts.failOn, "fail-on", "", "exit 1 when a finding of this severity or worse is found: none, info, warning, error (default error, or the config file's)")
	f.StringVar(&opts.minSeverity, "min-severity", "", "show findings of this severity or worse: info, warning, error (default warning, or the config file's)")
	f.StringSliceVar(&opts.enable, "enable", nil, "rules to turn on, comma-separated (all: every rule)")
	f.StringSliceVar(&opts.disable, "disable", nil, "rules to turn off, comma-separated (all: every rule)")
	f.StringVar(&opts.config, "lint-config", "", "lint configuration `FILE` (default ./"+defaultLintConfig+" when present; --config with a .yaml file reads it too)")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "after each finding, one line per tool and client report at its own location")
	f.BoolVar(&opts.listRules, "list-rules", false, "list every rule with its default severity and what it finds, then exit")
	return cmd
}

// lintConfig reads the configuration file and applies the flags on top.
func (opts *lintOptions) lintConfig() (lint.Config, error) {
	var cfg lint.Config
	path, required := opts.config, true
	if path == "" {
		// --config with a YAML file is the lint configuration: client
		// configurations are JSON or TOML.
		for _, c := range opts.global.source.configs {
			if isLintConfig(c) {
				path = c
			}
		}
	}
	if path == "" {
		path, required = defaultLintConfig, false
	}
	data, err := userfile.ReadFile(path)
	switch {
	case err == nil:
		if cfg, err = lint.ParseConfig(path, data); err != nil {
			return cfg, badInput(err)
		}
	case required || !errors.Is(err, fs.ErrNotExist):
		return cfg, badInput(fmt.Errorf("lint configuration: %w", err))
	}
	if err := cfg.Set(opts.disable, false); err != nil {
		return cfg, usageError("--disable: %v", err)
	}
	if err := cfg.Set(opts.enable, true); err != nil {
		return cfg, usageError("--enable: %v", err)
	}
	if opts.minSeverity != "" {
		cfg.MinSeverity = opts.minSeverity
	}
	if opts.failOn != "" {
		cfg.FailOn = opts.failOn
	}
	return cfg, nil
}

func runLint(cmd *cobra.Command, opts *lintOptions) error {
	if opts.listRules {
		return writeLintRules(opts.io.Out, outputWidth(opts.io.Out))
	}
	switch opts.format {
	case "text", "json", "sarif":
	default:
		return usageError("--format %q: want text, json or sarif", opts.format)
	}
	cfg, err := opts.lintConfig()
	if err != nil {
		return err
	}
	min, err := lint.ParseSeverity(cfg.MinSeverity, "warning")
	if err != nil {
		return usageError("--min-severity: %v", err)
	}
	// An error is a tool some client drops, rejects or cannot show: lint
	// fails on one unless told otherwise (--fail-on none).
	failOn := corpus.Error
	if f := strings.ToLower(cfg.FailOn); f == "none" {
		failOn = corpus.Error + 1
	} else if f != "" {
		if failOn, err = lint.ParseSeverity(f, ""); err != nil {
			return usageError("--fail-on: %v (or none)", err)
		}
	}
	// Lint reports on the tools the servers publish: a --config file's
	// tool filters do not hide any (its trust settings still apply).
	opts.global.noViews = true
	cat, err := opts.global.loadCatalog(cmd.Context())
	if err != nil {
		return err
	}
	sims, err := opts.global.simulators(cat)
	if err != nil {
		return err
	}
	rep, err := lint.Run(cmd.Context(), cat, sims, lint.Options{Config: cfg})
	if err != nil {
		return err
	}
	switch opts.format {
	case "json":
		err = rep.WriteJSON(opts.io.Out, min)
	case "sarif":
		err = rep.WriteSARIF(opts.io.Out, min, toolfind.Version)
	default:
		err = rep.WriteTextWidth(opts.io.Out, min, opts.verbose, outputWidth(opts.io.Out))
	}
	if err != nil {
		return err
	}
	if n := rep.Count(failOn); n > 0 && failOn <= corpus.Error {
		return checkFailed(fmt.Errorf("lint: %d %s at or above %s", n, plural(n, "finding", "findings"), failOn))
	}
	return nil
}

// writeLintRules lists lint's rules: "id (severity)" and, indented under
// it, what the rule finds, wrapped to the width.
func writeLintRules(w io.Writer, width int) error {
	for _, r := range lint.Rules {
		if _, err := fmt.Fprintf(w, "%s (%s)\n", r.ID, r.Severity); err != nil {
			return badInput(fmt.Errorf("writing the rules: %w", err))
		}
		for _, l := range wrap(r.Summary, width-4) {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	return nil
}
