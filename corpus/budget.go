package corpus

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/ojson"
)

// toolfind's limits on what it reads, so that every command costs time and
// memory linear in its input, whatever a catalog, a server or a query file
// holds. Each limit is named in the error or diagnostic that enforces it
// and listed in the README.
const (
	// MaxCatalogBytes bounds one catalog file (64 MiB; the largest real
	// catalogs are under 1 MiB).
	MaxCatalogBytes = 64 << 20
	// MaxJSONDepth is the nesting limit of the catalog decoder (ojson, the
	// same as encoding/json's): a file nested deeper is rejected whole.
	MaxJSONDepth = 10000
	// MaxSchemaDepth bounds how deeply a tool's JSON nests (its inputSchema,
	// outputSchema, _meta…; the tool object is level 1). A deeper tool is
	// left out of the catalog for every client, with an error diagnostic
	// (CodeSchemaTooDeep): clients print schemas back to their models
	// (Grok Build pretty-prints, one more indent per level), so the text
	// the model reads grows with the square of the depth, and no real
	// schema nests this deep. 128 is also serde_json's default recursion
	// limit, with which Rust clients (Codex, Grok Build) decode messages;
	// that those clients then fail the whole tools/list answer is not
	// verified.
	MaxSchemaDepth = 128
)

// CodeSchemaTooDeep is the diagnostic of a tool over MaxSchemaDepth.
const CodeSchemaTooDeep = "schema-too-deep"

// readCatalogFile reads a catalog file of at most MaxCatalogBytes into
// memory of its own: the catalog's values are cut from that copy, so the
// file may change or go once it is read. (Mapping the file instead, as
// toolfind once did, made a file truncated during a run kill the process
// with SIGBUS.) A file that changed while it was read is an error
// (changedWhileRead).
func readCatalogFile(path string) (data []byte, err error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooBig := fmt.Errorf("the file is larger than %d bytes (%d MiB), the limit for one catalog file", MaxCatalogBytes, MaxCatalogBytes>>20)
	r := io.LimitReader(f, MaxCatalogBytes+1)
	fi, serr := f.Stat()
	if serr != nil {
		fi = nil
	}
	defer func() {
		if err == nil {
			if err = changedWhileRead(f, fi, len(data)); err != nil {
				data = nil
			}
		}
	}()
	if fi != nil && fi.Mode().IsRegular() {
		// One buffer of the file's size (io.ReadAll would grow one from
		// 512 bytes, copying and zeroing at every step); a file that
		// grows meanwhile is read on to the limit all the same.
		if fi.Size() > MaxCatalogBytes {
			return nil, tooBig
		}
		data = make([]byte, 0, fi.Size()+1)
	}
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(data) > MaxCatalogBytes {
		return nil, tooBig
	}
	return data, nil
}

// testHookRead, when set (by tests), runs after a file is read and before
// it is checked for changes.
var testHookRead func(path string)

// changedWhileRead reports a regular file f that another program changed
// while toolfind read it (an editor saving, "snapshot > cat.json", git
// checkout writing in place): its size or modification time after the
// read differ from before, or the read got another size than the file
// had. A file replaced by a rename is not changed for toolfind, which
// read the old one whole. before is f's stat before the read (nil when
// it failed); n the bytes read.
func changedWhileRead(f *os.File, before fs.FileInfo, n int) error {
	if testHookRead != nil {
		testHookRead(f.Name())
	}
	if before == nil || !before.Mode().IsRegular() {
		return nil
	}
	after, err := f.Stat()
	if err != nil {
		return err
	}
	if after.Size() != before.Size() || int64(n) != before.Size() {
		return fmt.Errorf("the file changed while toolfind read it (%d bytes before, %d after, %d read); run again once it is written", before.Size(), after.Size(), n)
	}
	if !after.ModTime().Equal(before.ModTime()) {
		return fmt.Errorf("the file changed while toolfind read it (modified again during the read); run again once it is written")
	}
	return nil
}

// unwrapPathError drops *fs.PathError's repeat of the path LoadError
// already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// depth returns how deeply v nests: 1 for a scalar or an empty container,
// one more per level of arrays and objects. It stops counting at limit+1.
func depth(v ojson.Value, limit int) int {
	if limit < 0 {
		return 1
	}
	d := 0
	switch v.Kind {
	case ojson.Array:
		for _, e := range v.Array() {
			d = max(d, depth(e, limit-1))
			if d > limit {
				break
			}
		}
	case ojson.Object:
		for _, m := range v.Members() {
			d = max(d, depth(m.Value, limit-1))
			if d > limit {
				break
			}
		}
	}
	return d + 1
}

// tooDeep checks a tool against MaxSchemaDepth and returns the diagnostic
// naming its first member that nests too deeply, if any.
func tooDeep(file, server, name string, tool ojson.Value) (Diagnostic, bool) {
	for _, m := range tool.Members() {
		// The tool object is level 1: a member may nest MaxSchemaDepth-1.
		if depth(m.Value, MaxSchemaDepth-1) > MaxSchemaDepth-1 {
			return Diagnostic{Severity: Error, Code: CodeSchemaTooDeep, File: file, Server: server, Tool: name, Field: m.Key,
				Message: fmt.Sprintf("nests deeper than %d levels of JSON arrays and objects, toolfind's limit (MaxSchemaDepth): tool %q is left out for every client; "+
					"clients print schemas back to the model with one indent per level, and Rust clients using serde_json refuse JSON nested deeper than 128 levels",
					MaxSchemaDepth, name)}, true
		}
	}
	return Diagnostic{}, false
}
