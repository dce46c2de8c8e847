package mdtext

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/toolfind/toolfind/internal/safetext"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, 3 tools/list", "plain text, 3 tools/list"},
		{"![x](http://evil/a.png)", `\!\[x\]\(http\://evil/a.png\)`},
		{"[a](http://evil)", `\[a\]\(http\://evil\)`},
		{"<img src=x>", `\<img src=x\>`},
		{"a|b", `a\|b`},
		{"line\nbreak\r\x1b[2J", `line\\nbreak\\r\\x1b\[2J`}, // safetext first: \n is backslash n
		{"&amp; &#x41;", `\&amp; \&\#x41;`},
		{"www.evil.com WWW.x", `www\.evil.com WWW\.x`},
		{"mail me@evil.com", `mail me\@evil.com`},
		{"*bold* _it_ ~~del~~ `code`", "\\*bold\\* \\_it\\_ \\~\\~del\\~\\~ \\`code\\`"},
		{"# title", `\# title`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"=== x", `\=== x`},
		{"12. ordered", `12\. ordered`},
		{"3) ordered", `3\) ordered`},
		{"a-b 1.5 x=y", "a-b 1.5 x=y"}, // not at the start: nothing to open
		{"    code block", "code block"},
		{"  trailing  ", "trailing"},
		{`back\slash \[`, `back\\slash \\\[`},
		{"$x$ {y}", `\$x\$ \{y\}`},
		{"\u202egnp.exe", `\\u202egnp.exe`},
		{"claude: 3 tools, end:", "claude: 3 tools, end:"}, // a colon before a space or the end opens nothing
		{"a:b :smile: ftp://x", `a\:b \:smile: ftp\://x`},
		{"codex@0.171.0", `codex\@0.171.0`}, // an e-mail autolink otherwise
		{"", ""},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCode(t *testing.T) {
	tests := []struct{ in, code, cell string }{
		{"github/create_issue", "`github/create_issue`", "`github/create_issue`"},
		{"a|b", "`a|b`", "`a\\|b`"},
		{"a`b", "``a`b``", "``a`b``"},
		{"``x", "``` ``x ```", "``` ``x ```"}, // longest run 2: fence 3, padded
		{" x ", "`  x  `", "`  x  `"},
		{"  ", "`  `", "`  `"},
		{"a\nb", "`a\\nb`", "`a\\nb`"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := Code(tt.in); got != tt.code {
			t.Errorf("Code(%q) = %q, want %q", tt.in, got, tt.code)
		}
		if got := CodeCell(tt.in); got != tt.cell {
			t.Errorf("CodeCell(%q) = %q, want %q", tt.in, got, tt.cell)
		}
	}
}

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

func render(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := gfm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var tag = regexp.MustCompile(`<(/?)([a-z]+)[^>]*>`)

// text checks that html holds only the tags allowed and returns its
// text, tags removed and entities decoded.
func text(t *testing.T, md, out string, allowed ...string) string {
	t.Helper()
	if strings.Contains(out, "<!--") {
		t.Fatalf("%q renders raw HTML: %s", md, out)
	}
	for _, m := range tag.FindAllStringSubmatch(out, -1) {
		ok := false
		for _, a := range allowed {
			ok = ok || m[2] == a
		}
		if !ok {
			t.Fatalf("%q renders <%s>: %s", md, m[2], out)
		}
	}
	return html.UnescapeString(tag.ReplaceAllString(out, ""))
}

// checkEscape is the property of Escape, for any s:
//   - in its output every [ ] ( ! < | is escaped (after an unescaped
//     backslash), and there is no line break;
//   - Unescape gives back safetext.Escape(s) without spaces at the ends;
//   - rendered by a GFM renderer (goldmark: tables, autolinks,
//     strikethrough, task lists) at a line's start, after text, in a table
//     cell, it is that text exactly, in no element but the paragraph or
//     the cell, and the table keeps its two columns.
func checkEscape(t *testing.T, s string) {
	e := Escape(s)
	if strings.ContainsAny(e, "\n\r") {
		t.Fatalf("Escape(%q) = %q has a line break", s, e)
	}
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '\\':
			i++ // the escaped character
		case '[', ']', '(', '!', '<', '|':
			t.Fatalf("Escape(%q) = %q: unescaped %q at %d", s, e, e[i], i)
		}
	}
	want := strings.Trim(safetext.Escape(s), " ")
	if got := Unescape(e); got != want {
		t.Fatalf("Unescape(Escape(%q)) = %q, want %q", s, got, want)
	}
	if want == "" {
		return
	}
	if got := text(t, e, render(t, e), "p"); got != want+"\n" {
		t.Fatalf("%q at a line's start renders %q, want %q", e, got, want)
	}
	if got := text(t, "x "+e, render(t, "x "+e), "p"); got != "x "+want+"\n" {
		t.Fatalf("%q after text renders %q, want %q", e, got, want)
	}
	if got := cell(t, e); got != want {
		t.Fatalf("%q in a cell renders %q, want %q", e, got, want)
	}
}

var td = regexp.MustCompile(`(?s)<td>(.*?)</td>`)

// cell renders md as the first cell of a two-column table's row and
// returns its text; the row must keep its two cells, the second "z".
func cell(t *testing.T, md string, allowed ...string) string {
	t.Helper()
	doc := "| a | b |\n| --- | --- |\n| " + md + " | z |\n"
	out := render(t, doc)
	text(t, doc, out, append(allowed, "table", "thead", "tbody", "tr", "th", "td")...)
	cells := td.FindAllStringSubmatch(out, -1)
	if len(cells) != 2 || cells[1][1] != "z" {
		t.Fatalf("%q breaks the table: %s", md, out)
	}
	return text(t, doc, cells[0][1], append(allowed, "td")...)
}

var hostile = []string{
	"![x](http://evil/a.png)", "[a](http://evil)", "<img src=x>", "a|b|c", "line\nbreak",
	"<https://evil>", "https://evil.example/x", "www.evil.com", "WwW.evil.com", "me@evil.com",
	"mailto:me@evil.com", "&lt;img&gt; &#60;", "[a]: http://evil", "[^1]", "- [ ] task",
	"***", "---", "___", "    indented", "> quote", "# h", "1. x", "1) x", "```go", "~~~",
	"**b** __u__ ~~s~~", "a\\", "\\", "\\|", "`|`", "$$x$$", "<!-- c -->", "<a href=x>y</a>",
	"x  ", "=", "+", "ftp://evil", "xmpp:me@evil.com", "\x00\x1b]0;title\x07", "\xff\xfe",
	"a\u2028b", "[![i](x)](y)", "http\\://evil", "&", "&amp", "<", ">", "!", "![", "](", ")",
}

func TestEscapeRenders(t *testing.T) {
	for _, s := range hostile {
		checkEscape(t, s)
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1000 {
			return
		}
		checkEscape(t, s)
	})
}

// TestCodeCellRenders: a code span in a table cell is one <code> with the
// text, whatever the name.
func TestCodeCellRenders(t *testing.T) {
	for _, s := range append(hostile, "a`b", "``", "` x `") {
		want := safetext.Escape(s)
		if got := cell(t, CodeCell(s), "code"); got != want || !strings.HasPrefix(CodeCell(s), "`") {
			t.Errorf("CodeCell(%q) = %q renders %q", s, CodeCell(s), got)
		}
		md := "x " + Code(s)
		out := render(t, md)
		if got := text(t, md, out, "p", "code"); strings.Count(out, "<code>") != 1 || got != "x "+want+"\n" {
			t.Errorf("Code(%q) = %q renders %q (%s)", s, Code(s), got, out)
		}
	}
}
