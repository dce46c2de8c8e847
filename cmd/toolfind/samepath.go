package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolfind/toolfind/internal/outfile"
)

// The flags that name files, for the same-path rule (checkPaths). An
// output flag's file is written; an input flag's is read. --cache (the
// model writer's answers) is read and appended to: it counts as an output,
// which no other file may be.
var (
	outputFlags = []string{"out", "save-baseline", "write-catalog", "patch", "cache", "cpuprofile"}
	inputFlags  = []string{"catalog", "queries", "written", "baseline", "surface-file", "config", "lint-config", "settings", "result", "file"}
)

// namedPath is a file a command reads or writes and the flag that names
// it ("" for an argument).
type namedPath struct{ flag, path string }

func (n namedPath) String() string {
	if n.flag == "" {
		return "the argument " + n.path
	}
	return "--" + n.flag + " " + n.path
}

// checkPaths is the same-path rule, applied before any work (exit 2): an
// output may not be another output, nor one of the inputs — a file given,
// or a catalog file of a --catalog folder (one level, *.json) or a log of
// a `queries import` folder (any depth, *.jsonl), where the output exists
// already. Two paths are one file by outfile.Same: the same cleaned
// absolute path, or os.SameFile (symbolic and hard links). Without the
// rule, `suggest --catalog demo.json --write-catalog demo.json` replaced
// the catalog it read, `bench --out q.jsonl` the query set, and two outputs
// on one path lost the first.
func checkPaths(cmd *cobra.Command, args []string) error {
	var outs, ins []namedPath
	collect := func(names []string, into *[]namedPath) {
		for _, name := range names {
			f := cmd.Flags().Lookup(name)
			if f == nil || !f.Changed { // a default (the model cache's) is no file the user named
				continue
			}
			for _, p := range flagPaths(f) {
				if p != "" && p != "-" {
					*into = append(*into, namedPath{name, p})
				}
			}
		}
	}
	collect(outputFlags, &outs)
	if len(outs) == 0 {
		return nil
	}
	collect(inputFlags, &ins)
	importing := cmd.Name() == "import"
	if importing {
		for _, a := range args {
			ins = append(ins, namedPath{"", a})
		}
	}
	for i, o := range outs {
		for _, p := range outs[:i] {
			if outfile.Same(o.path, p.path) {
				return usageError("%s and %s are the same file: one would overwrite the other; give each output its own path", p, o)
			}
		}
		for _, in := range ins {
			if outfile.Same(o.path, in.path) {
				return usageError("%s and %s are the same file: toolfind would overwrite an input it reads; give %s another path", o, in, "--"+o.flag)
			}
			switch {
			case in.flag == "catalog" && strings.HasSuffix(o.path, ".json") && outfile.Within(o.path, in.path, false):
				return usageError("%s is a catalog file of the folder %s: toolfind would overwrite an input it reads; give %s another path", o, in, "--"+o.flag)
			case importing && in.flag == "" && strings.HasSuffix(o.path, ".jsonl") && outfile.Within(o.path, in.path, true):
				return usageError("%s is a log in the folder %s: toolfind would overwrite an input it reads; give %s another path", o, in, "--"+o.flag)
			}
		}
	}
	return nil
}

// flagPaths is a flag's value: the list of a repeatable flag, else the one
// string.
func flagPaths(f *pflag.Flag) []string {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		return sv.GetSlice()
	}
	return []string{f.Value.String()}
}
