package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// streamTools is the catalog size from which rank builds and searches the
// clients as a stream, letting each go once it has answered, instead of
// building every client first: the peak memory is the catalog and the
// clients running at once instead of the catalog and every client
// (100,000 tools: 1.5 GB of simulators in all). Smaller catalogs build the
// clients in parallel first, as before.
var streamTools = 20_000

// clientFootprint is, per client, about how many heap bytes per catalog
// tool its build and search hold at their peak (peak) and how many its
// answer keeps to the end of the run (kept), measured on gencat's 100,000
// tools with GOGC=5: the heap's high-water mark above the loaded catalog,
// and what is left once the simulator is dropped. rankEach only uses them
// to decide which clients may run side by side within the memory limit; a
// wrong figure changes the run's memory and time, never its output.
var clientFootprint = map[string]footprint{
	"claude":            {peak: 1_000},
	"grok":              {peak: 1_100},
	"codex":             {peak: 2_900, kept: 100},
	"codex-search":      {peak: 1_300},
	"opencode":          {peak: 1_900, kept: 1_600}, // every tool is a hit
	"opencode-codemode": {peak: 1_900},
}

// footprint is a client's memory per catalog tool (clientFootprint).
type footprint struct{ peak, kept int64 }

// unknownFootprint is the estimate for a client clientFootprint does not
// list: the largest, so that it runs alone unless the memory is ample.
var unknownFootprint = footprint{peak: 2_900, kept: 1_600}

// rankEach is simulators plus toolfind.Rank for a query over a large
// catalog (see streamTools): each client is built, searched and dropped,
// up to GOMAXPROCS of them at once when their estimated footprints
// (clientFootprint) fit together in the room the memory limit leaves
// above the live heap. It reports one phase, "build+search".
func (g *globalOptions) rankEach(ctx context.Context, cat *corpus.Catalog, q search.Query) ([]search.Result, error) {
	opts, err := g.options()
	if err != nil {
		return nil, err
	}
	profiles, err := search.Resolve(g.clients)
	if err != nil {
		return nil, usageError("--client: %v", err)
	}
	ids := make([]search.ClientID, len(profiles))
	for i, p := range profiles {
		ids[i] = p.ID
	}
	if err := g.checkSelected(ids); err != nil {
		return nil, err
	}
	g.sayResolutions()
	ph := g.run().begin("build+search", int64(len(profiles)), false)
	est, kept := make([]int64, len(profiles)), make([]int64, len(profiles))
	for i, p := range profiles {
		f, ok := clientFootprint[p.ID.Name]
		if !ok {
			f = unknownFootprint
		}
		est[i], kept[i] = f.peak*int64(cat.Len()), f.kept*int64(cat.Len())
	}
	per := make([][]search.Result, len(profiles))
	build := make([]bool, len(profiles)) // the error is the client's build's
	var mu sync.Mutex
	done := 0
	most, err := schedule(len(profiles), est, kept, memoryRoom(), runtime.GOMAXPROCS(0), func(i int) error {
		p := profiles[i]
		c := cat
		if v := g.view(); v != nil {
			c = v(p.ID, cat)
		}
		sim, err := search.Build(p, c, opts[p.ID.Name])
		if err != nil {
			build[i] = true
			return err
		}
		if per[i], err = toolfind.Rank(ctx, []search.Simulator{sim}, q); err != nil {
			return err
		}
		mu.Lock()
		done++
		ph.set(int64(done))
		mu.Unlock()
		return nil
	})
	if se := (*scheduleError)(nil); errors.As(err, &se) {
		if build[se.job] {
			return nil, g.buildError(se.err)
		}
		return nil, se.err
	}
	results := make([]search.Result, 0, len(profiles))
	for _, rs := range per {
		results = append(results, rs...)
	}
	how := "one at a time"
	if most > 1 {
		how = fmt.Sprintf("up to %d at a time", most)
	}
	ph.end(fmt.Sprintf("built and searched %s %s", count(len(profiles), "client", "clients"), how))
	return results, nil
}

// memoryRoom is how many heap bytes the clients may take: the soft memory
// limit (debug.SetMemoryLimit; tuneGC sets one) less the heap live at the
// last collection (the loaded catalog), with a tenth of the limit kept
// back for the garbage between collections. Without a limit there is no
// bound.
func memoryRoom() int64 {
	limit := debug.SetMemoryLimit(-1)
	if limit <= 0 || limit == 1<<63-1 {
		return 1<<63 - 1
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	live := int64(0)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(s[0].Value.Uint64())
	}
	return max(0, limit-limit/10-live)
}

// scheduleError is a job's error and the job's index.
type scheduleError struct {
	job int
	err error
}

func (e *scheduleError) Error() string { return e.err.Error() }
func (e *scheduleError) Unwrap() error { return e.err }

// schedule runs jobs 0..n-1 with run, up to workers at a time, within a
// memory room: a job starts only while the estimates (est) of the jobs
// running and of itself sum to at most the room, except that a job always
// starts when none is running (so one larger than the room runs alone). A
// finished job's kept bytes (its answer, held to the end) leave the room
// for good. Free slots go to the largest waiting job that fits (ties: the
// lower index), which pairs a large job with the small ones beside it.
// After a job fails no other starts; schedule waits for the running ones
// and returns the failed job of lowest index (*scheduleError). most is the
// largest number of jobs that ran at once.
func schedule(n int, est, kept []int64, room int64, workers int, run func(i int) error) (most int, err error) {
	workers = max(workers, 1)
	waiting := make([]int, n)
	for i := range waiting {
		waiting[i] = i
	}
	slices.SortStableFunc(waiting, func(a, b int) int {
		switch {
		case est[a] > est[b]:
			return -1
		case est[a] < est[b]:
			return 1
		}
		return 0
	})
	type finished struct {
		job int
		err error
	}
	finishedc := make(chan finished)
	running, used := 0, int64(0)
	var failed *scheduleError
	for {
		for failed == nil && running < workers {
			k := slices.IndexFunc(waiting, func(j int) bool { return running == 0 || used+est[j] <= room })
			if k < 0 {
				break
			}
			j := waiting[k]
			waiting = slices.Delete(waiting, k, k+1)
			running++
			used += est[j]
			most = max(most, running)
			go func() { finishedc <- finished{j, run(j)} }()
		}
		if running == 0 {
			break
		}
		f := <-finishedc
		running--
		used -= est[f.job]
		room -= kept[f.job]
		if f.err != nil && (failed == nil || f.job < failed.job) {
			failed = &scheduleError{job: f.job, err: f.err}
		}
	}
	if failed != nil {
		return most, failed
	}
	return most, nil
}
