package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/approval"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/search"
)

func init() { commands = append(commands, command{"approvals", newApprovalsCmd}) }

// approvalsOptions are the flags of `toolfind approvals`.
type approvalsOptions struct {
	io          *IOStreams
	global      *globalOptions
	allow, deny []string
	settings    []string
	tools       []string
	format      string
}

func newApprovalsCmd(ios *IOStreams, g *globalOptions) *cobra.Command {
	opts := &approvalsOptions{io: ios, global: g}
	cmd := &cobra.Command{
		Use:   "approvals [--allow RULE]... [--deny RULE]...",
		Short: "Per client and permission mode: does each tool run, ask or get refused, and may it run in parallel",
		Long: `Approvals says, for each tool, each selected client and each of its permission modes,
whether the client runs a call of the tool without asking (run), asks the user first (ask) or
refuses it (deny); whether the call may run at the same time as other calls; and which
annotation, _meta key, mode or rule decided.

Rules are written in each client's own syntax and go to the clients that read it; prefix one
with a client name (claude:RULE, codex:RULE) to give it to that client only:
  Claude Code   permission rules: mcp__SERVER, mcp__SERVER__*, mcp__SERVER__TOOL (--allow, --deny)
  Codex         settings as codex -c takes them (--allow only): approval_policy=never,
                sandbox_mode=danger-full-access, mcp_servers.SERVER.default_tools_approval_mode=writes,
                mcp_servers.SERVER.tools.TOOL.approval_mode=approve,
                mcp_servers.SERVER.supports_parallel_tool_calls=true
Other clients list their syntax in the error for a rule no selected client reads. --settings
reads the rules of a client's own settings file: Claude Code's settings.json "permissions"
(allow, deny) or Codex's config.toml.

Clients and modes whose decisions toolfind cannot reproduce (Claude Code's auto classifier,
Grok Build, OpenCode) are listed as not simulated.`,
		Example: `  toolfind approvals --catalog my-server.json
  toolfind approvals --catalog my-server.json --allow 'mcp__demo__*' --format json
  toolfind approvals --client codex --allow approval_policy=never --allow sandbox_mode=danger-full-access
  toolfind approvals --catalog my-server.json --settings ~/.claude/settings.json --settings ~/.codex/config.toml
  toolfind approvals --catalog my-server.json --format markdown > approvals.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runApprovals(cmd, opts) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.allow, "allow", nil, "allow `RULE` in a client's own syntax (see above); repeatable")
	f.StringArrayVar(&opts.deny, "deny", nil, "deny `RULE` in a client's own syntax; repeatable")
	f.StringArrayVar(&opts.settings, "settings", nil, "a client's settings `FILE` to read rules from (Claude Code settings.json \"permissions\", Codex config.toml); repeatable")
	f.StringArrayVar(&opts.tools, "tool", nil, "tool to decide (server/tool, server__tool, mcp__server__tool or a unique name); repeatable; default: all")
	addFormatFlag(f, &opts.format, "text", "json", "markdown")
	return cmd
}

func runApprovals(cmd *cobra.Command, opts *approvalsOptions) error {
	cat, err := opts.global.loadCatalog(cmd.Context())
	if err != nil {
		return err
	}
	var tools []*corpus.Tool
	if len(opts.tools) > 0 {
		ids, err := selectTools(cat, opts.tools)
		if err != nil {
			return err
		}
		byID := toolsByID(cat)
		for _, id := range ids {
			tools = append(tools, byID[id])
		}
	}
	sims, err := opts.global.simulators(cat)
	if err != nil {
		return err
	}
	var rules []search.RuleText
	for _, r := range opts.allow {
		rules = append(rules, search.RuleText{Kind: search.Allow, Text: r})
	}
	for _, r := range opts.deny {
		rules = append(rules, search.RuleText{Kind: search.DenyRule, Text: r})
	}
	var files []approval.ConfigFile
	for _, name := range opts.settings {
		data, err := userfile.ReadFile(name)
		if err != nil {
			return badInput(fmt.Errorf("--settings: %w", err))
		}
		files = append(files, approval.ConfigFile{Name: name, Data: data})
	}
	fromFiles, notes, err := approval.RulesFromConfigs(sims, files)
	if err != nil {
		return badInput(err)
	}
	rep, err := approval.Run(cat, sims, tools, append(rules, fromFiles...))
	if err != nil {
		return usageError("%v", err)
	}
	rep.Notes = append(notes, rep.Notes...)
	switch opts.format {
	case "json":
		return writeJSON(opts.io.Out, rep)
	case "markdown":
		return rep.WriteMarkdown(opts.io.Out)
	}
	return rep.WriteText(opts.io.Out, outputWidth(opts.io.Out))
}

// toolsByID maps each tool id to its first definition.
func toolsByID(cat *corpus.Catalog) map[corpus.ToolID]*corpus.Tool {
	byID := map[corpus.ToolID]*corpus.Tool{}
	for _, t := range cat.UniqueTools() {
		byID[t.ID()] = t
	}
	return byID
}

// defaultApproval is sim's decision on a call of t in its client's default
// mode with no rules, for `show`; nil when the client's approvals are not
// simulated or the model is never shown the tool.
func defaultApproval(sim search.Simulator, t *corpus.Tool, shown bool) *search.Verdict {
	if t == nil || !shown {
		return nil
	}
	vs := approval.DefaultVerdicts([]search.Simulator{sim}, t)
	if len(vs) == 0 {
		return nil
	}
	return &vs[0]
}
