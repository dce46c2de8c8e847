package result

import (
	"fmt"
	"io"

	"github.com/toolfind/toolfind/internal/userfile"
)

// MaxInputBytes bounds a tool result read from a file or standard input
// (16 MiB: the largest JSON-RPC message toolfind reads from a stdio
// server, live.MaxLineLength, so any result a live call can return fits).
// A longer input is refused once MaxInputBytes+1 bytes are read, never
// read whole: `--file /dev/zero` ends at once.
const MaxInputBytes = 16 << 20

// maxInput is MaxInputBytes; tests lower it.
var maxInput = MaxInputBytes

// ReadInput reads a tool result of at most MaxInputBytes from r; name
// labels the error ("big.json", "standard input").
func ReadInput(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(maxInput)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxInput {
		return nil, fmt.Errorf("%s: the result is larger than %s, the limit for one tool result", name, sizeText(maxInput))
	}
	return data, nil
}

// ReadFile is ReadInput of the file at path.
func ReadFile(path string) ([]byte, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadInput(path, f)
}

// sizeText words a size limit: "16777216 bytes (16 MiB)", "10 bytes".
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d bytes (%d MiB)", n, n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
