package clientconfig

import (
	"fmt"
	"strings"

	"github.com/toolfind/toolfind/ojson"
)

// obj is one server entry being read.
type obj struct {
	r     *reader
	v     ojson.Value
	ptr   []string
	field string
	s     *Server
}

func (o *obj) errorf(key, format string, args ...any) error {
	ptr := append(append([]string{}, o.ptr...), key)
	f := o.field
	if key != "" {
		f = field(o.field, key)
	} else {
		ptr = o.ptr
	}
	return o.r.errorf(ptr, f, format, args...)
}

// str reads an optional string member, expanded.
func (o *obj) str(key string) (string, string, bool, error) {
	x, ok := o.v.Get(key)
	if !ok || x.Kind == ojson.Null {
		return "", "", false, nil
	}
	if x.Kind != ojson.String {
		return "", "", true, o.errorf(key, "want a string, not %s", kindName(x))
	}
	v, missing := o.r.exp(x.Str())
	o.s.Missing = append(o.s.Missing, missing...)
	return v, x.Str(), true, nil
}

// strs reads an optional array of strings, expanded (raw: as written).
func (o *obj) strs(key string) (vals, raw []string, present bool, err error) {
	x, ok := o.v.Get(key)
	if !ok || x.Kind == ojson.Null {
		return nil, nil, false, nil
	}
	if x.Kind != ojson.Array {
		return nil, nil, true, o.errorf(key, "want an array of strings, not %s", kindName(x))
	}
	vals = []string{}
	for i, e := range x.Array() {
		if e.Kind != ojson.String {
			return nil, nil, true, o.errorf(key, "element %d: want a string, not %s", i, kindName(e))
		}
		v, missing := o.r.exp(e.Str())
		o.s.Missing = append(o.s.Missing, missing...)
		vals = append(vals, v)
		raw = append(raw, e.Str())
	}
	return vals, raw, true, nil
}

// kvs reads an optional object of strings (env, headers), expanded.
func (o *obj) kvs(key string) ([]KV, error) {
	x, ok := o.v.Get(key)
	if !ok || x.Kind == ojson.Null {
		return nil, nil
	}
	if x.Kind != ojson.Object {
		return nil, o.errorf(key, "want an object of strings, not %s", kindName(x))
	}
	var out []KV
	for _, m := range x.Members() {
		var val string
		switch m.Value.Kind {
		case ojson.String:
			val = m.Value.Str()
		case ojson.Number, ojson.Bool:
			// Clients pass JSON numbers and booleans on as their text.
			val = m.Value.JS("")
		default:
			// The value is not printed: it may be a secret.
			return nil, o.errorf(key, "%q: want a string, not %s", m.Key, kindName(m.Value))
		}
		v, missing := o.r.exp(val)
		o.s.Missing = append(o.s.Missing, missing...)
		out = append(out, KV{m.Key, v})
	}
	return out, nil
}

func (o *obj) boolean(key string) (val, present bool, err error) {
	x, ok := o.v.Get(key)
	if !ok || x.Kind == ojson.Null {
		return false, false, nil
	}
	if x.Kind != ojson.Bool {
		return false, true, o.errorf(key, "want true or false, not %s", kindName(x))
	}
	return x.Bool, true, nil
}

