package live

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"npx -y @modelcontextprotocol/server-everything@2026.8.31", []string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31"}, ""},
		// The package doc's worked example.
		{`srv --name 'a b' "c\"d" e\ f ''`, []string{"srv", "--name", "a b", `c"d`, "e f", ""}, ""},
		{"  a\t\tb\n c  ", []string{"a", "b", "c"}, ""},
		{`a'b'"c"d`, []string{"abcd"}, ""},                                  // quotes join a word
		{`'$HOME' "$HOME" \$HOME`, []string{"$HOME", "$HOME", "$HOME"}, ""}, // no expansion
		{`"a\$b\\c\` + "`" + `d\x"`, []string{"a$b\\c`d\\x"}, ""},           // in "…" only \ $ ` " escape
		{`'a\b'`, []string{`a\b`}, ""},                                      // nothing escapes in '…'
		{"a\\\nb", []string{"ab"}, ""},                                      // backslash-newline joins
		{"\"a\\\nb\"", []string{"ab"}, ""},
		{`""`, []string{""}, ""},
		{"", nil, ""},
		{"'open", nil, "unterminated single quote"},
		{`"open`, nil, "unterminated double quote"},
		{`a\`, nil, "backslash at the end"},
		{"héllo 'wörld ✓'", []string{"héllo", "wörld ✓"}, ""},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("SplitCommand(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if back, err := SplitCommand(JoinCommand(got)); err != nil || !reflect.DeepEqual(back, got) && len(got) > 0 {
			t.Errorf("JoinCommand(%q) = %q does not split back: %q %v", got, JoinCommand(got), back, err)
		}
	}
}

func TestJoinCommand(t *testing.T) {
	// Safe words stay bare; others are single-quoted, ' as '\''.
	got := JoinCommand([]string{"npx", "-y", "pkg@1.0", "a b", "it's", "", "$X"})
	want := `npx -y pkg@1.0 'a b' 'it'\''s' '' '$X'`
	if got != want {
		t.Errorf("JoinCommand = %s, want %s", got, want)
	}
}

func TestParseServer(t *testing.T) {
	tests := []struct {
		in   string
		name string
		cmd  []string
		err  string
	}{
		{"npx -y srv", "", []string{"npx", "-y", "srv"}, ""},
		{"billing=./bin/billing --region 'eu west'", "billing", []string{"./bin/billing", "--region", "eu west"}, ""},
		{"my.server-2_x=srv", "my.server-2_x", []string{"srv"}, ""},
		// The text before '=' starts with '.' or has an option: no prefix.
		{"./srv --a=b", "", []string{"./srv", "--a=b"}, ""},
		{"srv --flag=1", "", []string{"srv", "--flag=1"}, ""},
		// Environment through env(1), with a name.
		{"t=env TOKEN=x ./srv", "t", []string{"env", "TOKEN=x", "./srv"}, ""},
		{"=srv", "", []string{"=srv"}, ""},
		// Any name a client config allows: blanks, '/', '@'.
		{"Second Server=npx -y srv", "Second Server", []string{"npx", "-y", "srv"}, ""},
		{"acme/tools=./srv", "acme/tools", []string{"./srv"}, ""},
		{"team@corp=srv --x=1", "team@corp", []string{"srv", "--x=1"}, ""},
		{"  padded name  =srv", "padded name", []string{"srv"}, ""},
		// Text that is part of the command: an option, a path, env(1),
		// shell quoting.
		{"java -Dx=y -jar s.jar", "", []string{"java", "-Dx=y", "-jar", "s.jar"}, ""},
		{"/opt/srv a=b", "", []string{"/opt/srv", "a=b"}, ""},
		{"env TOKEN=x ./srv", "", []string{"env", "TOKEN=x", "./srv"}, ""},
		{"srv 'a=b'", "", []string{"srv", "a=b"}, ""},
		{"$HOME/srv=1", "", []string{"$HOME/srv=1"}, ""},
		{"name=", "", nil, "no command"},
		{"   ", "", nil, "no command"},
		{"srv 'x", "", nil, "unterminated single quote"},
	}
	for _, tt := range tests {
		src, err := ParseServer(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseServer(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || src.Name != tt.name || !reflect.DeepEqual(src.Command, tt.cmd) {
			t.Errorf("ParseServer(%q) = %q %q %v; want %q %q", tt.in, src.Name, src.Command, err, tt.name, tt.cmd)
		}
	}
}

func TestParseURL(t *testing.T) {
	tests := []struct {
		in, name, url, err string
	}{
		{"http://127.0.0.1:8080/mcp", "", "http://127.0.0.1:8080/mcp", ""},
		{"api=https://mcp.example.com/mcp?x=1", "api", "https://mcp.example.com/mcp?x=1", ""},
		{"https://h/mcp?a=b", "", "https://h/mcp?a=b", ""}, // '=' after ':' and '/': no prefix
		{"Second API=https://h/mcp?a=b", "Second API", "https://h/mcp?a=b", ""},
		{"acme/tools@eu=https://h/mcp", "acme/tools@eu", "https://h/mcp", ""},
		{"ftp://h", "", "", "want an http:// or https:// URL"},
		{"http://", "", "", "no host"},
		{"x=mcp.example.com", "", "", "want an http:// or https:// URL"},
	}
	for _, tt := range tests {
		src, err := ParseURL(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseURL(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || src.Name != tt.name || src.URL != tt.url {
			t.Errorf("ParseURL(%q) = %q %q %v", tt.in, src.Name, src.URL, err)
		}
	}
}

func TestParseHeader(t *testing.T) {
	tests := []struct{ in, k, v, err string }{
		{"Authorization: Bearer abc", "Authorization", "Bearer abc", ""},
		{"x-api-key:k:with:colons", "X-Api-Key", "k:with:colons", ""},
		{"X-Empty:", "X-Empty", "", ""},
		{"nocolon", "", "", "want KEY:VALUE"},
		{": v", "", "", "empty key"},
		{"bad key: v", "", "", `key has the character ' '`},
		{"K: a\r\nInjected: 1", "", "", "line break"},
	}
	for _, tt := range tests {
		k, v, err := ParseHeader(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseHeader(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || k != tt.k || v != tt.v {
			t.Errorf("ParseHeader(%q) = %q %q %v", tt.in, k, v, err)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"mcp-servers/everything":   "everything",
		"secure-filesystem-server": "secure-filesystem-server",
		"a/b/c ":                   "c",
		"trailing/":                "",
	} {
		if got := nameFromServerInfo(in); got != want {
			t.Errorf("nameFromServerInfo(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tt := range []struct {
		src  Source
		want string
	}{
		{Source{Command: []string{"/usr/local/bin/billing-mcp.py", "x"}}, "billing-mcp"},
		{Source{Command: []string{"npx", "-y", "srv"}}, "npx"},
		{Source{URL: "https://mcp.example.com:8443/mcp"}, "mcp.example.com"},
		{Source{Command: []string{"/"}}, "server"},
	} {
		if got := defaultName(tt.src); got != tt.want {
			t.Errorf("defaultName(%v) = %q, want %q", tt.src, got, tt.want)
		}
	}
}
