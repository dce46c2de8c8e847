package snap

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Source is one live MCP server: a command speaking MCP over stdio, or the
// endpoint of a streamable-HTTP server.
type Source struct {
	// Name is the server name given with a "name=" prefix; empty means
	// "derive it" (see Snapshot.Name).
	Name string
	// Command is the argument vector of a stdio server (Command[0] is
	// looked up in PATH). Empty for an HTTP source.
	Command []string
	// URL is the streamable-HTTP endpoint. Empty for a stdio source.
	URL string
	// Header is sent with every HTTP request (authentication); ignored for
	// stdio.
	Header Header
	// Dir is the working directory of a stdio server; empty means the
	// current one.
	Dir string
	// Env are extra KEY=VALUE entries added to the inherited environment
	// of a stdio server.
	Env []string
}

// String names the source the way errors and diagnostics do: the command
// line of a stdio server (quoted where needed), or the URL without its
// credentials (RedactURL).
func (s Source) String() string {
	if s.URL != "" {
		return RedactURL(s.URL)
	}
	return JoinCommand(s.Command)
}

// Label is the source as a catalog file name: "stdio:CMD ARGS" or the URL.
// It becomes corpus.Server.Source and the File of diagnostics, so a URL
// loses its credentials (RedactURL).
func (s Source) Label() string {
	if s.URL != "" {
		return RedactURL(s.URL)
	}
	return "stdio:" + JoinCommand(s.Command)
}

// ParseServer parses the value of --server: an optional "NAME=" prefix,
// then a command line split into words the way a POSIX shell would, minus
// expansion (see SplitCommand).
//
//	npx -y @modelcontextprotocol/server-everything@2026.8.31
//	billing=./bin/billing-mcp --region 'eu west'
//	tickets=env TOKEN=x ./tickets-mcp     // environment: use env(1)
//
// The prefix is any server name a client's configuration allows ("Second
// Server", "acme/tools", "team@corp") when it cannot be the start of the
// command (see splitName): "./srv --a=b" and "env TOKEN=x ./srv" have
// none. A command whose first argument holds '=' with no option before it
// needs a name: "srv=node server.js port=80".
func ParseServer(spec string) (Source, error) {
	name, rest := splitName(spec, false)
	words, err := SplitCommand(rest)
	if err != nil {
		return Source{}, fmt.Errorf("--server %q: %w", spec, err)
	}
	if len(words) == 0 {
		return Source{}, fmt.Errorf("--server %q: no command", spec)
	}
	return Source{Name: name, Command: words}, nil
}

// ParseURL parses the value of --url: an optional "NAME=" prefix (as for
// ParseServer) and an absolute http or https URL.
func ParseURL(spec string) (Source, error) {
	name, rest := splitName(spec, true)
	rest = strings.TrimSpace(rest)
	// Errors never show the URL's credentials.
	shown := RedactURL(spec)
	u, err := url.Parse(rest)
	if err != nil {
		return Source{}, fmt.Errorf("--url %q: %s", shown, Scrub(errors.Unwrap(err).Error(), Secrets(rest)))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Source{}, fmt.Errorf("--url %q: want an http:// or https:// URL", shown)
	}
	if u.Host == "" {
		return Source{}, fmt.Errorf("--url %q: no host", shown)
	}
	return Source{Name: name, URL: rest}, nil
}

// ParseHeader parses the value of --header, "Key: value" (the space after
// the colon is optional). The key must be an HTTP token.
func ParseHeader(spec string) (key, value string, err error) {
	k, v, ok := strings.Cut(spec, ":")
	if !ok {
		return "", "", fmt.Errorf("--header %q: want KEY:VALUE", spec)
	}
	k = strings.TrimSpace(k)
	if k == "" {
		return "", "", fmt.Errorf("--header %q: empty key", spec)
	}
	for _, r := range k {
		if !isTokenChar(r) {
			return "", "", fmt.Errorf("--header %q: key has the character %q, not allowed in an HTTP header name", spec, r)
		}
	}
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, "\r\n\x00") {
		return "", "", fmt.Errorf("--header %q: value has a line break or NUL", spec)
	}
	// A field value is visible characters, spaces and tabs (RFC 9110 §5.5):
	// net/http refuses any other control character only when the request
	// is sent, which would surface as a handshake failure.
	if i := strings.IndexFunc(v, isValueCTL); i >= 0 {
		return "", "", fmt.Errorf("--header %q: value has the control character %q, not allowed in an HTTP header value", spec, v[i])
	}
	return CanonicalKey(k), v, nil
}

// Header holds HTTP header fields by canonical key (CanonicalKey): the
// same map as net/http's Header, which it converts to (http.Header(h)),
// so that this package, linked into the toolfind command, does not import
// net/http.
type Header map[string][]string

