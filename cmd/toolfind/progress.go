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

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/toolfind/toolfind/internal/cputime"
	"github.com/toolfind/toolfind/internal/textfit"
)

// runStatus reports what a command is doing on standard error: a progress bar
// per long phase (load, build, search) and a one-line summary at the end,
// only on a terminal and never with --quiet; with --timing (-v), a table
// of where the time and memory went, whatever the output is.
//
// Phases shorter than barDelay never draw a bar, so quick runs print
// nothing but the summary. A bar (github.com/vbauerster/mpb) redraws at
// most every barRefresh, fits the terminal's width, and is erased when its
// phase ends.
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
	// refresh, when not nil, redraws the bars instead of a timer (tests).
	refresh <-chan any
}

// phaseTime is one finished phase.
type phaseTime struct {
	name      string
	wall, cpu time.Duration
	heap      uint64 // live heap after the phase (only measured with --timing)
	detail    string
}

// barDelay is how long a phase runs before its bar appears; barRefresh is
// how often a bar is redrawn.
const (
	barDelay   = 400 * time.Millisecond
	barRefresh = 100 * time.Millisecond
	barWidth   = 30
)

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
	total int64 // 0 while unknown
	bytes bool
	prog  *mpb.Progress // the bar's container, from the bar's first draw
	bar   *mpb.Bar
	shown int64 // the total the bar shows
	// label, when set, is what the phase is waiting for ("starting server
	// everything"): its bar is a spinner with the time it has waited.
	label string
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
	if p.bar == nil {
		if time.Since(p.start) < p.r.delay {
			return
		}
		p.newBar()
	}
	if p.total != p.shown {
		p.bar.SetTotal(p.total, false)
		p.shown = p.total
	}
	p.bar.SetCurrent(done)
}

// newBar starts the phase's bar: "search  25% [=====>-----] 185 / 739 ETA
// 2s" (the total and ETA once known), or a spinner when the total is not
// known yet: "load ⠙ 1.2 MiB".
func (p *phase) newBar() {
	opts := []mpb.ContainerOption{mpb.WithOutput(p.r.w), mpb.ForceTTY(), mpb.WithRefreshRate(barRefresh)}
	if p.r.refresh != nil {
		opts = append(opts, mpb.WithManualRefresh(p.r.refresh))
	}
	p.prog = mpb.New(opts...)
	eta := decor.NewAverageETA(decor.ET_STYLE_GO, p.start, nil)
	counts := decor.Any(func(s decor.Statistics) string {
		text := p.amount(s.Current)
		if s.Total > 0 {
			text += " / " + p.amount(s.Total)
			if !s.Completed && !s.Aborted {
				left, _ := eta.Decor(s)
				text += " ETA " + left
			}
		}
		return text
	})
	// A total unknown when the bar starts (bytes of a load) spins.
	var style mpb.BarFillerBuilder = mpb.SpinnerStyle()
	pre, width := []decor.Decorator{decor.Name(p.name)}, 1
	if p.label != "" {
		counts = decor.Any(func(s decor.Statistics) string {
			return fmt.Sprintf("%.0f s", time.Since(p.start).Seconds())
		})
		pre = []decor.Decorator{decor.Name(p.label)}
	} else if p.total > 0 {
		style, pre, width = mpb.BarStyle(), append(pre, decor.NewPercentage("%d", decor.WC{W: 5})), barWidth
	}
	p.bar = p.prog.New(p.total, style, mpb.BarWidth(width), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(pre...), mpb.AppendDecorators(counts))
	p.shown = p.total
}

// wait shows, on a terminal, that the phase waits for label (a live
// server starting): after barDelay, a spinner with the label and the
// seconds waited, until the returned stop (then the phase may end).
func (p *phase) wait(label string) (stop func()) {
	if p == nil || !p.r.bars {
		return func() {}
	}
	p.mu.Lock()
	p.label = label
	p.mu.Unlock()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(barRefresh)
		defer t.Stop()
		for {
			p.set(0)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// amount is n units: "1,049" or "1.2 MiB".
func (p *phase) amount(n int64) string {
	if p.bytes {
		return fmt.Sprintf("% .1f", decor.SizeB1024(n))
	}
	return group(int(n))
}

// end finishes the phase; detail says what it did ("1,049 tools").
func (p *phase) end(detail string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.bar != nil {
		p.bar.Abort(true) // erased; a completed bar already is
		p.prog.Wait()
	}
	p.mu.Unlock()
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
