package main

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchTextFitsColumns: bench's text report fits $COLUMNS with
// baseline rows, a breakdown and the per-tool view (the writer line alone
// was 163 columns, the per-tool table 250 on the demo): prose is wrapped,
// tables too wide are split into blocks of columns.
func TestBenchTextFitsColumns(t *testing.T) {
	for _, columns := range []int{100, 72} {
		t.Setenv("COLUMNS", strconv.Itoa(columns))
		out, errOut, code := run(t, "bench", "--writer", "heuristic", "--by", "category", "--per-tool", "--quiet")
		require.Equal(t, 0, code, errOut)
		n, line := longestLine(out)
		assert.LessOrEqual(t, n, columns, "COLUMNS=%d: %q", columns, line)
		assert.Contains(t, out, "\nPer tool (queries that show it, of those expecting it):\n")
		assert.Contains(t, out, "\n  TOOL                    QUERIES")
	}
}

// TestRankPromptCallsFolded: with --prompt, each client's call is folded
// to the width at a blank, comma or semicolon, never inside a word (it
// was cut every width characters: "summ" / "ar/i"), and the lines joined
// without separators are the call.
func TestRankPromptCallsFolded(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	out, errOut, code := run(t, "rank", "--prompt", "Group all the movies by release year and show the invoices", "--client", "claude,codex", "--quiet")
	require.Equal(t, 0, code, errOut)
	n, line := longestLine(out)
	assert.LessOrEqual(t, n, 80, line)
	lines := strings.Split(out, "\n")
	var call []string
	for i, l := range lines {
		if !strings.HasPrefix(l, "  codex call (heuristic writer): ") {
			continue
		}
		call = append(call, strings.TrimPrefix(l, "  "))
		for _, c := range lines[i+1:] {
			if strings.HasSuffix(call[len(call)-1], `"}`) {
				break // the call's end
			}
			call = append(call, strings.TrimPrefix(c, "    "))
		}
	}
	require.Greater(t, len(call), 1, out)
	for i := 1; i < len(call); i++ {
		prev := call[i-1]
		assert.Contains(t, " ,;⏎", string([]rune(prev)[len([]rune(prev))-1]), "line %d ends inside a token: %q", i, prev)
	}
	assert.Contains(t, strings.Join(call, ""), `codex call (heuristic writer): {"code":"const re = /group|movi|releas|year|show|invoic|aggreg|summar/i;⏎text(ALL_TOOLS`)
}

func TestLiveWaitLabel(t *testing.T) {
	tests := []struct {
		servers, urls []string
		want          string
	}{
		{nil, nil, ""},
		{[]string{"npx -y @modelcontextprotocol/server-everything@2026.8.31"}, nil, "starting server-everything@2026.8.31"},
		{[]string{"billing=./bin/billing-mcp --stdio"}, nil, "starting server billing"},
		{[]string{"/opt/srv/bin/tickets --x"}, nil, "starting tickets"},
		{nil, []string{"https://mcp.example.com/mcp"}, "connecting to mcp.example.com"},
		{nil, []string{"api=https://mcp.example.com/mcp"}, "connecting to server api"},
		{[]string{"a", "b"}, []string{"http://h/mcp"}, "starting 3 live servers"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, liveWaitLabel(tt.servers, tt.urls), "%v %v", tt.servers, tt.urls)
	}
}

// TestPhaseWait: on a terminal, a phase waiting for a live server shows a
// spinner with what it waits for and the seconds waited (it printed
// nothing until the 30 s timeout), erased when the wait ends.
func TestPhaseWait(t *testing.T) {
	var buf lockedBuffer
	r := newRun(&buf, true, false, false)
	r.delay = 0
	refresh := make(chan any)
	r.refresh = refresh
	ph := r.begin("load", 0, true)
	stop := ph.wait("starting server everything")
	// The spinner is drawn once the ticker has reported (set) and a
	// refresh is asked for; each send waits for the draw before it.
	for buf.Len() == 0 {
		refresh <- true
	}
	stop()
	ph.end("")
	assert.Regexp(t, `^starting server everything [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \d+ s\n`, buf.String())
	assert.True(t, strings.HasSuffix(buf.String(), "\x1b[1A\x1b[J"), "%q", buf.String())

	// Not a terminal, or --quiet: nothing.
	buf = lockedBuffer{}
	r = newRun(&buf, false, false, false)
	r.delay = 0
	ph = r.begin("load", 0, true)
	ph.wait("starting server everything")()
	ph.end("")
	assert.Empty(t, buf.String())
}

// lockedBuffer is a bytes.Buffer safe to write from the bars' goroutine
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
