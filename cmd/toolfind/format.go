package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/pflag"
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
	if m := nearest(s, known); m != "" {
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

// didYouMean is ` (did you mean "x"?)` for the known word nearest to s
// when it is near enough to be a typo (an edit distance of at most a third
// of its length, at least 1, or s a prefix of it), else "".
func didYouMean(s string, known []string) string {
	if m := nearest(s, known); m != "" {
		return fmt.Sprintf(" (did you mean %q?)", m)
	}
	return ""
}

// nearest is the word of known nearest to s by edit distance, if it is
// near enough to be a typo of it (see didYouMean); the first of equals.
func nearest(s string, known []string) string {
	s = strings.ToLower(s)
	best, bestD := "", -1
	for _, k := range known {
		lk := strings.ToLower(k)
		if lk == s {
			continue
		}
		d := editDistance(s, lk)
		if len(s) >= 3 && strings.HasPrefix(lk, s) {
			d = min(d, 1)
		}
		if d <= max(1, len([]rune(lk))/3) && (bestD < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance of a and b, in
// runes: an insertion, deletion, substitution or swap of two neighbours
// each count 1 ("jsno" → "json" is 1, "htlm" → "html" 1, "tabel" →
// "table" 1).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
