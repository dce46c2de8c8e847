package snap

import "github.com/toolfind/toolfind/internal/urlredact"

// RedactURL returns raw with its credentials replaced by "***": the user
// information ("https://u:p@h/mcp" is "https://***@h/mcp") and the values
// of query parameters named like credentials ("?token=***"); see package
// urlredact, the one helper for every URL toolfind prints.
func RedactURL(raw string) string { return urlredact.URL(raw) }

// Secrets returns the forms in which the credentials of raw may appear in
// an error message, longest first, or nil (urlredact.Secrets).
func Secrets(raw string) []string { return urlredact.Secrets(raw) }

// Scrub returns s with every secret replaced (urlredact.Scrub).
func Scrub(s string, secrets []string) string { return urlredact.Scrub(s, secrets) }
