package model

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A Retry-After date in the future is a wait, capped at 60 s.
func TestRetryAfterDate(t *testing.T) {
	soon := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	d := StatusError(503, "x", soon).RetryAfter
	assert.True(t, d > 25*time.Second && d <= 30*time.Second, "%v", d)
	assert.Equal(t, 60*time.Second, StatusError(503, "x", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)).RetryAfter)
	assert.EqualError(t, StatusError(413, "", ""), "413 Request Entity Too Large: Request Entity Too Large")
}
