package sdk

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/model"
)

// TestBigAnswer: an API answer longer than the limit (lowered here to
// 64 KiB; the server streams 1 MiB, with a 200 and with a 500) ends the
// run with a backend error naming the limit, unretried, instead of being
// read whole.
func TestBigAnswer(t *testing.T) {
	defer func(m int) { maxAnswer = m }(maxAnswer)
	maxAnswer = 64 << 10
	for _, api := range []string{model.OpenAI, model.Anthropic} {
		for _, status := range []int{200, 500} {
			t.Run(api+" "+http.StatusText(status), func(t *testing.T) {
				var requests atomic.Int32
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					requests.Add(1)
					io.Copy(io.Discard, r.Body)
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(status)
					io.WriteString(w, `{"error":{"message":"`)
					chunk := strings.Repeat("z", 4096)
					for i := 0; i < 1<<20; i += len(chunk) {
						if _, err := io.WriteString(w, chunk); err != nil {
							return
						}
					}
					io.WriteString(w, `"}}`)
				}))
				defer srv.Close()
				w, err := New(model.Config{API: api, BaseURL: srv.URL, Model: "m", Key: testKey, Backoff: time.Millisecond, Retries: 3})
				require.NoError(t, err)
				_, err = w.Calls(context.Background(), claudeSim(t), writer.Prompt{ID: "q1", Text: prompt})
				// The request reached the API: it is counted as sent.
				assert.Equal(t, 1, w.Stats().Requests)
				require.Error(t, err)
				var be *model.BackendError
				require.True(t, errors.As(err, &be), "not a backend error: %v", err)
				assert.Contains(t, err.Error(), "the "+api+" API's answer is longer than 65536 bytes, toolfind's limit for one answer")
				assert.Equal(t, int32(1), requests.Load(), "not retried")
			})
		}
	}
}

// TestCappedKeepsClient: the cap wraps the caller's transport, not
// replaces it.
func TestCappedKeepsClient(t *testing.T) {
	tr := &countingTransport{}
	c := capped(&http.Client{Transport: tr, Timeout: time.Minute}, model.OpenAI)
	assert.Equal(t, time.Minute, c.Timeout)
	st := newStub(t, reply{200, nil, `{}`})
	resp, err := c.Get(st.srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 1, tr.n)
}
