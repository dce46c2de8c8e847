package pipeprog

import (
	"bytes"
	"encoding/json"
)

// Encode renders a message as one line. HTML characters are not escaped,
// so strings cross the pipe as they are.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
