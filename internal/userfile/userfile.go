// Package userfile looks at the files and folders a user names (catalogs,
// query files, logs, --file) with errors that say what is wrong with
// them.
//
// Symbolic links are followed, to files and to folders. A link whose
// target does not exist, or that loops, is an error naming the link and,
// for a dangling one, its target: os.Stat alone says "no such file or
// directory" of a name that ls lists.
package userfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// LinkError is a symbolic link that cannot be followed: Target is what it
// points to, Err why it cannot be followed (fs.ErrNotExist for a dangling
// link, syscall.ELOOP for a loop).
type LinkError struct {
	Target string
	Err    error
}

func (e *LinkError) Error() string {
	switch {
	case errors.Is(e.Err, syscall.ELOOP):
		return fmt.Sprintf("a symbolic link to %q that loops (too many levels of symbolic links)", e.Target)
	case errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("a symbolic link to %q, which does not exist", e.Target)
	}
	return fmt.Sprintf("a symbolic link to %q, which cannot be followed: %v", e.Target, e.Err)
}

func (e *LinkError) Unwrap() error { return e.Err }

// Stat is os.Stat (links followed) whose error, for a link that cannot be
// followed, is a *fs.PathError holding a *LinkError.
func Stat(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err == nil {
		return fi, nil
	}
	return nil, explain(path, err)
}

// explain turns the error of following path into a *LinkError when path
// itself is a symbolic link (a link on the way to it is reported by the
// system as it is).
func explain(path string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	lst, lerr := os.Lstat(path)
	if lerr != nil || lst.Mode()&fs.ModeSymlink == 0 {
		return err
	}
	target, rerr := os.Readlink(path)
	if rerr != nil {
		return err
	}
	return &fs.PathError{Op: pe.Op, Path: path, Err: &LinkError{Target: target, Err: pe.Err}}
}
