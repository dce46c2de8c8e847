package vscode

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/search"
)

var unsafeLabel = regexp.MustCompile(`[^a-z0-9_.-]+`)

// PrefixGenerator hands out the tool-name prefixes of VS Code core's
// McpPrefixGenerator (copilot.md §3.5): "mcp_" + the server label
// lowercased with every run of characters outside [a-z0-9_.-] replaced by
// one "_", clipped to 18−4−1 = 13 characters, then "_"; a prefix already
// taken gets a counter before the "_", from 2 ("mcp_github2_").
type PrefixGenerator struct{ seen map[string]bool }

// Generate returns the next server's prefix.
func (g *PrefixGenerator) Generate(label string) string {
	if g.seen == nil {
		g.seen = map[string]bool{}
	}
	safe := unsafeLabel.ReplaceAllString(search.JSLower(label), "_")
	// After the replacement only ASCII is left, so bytes are UTF-16 units.
	if n := MaxPrefixLen - len(MCPPrefix) - 1; len(safe) > n {
		safe = safe[:n]
	}
	base := MCPPrefix + safe
	p := base + "_"
	for i := 2; g.seen[p]; i++ {
		p = base + strconv.Itoa(i) + "_"
	}
	g.seen[p] = true
	return p
}

// Prefix is the prefix of a lone server (no collision).
func Prefix(label string) string {
	var g PrefixGenerator
	return g.Generate(label)
}

var validFunctionName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// ValidFunctionName is the extension's check of a function name,
// ^[a-zA-Z0-9_-]+$ (chatMLFetcher.ts, copilot.md §3.5). The prefix keeps
// '.' and '-', and the tool part is not rewritten, so a name can fail it.
func ValidFunctionName(name string) bool { return validFunctionName.MatchString(name) }

// normalizeGroupName is how an LLM's groupName is normalised:
// [^a-zA-Z0-9_] → "_", then lowercased (copilot.md §3.3 step 5).
func normalizeGroupName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		} else if r > 0xFFFF {
			b.WriteString("__") // two UTF-16 units, each replaced
		} else {
			b.WriteByte('_')
		}
	}
	return strings.ToLower(b.String())
}
