package snap

import (
	"net/url"
	"strings"
)

// RedactURL returns raw with the user information of its authority
// ("user:password@", the credentials of RFC 3986 §3.2.1, which §7.5 says
// not to reveal) replaced by "***": "https://u:p@h/mcp" is
// "https://***@h/mcp". It works on text that does not parse as a URL too:
// the authority is what follows the first "://" up to the next '/', '?' or
// '#', and its user information what precedes its last '@'. Anything else
// is returned unchanged.
func RedactURL(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	start := i + 3
	end := len(raw)
	if j := strings.IndexAny(raw[start:], "/?#"); j >= 0 {
		end = start + j
	}
	at := strings.LastIndexByte(raw[start:end], '@')
	if at < 0 {
		return raw
	}
	return raw[:start] + "***" + raw[start+at:]
}

// Secrets returns the forms in which the credentials of raw's user
// information may appear in an error message, longest first, or nil when
// raw has none: the user information as written, as net/url writes it
// again, as net/http shows it ("user:***"), and the password alone. An
// error's text is made safe by replacing each of them by "***".
func Secrets(raw string) []string {
	red := RedactURL(raw)
	if red == raw {
		return nil
	}
	start := strings.Index(raw, "://") + 3
	userinfo := raw[start : start+len(raw)-len(red)+3]
	var out []string
	add := func(s string) {
		if s == "" || s == "***" {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	add(userinfo)
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		add(u.User.String())
		name := u.User.Username()
		if p, ok := u.User.Password(); ok {
			add(url.UserPassword(name, "***").String())
			add(name + ":***")
			add(p)
			add(url.QueryEscape(p))
		}
		add(name + "@")
	}
	// Longest first, so that a part never spoils the replacement of a
	// form holding it.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Scrub returns s with every secret replaced by "***".
func Scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		if strings.HasSuffix(sec, "@") {
			s = strings.ReplaceAll(s, sec, "***@")
			continue
		}
		s = strings.ReplaceAll(s, sec, "***")
	}
	return s
}
