package codexjs

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// parallelChunk is how many items a worker of parallelChunks takes at a
// time.
const parallelChunk = 256

// parallelChunks calls work(from, to) over consecutive chunks of [0, n),
// on GOMAXPROCS goroutines when n is large; each goroutine gets its own
// work function from newWorker. A panic in a worker is re-raised in the
// caller.
func parallelChunks(n int, newWorker func() func(from, to int)) {
	parallelChunksOf(n, parallelChunk, newWorker)
}

// parallelChunksOf is parallelChunks with chunks of the given size.
func parallelChunksOf(n, chunk int, newWorker func() func(from, to int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || n < 4*chunk {
		if n > 0 {
			newWorker()(0, n)
		}
		return
	}
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed any
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					failed = p
					mu.Unlock()
				}
			}()
			work := newWorker()
			for {
				from := int(next.Add(int64(chunk))) - chunk
				if from >= n {
					return
				}
				work(from, min(from+chunk, n))
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		panic(failed)
	}
}

// textArena hands out texts that share large buffers: one allocation per
// block instead of one (or several, as a builder grows) per text.
type textArena struct {
	b     strings.Builder
	start int
}

const (
	arenaFirstBlock = 16 << 10
	arenaMaxBlock   = 1 << 20
)

// take returns the builder to write the next text into; n is its exact
// length (a longer text is still right, only copied once more).
func (a *textArena) take(n int) *strings.Builder {
	if a.b.Cap()-a.b.Len() < n {
		size := min(max(2*a.b.Cap(), arenaFirstBlock), arenaMaxBlock)
		// The texts already handed out keep the old block alive; the
		// builder starts afresh.
		a.b = strings.Builder{}
		a.b.Grow(max(n, size))
	}
	a.start = a.b.Len()
	return &a.b
}

// done returns the text written since take.
func (a *textArena) done() string { return a.b.String()[a.start:] }

// bytesString is b as a string without a copy: valid while b's bytes are
// not written to.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
