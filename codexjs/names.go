package codexjs

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"
)

// Model-visible MCP names, spec §1.3(a) and §0.

const (
	mcpPrefix         = "mcp__" // §1.3a: the namespace prefix
	nameDelimiter     = "__"    // §1.3a: between namespace and tool
	maxToolNameLength = 128     // §1.3a: namespace + 2 + name ≤ 128 bytes (64 before 2026-08-19)
	hashHexLen        = 12      // §1.3a: "_" + 12 hex of SHA-1
)

// validServerName is the server-name rule observed on Codex 0.171.0 (§0:
// names with spaces or non-ASCII letters were not registered). Probing
// every printable ASCII character with the oracle showed the accepted set
// is exactly [A-Za-z0-9_.:/@-]; any other character (space, +, ~, ", #,
// quotes, brackets, non-ASCII…) and the empty name drop the whole server.
func validServerName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '_', c == '-', c == '.', c == ':', c == '/', c == '@':
		default:
			return false
		}
	}
	return true
}

// sanitizeName is sanitize_responses_api_tool_name (§1.3a): every character
// that is not an ASCII letter, digit or _ becomes one _ (a multi-byte
// character too); an empty result becomes _.
func sanitizeName(s string) string {
	clean := s != ""
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

func hashSuffix(identity string) string {
	sum := sha1.Sum([]byte(identity))
	return "_" + hex.EncodeToString(sum[:])[:hashHexLen]
}

// qualified is one MCP tool's model-visible namespace and name.
type qualified struct {
	idx       int // index into the input slice
	namespace string
	name      string
	hashed    string // why the name was rewritten ("" when not)
}

type nameCandidate struct {
	idx                   int
	nsIdentity, tIdentity string
	namespace, name       string
	hashed                string
}

// qualifyNames assigns model-visible names to (server, tool) pairs in
// registration order, as normalize_tools_for_model_with_prefix does (§1.3a):
// exact duplicates dropped (first wins; dropped ones are absent from the
// result), namespace and name collisions after sanitising suffixed with a
// SHA-1 of the identity, then names fitted to 128 bytes in raw-identity
// order. The result is in raw-identity order (the registration order of
// the nested tools, §1.2).
func qualifyNames(servers, tools []string) []qualified {
	seen := make(map[string]bool, len(tools))
	all := make([]nameCandidate, 0, len(tools))
	// The tools of a server are consecutive: its identity and namespace
	// are computed once.
	var server, ns, namespace string
	for i := range tools {
		if i == 0 || servers[i] != server {
			server = servers[i]
			ns = server + "\x00" + server + "\x00" // server, raw namespace, connector id ""
			namespace = sanitizeName(server)
			if !strings.HasPrefix(namespace, mcpPrefix) {
				namespace = mcpPrefix + namespace
			}
		}
		id := ns + "\x00" + tools[i] + "\x00" + tools[i]
		if seen[id] {
			continue
		}
		seen[id] = true
		all = append(all, nameCandidate{idx: i, nsIdentity: ns, tIdentity: id,
			namespace: namespace, name: sanitizeName(tools[i])})
	}
	cands := make([]*nameCandidate, len(all))
	for i := range all {
		cands[i] = &all[i]
	}
	// Whether more than one namespace identity sanitises to a namespace:
	// the first identity seen, and a mark once another one turns up.
	type nsSeen struct {
		first string
		many  bool
	}
	nsIDs := map[string]*nsSeen{}
	for _, c := range cands {
		switch n := nsIDs[c.namespace]; {
		case n == nil:
			nsIDs[c.namespace] = &nsSeen{first: c.nsIdentity}
		case n.first != c.nsIdentity:
			n.many = true
		}
	}
	for _, c := range cands {
		if nsIDs[c.namespace].many {
			c.hashed = "namespace collides after sanitising"
			if base, ok := strings.CutSuffix(c.namespace, nameDelimiter); ok {
				c.namespace = base + hashSuffix(c.nsIdentity) + nameDelimiter
			} else {
				c.namespace += hashSuffix(c.nsIdentity)
			}
		}
	}
	type pair struct{ ns, name string }
	// Candidates per model-visible pair; their tool identities are
	// distinct (deduplicated above), so a count of two means a collision.
	toolIDs := map[pair]int{}
	for _, c := range cands {
		toolIDs[pair{c.namespace, c.name}]++
	}
	for _, c := range cands {
		if toolIDs[pair{c.namespace, c.name}] > 1 {
			c.name += hashSuffix(c.tIdentity)
			if c.hashed == "" {
				c.hashed = "tool name collides after sanitising"
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].tIdentity < cands[b].tIdentity })
	used := map[string]bool{}
	out := make([]qualified, 0, len(cands))
	for _, c := range cands {
		ns, name, why := uniqueParts(c.namespace, c.name, c.tIdentity, used)
		if why != "" && c.hashed == "" {
			c.hashed = why
		}
		out = append(out, qualified{idx: c.idx, namespace: ns, name: name, hashed: c.hashed})
	}
	return out
}

// uniqueParts is unique_callable_parts: the name stays when namespace +
// "__" + name fits in 128 bytes and namespace+name (no delimiter) is
// unused; otherwise it is cut and hashed, retrying with identity\0attempt.
func uniqueParts(ns, name, identity string, used map[string]bool) (string, string, string) {
	reserved := len(nameDelimiter)
	if len(ns)+len(name)+reserved <= maxToolNameLength && !used[ns+name] {
		used[ns+name] = true
		return ns, name, ""
	}
	why := "name longer than 128 bytes with its namespace"
	if len(ns)+len(name)+reserved <= maxToolNameLength {
		why = "name already used"
	}
	for attempt := 0; ; attempt++ {
		input := identity
		if attempt > 0 {
			input = identity + "\x00" + itoa(attempt)
		}
		n2, t2 := fitWithHash(ns, name, input, reserved)
		if !used[n2+t2] {
			used[n2+t2] = true
			return n2, t2, why
		}
	}
}

func fitWithHash(ns, name, identity string, reserved int) (string, string) {
	suffix := hashSuffix(identity)
	maxTool := maxToolNameLength - (len(ns) + reserved)
	if maxTool < 0 {
		maxTool = 0
	}
	if maxTool >= len(suffix) {
		return ns, takeChars(name, maxTool-len(suffix)) + suffix
	}
	maxNS := maxToolNameLength - (len(suffix) + reserved)
	return takeChars(ns, maxNS), suffix
}

// takeChars keeps the first n characters (sanitised names are ASCII).
func takeChars(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// codeModeName is code_mode_name_for_tool_name (§1.2.5): namespace and name
// concatenated directly when the namespace ends in _ or the name starts
// with _, otherwise joined by "__".
func codeModeName(namespace, name string) string {
	if namespace == "" {
		return name
	}
	if strings.HasSuffix(namespace, "_") || strings.HasPrefix(name, "_") {
		return namespace + name
	}
	return namespace + nameDelimiter + name
}
