package safetext_test

import (
	"fmt"
	"os"

	"github.com/toolfind/toolfind/internal/safetext"
)

func ExampleEscape() {
	// A tool description that would retitle the terminal, clear the screen
	// and reverse the rest of the line.
	fmt.Println(safetext.Escape("Find invoices\x1b]0;pwned\x07\x1b[2J \u202eevil\n"))
	// Output: Find invoices\x1b]0;pwned\x07\x1b[2J \u202eevil\n
}

func ExampleBlock() {
	fmt.Println(safetext.Block("line one\n\tindented\r\x1b[1Aup"))
	// Output:
	// line one
	// 	indented\r\x1b[1Aup
}

func ExampleWriter() {
	w := safetext.NewWriter(os.Stdout)
	fmt.Fprintf(w, "name: %s\n", "bad\x1b[31mred")
	w.Flush()
	// Output: name: bad\x1b[31mred
}
