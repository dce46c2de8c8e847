package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/toolfind/toolfind/internal/didyoumean"
)

// formatValue is a --format flag: one of a command's formats, checked when
// the flag is parsed. Every command calls its human-readable format
// "text" (see formatAliases for the other names it reads).
type formatValue struct {
	p       *string
	formats []string
}

func (v *formatValue) String() string { return *v.p }
func (v *formatValue) Type() string   { return "string" }

func (v *formatValue) Set(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	// Old and short names, read as the format they name.
	if a, ok := formatAliases[s]; ok && slices.Contains(v.formats, a) {
		s = a
	}
	for _, f := range v.formats {
		if s == f {
			*v.p = s
			return nil
		}
	}
	// A typo of an alias suggests the format it names ("tabel": "text").
	known := slices.Clone(v.formats)
	for a, f := range formatAliases {
		if slices.Contains(v.formats, f) {
			known = append(known, a)
		}
	}
	slices.Sort(known[len(v.formats):])
	hint := ""
	if m := didyoumean.Nearest(s, known); m != "" {
		if a, ok := formatAliases[m]; ok {
			m = a
		}
		hint = fmt.Sprintf(" (did you mean %q?)", m)
	}
	return fmt.Errorf("want %s%s", orList(v.formats), hint)
}

// formatAliases are other names of formats: "table", the old name of
// rank's and bench's text; "md" and "xml" for bench's markdown and junit.
var formatAliases = map[string]string{"table": "text", "md": "markdown", "xml": "junit"}

// addFormatFlag adds --format to a command: one of formats, the first the
// default; the shell completes them.
func addFormatFlag(f *pflag.FlagSet, p *string, formats ...string) {
	*p = formats[0]
	f.Var(&formatValue{p: p, formats: formats}, "format", "output format: "+orList(formats))
	f.Lookup("format").DefValue = formats[0]
}

// flagErrorRE is pflag's error for a value a flag's Set refused.
var flagErrorRE = regexp.MustCompile(`^invalid argument ("(?:[^"\\]|\\.)*") for "(?:-\w, )?(--[^"]+)" flag: (.*)$`)

// flagErrorText words a flag error the way every other usage error is
// worded, the flag first: pflag's `invalid argument "xml" for "--format"
// flag: want text or json` is `--format "xml": want text or json`.
func flagErrorText(err error) string {
	if m := flagErrorRE.FindStringSubmatch(err.Error()); m != nil {
		msg := m[3]
		// strconv's errors, for flags of numbers and durations.
		switch {
		case strings.HasPrefix(msg, "strconv.ParseInt") || strings.HasPrefix(msg, "strconv.ParseUint"):
			msg = "want a whole number"
		case strings.HasPrefix(msg, "strconv.ParseFloat"):
			msg = "want a number"
		case strings.HasPrefix(msg, "strconv.ParseBool"):
			msg = "want true or false"
		case strings.HasPrefix(msg, "time: "):
			msg = "want a duration such as 30s, 2m or 1h30m"
		}
		return m[2] + " " + m[1] + ": " + msg
	}
	return err.Error()
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
