package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/toolfind/toolfind/internal/cputime"
	"github.com/toolfind/toolfind/internal/textfit"
)

// runStatus reports what a command is doing on standard error: a progress bar
// per long phase (load, build, search) and a one-line summary at the end,
// only on a terminal and never with --quiet; with --timing (-v), a table
// of where the time and memory went, whatever the output is.
//
// Phases shorter than barDelay never draw a bar, so quick runs print
// nothing but the summary.
type runStatus struct {
	w       io.Writer
	bars    bool // draw progress bars and the summary line
	timing  bool // print the phase table
	start   time.Time
	cpu0    time.Duration
	phases  []phaseTime
	summary []string
	// onFinish runs at the end (stops the CPU profile).
	onFinish func()
	delay    time.Duration // how long a phase runs before its bar appears
}

// phaseTime is one finished phase.
type phaseTime struct {
	name      string
	wall, cpu time.Duration
	heap      uint64 // live heap after the phase (only measured with --timing)
	detail    string
}

// barDelay is how long a phase runs before its bar appears.
const barDelay = 400 * time.Millisecond

func newRun(w io.Writer, terminal, quiet, timing bool) *runStatus {
	return &runStatus{w: w, bars: terminal && !quiet, timing: timing, start: time.Now(), cpu0: cputime.Used(), delay: barDelay}
}

// phase is a running phase; its bar (if any) advances with set.
type phase struct {
	mu    sync.Mutex // set may be called from several goroutines
	r     *runStatus
	name  string
	start time.Time
	cpu0  time.Duration
	total int64
	bytes bool
	bar   *progressbar.ProgressBar
	last  int64
}

// begin starts a phase of total units (bytes when bytes is true; 0 when
// unknown).
func (r *runStatus) begin(name string, total int64, bytes bool) *phase {
	return &phase{r: r, name: name, start: time.Now(), cpu0: cputime.Used(), total: total, bytes: bytes}
}

// set reports progress: done units of the total. Safe to call often; only
// a terminal sees anything, and only after barDelay.
func (p *phase) set(done int64) {
	if p == nil || !p.r.bars {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = done
	if p.bar == nil {
		if time.Since(p.start) < p.r.delay {
			return
		}
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(p.r.w),
			progressbar.OptionSetDescription(p.name),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100 * time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionUseANSICodes(true),
		}
		if p.bytes {
			opts = append(opts, progressbar.OptionShowBytes(true))
		}
		p.bar = progressbar.NewOptions64(max(p.total, 1), opts...)
	}
	_ = p.bar.Set64(done)
}

// end finishes the phase; detail says what it did ("1,049 tools").
func (p *phase) end(detail string) {
	if p == nil {
		return
	}
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
	pt := phaseTime{name: p.name, wall: time.Since(p.start), cpu: cputime.Used() - p.cpu0, detail: detail}
	if p.r.timing {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		pt.heap = ms.HeapAlloc
	}
	p.r.phases = append(p.r.phases, pt)
	if detail != "" {
		p.r.summary = append(p.r.summary, detail+" in "+seconds(pt.wall))
	}
}

// finish prints the summary line (terminal only) and the timing table.
func (r *runStatus) finish() {
	if r.onFinish != nil {
		r.onFinish()
	}
	wall, cpu := time.Since(r.start), cputime.Used()-r.cpu0
	if r.bars && len(r.summary) > 0 {
		fmt.Fprintf(r.w, "%s; %s in all\n", strings.Join(r.summary, "; "), seconds(wall))
	}
	if !r.timing {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	const row = "%-7s %10s %10s %10s  %s\n"
	fmt.Fprintf(r.w, row, "phase", "wall", "CPU", "live heap", "")
	for _, p := range r.phases {
		fmt.Fprintf(r.w, row, p.name, millis(p.wall), millis(p.cpu), mib(p.heap), p.detail)
	}
	fmt.Fprintf(r.w, row, "total", millis(wall), millis(cpu), mib(ms.HeapAlloc),
		fmt.Sprintf("peak RSS %s, %d GCs (CPU includes the runtime's own threads)", mib(cputime.MaxRSS()), ms.NumGC))
}

// startCPUProfile writes a CPU profile to path until the returned stop.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// count writes n with thousands separators and the noun: "1,049 tools".
func count(n int, one, many string) string { return group(n) + " " + plural(n, one, many) }

// group writes n with thousands separators.
func group(n int) string { return textfit.Thousands(n) }

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func millis(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
