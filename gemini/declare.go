package gemini

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/ojson"
	"github.com/toolfind/toolfind/search"
)

// Config is the part of the user's Gemini CLI setup that decides what is
// declared (gemini.md §1 "Filters", §5).
type Config struct {
	// Trusted are the servers that an allow rule covers in a headless run:
	// "trust": true, mcp.allowed or --allowed-mcp-server-names (§5, tiers
	// 4.1 and 4.2). AllTrusted covers every server.
	Trusted    []string
	AllTrusted bool
	// YOLO is --yolo / --approval-mode yolo: "*" is allowed (§5 "YOLO"),
	// every server's tools are declared and the write, shell and fetch
	// built-ins too.
	YOLO bool
	// Resources says that a connected server has resources: the CLI then
	// declares read_mcp_resource and list_mcp_resources (§1 "Resource
	// tools"). A catalog does not say it; false by default.
	Resources bool
}

// trusted reports whether an allow rule is written for server.
func (c Config) trusted(server string) bool {
	return c.AllTrusted || slices.Contains(c.Trusted, server)
}

// Reason says why a tool of the catalog is not declared.
type Reason string

// The reasons, in the order the CLI applies them.
const (
	// Refused: the MCP SDK refused the server's tools/list answer (one
	// tool it cannot parse), so the server has no tool (§1, Listable).
	Refused Reason = "refused"
	// LaterPage: the tool is past the first tools/list page, which is all
	// the CLI asks for (§1 "Pagination").
	LaterPage Reason = "later-page"
	// Overwritten: a tool registered later has the same name (§2
	// "Collisions": the last registered wins).
	Overwritten Reason = "overwritten"
	// NoAllowRule: a headless run without an allow rule for the server
	// denies its tools, and denied tools are not declared (§1, §5).
	NoAllowRule Reason = "no-allow-rule"
	// RuleMissesName: the server is trusted or allowed, but the rule's
	// wildcard mcp_{server}_* does not match the tool's name, because the
	// server name has a character the CLI replaces or the shortening cut
	// the prefix (§2 "Effects of naming on policies").
	RuleMissesName Reason = "rule-misses-name"
	// Shadowed: the tool's name without its server's prefix is a built-in
	// that the run denies (in a headless run write_file, replace,
	// run_shell_command, web_fetch, …; under YOLO ask_user), and the CLI
	// drops every tool any of whose names is excluded: ToolRegistry
	// isActiveTool checks the name, the class name and that short name.
	// Not in gemini.md; found with the real 0.61.0 (an MCP tool write_file
	// of a trusted server was not declared in a headless run) and read in
	// its tools/tool-registry.js.
	Shadowed Reason = "shadowed"
)

// Built-in names a run denies, so that an MCP tool of the same short name
// is dropped (Shadowed). Checked with the real 0.61.0 for every built-in
// name: these ten in a headless run, ask_user alone under YOLO
// (policies/non-interactive.toml denies it at priority 999, above YOLO's
// 998).
var (
	deniedHeadless = []string{"write_todos", "write_file", "web_fetch", "replace", "run_shell_command", "activate_skill",
		"ask_user", "exit_plan_mode", "list_background_processes", "read_background_output"}
	deniedYOLO = []string{"ask_user"}
)

// Entry is one MCP tool definition of the catalog and what the CLI makes
// of it.
type Entry struct {
	Tool *corpus.Tool
	// Name is the name the model sees (ToolName); Short says it was
	// shortened to 63 characters.
	Name  string
	Short bool
	// Declared says the model gets the declaration; otherwise Why says
	// why not, and Winner is the definition that took the name (Why ==
	// Overwritten).
	Declared bool
	Why      Reason
	Detail   string
	Winner   *corpus.Tool
	// Cause is the tool the MCP SDK refused (Why == Refused).
	Cause *corpus.Tool
	// Text is the declaration as sent (compact JSON), set when Declared.
	Text   string
	Tokens int
}

// Declarations is what one Gemini CLI request declares: the built-ins,
// then the MCP tools by server, then the late built-ins; and the catalog's
// tools that are not declared, with why.
type Declarations struct {
	Config Config
	// Before and After are the built-ins around the MCP tools.
	Before, After []builtin
	// MCP are the declared MCP tools in request order.
	MCP []*Entry
	// All are every definition of the catalog in catalog order.
	All []*Entry
	// Instructions is the text the servers' instructions add to the
	// first user message ("" when no server has any).
	Instructions string
	// chars are the UTF-16 lengths of the whole tools array and of the
	// MCP declarations in it.
	chars, mcpChars int
}

