package codexjs

import (
	"encoding/binary"
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
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || n < 4*parallelChunk {
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
				from := int(next.Add(parallelChunk)) - parallelChunk
				if from >= n {
					return
				}
				work(from, min(from+parallelChunk, n))
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

// isASCII reports whether s has only bytes below 0x80, eight at a time.
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// appendASCIILower appends s with A–Z lowercased (every other byte as it
// is), eight bytes at a time.
func appendASCIILower(dst []byte, s string) []byte {
	const ones = 0x0101010101010101
	start := len(dst)
	dst = append(dst, s...)
	b := dst[start:]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		h := w &^ (0x80 * ones) // the low seven bits of each byte
		// The top bit of a byte of ge is set when h ≥ 'A', of gt when
		// h > 'Z'; bytes ≥ 0x80 are excluded by &^ w.
		ge := h + (0x80-'A')*ones
		gt := h + (0x80-'Z'-1)*ones
		upper := ge &^ gt &^ w & (0x80 * ones)
		if upper != 0 {
			binary.LittleEndian.PutUint64(b[i:], w|upper>>2)
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return dst
}

// bytesString is b as a string without a copy: valid while b's bytes are
// not written to.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
