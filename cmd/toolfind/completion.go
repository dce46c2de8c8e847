package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/search"
)

// registerCompletions teaches the shell completion (`toolfind completion
// bash|zsh|fish|powershell`) the values of --client (a comma-separated
// list: each name, name@version and all), --format (each command's
// formats) and --writer.
func registerCompletions(root *cobra.Command) {
	_ = root.RegisterFlagCompletionFunc("client", completeClients)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if f := c.Flags().Lookup("format"); f != nil {
			if fv, ok := f.Value.(*formatValue); ok {
				_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(fv.formats, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		if c.Flags().Lookup("writer") != nil {
			writers := []string{"verbatim", "heuristic", "model", "command"}
			if c.Name() == "rank" {
				writers = writers[:2] // rank --prompt writes offline
			}
			_ = c.RegisterFlagCompletionFunc("writer", cobra.FixedCompletions(writers, cobra.ShellCompDirectiveNoFileComp))
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// completeClients completes the last entry of a --client list: the client
// names, each profile's name@version, and all.
func completeClients(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	done := ""
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done = toComplete[:i+1]
	}
	var out []string
	add := func(s string) {
		if strings.HasPrefix(done+s, toComplete) {
			out = append(out, done+s)
		}
	}
	for _, name := range clientNames() {
		add(name)
	}
	for _, p := range search.Profiles() {
		add(p.ID.String())
	}
	if done == "" {
		add("all")
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
