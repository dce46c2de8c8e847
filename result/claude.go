package result

import (
	"math"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Claude Code 2.1.328's result delivery. Rules cite specs/claude.md §3
// ("Result delivery") and §5 of its background section, and the seed
// "Notes on MCP Design" (rows A–D of its size table). Where the spec
// quotes the 2.1.88 source and 2.1.328 differs, the 2.1.328 bundle was read
// (marked "2.1.328 bundle"): only rules and lengths are taken from it, never
// its instruction texts.
const (
	// ClaudeMaxResultChars is the tool-result file rule's threshold
	// (background §5, DEFAULT_MAX_RESULT_SIZE_CHARS = 50,000; MCP tools
	// declare 100,000, so 50,000 applies; seed rows A/B).
	ClaudeMaxResultChars = 50_000
	// ClaudeMaxResultCharsCeiling caps _meta["anthropic/maxResultSizeChars"]
	// (background §5, "up to 500,000").
	ClaudeMaxResultCharsCeiling = 500_000
	// ClaudeMaxOutputTokens is MAX_MCP_OUTPUT_TOKENS' default (background
	// §5; seed rows C/D).
	ClaudeMaxOutputTokens = 25_000
	// ClaudeExactCountAbove: an estimate above half the limit is counted
	// exactly by the API (background §5 "factor 0.5"; seed: "Once that
	// estimate passes 12,500 tokens, half the limit, it asks the API").
	ClaudeExactCountAbove = ClaudeMaxOutputTokens / 2
	// ClaudeCertainlyOverFactor: a text estimate above 4 × the limit is
	// over without an exact count (2.1.328 bundle).
	ClaudeCertainlyOverFactor = 4
	// ClaudeImageTokens is the estimate charged per image (2.1.328 bundle).
	ClaudeImageTokens = 1_600
	// ClaudePreviewChars is the persisted-output preview's size (background
	// §5; seed "a preview of the first 2,000 characters").
	ClaudePreviewChars = 2_000
	// ClaudeLongLineChars: a saved text whose lines are all at most this
	// long (and that has more than one line) can be read with offset/limit,
	// which picks the variant of the path-only notice (2.1.328 bundle:
	// floor(limit × 4 × 0.8)).
	ClaudeLongLineChars = ClaudeMaxOutputTokens * 4 * 8 / 10
)

// MetaMaxResultSizeChars is the tool _meta key that raises one tool's
// limit (background §5).
const MetaMaxResultSizeChars = "anthropic/maxResultSizeChars"

// Default paths stand for the files Claude Code writes; their real names
// hold a session id, a time and a random suffix that a simulation cannot
// know, so the shown sizes are exact up to the path's length.
const (
	// DefaultClaudeResultPath is the tool-result file of the 50,000-character
	// rule: {project}/{session}/tool-results/{tool_use_id}.json for a
	// content array (.txt for a string).
	DefaultClaudeResultPath = "~/.claude/projects/<project>/<session>/tool-results/<tool_use_id>"
	// DefaultClaudeOutputPath is the file of the token-limit rule:
	// …/tool-results/mcp-{server}-{tool}-{time}-{random}.txt.
	DefaultClaudeOutputPath = "~/.claude/projects/<project>/<session>/tool-results/mcp-<server>-<tool>-<time>-<random>.txt"
)

// claudeBlock is one block of the tool_result Claude Code sends: text, or an
// image (kept as is).
type claudeBlock struct {
	image    bool
	text     string
	mimeType string
	dataLen  int
}

// claudeContent is what Claude Code makes of a CallToolResult before its
// size checks (2.1.328 bundle; background §5; seed "Notes on MCP Design"
// results 1–3): either a string (structuredContent without non-text
// blocks) or a block list.
type claudeContent struct {
	str      string
	isString bool
	kind     string // "structuredContent" or "contentArray", for the Format line
	blocks   []claudeBlock
	schema   string // the Format line's schema sketch
	notes    []string
}

// claudeTransform applies the content rules. On success a present
// structuredContent (null counts) replaces the text blocks by its
// JSON.stringify; the other blocks are kept before it. On isError only
// content is used. _meta is never shown.
func claudeTransform(r *CallResult, server string) claudeContent {
	var c claudeContent
	useStructured := !r.IsError && r.Structured.Exists()
	var nonText []claudeBlock
	for _, b := range r.Content {
		if useStructured && b.Type == "text" {
			continue
		}
		cb, ok, note := claudeBlockOf(b, server)
		if note != "" {
			c.notes = append(c.notes, note)
		}
		if ok {
			nonText = append(nonText, cb)
		}
	}
	if useStructured {
		js := r.Structured.JS("")
		if len(nonText) == 0 {
			c.str, c.isString, c.kind = js, true, "structuredContent"
			c.schema = schemaSketch(r.Structured, 2)
			return c
		}
		c.blocks = append(nonText, claudeBlock{text: js})
		c.kind = "contentArray"
		c.schema = blocksSketch(c.blocks)
		return c
	}
	c.blocks = nonText
	c.kind = "contentArray"
	c.schema = blocksSketch(c.blocks)
	return c
}

// claudeErrorText is the message of an isError result (2.1.328 bundle;
// seed "Notes on MCP Design" result 2): every block with a "text" member
// gives String(text), a resource_link "[Resource link: {name}] {uri}" (+ "
// ({description})"), other blocks nothing; joined with "\n"; "Unknown
// error" when that leaves nothing (or a non-standard "error" member's
// String when content is empty).
func claudeErrorText(r *CallResult) string {
	var parts []string
	for _, b := range r.Content {
		if t, ok := b.Value.Get("text"); ok {
			parts = append(parts, jsString(t))
			continue
		}
		if b.Type == "resource_link" {
			cb, _, _ := claudeBlockOf(b, "")
			parts = append(parts, cb.text)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, "\n")
	}
	if len(r.Content) == 0 {
		if e, ok := r.Value.Get("error"); ok {
			return jsString(e)
		}
	}
	return "Unknown error"
}

// jsString is JavaScript's String(value) of a JSON value.
func jsString(v ojson.Value) string {
	switch v.Kind {
	case ojson.String:
		return v.Str()
	case ojson.Object:
		return "[object Object]"
	case ojson.Array:
		parts := make([]string, len(v.Array()))
		for i, e := range v.Array() {
			if e.Kind != ojson.Null {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return v.JS("")
}

// claudeBlockOf turns one MCP block into what Claude Code sends (2.1.328
// bundle): text as is; an image kept; an embedded text resource as
// "[Resource from {server} at {uri}] {text}"; a resource_link as
// "[Resource link: {name}] {uri}" plus " ({description})". Audio and blobs
// are saved to files and described by a notice this simulation does not
// reproduce; an unknown type is dropped.
func claudeBlockOf(b Block, server string) (claudeBlock, bool, string) {
	switch b.Type {
	case "text":
		return claudeBlock{text: b.Text}, true, ""
	case "image":
		return claudeBlock{image: true, mimeType: b.MimeType, dataLen: len(b.Data)}, true, ""
	case "resource":
		if !b.Blob {
			return claudeBlock{text: "[Resource from " + server + " at " + b.URI + "] " + b.Text}, true, ""
		}
		if strings.HasPrefix(b.MimeType, "image/") {
			return claudeBlock{image: true, mimeType: b.MimeType, dataLen: len(b.Data)}, true, ""
		}
		return claudeBlock{}, false, "an embedded blob resource is saved to a file and described by a notice toolfind does not model; left out here"
	case "resource_link":
		t := "[Resource link: " + b.Name + "] " + b.URI
		if b.Description != "" {
			t += " (" + b.Description + ")"
		}
		return claudeBlock{text: t}, true, ""
	case "audio":
		return claudeBlock{}, false, "an audio block is saved to a file and described by a notice toolfind does not model; left out here"
	}
	return claudeBlock{}, false, "a content block of type " + strconv.Quote(b.Type) + " is dropped"
}

// texts returns the text blocks' texts (or the string).
func (c claudeContent) texts() []string {
	if c.isString {
		return []string{c.str}
	}
	var out []string
	for _, b := range c.blocks {
		if !b.image {
			out = append(out, b.text)
		}
	}
	return out
}

func (c claudeContent) images() int {
	n := 0
	for _, b := range c.blocks {
		if b.image {
			n++
		}
	}
	return n
}

// charCount is the length in UTF-16 units of all text (JavaScript length).
func (c claudeContent) charCount() int {
	n := 0
	for _, t := range c.texts() {
		n += search.UTF16Len(t)
	}
	return n
}

// estimateTokens is Claude Code's rough count: each text rounded from
// length / 4 (seed: "four characters per token, rounded to the nearest
// token"), plus ClaudeImageTokens per image (2.1.328 bundle).
func (c claudeContent) estimateTokens() int {
	n := 0
	for _, t := range c.texts() {
		n += jsRound(float64(search.UTF16Len(t)) / 4)
	}
	return n + c.images()*ClaudeImageTokens
}

// jsRound is JavaScript's Math.round for non-negative values.
func jsRound(x float64) int { return int(math.Floor(x + 0.5)) }

// blank reports Claude Code's "no output" case: no blocks, or only text
// blocks that are empty after trimming (2.1.328 bundle).
func (c claudeContent) blank() bool {
	if c.isString {
		return search.JSTrim(c.str) == ""
	}
	for _, b := range c.blocks {
		if b.image || search.JSTrim(b.text) != "" {
			return false
		}
	}
	return true
}

// ClaudeOptions adjust Claude Code's delivery.
type ClaudeOptions struct {
	// CountTokens is the exact count the API would return for the output
	// (count_tokens). Claude Code asks for it when its estimate is over
	// ClaudeExactCountAbove; 0 means "not known": the estimate stands in,
	// and the delivery says so.
	CountTokens int
	// MaxOutputTokens is MAX_MCP_OUTPUT_TOKENS; 0 means the default.
	MaxOutputTokens int
	// ResultPath and OutputPath replace DefaultClaudeResultPath and
	// DefaultClaudeOutputPath.
	ResultPath, OutputPath string
}

func (o ClaudeOptions) limit() int {
	if o.MaxOutputTokens > 0 {
		return o.MaxOutputTokens
	}
	return ClaudeMaxOutputTokens
}

// deliverClaude is Claude Code 2.1.328's path for an MCP result:
//
//  1. content rules (claudeTransform);
//  2. no text at all → "({name} completed with no output)";
//  3. the token limit, skipped when the tool sets maxResultSizeChars and
//     the output has no image: estimate ≤ limit/2 passes; over 4 × limit
//     fails; in between the exact count decides. Over the limit, an output
//     with images is cut to limit × 4 characters plus a notice; a text
//     output is saved to a file and replaced by the path-only notice;
//  4. the file rule: text over min(maxResultSizeChars, 500,000) or 50,000
//     characters is saved and replaced by <persisted-output> with a preview.
func deliverClaude(r *CallResult, in Input, o ClaudeOptions) Delivery {
	d := Delivery{Client: "claude@2.1.328"}
	c := claudeTransform(r, in.server())
	d.Notes = append(d.Notes, c.notes...)
	if r.IsError {
		d.Notes = append(d.Notes, "isError: the model gets an error tool_result made of content only; structuredContent, images and _meta are not shown",
			"the size limits of the error path are not in the specs: shown as built [unverified]")
		d.Verdict, d.Detail = Whole, "delivered whole, as an error (is_error: true)"
		d.setBlocks([]ShownBlock{{Type: "text", Text: claudeErrorText(r)}})
		return d
	}
	if r.Structured.Exists() && len(r.Content) > 0 && anyText(r.Content) {
		d.Notes = append(d.Notes, "structuredContent replaces the text content blocks (their text is not shown)")
	}
	if c.blank() {
		d.Notes = append(d.Notes, "empty result: Claude Code sends a fixed line instead")
		return claudeWhole(d, claudeContent{str: "(" + in.modelName() + " completed with no output)", isString: true})
	}
	override, hasOverride := in.maxResultSizeChars()
	if hasOverride {
		d.Notes = append(d.Notes, "_meta[\""+MetaMaxResultSizeChars+"\"] = "+strconv.Itoa(override)+": the token limit is skipped for text-only output and the file threshold is "+strconv.Itoa(min(override, ClaudeMaxResultCharsCeiling)))
	}
	if !hasOverride || c.images() > 0 {
		over, note := claudeOverLimit(c, o)
		if note != "" {
			d.Notes = append(d.Notes, note)
		}
		if over {
			if c.images() > 0 {
				return claudeCutWithImages(d, c, o)
			}
			return claudePathOnly(d, c, o)
		}
	}
	threshold := ClaudeMaxResultChars
	if hasOverride {
		threshold = min(override, ClaudeMaxResultCharsCeiling)
	}
	if c.images() == 0 && c.charCount() > threshold {
		return claudePersisted(d, c, threshold, o)
	}
	return claudeWhole(d, c)
}

func anyText(bs []Block) bool {
	for _, b := range bs {
		if b.Type == "text" {
			return true
		}
	}
	return false
}

// claudeOverLimit is the token check: the estimate, and the exact count
// when the estimate is between limit/2 and 4 × limit.
func claudeOverLimit(c claudeContent, o ClaudeOptions) (bool, string) {
	limit := o.limit()
	est := c.estimateTokens()
	if est <= limit/2 {
		return false, ""
	}
	textEst := est - c.images()*ClaudeImageTokens
	if textEst > limit*ClaudeCertainlyOverFactor {
		return true, "token estimate " + group(est) + " > " + group(limit*ClaudeCertainlyOverFactor) + " (4 × MAX_MCP_OUTPUT_TOKENS): over the limit without an exact count"
	}
	if o.CountTokens > 0 {
		return o.CountTokens > limit, "token estimate " + group(est) + " > " + group(limit/2) + ": Claude Code asks the API for an exact count; given: " + group(o.CountTokens)
	}
	return est > limit, "token estimate " + group(est) + " > " + group(limit/2) + ": Claude Code asks the API for an exact count, which toolfind approximates by the estimate (give the real count with --count-tokens)"
}

func claudeWhole(d Delivery, c claudeContent) Delivery {
	d.Verdict = Whole
	d.Detail = "delivered whole"
	d.setBlocks(c.shownBlocks())
	return d
}

func (c claudeContent) shownBlocks() []ShownBlock {
	if c.isString {
		return []ShownBlock{{Type: "text", Text: c.str}}
	}
	out := make([]ShownBlock, 0, len(c.blocks))
	for _, b := range c.blocks {
		if b.image {
			out = append(out, ShownBlock{Type: "image", MimeType: b.mimeType, DataBytes: b.dataLen})
		} else {
			out = append(out, ShownBlock{Type: "text", Text: b.text})
		}
	}
	return out
}

// claudePersisted is the file rule (background §5; 2.1.328 bundle): the
// output is saved — a string as is, a block list as JSON.stringify(blocks,
// null, 2) — and replaced by
//
//	<persisted-output>
//	Output too large ({size}). Full output saved to: {path}
//	Preview (first 2KB):
//	{preview}
//	...
//	</persisted-output>
//
// where {size} formats the saved text's length (formatFileSize: "N bytes"
// below 1,024, else one decimal of KB or MB with ".0" dropped) and the
// preview is its first 2,000 characters, cut back to the last newline when
// that is past the first 1,000 ("..." only when more follows).
func claudePersisted(d Delivery, c claudeContent, threshold int, o ClaudeOptions) Delivery {
	saved := c.str
	ext := ".txt"
	if !c.isString {
		saved = blocksJSON(c.blocks)
		ext = ".json"
	}
	path := o.ResultPath
	if path == "" {
		path = DefaultClaudeResultPath + ext
	}
	preview, more := claudePreview(saved)
	var b strings.Builder
	b.WriteString("<persisted-output>\nOutput too large (")
	b.WriteString(formatFileSize(search.UTF16Len(saved)))
	b.WriteString("). Full output saved to: ")
	b.WriteString(path)
	b.WriteString("\nPreview (first ")
	b.WriteString(formatFileSize(ClaudePreviewChars))
	b.WriteString("):\n")
	b.WriteString(preview)
	if more {
		b.WriteString("\n...\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString("</persisted-output>")
	d.Verdict = Replaced
	d.Detail = "replaced by a file reference: " + group(c.charCount()) + " characters > " + group(threshold) +
		"; the model gets the path and a " + group(search.UTF16Len(preview)) + "-character preview of the saved " + savedKind(c) + " (its head)"
	d.Notes = append(d.Notes, "the file path stands for Claude Code's session path; {size} formatting and the path are [unverified] against the real 2.1.328")
	d.setBlocks([]ShownBlock{{Type: "text", Text: b.String()}})
	return d
}

func savedKind(c claudeContent) string {
	if c.isString {
		return "text"
	}
	return "JSON of the content blocks"
}

// claudePreview is the preview rule: the whole text when it fits in
// ClaudePreviewChars; else the first 2,000 UTF-16 units, cut back to the
// last newline among them when that newline is past unit 1,000.
func claudePreview(s string) (string, bool) {
	if search.UTF16Len(s) <= ClaudePreviewChars {
		return s, false
	}
	head := sliceUTF16Whole(s, ClaudePreviewChars)
	if i := strings.LastIndexByte(head, '\n'); i >= 0 && search.UTF16Len(head[:i]) > ClaudePreviewChars/2 {
		head = head[:i]
	}
	return head, true
}

// sliceUTF16Whole is s.slice(0, n) in UTF-16 units, dropping a character
// the cut would split (a surrogate pair is never halved).
func sliceUTF16Whole(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// formatFileSize is Claude Code's size text (2.1.328 bundle).
func formatFileSize(n int) string {
	kb := float64(n) / 1024
	if kb < 1 {
		return strconv.Itoa(n) + " bytes"
	}
	if kb < 1024 {
		return strings.TrimSuffix(strconv.FormatFloat(kb, 'f', 1, 64), ".0") + "KB"
	}
	mb := kb / 1024
	if mb < 1024 {
		return strings.TrimSuffix(strconv.FormatFloat(mb, 'f', 1, 64), ".0") + "MB"
	}
	return strings.TrimSuffix(strconv.FormatFloat(mb/1024, 'f', 1, 64), ".0") + "GB"
}

// blocksJSON is JSON.stringify(blocks, null, 2) of text blocks as Claude
// Code holds them ({"type": "text", "text": …}); the seed's row C preview
// starts `[\n  {\n    "type": "text",\n    "text": "Row C line 00001: …`.
func blocksJSON(bs []claudeBlock) string {
	elems := make([]ojson.Value, 0, len(bs))
	for _, b := range bs {
		elems = append(elems, ojson.ObjectOf(
			ojson.Member{Key: "type", Value: ojson.StringOf("text")},
			ojson.Member{Key: "text", Value: ojson.StringOf(b.text)},
		))
	}
	return ojson.ArrayOf(elems...).JS("  ")
}

// The path-only notice (token limit exceeded, text only). Its first two
// lines are reproduced; the reading instructions that follow are Claude
// Code's own text and are not: a stand-in of exactly their length (in
// UTF-16 units, measured on the 2.1.328 bundle for each of its three
// variants, with the path counted where it recurs) keeps the shown size
// exact. Variant: the saved file is JSON (no line count) / has a line over
// ClaudeLongLineChars or only one line / has short lines.
const (
	claudeBodyJSON      = 1118 // + 1 × path + 1 × shell-quoted path
	claudeBodyLongLines = 1001 // + 1 × path
	claudeBodyShort     = 888  // + 1 × path
)

// claudePathOnly replaces the output by the notice (2.1.328 bundle; seed
// row D; background §5):
//
//	Error: result ({N} characters[ across {L} line[s]]) exceeds maximum allowed tokens. Output has been saved to {path}.
//	Format: {Plain text | JSON | JSON with schema: … | JSON array with schema: …}
//	{reading instructions: stand-in}
//
// The saved text is the string, the only text block's text, or
// JSON.stringify(blocks, null, 2). N is its
// length; " across L lines" is written when it is plain text (L = its
// lines, a trailing empty one dropped).
func claudePathOnly(d Delivery, c claudeContent, o ClaudeOptions) Delivery {
	var saved, format string
	plain := false
	switch {
	case c.isString:
		saved, format = c.str, "JSON"
		if c.schema != "" {
			format = "JSON with schema: " + c.schema
		}
	case len(c.blocks) == 1 && !c.blocks[0].image:
		saved, format, plain = c.blocks[0].text, "Plain text", true
	default:
		saved, format = blocksJSON(c.blocks), "JSON array"
		if c.schema != "" {
			format = "JSON array with schema: " + c.schema
		}
	}
	path := o.OutputPath
	if path == "" {
		path = DefaultClaudeOutputPath
	}
	size := group(search.UTF16Len(saved)) + " characters"
	body := claudeBodyJSON + search.UTF16Len(path) + search.UTF16Len(shellQuote(path))
	variant := "JSON"
	if plain {
		lines, maxLen := lineStats(saved)
		size += " across " + group(lines) + " " + plural(lines, "line", "lines")
		if lines > 1 && maxLen <= ClaudeLongLineChars {
			body, variant = claudeBodyShort+search.UTF16Len(path), "short lines"
		} else {
			body, variant = claudeBodyLongLines+search.UTF16Len(path), "long lines"
		}
	}
	head := "Error: result (" + size + ") exceeds maximum allowed tokens. Output has been saved to " + path + ".\nFormat: " + format + "\n"
	text := head + standIn(body, "Claude Code's instructions for reading the saved file ("+variant+" variant)")
	d.Verdict = Replaced
	d.Detail = "replaced by a file reference (path only, no preview): " + group(search.UTF16Len(saved)) + " characters saved; the model gets a " + group(search.UTF16Len(text)) + "-character notice"
	d.Notes = append(d.Notes, "after its first two lines the notice is a stand-in of the real instructions' length; the path stands for Claude Code's session path")
	d.setBlocks([]ShownBlock{{Type: "text", Text: text}})
	return d
}

// standIn is a marked placeholder of exactly n UTF-16 units: a header
// line, then lines of dots (at most standInWidth each), each ending in a
// newline.
func standIn(n int, what string) string {
	s := "[toolfind stand-in: " + what + ", not reproduced]\n"
	if search.UTF16Len(s) > n {
		return sliceUTF16Whole(s, max(n-1, 0)) + "\n"
	}
	var b strings.Builder
	b.WriteString(s)
	for left := n - search.UTF16Len(s); left > 0; {
		k := min(left, standInWidth+1)
		b.WriteString(strings.Repeat(".", k-1))
		b.WriteByte('\n')
		left -= k
	}
	return b.String()
}

const standInWidth = 99

// lineStats counts lines as split("\n") with a trailing empty line dropped,
// and the longest line's UTF-16 length.
func lineStats(s string) (lines, maxLen int) {
	parts := strings.Split(s, "\n")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	for _, p := range parts {
		maxLen = max(maxLen, search.UTF16Len(p))
	}
	return len(parts), maxLen
}

// shellQuote quotes a word as Claude Code does for shell examples: as is
// when it matches ^[A-Za-z0-9_./:=@+,-]+$, two single quotes when empty,
// else in single quotes with each single quote written as '"'"'.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=@+,-", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// claudeCutWithImages is the token limit for output with images
// (background §5; 2.1.328 bundle): text blocks are kept in order within
// limit × 4 characters, the first that does not fit is cut to what is
// left, later ones are dropped; images are kept while their 1,600-token
// charge (× 4 characters) fits; then
//
//	\n[OUTPUT TRUNCATED - exceeded {limit} token limit]\n{advice line}
//
// is appended as a text block. Images that do not fit are replaced by a
// count line in 2.1.328; that line's placement is simplified here.
func claudeCutWithImages(d Delivery, c claudeContent, o ClaudeOptions) Delivery {
	budget := o.limit() * 4
	used := 0
	var out []ShownBlock
	left, cut := 0, false
	for _, b := range c.blocks {
		if b.image {
			cost := ClaudeImageTokens * 4
			if used+cost <= budget {
				out = append(out, ShownBlock{Type: "image", MimeType: b.mimeType, DataBytes: b.dataLen})
				used += cost
			} else {
				left++
			}
			continue
		}
		if cut {
			continue
		}
		room := budget - used
		if room <= 0 {
			cut = true
			continue
		}
		if n := search.UTF16Len(b.text); n <= room {
			out = append(out, ShownBlock{Type: "text", Text: b.text})
			used += n
			continue
		}
		out = append(out, ShownBlock{Type: "text", Text: sliceUTF16Whole(b.text, room)})
		used, cut = budget, true
	}
	if left > 0 {
		msg := "[Image left out: it did not fit in the tool output limit]"
		if left > 1 {
			msg = "[" + strconv.Itoa(left) + " images left out: they did not fit in the tool output limit]"
		}
		out = append(out, ShownBlock{Type: "text", Text: msg})
	}
	out = append(out, ShownBlock{Type: "text", Text: "\n[OUTPUT TRUNCATED - exceeded " + strconv.Itoa(o.limit()) +
		" token limit]\nThe tool output was truncated. If this MCP server provides pagination or filtering tools, use them to retrieve specific portions of the data. If pagination is not available, inform the user that you are working with truncated output and results may be incomplete."})
	d.Verdict = Cut
	d.Detail = "cut: output with images over the token limit; text kept from the head up to " + group(budget) + " characters (limit × 4), images kept while they fit, then a truncation notice"
	d.setBlocks(out)
	return d
}

// schemaSketch is Claude Code's short shape of a JSON value for the Format
// line (2.1.328 bundle): null → "null"; an array → "[]" or "[" + sketch of
// its first element + "]"; an object at depth 0 → "{...}", else its first
// ten members "key: sketch" joined by ", " (", ..." when it has more) in
// braces; anything else its JavaScript typeof. Depth starts at 2 and drops
// by one per level.
func schemaSketch(v ojson.Value, depth int) string {
	return sketch(jsView(v), depth)
}

// jsView is v as JavaScript holds it after JSON.parse: repeated keys
// collapsed, integer-like keys first (ojson's JS does both; reading its
// output back gives the members in that order).
func jsView(v ojson.Value) ojson.Value {
	w, err := ojson.Parse([]byte(v.JS("")))
	if err != nil {
		return v.Dedup()
	}
	return w
}

func sketch(v ojson.Value, depth int) string {
	switch v.Kind {
	case ojson.Null:
		return "null"
	case ojson.Array:
		if len(v.Array()) == 0 {
			return "[]"
		}
		return "[" + sketch(v.Array()[0], depth-1) + "]"
	case ojson.Object:
		if depth <= 0 {
			return "{...}"
		}
		ms := v.Members()
		var parts []string
		for i, m := range ms {
			if i == 10 {
				break
			}
			parts = append(parts, m.Key+": "+sketch(m.Value, depth-1))
		}
		more := ""
		if len(ms) > 10 {
			more = ", ..."
		}
		return "{" + strings.Join(parts, ", ") + more + "}"
	case ojson.String:
		return "string"
	case ojson.Number:
		return "number"
	case ojson.Bool:
		return "boolean"
	}
	return "undefined"
}

// blocksSketch is the sketch of the block list as Claude Code holds it
// (text blocks {type, text}, images {type, source}).
func blocksSketch(bs []claudeBlock) string {
	if len(bs) == 0 {
		return "[]"
	}
	if bs[0].image {
		return "[{type: string, source: {...}}]"
	}
	return "[{type: string, text: string}]"
}
