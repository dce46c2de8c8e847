package writer

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCommandOutputCap: a command that writes without end (yes) is
// stopped once its output passes the limit (lowered here to 64 KiB), with
// an error naming the limit; one that writes just under it is read.
func TestCommandOutputCap(t *testing.T) {
	sim := claudeSim(t)
	defer func(m int) { maxCommandOutput = m }(maxCommandOutput)
	maxCommandOutput = 64 << 10
	c := &Command{Argv: []string{"yes"}, Timeout: time.Minute}
	_, err := c.Calls(context.Background(), sim, Prompt{ID: "q1", Text: "x"})
	const want = "command writer: prompt q1, "
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), ": the command wrote more than 65536 bytes to standard output, toolfind's limit for one answer") {
		t.Fatalf("error %v", err)
	}
	// 60,000 spaces and null: under the limit.
	c = &Command{Argv: []string{"sh", "-c", `head -c 60000 /dev/zero | tr '\0' ' '; echo null`}, Timeout: time.Minute}
	calls, err := c.Calls(context.Background(), sim, Prompt{ID: "q2", Text: "x"})
	if err != nil || len(calls) != 0 {
		t.Fatalf("under the limit: %v %v", calls, err)
	}
}
