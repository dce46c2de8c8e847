//go:build unix

package corpus

import (
	"os"
	"syscall"
)

// mapCatalogFile maps a regular catalog file of at most MaxCatalogBytes
// into memory, read-only and never unmapped (see LoadOptions.MapFiles);
// an empty or irregular file is read as usual.
func mapCatalogFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() > MaxCatalogBytes {
		return readCatalogFile(path) // which reports the size limit
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return readCatalogFile(path)
	}
	return data, nil
}
