package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolfind/toolfind/internal/textfit"
)

// clientFlagAnnotation marks a client option's flag (--claude-builtins)
// with its client's name: help lists those flags apart, by client, instead
// of in every command's list of flags.
const clientFlagAnnotation = "toolfind-client"

// markClientFlag annotates flag as an option of client.
func markClientFlag(fs *pflag.FlagSet, flag, client string) {
	_ = fs.SetAnnotation(flag, clientFlagAnnotation, []string{client})
}

// flagClient is the client a flag is an option of, "" for any other flag.
func flagClient(f *pflag.Flag) string {
	if c := f.Annotations[clientFlagAnnotation]; len(c) > 0 {
		return c[0]
	}
	return ""
}

// setHelp makes every command's help and usage fit the width of standard
// output (outputWidth: $COLUMNS, the terminal, else 100 columns), and
// lists client options by client in a "Client flags" section.
func setHelp(root *cobra.Command, ios *IOStreams) {
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		w := c.OutOrStdout()
		writeHelp(w, c, outputWidth(ios.Out))
	})
	root.SetUsageFunc(func(c *cobra.Command) error {
		writeUsage(c.OutOrStderr(), c, outputWidth(ios.Out))
		return nil
	})
}

// writeHelp prints a command's long description, reflowed to width, then
// its usage.
func writeHelp(w io.Writer, c *cobra.Command, width int) {
	text := c.Long
	if text == "" {
		text = c.Short
	}
	if text = strings.TrimSpace(text); text != "" {
		fmt.Fprintln(w, reflow(text, width))
		fmt.Fprintln(w)
	}
	if c.Runnable() || c.HasSubCommands() {
		writeUsage(w, c, width)
	}
}

// writeUsage prints the usage line, examples, subcommands and flags, each
// line at most width characters: the command's own flags, the flags every
// command shares, and the client options grouped by client.
func writeUsage(w io.Writer, c *cobra.Command, width int) {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() {
		writeHanging(&b, "  ", c.UseLine(), width)
	}
	if c.HasAvailableSubCommands() {
		writeHanging(&b, "  ", c.CommandPath()+" [command]", width)
	}
	if c.HasExample() {
		b.WriteString("\nExamples:\n")
		for _, l := range strings.Split(strings.TrimRight(c.Example, "\n"), "\n") {
			for _, part := range splitCommandLine(l, width) {
				b.WriteString(part + "\n")
			}
		}
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		pad := 0
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				pad = max(pad, len(s.Name()))
			}
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				writeColumns(&b, "  "+s.Name()+strings.Repeat(" ", pad-len(s.Name()))+"  ", s.Short, width, 0)
			}
		}
	}
	own, shared, byClient := splitFlags(c)
	if own.HasAvailableFlags() {
		b.WriteString("\nFlags:\n")
		b.WriteString(flagUsages(own, width))
	}
	if shared.HasAvailableFlags() {
		b.WriteString("\nGlobal flags:\n")
		b.WriteString(flagUsages(shared, width))
	}
	if len(byClient) > 0 && c.Name() != "clients" {
		b.WriteString("\nClient flags ('toolfind clients NAME' explains them):\n")
		var clients []string
		for name := range byClient {
			clients = append(clients, name)
		}
		sort.Strings(clients)
		for _, name := range clients {
			writeColumns(&b, "  "+name+": ", strings.Join(byClient[name], ", "), width, 0)
		}
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\n%s\n", reflow(fmt.Sprintf("Use '%s [command] --help' for more about a command.", c.CommandPath()), width))
	}
	io.WriteString(w, b.String())
}

// splitFlags sorts a command's visible flags: its own, the shared ones
// (the root's, but for client options) and the client options' names by
// client.
func splitFlags(c *cobra.Command) (own, shared *pflag.FlagSet, byClient map[string][]string) {
	own = pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	shared = pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	byClient = map[string][]string{}
	add := func(fs *pflag.FlagSet, f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if client := flagClient(f); client != "" {
			byClient[client] = append(byClient[client], "--"+f.Name)
			return
		}
		fs.AddFlag(f)
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if c.HasParent() || c.PersistentFlags().Lookup(f.Name) == nil {
			add(own, f)
		} else {
			add(shared, f) // the root's persistent flags are everyone's
		}
	})
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) { add(shared, f) })
	return own, shared, byClient
}

