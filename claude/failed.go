package claude

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// maxFailedNames is how many servers the failed-list note names before
// "; …and N more" (spec §0; probed on 2.1.332 with 33 failed servers:
// 30 names, then "…and 3 more").
const maxFailedNames = 30

// failedNote is what Claude Code 2.1.329 and later append to the no-match
// text when connected servers' tools/list failed (spec §0), for the raw
// names of those servers. Probed on 2.1.332 (beyond the spec): the names
// are the servers' configured names, not sanitised ("hostile.server",
// "a c"); they are sorted by UTF-16 code units, JavaScript's default sort
// ("A" < "Z" < "a c" < "a-c" < "a.c" < "a_c" < "b"); the note follows
// keyword and select: queries alike; the always-loaded reminder stays a
// separate block after it.
//
// A catalog shows a failed tools/list the way Claude Code meets it: a
// server whose answer fails the MCP SDK's validation as a whole (spec §2,
// e.g. one tool with "properties": null) is connected, but its list failed.
func failedNote(servers []string) string {
	names := slices.Clone(servers)
	slices.SortFunc(names, compareUTF16)
	more := 0
	if len(names) > maxFailedNames {
		more = len(names) - maxFailedNames
		names = names[:maxFailedNames]
	}
	list := strings.Join(names, "; ")
	if more > 0 {
		list += fmt.Sprintf("; …and %d more", more)
	}
	return ". Note: these MCP servers are connected, but listing their tools failed, so their tools are unavailable for now: " +
		list + ". Treat this as a failure to load their tools — do not conclude the server has no tools."
}

// compareUTF16 orders strings by UTF-16 code units, as JavaScript's
// Array.prototype.sort does by default (it differs from Go's byte order
// only between U+E000–U+FFFF and characters above U+FFFF).
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}
