package outfile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolfind/toolfind/internal/outfile"
)

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "outfile")
	defer os.RemoveAll(dir)
	// Checked before the work: a folder is refused.
	if _, err := outfile.Open(dir); err != nil {
		fmt.Println("refused: is a folder")
	}
	f, err := outfile.Open(filepath.Join(dir, "report.txt"))
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(f, "found@1 80.0%") // ... the work ...
	if err := f.Commit(); err != nil {
		panic(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "report.txt"))
	fmt.Print(string(data))
	// Output:
	// refused: is a folder
	// found@1 80.0%
}
