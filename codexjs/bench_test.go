package codexjs

import (
	"context"
	"testing"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/search"
)

// benchQuery matches tools in most shared catalogs.
const benchQuery = "pull request"

func benchCatalogs(b *testing.B) map[string]*corpus.Catalog {
	out := map[string]*corpus.Catalog{"demo": corpus.Demo()}
	cat, err := corpus.Load(sharedCatalogs)
	if err != nil {
		b.Logf("shared catalogs not loaded (%v): demo only", err)
		return out
	}
	if n := len(cat.Tools()); n != 1111 {
		b.Logf("merged shared catalogs have %d tools", n)
	}
	out["shared"] = cat
	return out
}

// BenchmarkBuildAllTools: names, schema normalisation, TypeScript, sort.
func BenchmarkBuildAllTools(b *testing.B) {
	for _, name := range []string{"demo", "shared"} {
		cat := benchCatalogs(b)[name]
		if cat == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				BuildAllTools(cat, false)
			}
		})
	}
}

// BenchmarkStrategy runs one query per iteration through each built-in
// strategy, on the native path and in goja (pooled runtimes, precompiled
// programs). The query "pull request" matches tools in most catalogs.
func BenchmarkStrategy(b *testing.B) {
	cats := benchCatalogs(b)
	for _, name := range []string{"demo", "shared"} {
		cat := cats[name]
		if cat == nil {
			continue
		}
		for _, engine := range []string{"native", "goja"} {
			for _, s := range builtinStrategies {
				m, err := NewCodeMode(cat, search.Options{"engine": engine, "strategies": s.Name})
				if err != nil {
					b.Fatal(err)
				}
				b.Run(name+"/"+engine+"/"+s.Name, func(b *testing.B) {
					for b.Loop() {
						if _, err := m.Search(context.Background(), search.Query{Text: benchQuery}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkUserScript: a user script runs in a fresh runtime with its own
// ALL_TOOLS each time.
func BenchmarkUserScript(b *testing.B) {
	cat := benchCatalogs(b)["shared"]
	if cat == nil {
		b.Skip("shared catalogs not found")
	}
	m, err := NewCodeMode(cat, search.Options{"strategies": "name"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m.RunScript(`text(ALL_TOOLS.filter(t => t.name.includes("issue")).map(t => t.name).join("\n"))`, "issue")
	}
}

func BenchmarkToolSearch(b *testing.B) {
	for name, cat := range benchCatalogs(b) {
		ts, err := NewToolSearch(cat, search.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/query", func(b *testing.B) {
			for b.Loop() {
				ts.Search(context.Background(), search.Query{Text: "list open pull requests"})
			}
		})
		b.Run(name+"/build", func(b *testing.B) {
			for b.Loop() {
				NewToolSearch(cat, search.Options{})
			}
		})
	}
}

// BenchmarkGojaExec times only the goja run of each built-in strategy's
// program on a pooled runtime of the in-process engine (what
// testdata/node/bench.mjs times in V8).
func BenchmarkGojaExec(b *testing.B) {
	cat := benchCatalogs(b)["shared"]
	if cat == nil {
		b.Skip("shared catalogs not found")
	}
	m, err := NewCodeMode(cat, search.Options{"engine": "goja"})
	if err != nil {
		b.Fatal(err)
	}
	terms := Terms(benchQuery)
	for _, s := range builtinStrategies {
		run := jsbox.CodexRun{Code: s.Source, Query: benchQuery, Terms: terms, YieldMs: defaultYieldMs, Trusted: true}
		if _, err := m.c.exec(context.Background(), run); err != nil {
			b.Fatal(err)
		}
		b.Run(s.Name, func(b *testing.B) {
			for b.Loop() {
				m.c.exec(context.Background(), run)
			}
		})
	}
}
