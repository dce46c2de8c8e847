package bench

import "sync"

// aggregator sums up a run's outcomes as they come, in the report's order
// (query-major): the per-row metrics, the breakdowns and the per-tool
// view. In summary mode (Options.Summary) it also keeps, per row, the
// number of misses (an expected tool not certainly shown) and the first
// maxMisses of them, the ones the table and Markdown formats list; the
// outcomes themselves are dropped. Its memory grows with the rows, tag
// values, expected tools and distinct rank values, not with the queries.
type aggregator struct {
	rows  map[string]*rowAcc
	bys   []*breakdownAcc
	tools perToolAcc // nil: no per-tool view

	keep      bool // summary mode: keep the first misses of each row
	misses    map[string][]Outcome
	missCount map[string]int
}

func newAggregator(opts Options, keepMisses bool) *aggregator {
	g := &aggregator{rows: map[string]*rowAcc{}, keep: keepMisses,
		misses: map[string][]Outcome{}, missCount: map[string]int{}}
	for _, key := range opts.By {
		g.bys = append(g.bys, newBreakdownAcc(key))
	}
	if opts.PerTool {
		g.tools = perToolAcc{}
	}
	return g
}

// add counts one outcome; outcomes come in query order.
func (g *aggregator) add(o *Outcome) {
	ra := g.rows[o.Client]
	if ra == nil {
		ra = newRowAcc(o.Client)
		g.rows[o.Client] = ra
	}
	ra.add(o)
	for _, b := range g.bys {
		b.add(o)
	}
	if g.tools != nil {
		g.tools.add(o)
	}
	if g.keep && isMiss(o) {
		g.missCount[o.Client]++
		if len(g.misses[o.Client]) < maxMisses {
			g.misses[o.Client] = append(g.misses[o.Client], *o)
		}
	}
}

// isMiss reports whether the outcome is one the reports list as not
// certainly shown.
func isMiss(o *Outcome) bool { return len(o.Expect) > 0 && !o.Found }

// finish fills the report's metrics for the rows labels.
func (g *aggregator) finish(rep *Report, labels []string, variant map[string]bool, writers, writerLabels map[string]string) {
	rep.Clients = make([]ClientMetrics, len(labels))
	for i, l := range labels {
		if ra := g.rows[l]; ra != nil {
			rep.Clients[i] = ra.result()
		} else {
			rep.Clients[i] = newRowAcc(l).result()
		}
		rep.Clients[i].Variant = variant[l]
		rep.Clients[i].Writer = writers[l]
		rep.Clients[i].WriterLabel = writerLabels[l]
	}
	for _, b := range g.bys {
		rep.By = append(rep.By, b.result(labels))
	}
	if g.tools != nil {
		rep.PerTool = g.tools.result(labels)
	}
	if g.keep {
		rep.summary = true
		rep.missCount = g.missCount
		rep.Outcomes = []Outcome{}
		for _, l := range labels {
			rep.Outcomes = append(rep.Outcomes, g.misses[l]...)
		}
	}
}

// orderer hands the cells of a run to sink in index order as workers
// finish them in any order. A worker more than window cells ahead of the
// first unfinished one waits, so that what is held is bounded by the
// window whatever the number of queries.
type orderer struct {
	mu      sync.Mutex
	cond    sync.Cond
	next    int
	window  int
	stopped bool
	pending map[int][]Outcome
	sink    func(i int, cell []Outcome)
}

func newOrderer(window int, sink func(int, []Outcome)) *orderer {
	o := &orderer{window: window, pending: map[int][]Outcome{}, sink: sink}
	o.cond.L = &o.mu
	return o
}

// wait blocks until cell i is within the window; false when the run
// stopped.
func (o *orderer) wait(i int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i-o.next >= o.window && !o.stopped {
		o.cond.Wait()
	}
	return !o.stopped
}

// put delivers cell i (nil: no outcome) and every cell after it that is
// ready.
func (o *orderer) put(i int, cell []Outcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending[i] = cell
	for {
		c, ok := o.pending[o.next]
		if !ok {
			break
		}
		delete(o.pending, o.next)
		o.sink(o.next, c)
		o.next++
	}
	o.cond.Broadcast()
}

// stopIf wakes every waiting worker, when o is not nil: the run ends
// (cancelled).
func (o *orderer) stopIf() {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.stopped = true
	o.cond.Broadcast()
	o.mu.Unlock()
}

// summaryLabels are the rows of a summary run: per column, its label and
// then its variants' in the order they first came (as assemble orders
// them).
func summaryLabels(cols []column, variants [][]string) []string {
	var labels []string
	for si := range cols {
		labels = append(labels, cols[si].label)
		labels = append(labels, variants[si]...)
	}
	return dedup(labels)
}
