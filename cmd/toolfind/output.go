package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/toolfind/toolfind/internal/outfile"
)

// outWriter is standard output as the commands see it: it keeps the first
// write error, so that every command — whatever its format, and though
// text renderers ignore Fprintf's error — exits 2 when its output could not
// be written (a full disk, /dev/full, a closed file). After an error it
// writes nothing more.
type outWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = err
	}
	return n, err
}

// failed returns the first write error, or nil.
func (o *outWriter) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// openOut applies the output-file rule (package internal/outfile: a
// regular file or nothing yet, symbolic links followed, written whole by
// rename) to an output flag, before any work: "" is none. The caller must
// commitOut or Abort the file; the end of ctx (Ctrl-C, SIGTERM) removes its
// temporary file at once (outfile.OpenContext).
func openOut(ctx context.Context, flag, path string) (*outfile.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := outfile.OpenContext(ctx, path)
	if err != nil {
		return nil, badInput(fmt.Errorf("--%s %v", flag, err))
	}
	return f, nil
}

// commitOut finishes an output file; a failure (the disk filled up) is
// exit 2 naming the flag and the path.
func commitOut(flag string, f *outfile.File) error {
	if err := f.Commit(); err != nil {
		return badInput(fmt.Errorf("--%s %v", flag, err))
	}
	return nil
}

// abortOut drops an output file that was not committed (nil-safe), for
// defer.
func abortOut(f *outfile.File) {
	if f != nil {
		f.Abort()
	}
}
