package toolfind_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/bench"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// writable returns the clients whose model writes its own search call.
func writable(t *testing.T, cat *corpus.Catalog) []search.Simulator {
	t.Helper()
	sims, err := toolfind.Clients(cat, "claude,grok,codex,codex-search,opencode-codemode", nil)
	if err != nil {
		t.Fatal(err)
	}
	return sims
}

// bench --written must give, call by call, what replaying the call gives
// (rank's answer): the outcome's rank is the best rank of an expected tool
// over the prompt's calls.
func TestWrittenReplayMatchesRank(t *testing.T) {
	type set struct {
		name string
		cat  *corpus.Catalog
		qs   *corpus.QuerySet
	}
	demo := corpus.Demo()
	dq, err := corpus.DemoQueries(demo)
	if err != nil {
		t.Fatal(err)
	}
	sets := []set{{"demo", demo, dq}}
	if cat, err := corpus.Load(filepath.Join(sharedCatalogs, "mongodb.json")); err == nil {
		qs, err := corpus.LoadQueries("../shared/corpora/mongodb-accuracy/queries.jsonl", cat)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set{"mongodb", cat, qs})
	} else {
		t.Logf("shared catalogs not found (%v): demo only", err)
	}
	ctx := context.Background()
	for _, s := range sets {
		sims := writable(t, s.cat)
		for _, w := range []writer.Writer{writer.Heuristic{}, writer.Verbatim{}} {
			lines, err := writer.Write(ctx, w, sims, s.qs)
			if err != nil {
				t.Fatal(err)
			}
			wq, err := writer.QuerySet("w", lines, s.cat)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := bench.Run(ctx, sims, wq, bench.Options{Writers: []writer.Writer{writer.NewReplay(lines)}})
			if err != nil {
				t.Fatal(err)
			}
			bySim := map[string]search.Simulator{}
			for _, sim := range sims {
				bySim[sim.Client().String()] = sim
			}
			checked := 0
			for _, o := range rep.Outcomes {
				sim, ok := bySim[o.Client]
				if !ok || len(o.Expect) == 0 {
					continue // a variant row
				}
				want := 0
				for _, c := range o.Calls {
					r, err := sim.(search.Writable).Replay(ctx, c)
					if err != nil {
						t.Fatal(err)
					}
					for _, h := range r.Hits {
						for _, e := range o.Expect {
							if h.Tool == e && (want == 0 || h.Rank < want) {
								want = h.Rank
							}
						}
					}
				}
				if o.Rank != want {
					t.Errorf("%s %s %s %q: bench rank %d, replay rank %d", s.name, w.Name(), o.Client, o.Query, o.Rank, want)
				}
				checked++
			}
			withExpect := 0
			for _, q := range wq.Queries {
				if len(q.Expect) > 0 {
					withExpect++
				}
			}
			if checked != len(sims)*withExpect {
				t.Errorf("%s: checked %d outcomes, want %d", s.name, checked, len(sims)*withExpect)
			}
		}
	}
}

// The calibration sets under writer/testdata/calibration, and the
// held-out sets under writer/testdata/heldout, are calls written blind by a
// model shown only each client's surface (show --surface) and the prompt.
// The golden files record, per client, found@limit of those calls and of
// the heuristic writer's on the same prompts, and how often the two agree
// on found (p ≥ 0.5) per prompt.
func TestCalibrationAgreement(t *testing.T) {
	for _, set := range []struct {
		dir      string
		catalogs map[string]string
		names    []string
	}{
		{"calibration", map[string]string{
			"metatool":     "../shared/corpora/metatool/metatool.json",
			"livemcpbench": "../shared/corpora/livemcpbench/catalogs",
		}, []string{"metatool", "livemcpbench"}},
		{"heldout", map[string]string{
			"mongodb": filepath.Join(sharedCatalogs, "mongodb.json"),
			"azure":   filepath.Join(sharedCatalogs, "azure.json"),
		}, []string{"mongodb", "azure"}},
	} {
		t.Run(set.dir, func(t *testing.T) {
			agreement(t, set.dir, set.names, set.catalogs)
		})
	}
}