// Add appends value to the values of key (canonicalised).
func (h Header) Add(key, value string) {
	key = CanonicalKey(key)
	h[key] = append(h[key], value)
}

// CanonicalKey is key as net/http and net/textproto write header names
// (CanonicalMIMEHeaderKey): the first letter and every letter after a
// hyphen upper case, the others lower case ("x-api-KEY" is "X-Api-Key").
// A key with a byte that is not an HTTP token character (RFC 9110 §5.6.2)
// is returned as it is, as they do.
func CanonicalKey(key string) string {
	upper := true
	canonical := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 0x80 || !isTokenChar(rune(c)) {
			return key
		}
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			canonical = false
		}
		upper = c == '-'
	}
	if canonical {
		return key
	}
	b := []byte(key)
	upper = true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - ('a' - 'A')
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c + ('a' - 'A')
		}
		upper = c == '-'
	}
	return string(b)
}

// isTokenChar reports whether r may appear in an HTTP token (RFC 9110
// §5.6.2).
func isTokenChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// isValueCTL reports whether r is a control character that may not appear
// in an HTTP field value (RFC 9110 §5.5: only HTAB among the CTLs).
func isValueCTL(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }

// splitName cuts the "NAME=" prefix off a --server or --url value: the
// text before the first '=', trimmed, unless it reads as part of the
// command or URL:
//
//   - it is empty, or holds a quote, a backslash or '$' (shell syntax);
//   - it starts with '-', '.', '/' or '~' (an option or a path);
//   - one of its words starts with '-' (an option: "srv --a=b",
//     "java -Dx=y");
//   - its first word is env and it has more (env(1) setting a variable:
//     "env TOKEN=x ./srv");
//   - for a URL, it holds "://" ("https://h/mcp?a=b").
//
// Anything else is a name, blanks, '/' and '@' included: client
// configurations key servers by any string.
func splitName(spec string, isURL bool) (name, rest string) {
	n, r, ok := strings.Cut(spec, "=")
	n = strings.TrimSpace(n)
	if !ok || n == "" || strings.ContainsAny(n, "'\"\\$") || strings.ContainsAny(n[:1], "-./~") {
		return "", spec
	}
	words := strings.Fields(n)
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			return "", spec
		}
	}
	if len(words) > 1 && words[0] == "env" || isURL && strings.Contains(n, "://") {
		return "", spec
	}
	return n, r
}

// errUnterminated and friends are SplitCommand's errors.
var (
	errUnterminatedSingle = errors.New("unterminated single quote")
	errUnterminatedDouble = errors.New("unterminated double quote")
	errTrailingBackslash  = errors.New("backslash at the end")
)

// SplitCommand splits a command line into words like a POSIX shell (sh
// §2.2 Quoting), without any expansion:
//
//   - blanks (space, tab, newline) separate words;
//   - '…' keeps everything literally up to the next ';
//   - "…" keeps everything literally except \" \\ \$ \` and
//     backslash-newline (removed);
//   - outside quotes a backslash keeps the next character literally
//     (backslash-newline is removed);
//   - a pair of quotes with nothing between makes an empty word.
//
// $VAR, ~, globs, ;, | and redirections have no special meaning: the
// command is run directly, not through a shell. Worked example:
//
//	srv --name 'a b' "c\"d" e\ f ''   →   [srv --name "a b" "c\"d" "e f" ""]
func SplitCommand(line string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // a word has started (possibly empty, from quotes)
	)
	r := []rune(line)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			in = true
			j := i + 1
			for j < len(r) && r[j] != '\'' {
				j++
			}
			if j == len(r) {
				return nil, errUnterminatedSingle
			}
			cur.WriteString(string(r[i+1 : j]))
			i = j
		case c == '"':
			in = true
			j := i + 1
			for ; ; j++ {
				if j == len(r) {
					return nil, errUnterminatedDouble
				}
				if r[j] == '"' {
					break
				}
				if r[j] == '\\' && j+1 < len(r) {
					switch r[j+1] {
					case '"', '\\', '$', '`':
						cur.WriteRune(r[j+1])
						j++
						continue
					case '\n':
						j++
						continue
					}
				}
				cur.WriteRune(r[j])
			}
			i = j
		case c == '\\':
			if i+1 == len(r) {
				return nil, errTrailingBackslash
			}
			i++
			if r[i] == '\n' {
				continue
			}
			in = true
			cur.WriteRune(r[i])
		default:
			in = true
			cur.WriteRune(c)
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// JoinCommand is the inverse of SplitCommand: words that need it are put in
// single quotes, so SplitCommand(JoinCommand(w)) equals w.
func JoinCommand(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteWord(w))
	}
	return b.String()
}

func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("@%+=:,./_-", c)) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