// Declare builds the request's declarations from a catalog (gemini.md §1–3,
// §8 items 1–4):
//
//  1. Only each server's first tools/list page is read (the tools past
//     corpus.Server.FirstPage are LaterPage); the MCP SDK parses it, and
//     one tool it refuses (Listable) leaves the server without tools.
//  2. Every tool is registered under ToolName(server, tool), servers in
//     catalog order, each server's tools in its order. A name registered
//     again keeps its first place and takes the later tool (a JavaScript
//     Map's set): the last registered wins, within a server and across
//     servers (the CLI connects servers in parallel, so which server is
//     last depends on timing; toolfind takes catalog order).
//  3. The registry is sorted, stably, by the server name of each tool
//     (localeCompare); so each server's tools keep their order.
//  4. In a headless run without YOLO a tool is declared only when an
//     allow rule covers its server and the rule's wildcard
//     mcp_{server}_* matches its name (TrustPrefix); and no tool whose
//     name without the server prefix is a built-in the run denies
//     (Shadowed).
//  5. The request holds the built-ins (headless: 8, or 10 with resource
//     tools; YOLO: 17 or 15 before, activate_skill after), then the MCP
//     declarations {name, description, parametersJsonSchema}
//     (Declaration).
func Declare(cat *corpus.Catalog, cfg Config) *Declarations {
	d := &Declarations{Config: cfg}
	d.Before, d.After = builtinsFor(cfg.YOLO, cfg.Resources)
	type slot struct{ e *Entry }
	var order []*slot
	byName := map[string]*slot{}
	for _, s := range cat.Servers {
		refused := ""
		var cause *corpus.Tool
		for i, t := range s.Tools {
			if s.FirstPage > 0 && i >= s.FirstPage {
				break // the later pages are never read
			}
			if f, why := Listable(t); why != "" {
				cause = t
				refused = fmt.Sprintf("tool %q: %s", t.Name, why)
				if f != "" {
					refused = fmt.Sprintf("tool %q, %s: %s", t.Name, f, why)
				}
				break
			}
		}
		for i, t := range s.Tools {
			name, short := ToolName(t.Server, t.Name)
			e := &Entry{Tool: t, Name: name, Short: short}
			d.All = append(d.All, e)
			if s.FirstPage > 0 && i >= s.FirstPage {
				e.Why = LaterPage
				continue
			}
			if refused != "" {
				e.Why, e.Detail, e.Cause = Refused, refused, cause
				continue
			}
			if sl, ok := byName[name]; ok {
				sl.e.Why, sl.e.Winner = Overwritten, t
				sl.e = e
				continue
			}
			sl := &slot{e: e}
			byName[name] = sl
			order = append(order, sl)
		}
	}
	slices.SortStableFunc(order, func(a, b *slot) int { return search.LocaleCompare(a.e.Tool.Server, b.e.Tool.Server) })
	denied := deniedHeadless
	if cfg.YOLO {
		denied = deniedYOLO
	}
	for _, sl := range order {
		e := sl.e
		if !cfg.YOLO {
			switch {
			case !cfg.trusted(e.Tool.Server):
				e.Why = NoAllowRule
				continue
			case !matchesTrust(e.Tool.Server, e.Name):
				e.Why = RuleMissesName
				continue
			}
		}
		if short := shortName(e.Tool.Server, e.Name); slices.Contains(denied, short) {
			e.Why, e.Detail = Shadowed, short
			continue
		}
		e.Declared = true
		e.Text = Declaration(e.Tool)
		e.Tokens = tokens(search.UTF16Len(e.Text))
		d.MCP = append(d.MCP, e)
	}
	// [{"functionDeclarations":[d1,d2,…]}]
	n := len(`[{"functionDeclarations":[]}]`)
	count := 0
	for _, b := range d.Before {
		n += search.UTF16Len(b.text)
		count++
	}
	for _, e := range d.MCP {
		c := search.UTF16Len(e.Text)
		n += c
		d.mcpChars += c
		count++
	}
	for _, b := range d.After {
		n += search.UTF16Len(b.text)
		count++
	}
	d.chars = n + max(0, count-1)
	d.Instructions = Instructions(cat)
	return d
}

