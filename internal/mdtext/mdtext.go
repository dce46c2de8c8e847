// Package mdtext is toolfind's one escaping rule for outside text — tool
// and server names, descriptions, queries, messages that quote them — in
// GitHub-flavoured Markdown reports (bench and check --format markdown,
// suggest's report, approvals): what a catalog or a server says is shown as
// the characters it is, never as a link, an image, HTML, an entity, a
// heading, emphasis or a broken table. A server's tool name must not make
// a pull-request comment fetch a remote image.
//
// The rule, applied by [Escape]:
//
//  1. The text-output rule first (package internal/safetext): controls,
//     line breaks, bidi and invisible characters and invalid UTF-8 become
//     visible escapes (a newline is `\n`), so the result is one line.
//  2. Every ASCII punctuation character that starts or ends a Markdown or
//     GFM construct gets a backslash before it (CommonMark §2.4: a
//     backslash before ASCII punctuation makes it literal, in text and in
//     table cells alike):
//     \ ` * _ [ ] ( ) ! < > | # & ~ @ $ { }
//     That covers links and images ([ ] ( ) !), raw HTML and <…>
//     autolinks (< >), entities (&amp;), code spans (`), emphasis and
//     strikethrough (* _ ~), table cells (|: GFM reads \| as a pipe in a
//     cell, code spans included), headings (#), the extended autolinks of
//     e-mail addresses (@: "codex@0.171.0" is one), and math ($).
//  3. The other extended autolinks are broken where they start: a colon
//     is escaped unless a space or the end follows it (http://, ftp://,
//     mailto:, and :emoji: shortcodes; "claude: 3 tools" stays as it is),
//     and the dot after "www" (any case).
//  4. Spaces at either end are dropped (Markdown drops them from a cell
//     and a paragraph anyway; four at a line's start would open a code
//     block), and at the start a character that would open a block there
//     is escaped too: - + = (list items, setext underlines, thematic
//     breaks) and the dot or ) after a leading number (an ordered list).
//
// So Escape's result can go anywhere inline or in a table cell (rendered,
// it is the safetext-escaped text, character for character) and
// Unescape(Escape(s)) is safetext.Escape(s) without its spaces at either
// end. What it does not stop:
// GitHub's own references (@user mentions, #12 issue numbers, commit
// hashes) are found in the rendered text after Markdown, and no Markdown
// escape reaches them; they stay on GitHub.
//
// [Code] and [CodeCell] write a code span (for names shown as code),
// inline and in a table cell: inside a code span nothing is interpreted,
// so they only choose a fence longer than any run of backticks in the
// text, and CodeCell escapes | (the cell's delimiter, which GFM splits on
// before it sees the span).
package mdtext

import (
	"strings"

	"github.com/toolfind/toolfind/internal/safetext"
)

// special are the characters escaped everywhere (rule 2).
const special = "\\`*_[]()!<>|#&~@${}"

// Escape returns s escaped for inline Markdown text or a table cell; see
// the package doc for the rule.
func Escape(s string) string {
	s = strings.Trim(safetext.Escape(s), " ")
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	lead := 0 // digits at the start (rule 4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(special, c) >= 0,
			i == 0 && (c == '-' || c == '+' || c == '='),
			i > 0 && i == lead && (c == '.' || c == ')'),
			c == ':' && i+1 < len(s) && s[i+1] != ' ',
			c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteByte('\\')
		}
		if lead == i && c >= '0' && c <= '9' {
			lead++
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Unescape undoes Escape's backslashes (CommonMark's backslash escapes:
// a backslash before ASCII punctuation is dropped). Unescape(Escape(s)) is
// safetext.Escape(s) without its spaces at either end.
func Unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// Code returns s (after the safetext rule) as an inline code span.
func Code(s string) string { return span(safetext.Escape(s)) }

// CodeCell returns s (after the safetext rule) as a code span for a table
// cell: | is written \| (GFM unescapes it in the cell before the span is
// read).
func CodeCell(s string) string {
	return strings.ReplaceAll(span(safetext.Escape(s)), "|", `\|`)
}

// span fences s with one backtick more than its longest run of them,
// padded with a space where s starts or ends with a backtick, or with a
// space at both ends (CommonMark §6.1 strips one space from each side
// unless the span is all spaces). The empty string stays empty.
func span(s string) string {
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.Trim(s, " ") != "" {
		s = " " + s + " "
	}
	return fence + s + fence
}
