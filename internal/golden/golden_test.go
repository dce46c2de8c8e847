package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	long := strings.Repeat("x", 250)
	for _, tt := range []struct{ want, got, diff string }{
		{"a\nb", "a\nb", "(same lines)"},
		{"a\nb", "a\nc", "line 2:\nwant: b\n got: c"},
		// got has a third line: want's is empty
		{"a\nb", "a\nb\nc", "line 3:\nwant: \n got: c"},
		// 250 bytes are cut to 200 and "..."
		{long, "", "line 1:\nwant: " + long[:200] + "...\n got: "},
	} {
		if d := Diff(tt.want, tt.got); d != tt.diff {
			t.Errorf("Diff(%q, %q) = %q, want %q", tt.want, tt.got, d, tt.diff)
		}
	}
}

func TestCompareUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	Compare(t, path, []byte("one\ntwo\n"), true)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "one\ntwo\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	Compare(t, path, []byte("one\ntwo\n"), false) // equal: passes
}

// recorder keeps the message of Errorf instead of failing the test.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Errorf(format string, a ...any) { r.msg = fmt.Sprintf(format, a...) }

func TestCompareDiffers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Compare(r, path, []byte("one\nthree\n"), false)
	want := path + " differs from the golden file (go test -update rewrites it after checking the change):\nline 2:\nwant: two\n got: three"
	if r.msg != want {
		t.Errorf("message %q\nwant %q", r.msg, want)
	}
}
