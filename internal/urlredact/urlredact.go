// Package urlredact takes the credentials out of URLs before they are
// printed: the one helper every error, diagnostic and output that shows a
// URL goes through (--url, --config servers' URLs, redirects' Location,
// --model-url).
//
// Two kinds of credentials are replaced by "***":
//
//   - the user information of the authority ("user:password@", RFC 3986
//     §3.2.1, which §7.5 says not to reveal): "https://u:p@h/mcp" is
//     "https://***@h/mcp";
//   - the value of every query parameter whose name is a credential's
//     (SecretParam: token, key, api_key, access_token, sig, password,
//     secret, …): "https://h/mcp?token=abc&x=1" is
//     "https://h/mcp?token=***&x=1".
//
// It works on text that does not parse as a URL too: the authority is what
// follows the first "://" up to the next '/', '?' or '#', its user
// information what precedes its last '@'; the query is what follows the
// first '?' up to '#', split on '&' and ';'.
package urlredact

import (
	"net/url"
	"sort"
	"strings"
)

// URL returns raw with its credentials replaced by "***" (see the package
// doc). Anything else is returned unchanged.
func URL(raw string) string {
	out := raw
	if i := strings.Index(out, "://"); i >= 0 {
		start := i + 3
		end := len(out)
		if j := strings.IndexAny(out[start:], "/?#"); j >= 0 {
			end = start + j
		}
		if at := strings.LastIndexByte(out[start:end], '@'); at >= 0 {
			out = out[:start] + "***" + out[start+at:]
		}
	}
	q := strings.IndexByte(out, '?')
	if q < 0 {
		return out
	}
	end := len(out)
	if h := strings.IndexByte(out[q:], '#'); h >= 0 {
		end = q + h
	}
	var b strings.Builder
	b.WriteString(out[:q+1])
	query := out[q+1 : end]
	for query != "" {
		i := strings.IndexAny(query, "&;")
		param, sep := query, ""
		if i >= 0 {
			param, sep, query = query[:i], query[i:i+1], query[i+1:]
		} else {
			query = ""
		}
		if k, v, ok := strings.Cut(param, "="); ok && v != "" && SecretParam(k) {
			param = k + "=***"
		}
		b.WriteString(param + sep)
	}
	b.WriteString(out[end:])
	return b.String()
}

// secretWords are the words of a query parameter name that make it a
// credential's.
var secretWords = map[string]bool{
	"token": true, "key": true, "apikey": true, "secret": true, "password": true, "passwd": true,
	"pwd": true, "pass": true, "sig": true, "signature": true, "auth": true, "authorization": true,
	"credential": true, "credentials": true, "jwt": true, "bearer": true, "session": true, "sessionid": true,
	"code": true, "private": true,
}

// SecretParam reports whether a query parameter name (percent-decoded and
// lowercased first) is a credential's: one of its words (split at every
// character that is not a letter or digit) is in secretWords or ends in
// "token", "key", "secret" or "password" (accesstoken, apikey,
// clientsecret). "token", "api_key", "X-Api-Key", "access_token", "sig",
// "password" and "client_secret" are; "page", "q" and "limit" are not.
func SecretParam(name string) bool {
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	name = strings.ToLower(name)
	words := strings.FieldsFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for _, w := range words {
		if secretWords[w] {
			return true
		}
		for _, suf := range []string{"token", "key", "secret", "password"} {
			if strings.HasSuffix(w, suf) {
				return true
			}
		}
	}
	return false
}

// Secrets returns the forms in which the credentials of raw may appear in
// an error message, longest first, or nil when raw has none: the user
// information as written, as net/url writes it again, as net/http shows it
// ("user:***"), and the password alone; and each secret query parameter
// as "name=value" (as written and with the value escaped). Scrub makes a
// text safe with them.
func Secrets(raw string) []string {
	var out []string
	add := func(s string) {
		if s == "" || s == "***" || strings.HasSuffix(s, "=***") {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	if i := strings.Index(raw, "://"); i >= 0 {
		start := i + 3
		end := len(raw)
		if j := strings.IndexAny(raw[start:], "/?#"); j >= 0 {
			end = start + j
		}
		if at := strings.LastIndexByte(raw[start:end], '@'); at >= 0 {
			add(raw[start : start+at+1])
			if u, err := url.Parse(raw); err == nil && u.User != nil {
				add(u.User.String() + "@")
				name := u.User.Username()
				if p, ok := u.User.Password(); ok {
					add(url.UserPassword(name, "***").String())
					add(name + ":***")
					add(p)
					add(url.QueryEscape(p))
				}
				add(name + "@")
			}
		}
	}
	if q := strings.IndexByte(raw, '?'); q >= 0 {
		query := raw[q+1:]
		if h := strings.IndexByte(query, '#'); h >= 0 {
			query = query[:h]
		}
		for _, param := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
			k, v, ok := strings.Cut(param, "=")
			if !ok || v == "" || !SecretParam(k) {
				continue
			}
			add(k + "=" + v)
			if dv, err := url.QueryUnescape(v); err == nil {
				add(k + "=" + url.QueryEscape(dv))
				add(k + "=" + dv)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	// Longest first, so that a part never spoils the replacement of a
	// form holding it.
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// Scrub returns s with every secret replaced: "user:pw@" by "***@", a
// query parameter "name=value" by "name=***", anything else by "***".
func Scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		switch {
		case strings.HasSuffix(sec, "@"):
			s = strings.ReplaceAll(s, sec, "***@")
		case strings.Contains(sec, "="):
			k, _, _ := strings.Cut(sec, "=")
			s = strings.ReplaceAll(s, sec, k+"=***")
		default:
			s = strings.ReplaceAll(s, sec, "***")
		}
	}
	return s
}

// Error returns err's text scrubbed of raw's credentials (nil for nil).
func Error(err error, raw string) string {
	if err == nil {
		return ""
	}
	return Scrub(err.Error(), Secrets(raw))
}
