//go:build unix

package userfile

import (
	"os"
	"syscall"
)

// openNonblock opens path without blocking on a FIFO that has no writer
// (open(2) O_NONBLOCK); reads of a regular file ignore the flag.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
