package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// unexpandedVar finds a shell variable the shell did not expand: $NAME or
// ${NAME}.
var unexpandedVar = regexp.MustCompile(`\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)

// headerHint adds a hint to a live server's refusal (HTTP 401 or 403) when
// a --header value holds an unexpanded variable: in single quotes the
// shell sends '$TOKEN' as those six characters, which the server rejects
// with no word about why.
func headerHint(headers []string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if !strings.Contains(msg, "HTTP 401") && !strings.Contains(msg, "HTTP 403") {
		return err
	}
	for _, h := range headers {
		k, v, perr := snap.ParseHeader(h)
		if perr != nil {
			continue
		}
		if m := unexpandedVar.FindString(v); m != "" {
			return fmt.Errorf("%w\n(the --header %s value holds the literal text %s, which the shell did not expand: put the flag in double quotes, --header \"%s: …%s…\", or set the value itself)", err, k, m, k, m)
		}
	}
	return err
}
