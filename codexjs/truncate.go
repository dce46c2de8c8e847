package codexjs

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Output truncation of exec results, spec §2 and §0.

const (
	// DefaultMaxOutputTokens is the exec budget when no pragma sets one
	// (§2.1, DEFAULT_MAX_OUTPUT_TOKENS).
	DefaultMaxOutputTokens = 10_000
	// BytesPerToken converts the token budget to bytes (§2.1: byte budget
	// = 4 × tokens; the estimate is ceil(len/4)).
	BytesPerToken = 4
	// secondCapNum/secondCapDen is the 1.2 × model-limit cap on what is
	// recorded for the model (§0): 12,000 tokens for the default 10,000.
	secondCapNum = 12
	secondCapDen = 10
)

// approxTokens is approx_token_count: ceil(utf8 bytes / 4) (§2.1).
func approxTokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// policy is TruncationPolicy: Tokens(n) or Bytes(n).
type policy struct {
	bytes bool
	n     int
}

func (p policy) byteBudget() int {
	if p.bytes {
		return p.n
	}
	return p.n * BytesPerToken
}

// rustLineCount counts lines the way Rust's str::lines() does (§2.2):
// split on "\n", no final empty segment after a trailing newline, "" → 0.
func rustLineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// warningHeader is W(n, l) of §2.4.
func warningHeader(tokens, lines int) string {
	return "Warning: truncated output (original token count: " + strconv.Itoa(tokens) +
		")\nTotal output lines: " + strconv.Itoa(lines) + "\n\n"
}

// splitString is split_string (§2.3.4, §2.4): the longest prefix of whole
// characters ending at or before left bytes, the suffix starting at the
// first character whose start is ≥ len−right (clamped to the prefix end),
// and the number of characters removed between them.
func splitString(s string, left, right int) (removed int, prefix, suffix string) {
	if s == "" {
		return 0, "", ""
	}
	// Prefix end: the last character boundary at or before left bytes.
	prefixEnd := left
	if prefixEnd >= len(s) {
		prefixEnd = len(s)
	} else {
		for prefixEnd > 0 && !utf8.RuneStart(s[prefixEnd]) {
			prefixEnd--
		}
	}
	// Suffix start: the first character start at or after len−right.
	suffixStart := len(s) - right
	if suffixStart < 0 {
		suffixStart = 0
	}
	for suffixStart < len(s) && !utf8.RuneStart(s[suffixStart]) {
		suffixStart++
	}
	if suffixStart < prefixEnd {
		suffixStart = prefixEnd
	}
	removed = utf8.RuneCountInString(s[prefixEnd:suffixStart])
	return removed, s[:prefixEnd], s[suffixStart:]
}

// truncateMiddle is the middle cut of §2.3 for a policy: unchanged when it
// fits, otherwise prefix + marker + suffix. Token mode's marker counts the
// byte overshoot, byte mode's the characters removed.
func truncateMiddle(s string, p policy) string {
	if s == "" {
		return ""
	}
	maxBytes := p.byteBudget()
	if maxBytes > 0 && len(s) <= maxBytes {
		return s
	}
	if maxBytes == 0 {
		if p.bytes {
			return "…" + strconv.Itoa(utf8.RuneCountInString(s)) + " chars truncated…"
		}
		return "…" + strconv.Itoa(approxTokens(len(s))) + " tokens truncated…"
	}
	left := maxBytes / 2
	right := maxBytes - left
	removed, prefix, suffix := splitString(s, left, right)
	var marker string
	if p.bytes {
		marker = "…" + strconv.Itoa(removed) + " chars truncated…"
	} else {
		marker = "…" + strconv.Itoa(approxTokens(len(s)-maxBytes)) + " tokens truncated…"
	}
	return prefix + marker + suffix
}

// formattedTruncateText is Path A of §2.2 for a single text: unchanged when
// it fits, otherwise the warning header and the middle cut.
func formattedTruncateText(s string, p policy) string {
	if len(s) <= p.byteBudget() {
		return s
	}
	return warningHeader(approxTokens(len(s)), rustLineCount(s)) + truncateMiddle(s, p)
}

// truncateTextItems is Path A (§2.2) over text items: joined with "\n"
// (no separator while the joined text is still empty); under budget the
// items come back unchanged, over budget as one warned, middle-cut item.
func truncateTextItems(items []string, p policy) []string {
	var b strings.Builder
	for _, it := range items {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(it)
	}
	joined := b.String()
	if len(joined) <= p.byteBudget() {
		return items
	}
	return []string{formattedTruncateText(joined, p)}
}

// secondCap is the cap on what is recorded for the model (§0): 1.2 × the
// model's limit in tokens, walking the items in order, header included:
// items that fit stay whole, the first that does not is middle-cut (no
// warning header) to what is left, the rest are dropped.
func secondCap(items []string, modelLimitTokens int) []string {
	budget := modelLimitTokens * secondCapNum / secondCapDen
	out := make([]string, 0, len(items))
	for _, it := range items {
		cost := approxTokens(len(it))
		if cost <= budget {
			out = append(out, it)
			budget -= cost
			continue
		}
		if budget > 0 {
			out = append(out, truncateMiddle(it, policy{n: budget}))
		}
		break
	}
	return out
}
