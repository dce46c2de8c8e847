package live

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/toolfind/toolfind/corpus/live/snap"
)

// Source is one live MCP server (see snap.Source).
type Source = snap.Source

// Header holds the HTTP header fields of a Source (see snap.Header);
// http.Header(h) is the net/http form.
type Header = snap.Header

// ParseServer parses the value of --server (see snap.ParseServer).
func ParseServer(spec string) (Source, error) { return snap.ParseServer(spec) }

// ParseURL parses the value of --url (see snap.ParseURL).
func ParseURL(spec string) (Source, error) { return snap.ParseURL(spec) }

// ParseHeader parses the value of --header (see snap.ParseHeader).
func ParseHeader(spec string) (key, value string, err error) { return snap.ParseHeader(spec) }

// SplitCommand splits a command line into words like a POSIX shell,
// without expansion (see snap.SplitCommand).
func SplitCommand(line string) ([]string, error) { return snap.SplitCommand(line) }

// JoinCommand is the inverse of SplitCommand (see snap.JoinCommand).
func JoinCommand(words []string) string { return snap.JoinCommand(words) }

// defaultName derives a server name when the source has none and the
// server's initialize result gives no usable serverInfo.name: the command's
// base name without extension, or the URL's host.
func defaultName(s Source) string {
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err == nil && u.Hostname() != "" {
			return u.Hostname()
		}
		return "server"
	}
	if len(s.Command) == 0 {
		return "server"
	}
	base := filepath.Base(s.Command[0])
	if ext := filepath.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "" || base == "." || base == "/" {
		return "server"
	}
	return base
}

// nameFromServerInfo turns an initialize serverInfo.name into a server
// name: the part after its last '/' ("mcp-servers/everything" →
// "everything"), because '/' separates server and tool in a corpus.ToolID.
func nameFromServerInfo(n string) string {
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	return strings.TrimSpace(n)
}
