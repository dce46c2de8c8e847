package gemini

import "strings"

// Naming constants of tools/mcp-tool.js (gemini.md §2).
const (
	// ToolPrefix starts every MCP tool's name (MCP_TOOL_PREFIX).
	ToolPrefix = "mcp_"
	// MaxNameLength is the longest name the CLI sends: names longer than
	// MAX_FUNCTION_NAME_LENGTH - 1 = 63 UTF-16 units are shortened.
	MaxNameLength = 63
	// shortHead and shortTail are the units a shortened name keeps on each
	// side of "...": 30 + 3 + 30 = 63.
	shortHead, shortTail = 30, 30
)

// ToolName is the name Gemini CLI's model sees for an MCP tool, the CLI's
// generateValidName(server + "_" + tool) (gemini.md §2):
//
//  1. "mcp_" is put in front unless the joined name already starts with it
//     (server "mcp" or "mcp_x": no double prefix);
//  2. every UTF-16 code unit outside [A-Za-z0-9_.:-] becomes "_" (so "ü"
//     is one "_" and an emoji, two units, is "__");
//  3. a name longer than 63 units becomes its first 30 units + "..." + its
//     last 30 (always 63).
//
// The CLI's extra "_" before a name that does not start with a letter or
// "_" is dead code: the name always starts with "mcp_". short reports step 3.
func ToolName(server, tool string) (name string, short bool) {
	return validName(server + "_" + tool)
}

// validName is generateValidName (ToolName's steps 1–3).
func validName(joined string) (string, bool) {
	if !strings.HasPrefix(joined, ToolPrefix) {
		joined = ToolPrefix + joined
	}
	var b strings.Builder
	b.Grow(len(joined))
	n := 0
	for _, r := range joined {
		switch {
		case r < 0x80 && validNameByte(byte(r)):
			b.WriteByte(byte(r))
			n++
		case r >= 0x10000:
			// a supplementary character is two UTF-16 units, each replaced
			b.WriteString("__")
			n += 2
		default:
			b.WriteByte('_')
			n++
		}
	}
	v := b.String() // ASCII now: one byte a unit
	if n > MaxNameLength {
		return v[:shortHead] + "..." + v[len(v)-shortTail:], true
	}
	return v, false
}

// validNameByte is the CLI's [a-zA-Z0-9_\-.:] (gemini.md §2).
func validNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == ':'
}

// TrustPrefix is what the policy rule of a trusted or allowed server
// matches: a tool name starting with "mcp_" + the server's raw name + "_"
// (the wildcard mcp_{server}_*, policy-engine matchesWildcard; gemini.md
// §2 "Effects of naming on policies"). A server name with a character that
// ToolName replaces, or a name shortened past the prefix, does not match.
func TrustPrefix(server string) string { return ToolPrefix + server + "_" }

// matchesTrust reports whether the rule for server matches name.
func matchesTrust(server, name string) bool { return strings.HasPrefix(name, TrustPrefix(server)) }

// shortName is the tool's name without its server's prefix, one of the
// names ToolRegistry.isActiveTool looks up in the run's excluded tools:
// the name minus getFullyQualifiedPrefix() = validName(server + "_") when
// it starts with it, else that prefix + the name.
func shortName(server, name string) string {
	prefix, _ := validName(server + "_")
	if strings.HasPrefix(name, prefix) {
		return name[len(prefix):]
	}
	return prefix + name
}