// flagUsages lists flags as pflag does ("  -q, --query string   usage
// (default …)"), its usage column wrapped to width. The column starts
// after the longest flag, or at 34 when that is longer (the longer flags'
// usage then starts on the next line).
func flagUsages(fs *pflag.FlagSet, width int) string {
	type row struct{ left, usage string }
	var rows []row
	col := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		left := "      --" + f.Name
		if f.Shorthand != "" {
			left = "  -" + f.Shorthand + ", --" + f.Name
		}
		varname, usage := pflag.UnquoteUsage(f)
		if varname != "" {
			left += " " + varname
		}
		if d := f.DefValue; !zeroDefault(d) {
			if f.Value.Type() == "string" {
				d = fmt.Sprintf("%q", d)
			}
			usage += " (default " + d + ")"
		}
		rows = append(rows, row{left, usage})
		col = max(col, utf8.RuneCountInString(left)+3)
	})
	col = min(col, 34)
	var b strings.Builder
	for _, r := range rows {
		writeColumns(&b, r.left+strings.Repeat(" ", max(col-utf8.RuneCountInString(r.left), 0)), r.usage, width, col)
	}
	return b.String()
}

// zeroDefault reports whether a flag's default goes unsaid: nothing,
// false, zero or an empty list.
func zeroDefault(d string) bool {
	switch d {
	case "", "false", "0", "0s", "[]", "<nil>":
		return true
	}
	return false
}

// writeColumns writes head then text wrapped to width, later lines
// indented by indent (0: under the text); when head is too wide for the
// first line of text, all of it goes below.
func writeColumns(b *strings.Builder, head, text string, width, indent int) {
	n := utf8.RuneCountInString(head)
	if indent == 0 {
		indent = n
	}
	if width-indent < 30 {
		indent = 4
	}
	lines := textfit.Wrap(text, max(width-indent, 20))
	if n > indent || n+utf8.RuneCountInString(lines[0]) > width {
		b.WriteString(strings.TrimRight(head, " ") + "\n") // all lines below
	} else {
		b.WriteString(head + lines[0] + "\n")
		lines = lines[1:]
	}
	for _, l := range lines {
		b.WriteString(strings.Repeat(" ", indent) + l + "\n")
	}
}

// writeHanging writes text after prefix, wrapped to width with later lines
// indented four more.
func writeHanging(b *strings.Builder, prefix, text string, width int) {
	n := utf8.RuneCountInString(prefix)
	for i, l := range textfit.Wrap(text, max(width-n-4, 20)) {
		if i == 0 {
			b.WriteString(prefix + l + "\n")
		} else {
			b.WriteString(prefix + "    " + l + "\n")
		}
	}
}

// reflow fits prose to width: a paragraph (lines between blank lines) with
// a line over the width is rewrapped, unless it is indented (an example or
// a list kept as written), in which case only its too long lines are
// wrapped, keeping their indentation.
func reflow(text string, width int) string {
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		long := false
		indented := false
		for _, l := range lines {
			long = long || utf8.RuneCountInString(l) > width
			indented = indented || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "- ")
		}
		if !long {
			continue
		}
		if !indented {
			paras[i] = strings.Join(textfit.Wrap(p, width), "\n")
			continue
		}
		var out []string
		for _, l := range lines {
			if utf8.RuneCountInString(l) <= width {
				out = append(out, l)
				continue
			}
			lead := l[:len(l)-len(strings.TrimLeft(l, " \t-"))]
			n := utf8.RuneCountInString(lead)
			for j, wl := range textfit.Wrap(l[len(lead):], max(width-n, 20)) {
				if j == 0 {
					out = append(out, lead+wl)
				} else {
					out = append(out, strings.Repeat(" ", n)+wl)
				}
			}
		}
		paras[i] = strings.Join(out, "\n")
	}
	return strings.Join(paras, "\n\n")
}

// splitCommandLine fits an example command line to width the way it can
// still be pasted into a shell: broken at blanks outside quotes, each line
// but the last ending in " \\", later lines indented four more than the
// first. A line that fits, or has nowhere to break, is kept.
func splitCommandLine(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
	// The words, quotes kept in them.
	var words []string
	var quote rune
	start := len(lead)
	for i, r := range line {
		switch {
		case i < len(lead):
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if i > start {
				words = append(words, line[start:i])
			}
			start = i + 1
		}
	}
	if start < len(line) {
		words = append(words, line[start:])
	}
	var out []string
	cur := lead
	indent := lead + "    "
	for _, w := range words {
		switch {
		case cur == lead || cur == indent:
			cur += w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w)+2 > width:
			out = append(out, cur+" \\")
			cur = indent + w
		default:
			cur += " " + w
		}
	}
	return append(out, cur)
}