func agreement(t *testing.T, dir string, names []string, catalogs map[string]string) {
	var b strings.Builder
	b.WriteString("# corpus client prompts found@limit(model-blind) found@limit(heuristic) agreement\n")
	for _, name := range names {
		cat, err := corpus.Load(catalogs[name])
		if err != nil {
			t.Skipf("shared catalogs or corpora not found (%v): this check needs ../shared", err)
		}
		lines, err := writer.ReadFile(filepath.Join("writer", "testdata", dir, name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		qs, err := writer.QuerySet(name, lines, cat)
		if err != nil {
			t.Fatal(err)
		}
		rp := writer.NewReplay(lines)
		// The model's Codex scripts run without the 2 s wall-clock
		// limit: on a starved CI machine a heavy script would otherwise
		// time out and change the agreement (it once did).
		sims, err := toolfind.Clients(cat, strings.Join(rp.Clients(), ","), toolfind.ClientOptions{"codex": {"timeout": "5m"}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		model, err := bench.Run(ctx, sims, qs, bench.Options{Writers: []writer.Writer{rp}})
		if err != nil {
			t.Fatal(err)
		}
		heur, err := bench.Run(ctx, sims, qs, bench.Options{Writers: []writer.Writer{writer.Heuristic{}}})
		if err != nil {
			t.Fatal(err)
		}
		type key struct{ client, id string }
		pm, ph := map[key]float64{}, map[key]float64{}
		for _, o := range model.Outcomes {
			pm[key{o.Client, o.Tags["id"]}] = o.PWithinLimit
		}
		for _, o := range heur.Outcomes {
			ph[key{o.Client, o.Tags["id"]}] = o.PWithinLimit
		}
		for i, c := range model.Clients {
			if c.Variant {
				continue
			}
			agree, n := 0, 0
			var ids []string
			for k := range pm {
				if k.client == c.Client {
					ids = append(ids, k.id)
				}
			}
			sort.Strings(ids)
			for _, id := range ids {
				n++
				if (pm[key{c.Client, id}] >= 0.5) == (ph[key{c.Client, id}] >= 0.5) {
					agree++
				}
			}
			fmt.Fprintf(&b, "%s %s %d %.3f %.3f %.3f\n", name, c.Client, n, c.FoundAtLimit, heur.Clients[i].FoundAtLimit, float64(agree)/float64(n))
		}
	}
	golden := filepath.Join("writer", "testdata", dir, "agreement.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("agreement changed (go test -run TestCalibrationAgreement -update):\n%s\nwant\n%s", b.String(), want)
	}
}

// writableCorpus loads a shared catalog and query set and builds the
// clients whose model writes its own search (skipping without ../shared).
func writableCorpus(b *testing.B, catalog, queries string) (*corpus.QuerySet, []search.Simulator) {
	b.Helper()
	cat, err := corpus.Load(catalog)
	if err != nil {
		b.Skipf("shared data not found: %v", err)
	}
	qs, err := corpus.LoadQueries(queries, cat)
	if err != nil {
		b.Fatal(err)
	}
	sims, err := toolfind.Clients(cat, "claude,grok,codex,codex-search,opencode-codemode", nil)
	if err != nil {
		b.Fatal(err)
	}
	return qs, sims
}

// BenchmarkHeuristicWriters writes every writable client's call for the
// first 200 metatool prompts (the writers alone, no replay).
func BenchmarkHeuristicWriters(b *testing.B) {
	qs, sims := writableCorpus(b, "../shared/corpora/metatool/metatool.json", "../shared/corpora/metatool/queries.jsonl")
	qs.Queries = qs.Queries[:200]
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := writer.Write(ctx, writer.Heuristic{}, sims, qs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBenchHeuristic is bench --writer heuristic over the 234
// mongodb-accuracy prompts, every writable client, with replay.
func BenchmarkBenchHeuristic(b *testing.B) {
	qs, sims := writableCorpus(b, filepath.Join(sharedCatalogs, "mongodb.json"), "../shared/corpora/mongodb-accuracy/queries.jsonl")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bench.Run(ctx, sims, qs, bench.Options{Writers: []writer.Writer{writer.Heuristic{}}}); err != nil {
			b.Fatal(err)
		}
	}
}
