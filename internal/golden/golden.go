// Package golden compares a test's output with a golden file.
//
// Compare reads the file and fails the test, naming the first line that
// differs, when the bytes are not equal; with update it writes the output
// to the file instead. Each test package keeps its own -update flag and
// passes its value.
package golden

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Compare checks got against the golden file at path, or rewrites the
// file with got when update is true.
func Compare(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it after checking the change):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff names the first line where want and got differ and shows both
// (each cut to 200 bytes), or says "(same lines)".
func Diff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + cut(w) + "\n got: " + cut(g)
		}
	}
	return "(same lines)"
}

func cut(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
