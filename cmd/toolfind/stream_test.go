package main

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSchedule runs fake jobs that hold for a moment and checks that the
// jobs running at once never exceed the workers or the memory room (one
// job alone may), that every job runs once, and the order of the starts.
func TestSchedule(t *testing.T) {
	for _, tc := range []struct {
		name    string
		est     []int64
		room    int64
		workers int
		most    int   // jobs at once at the most
		first   []int // the jobs started first (in order when one at a time)
	}{
		// Everything fits: two at a time, largest first (30, then 20).
		{"ample", []int64{10, 20, 30, 5}, 1000, 2, 2, []int{2, 1}},
		// No room: one at a time, largest first, ties by index.
		{"none", []int64{10, 20, 30, 20}, 0, 2, 1, []int{2, 1, 3, 0}},
		// 30+20 > 45 but 30+10 fits: the largest (2) runs beside the
		// small one (0), never beside 1 or 3.
		{"pairs", []int64{10, 20, 30, 20}, 45, 2, 2, []int{2, 0}},
		// A job larger than the room runs alone.
		{"oversized", []int64{100, 1}, 50, 2, 1, []int{0, 1}},
		{"one worker", []int64{1, 2, 3}, 1000, 1, 1, []int{2, 1, 0}},
		{"no jobs", nil, 1000, 2, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				mu      sync.Mutex
				running = map[int]bool{}
				starts  []int
				runs    = make([]int, len(tc.est))
			)
			most, err := schedule(len(tc.est), tc.est, make([]int64, len(tc.est)), tc.room, tc.workers, func(i int) error {
				mu.Lock()
				running[i] = true
				starts = append(starts, i)
				runs[i]++
				sum := int64(0)
				for j := range running {
					sum += tc.est[j]
				}
				assert.LessOrEqual(t, len(running), tc.workers, "jobs at once")
				if len(running) > 1 {
					assert.LessOrEqual(t, sum, tc.room, "estimates of the jobs at once %v", running)
				}
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
				mu.Lock()
				delete(running, i)
				mu.Unlock()
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, tc.most, most)
			for i, n := range runs {
				assert.Equal(t, 1, n, "job %d runs", i)
			}
			if most > 1 { // the jobs started together record in either order
				assert.ElementsMatch(t, tc.first, starts[:len(tc.first)])
			} else {
				assert.Equal(t, tc.first, starts[:len(tc.first)])
			}
		})
	}
}

// TestScheduleError: after a failure no other job starts; the error is the
// failed job of lowest index among those that ran.
func TestScheduleError(t *testing.T) {
	boom := errors.New("boom")
	var mu sync.Mutex
	var ran []int
	// One at a time (room 0), largest first: 3 (fails), then nothing.
	_, err := schedule(4, []int64{1, 2, 3, 4}, make([]int64, 4), 0, 2, func(i int) error {
		mu.Lock()
		ran = append(ran, i)
		mu.Unlock()
		if i == 3 || i == 2 {
			return boom
		}
		return nil
	})
	var se *scheduleError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 3, se.job)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, []int{3}, ran)

	// Two at a time: 1 and 0 run together and both fail; job 0 is named.
	_, err = schedule(2, []int64{1, 2}, make([]int64, 2), 100, 2, func(i int) error {
		time.Sleep(time.Duration(2-i) * 5 * time.Millisecond) // 0 fails last
		return errors.New([]string{"zero", "one"}[i])
	})
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 0, se.job)
	assert.EqualError(t, err, "zero")
}

// TestScheduleKept: a finished job's kept bytes shrink the room. Room 50:
// 30 and 20 start together; 30 keeps 25, so 25 is left and the jobs of 20
// and 10 no longer fit together: they run one at a time, whichever of the
// first two ends first (1 first: 2 starts beside 0, whose end leaves 25,
// 20 of it used, so 3 waits for 2). Job 2 waits a while for job 3 to
// start beside it, which it must not; without kept bytes it would.
func TestScheduleKept(t *testing.T) {
	var mu sync.Mutex
	var starts []int
	started3 := make(chan struct{})
	overlap := false
	running := map[int]bool{}
	_, err := schedule(4, []int64{30, 20, 20, 10}, []int64{25, 0, 0, 0}, 50, 2, func(i int) error {
		mu.Lock()
		starts = append(starts, i)
		running[i] = true
		overlap = overlap || running[2] && running[3]
		mu.Unlock()
		switch i {
		case 2:
			select {
			case <-started3:
			case <-time.After(100 * time.Millisecond):
			}
		case 3:
			close(started3)
		}
		mu.Lock()
		delete(running, i)
		mu.Unlock()
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, []int{0, 1, 2, 3}, starts)
	assert.False(t, overlap, "jobs 2 and 3 ran side by side")
}
