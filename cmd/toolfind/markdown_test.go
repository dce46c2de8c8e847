package main

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// markdownHostile is a catalog and a query file whose server and tool
// names, descriptions, tags and queries carry Markdown and HTML that
// would be live in a pull-request comment: a remote image, a link, an
// <img> tag, an autolink, a table pipe and a newline.
func markdownHostile(t *testing.T) (catalog, queries string) {
	dir := t.TempDir()
	catalog = filepath.Join(dir, "evil.json")
	doc := `{"server":"evil","tools":[
 {"name":"![x](http://evil/a.png)","description":"Find invoices ![x](http://evil/b.png) <img src=x> www.evil.com","inputSchema":{"type":"object"}},
 {"name":"[a](http://evil)","description":"Look up orders [a](http://evil) me@evil.com","inputSchema":{"type":"object"}},
 {"name":"<img src=x>","description":"Pay a bill | col <script>alert(1)</script>","inputSchema":{"type":"object"}},
 {"name":"a|b\nc","description":"Ship a parcel\n| x | y |","inputSchema":{"type":"object"}},
 {"name":"invoice_lookup","description":"Look up an invoice by number.","inputSchema":{"type":"object"}}]}`
	require.NoError(t, os.WriteFile(catalog, []byte(doc), 0o644))
	queries = filepath.Join(dir, "q.jsonl")
	q := `{"query":"![x](http://evil/q.png) invoices","expect":["evil/![x](http://evil/a.png)"],"category":"[c](http://evil/c)"}
{"query":"[a](http://evil) orders","expect":["evil/[a](http://evil)"],"category":"<img src=x>"}
{"query":"<img src=x> pay | a bill","expect":["evil/<img src=x>"],"category":"a|b"}
{"query":"ship\na parcel https://evil/x","expect":["evil/a|b\nc"],"category":"line\nbreak"}
{"query":"![x](http://evil/m.png) [m](http://evil) <img src=m> | find invoices orders","expect":["evil/invoice_lookup"],"category":"x"}
`
	require.NoError(t, os.WriteFile(queries, []byte(q), 0o644))
	return catalog, queries
}

// gfmUnsafe renders as GitHub does: GFM (tables, autolinks,
// strikethrough) with raw HTML kept (GitHub keeps <details>, <summary>,
// <code> and drops the dangerous rest; here any <img>, <a> or <script>
// left fails the test).
var gfmUnsafe = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))

var (
	htmlTag = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>`)
	// GitHub's Markdown writes these, and the reports' own <details>.
	safeTags = map[string]bool{"p": true, "h2": true, "h3": true, "h4": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
		"code": true, "pre": true, "ul": true, "ol": true, "li": true, "strong": true, "em": true, "blockquote": true, "details": true, "summary": true, "br": true, "hr": true}
)

// assertMarkdownInert renders md and fails on any element but safeTags
// (no link, image or other HTML survives live), on a table row whose
// cells differ in number from its header's (a pipe broke it), and when
// one of the texts is not shown literally.
func assertMarkdownInert(t *testing.T, what, md string, literal ...string) {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, gfmUnsafe.Convert([]byte(md), &b))
	out := b.String()
	for _, m := range htmlTag.FindAllStringSubmatch(out, -1) {
		if !safeTags[strings.ToLower(m[2])] {
			t.Errorf("%s: <%s> rendered live: …%s…\nMarkdown:\n%s", what, m[2], near(out, m[0]), md)
			return
		}
	}
	// Each table's rows have the header's number of cells.
	cells := -1
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		n := pipes(line)
		if cells < 0 {
			cells = n
		} else if n != cells {
			t.Errorf("%s: a row of %d cells under a header of %d: %q", what, n-1, cells-1, line)
		}
	}
	text := html.UnescapeString(htmlTag.ReplaceAllString(out, ""))
	for _, l := range literal {
		assert.Contains(t, text, l, "%s: rendered text lacks %q", what, l)
	}
}

// pipes counts a table line's unescaped pipes.
func pipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

func near(s, sub string) string {
	i := strings.Index(s, sub)
	return s[max(i-60, 0):min(i+len(sub)+60, len(s))]
}

// TestMarkdownHostileNames: bench and check --format markdown, suggest's
// Markdown report and approvals' show every name, description, tag and
// query of the hostile catalog as text: rendered as GitHub does, no
// image, link or HTML tag of theirs is live and no table breaks. (The
// reports used to escape only | * _ ` < >: 27 <img> and 29 <a>.)
func TestMarkdownHostileNames(t *testing.T) {
	cat, qs := markdownHostile(t)
	runs := []struct {
		args    []string
		literal []string
	}{
		{[]string{"bench", "--catalog", cat, "--queries", qs, "--client", "claude,codex", "--limit", "1", "--by", "category", "--per-tool", "--format", "markdown"},
			[]string{"evil/![x](http://evil/a.png)", "[c](http://evil/c)", "<img src=x>", "evil/a|b\\nc", "![x](http://evil/m.png) [m](http://evil) <img src=m> | find invoices orders"}},
		{[]string{"check", "--catalog", cat, "--queries", qs, "--client", "claude,codex", "--limit", "1", "--min-mrr", "1", "--format", "markdown"},
			[]string{"![x](http://evil/m.png) [m](http://evil) <img src=m> | find invoices orders"}},
		{[]string{"suggest", "--catalog", cat, "--queries", qs, "--client", "claude", "--format", "markdown"}, nil},
		{[]string{"approvals", "--catalog", cat, "--format", "markdown"},
			[]string{"![x](http://evil/a.png)", "[a](http://evil)", "<img src=x>", `a|b\nc`}},
	}
	for _, r := range runs {
		out, errOut, code := run(t, r.args...)
		require.Contains(t, []int{0, 1}, code, "%v: %s", r.args[0], errOut)
		require.NotEmpty(t, out, r.args[0])
		assertMarkdownInert(t, r.args[0], out, r.literal...)
	}
}
