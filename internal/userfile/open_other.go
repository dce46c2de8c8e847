//go:build !unix

package userfile

import "os"

// openNonblock stats path first (no O_NONBLOCK here): what is not a
// regular file is not opened at all.
func openNonblock(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !readable(fi.Mode()) {
		return nil, &os.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: fi.Mode()}}
	}
	return os.Open(path)
}