// Declaration is the FunctionDeclaration of an MCP tool as the request
// carries it, in compact JSON (gemini.md §3 "What the model receives"):
// {"name": ToolName, "description": the description uncut ("" when
// absent), "parametersJsonSchema": Parameters(inputSchema)}. The title,
// annotations, outputSchema, icons and _meta never reach the model.
func Declaration(t *corpus.Tool) string {
	name, _ := ToolName(t.Server, t.Name)
	var b strings.Builder
	b.WriteString(`{"name":`)
	ojson.AppendJSString(&b, name)
	b.WriteString(`,"description":`)
	desc := ""
	if t.HasDescription {
		desc = t.Description
	}
	ojson.AppendJSString(&b, desc)
	b.WriteString(`,"parametersJsonSchema":`)
	Parameters(t.InputSchema).AppendJS(&b, "")
	b.WriteByte('}')
	return b.String()
}

// Instructions is what the servers' instructions add to the end of the
// first user message's <session_context> (gemini.md §3 "MCP server
// instructions"): for each server with non-empty instructions, in order,
//
//	The following are instructions provided by the tool server '<name>':
//	---[start of server instructions]---
//	<instructions>
//	---[end of server instructions]---
//
// joined by a blank line, inside "<loaded_context>\n<project_context>\n"
// … "\n</project_context>\n</loaded_context>". Nothing is cut, and
// servers whose tools are not declared still contribute (observed for an
// untrusted server in a headless run).
func Instructions(cat *corpus.Catalog) string {
	var blocks []string
	for _, s := range cat.Servers {
		if s.Instructions == "" {
			continue
		}
		blocks = append(blocks, "The following are instructions provided by the tool server '"+s.Name+"':\n"+
			"---[start of server instructions]---\n"+s.Instructions+"\n---[end of server instructions]---")
	}
	if len(blocks) == 0 {
		return ""
	}
	return "<loaded_context>\n<project_context>\n" + strings.Join(blocks, "\n\n") + "\n</project_context>\n</loaded_context>"
}

// tokens is the CLI's estimate for a JSON part, its length / 4 rounded
// down (estimateTokenCountSync with DEFAULT_CHARS_PER_TOKEN 4).
func tokens(chars int) int { return chars / 4 }

// Tokens are the estimated tokens of the MCP declarations, of the
// built-ins and of the whole tools array sent with every request.
func (d *Declarations) Tokens() (mcp, builtin, total int) {
	b := 0
	for _, x := range d.Before {
		b += search.UTF16Len(x.text)
	}
	for _, x := range d.After {
		b += search.UTF16Len(x.text)
	}
	return tokens(d.mcpChars), tokens(b), tokens(d.chars)
}

// Count is the number of declarations in the request.
func (d *Declarations) Count() int { return len(d.Before) + len(d.MCP) + len(d.After) }

// JSON is the request's "tools" member: [{"functionDeclarations": […]}].
func (d *Declarations) JSON() string {
	var b strings.Builder
	b.Grow(d.chars)
	b.WriteString(`[{"functionDeclarations":[`)
	first := true
	sep := func() {
		if !first {
			b.WriteByte(',')
		}
		first = false
	}
	for _, x := range d.Before {
		sep()
		b.WriteString(x.text)
	}
	for _, e := range d.MCP {
		sep()
		b.WriteString(e.Text)
	}
	for _, x := range d.After {
		sep()
		b.WriteString(x.text)
	}
	b.WriteString(`]}]`)
	return b.String()
}

// BuiltinNames are the built-ins' names in request order.
func (d *Declarations) BuiltinNames() []string {
	var out []string
	for _, x := range d.Before {
		out = append(out, x.name)
	}
	for _, x := range d.After {
		out = append(out, x.name)
	}
	return out
}

// Names are the names of every declaration in request order.
func (d *Declarations) Names() []string {
	var out []string
	for _, x := range d.Before {
		out = append(out, x.name)
	}
	for _, e := range d.MCP {
		out = append(out, e.Name)
	}
	for _, x := range d.After {
		out = append(out, x.name)
	}
	return out
}
