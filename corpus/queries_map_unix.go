//go:build unix

package corpus

import (
	"os"
	"syscall"
)

// mapQueryFile maps the first size bytes of f, a regular file, read-only
// and never unmapped (LoadQueriesWith, MapFiles); ok is false when it
// cannot.
func mapQueryFile(f *os.File, size int) (data []byte, ok bool) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	return data, err == nil
}
