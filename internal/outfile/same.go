package outfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Same reports whether paths a and b name one file, so that writing one
// would replace the other: two existing files are the same when
// os.SameFile says so (a symbolic link and its target, two hard links,
// "./x" and "dir/../x"); otherwise the paths are compared absolute and
// cleaned, with the symbolic links of their folders resolved (a file not
// written yet, named through two paths).
func Same(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	if errA == nil || errB == nil {
		return false // one exists, the other does not
	}
	ra, okA := resolved(a)
	rb, okB := resolved(b)
	return okA && okB && ra == rb
}

// Within reports whether path is an existing file inside folder dir:
// directly in it, or at any depth when deep.
func Within(path, dir string, deep bool) bool {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return false
	}
	ds, err := os.Stat(dir)
	if err != nil || !ds.IsDir() {
		return false
	}
	// The folders the path is in as written (a link in dir to a file
	// elsewhere is read from dir) and once its links are resolved.
	given, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(given)
	if err != nil {
		return false
	}
	for _, start := range []string{given, real} {
		for p := filepath.Dir(start); ; p = filepath.Dir(p) {
			if ps, err := os.Stat(p); err == nil && os.SameFile(ps, ds) {
				return true
			}
			if !deep || filepath.Dir(p) == p {
				break
			}
		}
	}
	return false
}

// resolved is path absolute and cleaned, its folder's symbolic links
// resolved; false when the folder cannot be resolved.
func resolved(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		dir = filepath.Dir(abs)
	}
	return filepath.Join(dir, filepath.Base(abs)), true
}
