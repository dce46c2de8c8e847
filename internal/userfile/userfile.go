// Package userfile looks at the files and folders a user names (catalogs,
// query files, logs, --file) with errors that say what is wrong with
// them.
//
// Symbolic links are followed, to files and to folders. A link whose
// target does not exist, or that loops, is an error naming the link and,
// for a dangling one, its target: os.Stat alone says "no such file or
// directory" of a name that ls lists.
//
// Open and ReadFile read regular files and character devices (/dev/null;
// /dev/zero ends at the size limit of each reader): a named pipe (FIFO), a
// socket, a block device or a folder named like a data file (q.jsonl,
// cat.json) would block the read forever (a FIFO with no writer) or is no
// file of data, so it is refused before anything is read. On Unix the file is opened
// with O_NONBLOCK, which returns at once for a FIFO, and the open file is
// checked with fstat, so the check and the read are of the same file. The
// names of streams given on purpose, /dev/stdin and /dev/fd/N (a shell's
// <(…)), are opened as they are; "-" for standard input is the caller's.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
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
	var nr *NotRegularError
	if !errors.As(err, &pe) || errors.As(err, &nr) {
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

// NotRegularError is a file that is not a regular file (Mode is its type).
type NotRegularError struct{ Mode fs.FileMode }

func (e *NotRegularError) Error() string {
	return "is " + kind(e.Mode) + ", not a regular file; toolfind reads only regular files"
}

// kind names a file type for NotRegularError.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a plain file (" + m.Type().String() + ")"
}

// IsStream reports whether path names a stream given on purpose
// (/dev/stdin, /dev/fd/N), which Open does not refuse.
func IsStream(path string) bool {
	return path == "/dev/stdin" || strings.HasPrefix(path, "/dev/fd/")
}

// Open opens path for reading when it is a regular file or a character
// device (links followed). Anything else is a *fs.PathError holding a
// *NotRegularError, or a *LinkError for a link that cannot be followed.
func Open(path string) (*os.File, error) {
	if IsStream(path) {
		return os.Open(path)
	}
	f, err := openNonblock(path)
	if err != nil {
		return nil, explain(path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !readable(fi.Mode()) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: fi.Mode()}}
	}
	return f, nil
}

// readable: a regular file, or a character device (/dev/null, /dev/zero:
// they neither block nor outgrow the limit every reader puts on its input).
func readable(m fs.FileMode) bool {
	return m.IsRegular() || m&fs.ModeCharDevice != 0
}

// ReadFile is os.ReadFile through Open.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<40 {
		size = int(fi.Size())
	}
	b := make([]byte, 0, size+512)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
