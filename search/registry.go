package search

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/corpus"
)

// Profile is one registered client version and how to build its simulator.
type Profile struct {
	ID ClientID
	// Default marks the version that the bare client name (and "all")
	// selects: the newest verified one.
	Default bool
	// Summary is one line for `toolfind clients` and usage texts.
	Summary string
	// Verified says how the profile was checked against the real client
	// (one line for `toolfind clients`); empty when it was not.
	Verified string
	// Verify is true when `toolfind verify --client <name>` can run the
	// installed client against this profile.
	Verify bool
	// Options are the settings the simulator accepts, shared by all
	// profiles of the same client name. The CLI turns each into a flag
	// --<client>-<option>.
	Options []Option
	// New builds the simulator. opts holds only declared options, with
	// defaults filled in.
	New func(cat *corpus.Catalog, opts Options) (Simulator, error)
}

// Option declares one client setting.
type Option struct {
	Name    string // e.g. "builtins"; flag --claude-builtins
	Kind    OptionKind
	Default string
	Usage   string
	// QueryOnly marks an option of how the client searches a query text
	// (rank --query, the verbatim writer): a written call replaces that
	// search, so the option does nothing for one.
	QueryOnly bool
}

// OptionKind says how an option's text is read.
type OptionKind int

// Option kinds. File options hold a path on the command line; the CLI
// reads the file and passes its contents.
const (
	StringOption OptionKind = iota
	BoolOption
	IntOption
	FileOption
)

// OptionError is an option value a simulator cannot use. For a file option
// Line and Column (1-based; 0 when unknown) point into the file's text, so
// the CLI can name FILE:LINE:COL. Build fills in Client.
type OptionError struct {
	Client       string // client name, "codex"
	Option       string // option name, "script"
	Line, Column int
	Err          error
}

func (e *OptionError) Error() string {
	var b strings.Builder
	b.WriteString("option " + e.Option)
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ", column %d", e.Column)
		}
	}
	return b.String() + ": " + e.Err.Error()
}

func (e *OptionError) Unwrap() error { return e.Err }

// Options are option values by option name, as text.
type Options map[string]string

// String returns the option's value or def when unset.
func (o Options) String(name, def string) string {
	if v, ok := o[name]; ok {
		return v
	}
	return def
}

// Bool parses a boolean option; unset gives def.
func (o Options) Bool(name string, def bool) (bool, error) {
	v, ok := o[name]
	if !ok || v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def, fmt.Errorf("option %s: %q is not a boolean", name, v)
	}
	return b, nil
}

// Int parses an integer option; unset gives def.
func (o Options) Int(name string, def int) (int, error) {
	v, ok := o[name]
	if !ok || v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def, fmt.Errorf("option %s: %q is not an integer", name, v)
	}
	return n, nil
}

var (
	regMu    sync.RWMutex
	registry = map[string][]Profile{} // by client name, in registration order
)

// clientOrder is the order clients are listed and run in; clients not named
// here follow in alphabetical order.
var clientOrder = []string{"claude", "grok", "codex", "codex-search", "opencode", "opencode-codemode"}

// Register adds a profile. It panics on a duplicate name@version or a
// second default for one client: both are programming errors found at init.
func Register(p Profile) {
	regMu.Lock()
	defer regMu.Unlock()
	if p.ID.Name == "" || p.ID.Version == "" || p.New == nil {
		panic("search: Register needs a name, a version and a constructor")
	}
	for _, q := range registry[p.ID.Name] {
		if q.ID == p.ID {
			panic("search: duplicate profile " + p.ID.String())
		}
		if q.Default && p.Default {
			panic("search: two default profiles for " + p.ID.Name)
		}
	}
	registry[p.ID.Name] = append(registry[p.ID.Name], p)
}

// Profiles returns every registered profile: clients in the canonical
// order, each client's default first, then its other versions in
// registration order.
func Profiles() []Profile {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []Profile
	for _, name := range clientNames() {
		ps := registry[name]
		for _, p := range ps {
			if p.Default {
				out = append(out, p)
			}
		}
		for _, p := range ps {
			if !p.Default {
				out = append(out, p)
			}
		}
	}
	return out
}

func clientNames() []string {
	var names []string
	seen := map[string]bool{}
	for _, n := range clientOrder {
		if _, ok := registry[n]; ok {
			names = append(names, n)
			seen[n] = true
		}
	}
	var rest []string
	for n := range registry {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

// Resolve turns a client list ("claude,grok@1.0.0", "all") into profiles,
// in the order given, duplicates dropped. "all" (or "") is every client's
// default profile. An unknown name or version is an error listing the
// known profiles.
func Resolve(spec string) ([]Profile, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		spec = "all"
	}
	var out []Profile
	seen := map[ClientID]bool{}
	add := func(p Profile) {
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if part == "all" {
			for _, p := range Profiles() {
				if p.Default {
					add(p)
				}
			}
			continue
		}
		p, err := Lookup(part)
		if err != nil {
			return nil, err
		}
		add(p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no client selected; known: %s", ErrNotFound, knownList())
	}
	return out, nil
}

// Lookup finds one profile by "name" (its default), "name@version" or
// "name@release" (the newest profile not newer than the release; see
// LookupRelease, which also says what was chosen).
func Lookup(s string) (Profile, error) {
	p, _, err := LookupRelease(s)
	return p, err
}

func knownList() string {
	var names []string
	for _, p := range Profiles() {
		names = append(names, p.ID.String())
	}
	if len(names) == 0 {
		return "(none registered)"
	}
	return strings.Join(names, ", ")
}

// Build makes a simulator for the profile with the given option values.
// Keys that the client does not declare are an error naming the known
// options; declared options not given take their defaults.
func Build(p Profile, cat *corpus.Catalog, given Options) (Simulator, error) {
	opts := Options{}
	known := map[string]bool{}
	for _, o := range p.Options {
		known[o.Name] = true
		if o.Default != "" {
			opts[o.Name] = o.Default
		}
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			var names []string
			for _, o := range p.Options {
				names = append(names, o.Name)
			}
			return nil, fmt.Errorf("%s: unknown option %q (known: %s)", p.ID, k, strings.Join(names, ", "))
		}
		opts[k] = given[k]
	}
	sim, err := p.New(cat, opts)
	if err != nil {
		var oe *OptionError
		if errors.As(err, &oe) && oe.Client == "" {
			oe.Client = p.ID.Name
		}
		return nil, fmt.Errorf("%s: %w", p.ID, err)
	}
	return sim, nil
}
