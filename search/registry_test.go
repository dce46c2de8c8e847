package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

type fakeSim struct {
	id   ClientID
	opts Options
}

func (f *fakeSim) Client() ClientID { return f.id }
func (f *fakeSim) Search(ctx context.Context, q Query) (Result, error) {
	return Result{Client: f.id.String()}, nil
}

func withRegistry(t *testing.T, profiles ...Profile) {
	t.Helper()
	regMu.Lock()
	saved := registry
	registry = map[string][]Profile{}
	regMu.Unlock()
	t.Cleanup(func() { regMu.Lock(); registry = saved; regMu.Unlock() })
	for _, p := range profiles {
		Register(p)
	}
}

func fakeProfile(name, version string, def bool, opts ...Option) Profile {
	return Profile{ID: ClientID{name, version}, Default: def, Options: opts,
		New: func(cat *corpus.Catalog, o Options) (Simulator, error) {
			return &fakeSim{id: ClientID{name, version}, opts: o}, nil
		}}
}

func TestResolve(t *testing.T) {
	withRegistry(t,
		fakeProfile("zeta", "1", true),
		fakeProfile("claude", "2.1.283", false),
		fakeProfile("claude", "2.1.328", true),
		fakeProfile("grok", "1.0.0", true),
	)
	tests := []struct{ spec, want, err string }{
		{"", "claude@2.1.328 grok@1.0.0 zeta@1", ""},
		{"all", "claude@2.1.328 grok@1.0.0 zeta@1", ""},
		{"claude", "claude@2.1.328", ""},
		{"claude@2.1.283, grok", "claude@2.1.283 grok@1.0.0", ""},
		{"grok,all", "grok@1.0.0 claude@2.1.328 zeta@1", ""}, // order given, duplicates dropped
		{"cursor", "", `unknown client "cursor"; known: claude@2.1.328, claude@2.1.283, grok@1.0.0, zeta@1`},
		{"claude@x9", "", `unknown client "claude@x9"`},
		{",", "", "no client selected"},
	}
	for _, tt := range tests {
		ps, err := Resolve(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, ErrNotFound) {
				t.Errorf("Resolve(%q) error %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.ID.String())
		}
		if err != nil || strings.Join(got, " ") != tt.want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", tt.spec, got, err, tt.want)
		}
	}
}

func TestBuildOptions(t *testing.T) {
	p := fakeProfile("claude", "2.1.328", true,
		Option{Name: "builtins", Kind: BoolOption, Default: "true"},
		Option{Name: "cap", Kind: IntOption})
	sim, err := Build(p, nil, Options{"cap": "100"})
	if err != nil {
		t.Fatal(err)
	}
	opts := sim.(*fakeSim).opts
	if b, _ := opts.Bool("builtins", false); !b {
		t.Error("default not filled in")
	}
	if n, _ := opts.Int("cap", 0); n != 100 {
		t.Errorf("cap = %d", n)
	}
	if _, err := opts.Bool("cap", false); err == nil {
		t.Error("100 parsed as a boolean")
	}
	_, err = Build(p, nil, Options{"builtin": "false"})
	if err == nil || err.Error() != `claude@2.1.328: unknown option "builtin" (known: builtins, cap)` {
		t.Errorf("unknown option error: %v", err)
	}
}

func TestRegisterPanics(t *testing.T) {
	withRegistry(t, fakeProfile("a", "1", true))
	for _, p := range []Profile{fakeProfile("a", "1", false), fakeProfile("a", "2", true), {ID: ClientID{"b", ""}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%v) did not panic", p.ID)
				}
			}()
			Register(p)
		}()
	}
}

func TestResultAll(t *testing.T) {
	r := Result{Client: "codex@0.171.0", Strategy: "dump", Variants: []Result{{Strategy: "any-term"}, {Strategy: "name"}}}
	all := r.All()
	if len(all) != 3 || all[0].Variants != nil || all[1].Strategy != "any-term" || all[2].Strategy != "name" {
		t.Errorf("All() = %+v", all)
	}
	r.Hits = []Hit{{Tool: "a/b", Rank: 1}}
	if h, ok := r.Find("a/b"); !ok || h.Rank != 1 {
		t.Error("Find")
	}
	if _, ok := r.Find("a/c"); ok {
		t.Error("Find found a missing tool")
	}
}
