//go:build !unix

package corpus

import "os"

// mapQueryFile maps nothing: mapping is for Unix (LoadQueriesWith).
func mapQueryFile(f *os.File, size int) ([]byte, bool) { return nil, false }
