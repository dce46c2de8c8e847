package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/internal/didyoumean"
	"github.com/toolfind/toolfind/search"
)

func newVersionCmd(ios *IOStreams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print toolfind's version, the commit it was built from, and the client profiles it simulates",
		Long: `Version prints toolfind's version and the commit it was built from, then the
client profiles it simulates, the default one of each client marked.

The version is the release's tag (v0.2.0) for a release archive, for 'go install
github.com/toolfind/toolfind/cmd/toolfind@v0.2.0' and for 'go install ./cmd/toolfind'
in a checkout of the tag; a pseudo-version (v0.2.1-0.20261203222203-caba1e20948d, +dirty
with uncommitted changes) for a checkout past a tag; "(devel)" when the build recorded no
version ('go run', or -buildvcs=false). 'toolfind --version' prints the first line alone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			b := toolfind.Build()
			if format == "json" {
				type profile struct {
					Client  string `json:"client"`
					Default bool   `json:"default"`
				}
				v := struct {
					toolfind.BuildInfo
					Profiles []profile `json:"profiles"`
				}{BuildInfo: b, Profiles: []profile{}}
				for _, p := range search.Profiles() {
					v.Profiles = append(v.Profiles, profile{p.ID.String(), p.Default})
				}
				return writeJSON(ios.Out, v)
			}
			fmt.Fprintf(ios.Out, "toolfind %s\n", b)
			fmt.Fprintf(ios.Out, "  built with %s\n", b.GoVersion)
			for _, p := range search.Profiles() {
				def := ""
				if p.Default {
					def = " (default)"
				}
				fmt.Fprintf(ios.Out, "  %s%s\n", p.ID, def)
			}
			return nil
		},
	}
	addFormatFlag(cmd.Flags(), &format, "text", "json")
	return cmd
}

// clientJSON is one profile in `toolfind clients --format json`.
type clientJSON struct {
	Client   string       `json:"client"`
	Name     string       `json:"name"`
	Version  string       `json:"version"`
	Default  bool         `json:"default"`
	Summary  string       `json:"summary"`
	Releases string       `json:"releases"`
	Verified string       `json:"verified,omitempty"`
	Options  []optionJSON `json:"options"`
}

// optionJSON is one client option: its flag, default and meaning.
type optionJSON struct {
	Flag    string `json:"flag"`
	Kind    string `json:"kind"`
	Default string `json:"default"`
	Usage   string `json:"usage"`
}

func newClientsCmd(ios *IOStreams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "clients [NAME]...",
		Short: "List the client profiles, the releases each covers, how each was verified, and their flags",
		Long: `Clients lists each client profile: what the client does, the releases the profile
covers, how it was checked against the real client, and the client's own flags
(--claude-builtins, --codex-engine, …), which every command that simulates the
client takes. With NAME (claude, codex, …), only those clients.`,
		Example: `  toolfind clients
  toolfind clients codex
  toolfind clients --format json`,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return clientNames(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			want := map[string]bool{}
			for _, a := range args {
				name := search.ParseClientID(a).Name
				if !slices.Contains(clientNames(), name) {
					return usageError("clients: unknown client %q%s (known: %s)", a, didyoumean.Hint(name, clientNames()), strings.Join(clientNames(), ", "))
				}
				want[name] = true
			}
			var profiles []search.Profile
			for _, p := range search.Profiles() {
				if len(want) == 0 || want[p.ID.Name] {
					profiles = append(profiles, p)
				}
			}
			if format == "json" {
				out := []clientJSON{}
				for _, p := range profiles {
					c := clientJSON{Client: p.ID.String(), Name: p.ID.Name, Version: p.ID.Version, Default: p.Default,
						Summary: p.Summary, Releases: search.Coverage(p), Verified: p.Verified, Options: []optionJSON{}}
					for _, o := range p.Options {
						c.Options = append(c.Options, optionJSON{Flag: "--" + clientFlag(p.ID.Name, o), Kind: optionKind(o.Kind), Default: o.Default, Usage: o.Usage})
					}
					out = append(out, c)
				}
				return writeJSON(ios.Out, map[string]any{"clients": out})
			}
			writeClients(ios, cmd, profiles)
			return nil
		},
	}
	addFormatFlag(cmd.Flags(), &format, "text", "json")
	return cmd
}

// writeClients prints each profile, wrapped to the width, and each
// client's flags once, under its first profile, as the help lists flags.
func writeClients(ios *IOStreams, cmd *cobra.Command, profiles []search.Profile) {
	width := outputWidth(ios.Out)
	// say prints one indented line, wrapped to the width.
	say := func(s string) {
		for i, l := range wrap(s, width-4) {
			if i > 0 {
				l = "  " + l
			}
			fmt.Fprintln(ios.Out, "  "+l)
		}
	}
	optionsShown := map[string]bool{}
	for _, p := range profiles {
		def := ""
		if p.Default {
			def = " (default)"
		}
		fmt.Fprintf(ios.Out, "%s%s\n", p.ID, def)
		say(p.Summary)
		say("releases: " + search.Coverage(p))
		if p.Verified != "" {
			say("verified: " + p.Verified)
		}
		// Options are shared by every profile of a name: listed under its
		// first one.
		if optionsShown[p.ID.Name] || len(p.Options) == 0 {
			continue
		}
		optionsShown[p.ID.Name] = true
		fs := cmd.Root().PersistentFlags()
		own := pflag.NewFlagSet(p.ID.Name, pflag.ContinueOnError)
		for _, o := range p.Options {
			if f := fs.Lookup(clientFlag(p.ID.Name, o)); f != nil {
				own.AddFlag(f)
			}
		}
		fmt.Fprintln(ios.Out, "  flags:")
		fmt.Fprint(ios.Out, flagUsages(own, width))
	}
}

// optionKind names an option's kind for JSON.
func optionKind(k search.OptionKind) string {
	switch k {
	case search.BoolOption:
		return "bool"
	case search.FileOption:
		return "file"
	}
	return "string"
}

// clientNames are the client names --client takes, in profile order.
func clientNames() []string {
	var names []string
	for _, p := range clientProfiles() {
		names = append(names, p.ID.Name)
	}
	return names
}
