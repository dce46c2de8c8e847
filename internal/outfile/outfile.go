// Package outfile is toolfind's one rule for output files (--out,
// --save-baseline and every other flag that names a file to write):
//
//  1. The path is checked before any work starts ([Open]): it must name a
//     regular file or nothing yet, in an existing folder. A symbolic link
//     is followed, and the file it points to is the target. A folder, a
//     named pipe, a device (/dev/full, /dev/null), a socket is refused —
//     write to standard output and redirect it instead.
//  2. The output goes to a temporary file in the target's folder, created
//     by Open, so an unwritable folder is found before the work, too.
//  3. [File.Commit] renames it over the target: readers never see half a
//     file, a symbolic link stays a link (to the new content), and an
//     existing file keeps its permission bits (a new one gets 0644).
//     [File.Abort] removes the temporary file and leaves the target as it
//     was.
//  4. With [OpenContext], the end of the context (Ctrl-C, SIGTERM, a
//     deadline) aborts the file at once, from the context's own goroutine:
//     the temporary file is gone before the command unwinds (a second
//     signal ends toolfind without running deferred calls), later writes
//     fail and Commit returns the context's error, leaving the target as
//     it was.
//
// Every error names the path as the user gave it, never the temporary
// file.
package outfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// File is an output file being written.
type File struct {
	mu     sync.Mutex // Write, Commit and Abort may race with the context's end
	ctx    context.Context
	stop   func() bool
	path   string // as the user gave it
	target string // symbolic links resolved
	mode   fs.FileMode
	tmp    *os.File
	err    error // the first write error
	done   bool
}

// Error is an output file that cannot be written; Path is the path as
// given.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Open checks path under the rule and creates the temporary file that
// Commit will rename over it.
func Open(path string) (*File, error) {
	fail := func(err error) (*File, error) { return nil, &Error{Path: path, Err: err} }
	if path == "" {
		return fail(errors.New("empty file name"))
	}
	target := path
	mode := fs.FileMode(0o644)
	st, err := os.Stat(path) // follows symbolic links
	switch {
	case err == nil:
		if !st.Mode().IsRegular() {
			return fail(fmt.Errorf("is %s, not a regular file (toolfind writes output files whole; redirect standard output to write elsewhere)", kind(st.Mode())))
		}
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return fail(err)
		}
		mode = st.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		if l, lerr := os.Lstat(path); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			return fail(errors.New("is a symbolic link to nothing (a dangling link)"))
		}
		dir := filepath.Dir(path)
		d, derr := os.Stat(dir)
		switch {
		case derr != nil && errors.Is(derr, fs.ErrNotExist):
			return fail(fmt.Errorf("its folder %s does not exist", dir))
		case derr != nil:
			return fail(fmt.Errorf("its folder %s: %v", dir, plainErr(derr)))
		case !d.IsDir():
			return fail(fmt.Errorf("%s is not a folder", dir))
		}
	default:
		if d, derr := os.Stat(filepath.Dir(path)); derr == nil && !d.IsDir() {
			return fail(fmt.Errorf("%s is not a folder", filepath.Dir(path)))
		}
		return fail(plainErr(err))
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".toolfind-*")
	if err != nil {
		return fail(fmt.Errorf("cannot create a file in its folder %s: %v", dir, plainErr(err)))
	}
	return &File{path: path, target: target, mode: mode, tmp: tmp}, nil
}

// OpenContext is [Open], and the end of ctx aborts the file (rule 4 of
// the package doc).
func OpenContext(ctx context.Context, path string) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Path: path, Err: fmt.Errorf("not written: %w", err)}
	}
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	f.ctx = ctx
	f.stop = context.AfterFunc(ctx, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.cancelLocked()
	})
	return f, nil
}

// cancelLocked aborts the file for the context's end; f.mu is held.
func (f *File) cancelLocked() {
	if f.done {
		return
	}
	f.done = true
	f.err = &Error{Path: f.path, Err: fmt.Errorf("not written: %w", context.Cause(f.ctx))}
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// Path returns the path as the user gave it.
func (f *File) Path() string { return f.path }

// Write writes to the temporary file; the first error is kept for Commit.
func (f *File) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.tmp.Write(p)
	if err != nil {
		f.err = &Error{Path: f.path, Err: plainErr(err)}
		return n, f.err
	}
	return n, nil
}

// Commit makes the written output the file's content. After a write error
// it removes the temporary file and returns that error.
func (f *File) Commit() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ctx != nil && f.ctx.Err() != nil {
		// Ended, though its AfterFunc may not have run yet.
		f.cancelLocked()
	}
	if f.done {
		return f.err
	}
	f.done = true
	if f.stop != nil {
		f.stop()
	}
	tmp := f.tmp.Name()
	err := f.err
	if err == nil {
		if serr := f.tmp.Sync(); serr != nil {
			err = &Error{Path: f.path, Err: plainErr(serr)}
		}
	}
	if cerr := f.tmp.Close(); err == nil && cerr != nil {
		err = &Error{Path: f.path, Err: plainErr(cerr)}
	}
	if err == nil {
		if cerr := os.Chmod(tmp, f.mode); cerr != nil {
			err = &Error{Path: f.path, Err: plainErr(cerr)}
		}
	}
	if err == nil {
		if rerr := os.Rename(tmp, f.target); rerr != nil {
			err = &Error{Path: f.path, Err: plainErr(rerr)}
		}
	}
	if err != nil {
		os.Remove(tmp)
	}
	f.err = err
	return err
}

// Abort removes the temporary file; the target is left as it was. It is a
// no-op after Commit.
func (f *File) Abort() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return
	}
	f.done = true
	if f.stop != nil {
		f.stop()
	}
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// kind names a file mode's type for messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// plainErr drops the *PathError wrapper (whose path may be the temporary
// file) and keeps the cause: "permission denied", "no space left on device".
func plainErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