// server reads one server entry of a JSON format.
func (r *reader) server(v ojson.Value, ptr []string, fieldName, key, dir string) (*Server, error) {
	s := &Server{Key: key, Field: fieldName}
	o := &obj{r: r, v: v, ptr: ptr, field: fieldName, s: s}
	if v.Kind != ojson.Object {
		return nil, o.errorf("", "want an object (a server definition), not %s", kindName(v))
	}
	typ, _, _, err := o.str("type")
	if err != nil {
		return nil, err
	}
	typ = strings.ToLower(typ)
	var command, rawCommand string
	var args, rawArgs []string
	if r.c.Format == OpenCode {
		// "command" is the whole argument vector.
		cmd, raw, present, err := o.strs("command")
		if err != nil {
			return nil, err
		}
		if present && len(cmd) == 0 {
			return nil, o.errorf("command", "an empty array: no program to run")
		}
		if present {
			command, args, rawCommand, rawArgs = cmd[0], cmd[1:], raw[0], raw[1:]
		}
	} else {
		if command, rawCommand, _, err = o.str("command"); err != nil {
			return nil, err
		}
		if args, rawArgs, _, err = o.strs("args"); err != nil {
			return nil, err
		}
	}
	url, rawURL, _, err := o.str("url")
	if err != nil {
		return nil, err
	}
	if r.c.Format == Gemini {
		if h, raw, ok, err := o.str("httpUrl"); err != nil {
			return nil, err
		} else if ok {
			url, rawURL, typ = h, raw, "http"
		} else if url != "" && typ != "http" {
			typ = "sse" // gemini: url is the SSE endpoint unless "type": "http"
		}
	}
	switch {
	case typ == "sse":
		s.Transport = SSE
	case typ == "http" || typ == "streamable-http" || typ == "streamablehttp" || typ == "remote":
		s.Transport = HTTP
	case typ == "stdio" || typ == "local":
		s.Transport = Stdio
	case typ != "":
		return nil, o.errorf("type", "%q: want stdio or http (or sse)", typ)
	case command != "":
		s.Transport = Stdio
	case url != "":
		s.Transport = HTTP
	default:
		return nil, o.errorf("", "neither a command nor a url: nothing to start")
	}
	switch s.Transport {
	case Stdio:
		if command == "" {
			return nil, o.errorf("command", "a %s server needs a command", typ)
		}
		s.Command, s.Args = command, args
		s.RawCommand = append([]string{rawCommand}, rawArgs...)
		envKey := "env"
		if r.c.Format == OpenCode {
			envKey = "environment"
		}
		if s.Env, err = o.kvs(envKey); err != nil {
			return nil, err
		}
		cwd, _, _, err := o.str("cwd")
		if err != nil {
			return nil, err
		}
		s.Dir = resolveDir(cwd, r.dir)
		if s.Dir == "" {
			s.Dir = dir
		}
	default:
		if url == "" {
			return nil, o.errorf("url", "a %s server needs a url", s.Transport)
		}
		s.URL, s.RawURL = url, rawURL
		if s.Headers, err = o.kvs("headers"); err != nil {
			return nil, err
		}
	}
	// Switched off.
	if r.c.Format == OpenCode {
		if en, ok, err := o.boolean("enabled"); err != nil {
			return nil, err
		} else if ok && !en {
			s.Disabled, s.Why = true, `"enabled": false`
		}
		if dis, _, err := o.boolean("disabled"); err != nil {
			return nil, err
		} else if dis {
			s.Disabled, s.Why = true, `"disabled": true`
		}
	}
	if r.c.Format == VSCode {
		if _, ok := v.Get("envFile"); ok {
			r.c.Notes = append(r.c.Notes, fmt.Sprintf("%s: %s.envFile: not read; put the variables in env", r.c.Path, fieldName))
		}
	}
	// Tool filters and trust.
	switch r.c.Format {
	case Gemini:
		if s.Trust, _, err = o.boolean("trust"); err != nil {
			return nil, err
		}
		inc, _, hasInc, err := o.strs("includeTools")
		if err != nil {
			return nil, err
		}
		exc, _, _, err := o.strs("excludeTools")
		if err != nil {
			return nil, err
		}
		if !hasInc {
			inc = nil
		}
		s.Tools = Filter{Include: inc, Exclude: exc, Call: true, Field: "includeTools/excludeTools"}
	case Copilot:
		tools, _, has, err := o.strs("tools")
		if err != nil {
			return nil, err
		}
		// Copilot CLI: "tools": ["*"] allows every tool, a list of names
		// only those.
		if has {
			all := false
			for _, t := range tools {
				all = all || t == "*"
			}
			if !all {
				s.Tools = Filter{Include: tools, Field: "tools"}
			}
		}
	}
	return s, nil
}
