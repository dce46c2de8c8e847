package lint

import (
	"fmt"

	"github.com/toolfind/toolfind/corpus"
)

// Rule ids. They are stable: configuration files and CI depend on them.
const (
	RuleServerName        = "server-name"
	RuleToolName          = "tool-name"
	RuleSchema            = "schema"
	RuleDuplicate         = "duplicate-tool"
	RuleNameCollision     = "name-collision"
	RuleSharedName        = "shared-tool-name"
	RuleHidden            = "hidden-from-model"
	RuleAlwaysLoaded      = "always-loaded"
	RuleDescriptionEmpty  = "description-missing"
	RuleDescriptionCut    = "description-cut"
	RuleCatalogLineCut    = "catalog-line-cut"
	RuleNotInCatalog      = "not-in-catalog"
	RuleNamespace         = "namespace"
	RuleOutputSchema      = "output-schema-dropped"
	RulePluginBudget      = "plugin-budget"
	RuleInjection         = "injection-phrase"
	RuleHiddenUnicode     = "hidden-unicode"
	RuleEncoded           = "encoded-text"
	RuleNotFound          = "own-name-not-found"
	RuleTie               = "own-name-tie"
	RuleNameUnrelated     = "claude-name-unrelated"
	RuleCutDistinct       = "distinguishing-words-cut"
	RuleBuiltinOutranks   = "builtin-outranks"
	RuleCursorNameLength  = "cursor-name-length"
	RuleCursorToolCount   = "cursor-tool-count"
	RuleGeminiNameLength  = "gemini-name-length"
	RuleGeminiToolLimit   = "gemini-tool-limit"
	RuleGeminiLaterPage   = "gemini-later-page"
	RuleGeminiUntrusted   = "gemini-untrusted"
	RuleGeminiTrustName   = "gemini-trust-mismatch"
	RuleGeminiShadowed    = "gemini-shadowed"
	RuleCopilotNameCut    = "copilot-name-length"
	RuleVSCodeToolCount   = "vscode-tool-count"
	RuleResultTooLarge    = "result-too-large"
	RuleGooseToolCount    = "goose-tool-count"
	RuleDuplicateResponse = "duplicate-response"
	RuleOther             = "other" // a client code lint does not know yet
)

// Approval rule ids (approvals.go).
const (
	RuleDestructiveUnmarked = "destructive-unmarked"
	RuleReadOnlyWrites      = "readonly-writes"
	RuleInteractionDontAsk  = "interaction-dontask"
	RuleServerUnannotated   = "server-unannotated"
)

// RuleInfo documents one rule.
type RuleInfo struct {
	ID       string          `json:"id"`
	Severity corpus.Severity `json:"severity"` // the default
	Summary  string          `json:"summary"`
	// Source is the spec section the rule rests on (../shared/specs), for
	// the code's readers; users do not have the specs, so no output shows
	// it.
	Source string `json:"-"`
}

// Rules lists every rule in documentation order (docs/lint-rules.md;
// toolfind lint --list-rules).
var Rules = []RuleInfo{
	{RuleServerName, corpus.Error, "a server name with characters a client rejects (Grok) or rewrites (Claude Code, Codex, OpenCode)", "grok.md B.4; claude.md §2; codex.md §1.3; opencode.md C.1"},
	{RuleToolName, corpus.Warning, "a tool name with characters a client rejects or rewrites, or too long", "MCP spec \"Tool names\"; grok.md B.4; claude.md §2; codex.md §1.3"},
	{RuleSchema, corpus.Error, "an input schema a client refuses: the tool or its whole server is dropped", "claude.md §2; codex.md §4; opencode.md §0, C.1"},
	{RuleDuplicate, corpus.Warning, "a tool name defined twice in one server; which definition each client keeps", "claude.md §2; grok.md B.6; codex.md §1.2; opencode.md C.1"},
	{RuleNameCollision, corpus.Warning, "two tools that one client turns into the same name", "claude.md §2; codex.md §1.3; opencode.md C.1"},
	{RuleSharedName, corpus.Info, "a tool name also used by another server", "claude.md §1 (select: by bare name)"},
	{RuleHidden, corpus.Info, "_meta.ui.visibility without \"model\": clients hide the tool", "claude.md §2; grok.md B.4; codex.md §1.2"},
	{RuleAlwaysLoaded, corpus.Info, "_meta[\"anthropic/alwaysLoad\"]: loaded up front, never returned by keyword search", "claude.md §2"},
	{RuleDescriptionEmpty, corpus.Warning, "a missing or empty description: only the name can be matched", "claude.md §1; grok.md B.2"},
	{RuleDescriptionCut, corpus.Warning, "a description longer than a client shows or searches", "claude.md §3; grok.md B.3; codex.md §3"},
	{RuleCatalogLineCut, corpus.Info, "OpenCode code mode's catalog line keeps only the start of the description's first line", "opencode.md C.2"},
	{RuleNotInCatalog, corpus.Info, "tools OpenCode code mode leaves out of its catalog (reachable only through search)", "opencode.md C.2"},
	{RuleNamespace, corpus.Warning, "OpenCode code mode files a tool under another server's namespace", "opencode.md C.2"},
	{RuleOutputSchema, corpus.Warning, "an output schema the MCP SDK refuses: OpenCode drops every output type of the server", "opencode.md §0"},
	{RulePluginBudget, corpus.Error, "Codex Agent Plugin size budget exceeded: the tool is hidden", "codex.md §3"},
	{RuleInjection, corpus.Error, "an instruction aimed at the model: override, secrecy, consent or call-order phrases", "claude.md §1 (descriptions and server instructions are shown verbatim); codex.md §0 (instructions appended to every description)"},
	{RuleHiddenUnicode, corpus.Error, "invisible characters in model-read text: tag characters, bidi controls, zero-width runs", "claude.md §1; grok.md B.1 (texts shown verbatim)"},
	{RuleEncoded, corpus.Warning, "a base64 blob that decodes to text", "claude.md §1; grok.md B.1 (texts shown verbatim)"},
	{RuleNotFound, corpus.Warning, "no client's search returns the tool for the words of its own name", "claude.md §1; grok.md B.2; codex.md §5.1; opencode.md C.2"},
	{RuleTie, corpus.Warning, "the tool ties with several siblings for its own name's words in every client", "claude.md §1 (pool order); grok.md B.2 (random tie order)"},
	{RuleNameUnrelated, corpus.Info, "Claude Code: the name shares no word with the description's first sentence, so the deferred name list says nothing", "claude.md §1, background §2 (deferred names)"},
	{RuleCutDistinct, corpus.Warning, "the words that set the tool apart from its siblings come after a client's cut", "claude.md §3; opencode.md C.2"},
	{RuleBuiltinOutranks, corpus.Warning, "a Claude Code built-in outranks the tool for its own name's words", "claude.md §1 (deferred built-ins)"},
	{RuleDestructiveUnmarked, corpus.Warning, "the name or description says the tool deletes, drops, sends or pays, but it has no destructiveHint", "seed \"Notes on MCP Design\" (Annotations); codex.md §6.1"},
	{RuleReadOnlyWrites, corpus.Warning, "readOnlyHint: true on a tool that says it writes: clients run it without asking or in parallel", "codex.md §6.1, §6.2; seed \"Notes on MCP Design\" (parallel calls)"},
	{RuleInteractionDontAsk, corpus.Info, "_meta anthropic/requiresUserInteraction: Claude Code asks on every call and its dontAsk mode refuses the tool", "seed \"Notes on MCP Design\" (Annotations)"},
	{RuleServerUnannotated, corpus.Warning, "no tool of the server has annotations: every call asks in Codex and none runs in parallel", "codex.md §6.1, §6.2"},
	{RuleCursorNameLength, corpus.Warning, "Cursor: server + tool name over 60 characters", "others.md (Cursor)"},
	{RuleCursorToolCount, corpus.Info, "Cursor: more than 40 tools in total", "others.md (Cursor)"},
	{RuleGeminiNameLength, corpus.Warning, "Gemini CLI: mcp_{server}_{tool} over 63 characters is cut to its first 30 and last 30 characters around \"...\"", "gemini.md §2"},
	{RuleGeminiToolLimit, corpus.Error, "Gemini CLI: more than 512 function declarations in one request, which the Gemini API refuses", "gemini.md §1"},
	{RuleGeminiLaterPage, corpus.Warning, "Gemini CLI: a tool past the first tools/list page is never declared", "gemini.md §1 (pagination)"},
	{RuleGeminiUntrusted, corpus.Warning, "Gemini CLI: a server with no allow rule declares no tool in a headless run", "gemini.md §1, §5"},
	{RuleGeminiShadowed, corpus.Warning, "Gemini CLI: a tool named like a built-in the run denies (write_file, replace, run_shell_command, …) is dropped", "gemini package (found with the real 0.61.0)"},
	{RuleGeminiTrustName, corpus.Warning, "Gemini CLI: the allow rule mcp_{server}_* cannot match the server's tool names (a replaced character or a cut name), so headless runs deny them", "gemini.md §2 (policies)"},
	{RuleCopilotNameCut, corpus.Warning, "Copilot CLI: <server>-<tool> over 64 characters is cut (and given a counter when cuts collide)", "copilot.md §1.2"},
	{RuleResultTooLarge, corpus.Warning, "an example result (outputSchema examples) larger than a client shows the model inline: Copilot CLI saves results over 20,480 bytes to a file and shows a 500-character preview", "copilot.md §1.4"},
	{RuleVSCodeToolCount, corpus.Warning, "VS Code Copilot Chat: from 64 tools in a request (built-ins included) MCP tools are grouped behind activate_* stubs within 88 slots; an error when tools are dropped or the request is over 128", "copilot.md §3.2, §3.3 (vscode package)"},
	{RuleGooseToolCount, corpus.Info, "Goose: 25 tools or more", "others.md (Goose)"},
	{RuleDuplicateResponse, corpus.Error, "a live server answered one request twice; clients act on the first answer, which is the one checked", "JSON-RPC 2.0 §5 (one response per request); the MCP Go SDK drops a response to an answered id"},
	{RuleOther, corpus.Warning, "a client finding lint does not classify yet (its code is kept)", "the client's package"},
}

// Rule returns the rule's documentation.
// unknownRuleHint says, for a rule id lint does not have, the closest
// known one and where the list is.
func unknownRuleHint(id string) string {
	best, bestD := "", 4
	for _, r := range Rules {
		if d := editDistance(id, r.ID); d < bestD {
			best, bestD = r.ID, d
		}
	}
	const list = "toolfind lint --list-rules lists every rule"
	if best != "" {
		return fmt.Sprintf("did you mean %q? %s", best, list)
	}
	return list
}

// editDistance is the Levenshtein distance of two ASCII ids.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func Rule(id string) (RuleInfo, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return RuleInfo{}, false
}

// scope says how widely the findings of a rule group: per tool definition,
// per server, or over the whole catalog.
type scope int

const (
	perTool scope = iota
	perServer
	perCatalog
)

// codeRule maps the diagnostic codes of corpus and of the simulators to
// rules, with the scope of one cause. Codes whose cause may be the server
// or the tool name (renames, rejections) are decided by nameCause.
var codeRule = map[string]struct {
	rule  string
	scope scope
}{
	corpus.CodeNameInvalid:        {RuleToolName, perTool},
	corpus.CodeInputSchemaMissing: {RuleSchema, perTool},
	corpus.CodeInputSchemaType:    {RuleSchema, perTool},
	corpus.CodePropertiesType:     {RuleSchema, perTool},
	corpus.CodeRequiredType:       {RuleSchema, perTool},
	corpus.CodeRequiredUnknown:    {RuleSchema, perTool},
	corpus.CodePropertyKeyInvalid: {RuleSchema, perTool},
	corpus.CodeToolNotObject:      {RuleSchema, perTool},
	corpus.CodeNameMissing:        {RuleSchema, perTool},
	corpus.CodeSchemaTooDeep:      {RuleSchema, perTool},
	corpus.CodeDuplicateTool:      {RuleDuplicate, perTool},
	corpus.CodeSharedToolName:     {RuleSharedName, perTool},
	corpus.CodeDescriptionEmpty:   {RuleDescriptionEmpty, perTool},
	corpus.CodeDescriptionType:    {RuleDescriptionEmpty, perTool},
	corpus.CodeDescriptionLong:    {RuleDescriptionCut, perTool},
	corpus.CodeDuplicateResponse:  {RuleDuplicateResponse, perServer},

	"claude-server-dropped":         {RuleSchema, perTool},
	"claude-tool-skipped":           {RuleSchema, perTool},
	"claude-hidden":                 {RuleHidden, perTool},
	"claude-duplicate":              {RuleDuplicate, perTool},
	"claude-name-collision":         {RuleNameCollision, perTool},
	"claude-description-cut":        {RuleDescriptionCut, perTool},
	"claude-description-cut-loaded": {RuleDescriptionCut, perTool},
	"claude-renamed":                {RuleToolName, perTool},
	"claude-always-loaded":          {RuleAlwaysLoaded, perServer},

	"grok-name-rejected":   {RuleToolName, perTool},
	"grok-hidden":          {RuleHidden, perTool},
	"grok-duplicate":       {RuleDuplicate, perTool},
	"grok-description-cut": {RuleDescriptionCut, perTool},
	"grok-json-refused":    {RuleSchema, perTool},

	"codex-server-name":            {RuleServerName, perServer},
	"codex-server-tools-list":      {RuleSchema, perTool},
	"codex-duplicate":              {RuleDuplicate, perTool},
	"codex-app-only":               {RuleHidden, perTool},
	"codex-renamed":                {RuleToolName, perTool},
	"codex-schema-rejected":        {RuleSchema, perTool},
	"codex-plugin-description-cut": {RuleDescriptionCut, perTool},
	"codex-plugin-budget":          {RulePluginBudget, perTool},
	"codex-identifier-collision":   {RuleNameCollision, perTool},

	"opencode-server-dropped":        {RuleSchema, perTool},
	"opencode-output-schema-dropped": {RuleOutputSchema, perServer},
	"opencode-namespace":             {RuleNamespace, perServer},
	"opencode-schema-unknown":        {RuleSchema, perTool},
	"opencode-schema-too-large":      {RuleSchema, perTool},
	"opencode-description-cut":       {RuleCatalogLineCut, perServer},
	"opencode-description-empty":     {RuleDescriptionEmpty, perTool},
	"opencode-not-in-catalog":        {RuleNotInCatalog, perCatalog},
	"opencode-key-collision":         {RuleNameCollision, perTool},
	"opencode-sanitized":             {RuleToolName, perTool},

	"gemini-server-dropped": {RuleSchema, perTool},
	"gemini-overwritten":    {RuleNameCollision, perTool},
	"gemini-duplicate":      {RuleDuplicate, perTool},
	"gemini-name-length":    {RuleGeminiNameLength, perTool},
	"gemini-later-page":     {RuleGeminiLaterPage, perServer},
	"gemini-untrusted":      {RuleGeminiUntrusted, perServer},
	"gemini-trust-mismatch": {RuleGeminiTrustName, perServer},
	"gemini-shadowed":       {RuleGeminiShadowed, perTool},
	"gemini-tool-limit":     {RuleGeminiToolLimit, perCatalog},

	"copilot-server-dropped": {RuleSchema, perTool},
	"copilot-name-collision": {RuleNameCollision, perTool},
	"copilot-duplicate":      {RuleDuplicate, perTool},
	"copilot-name-cut":       {RuleCopilotNameCut, perTool},
	"copilot-name-rewritten": {RuleToolName, perTool},

	"vscode-tool-count":    {RuleVSCodeToolCount, perCatalog},
	"vscode-name-invalid":  {RuleToolName, perTool},
	"copilot-result-spill": {RuleResultTooLarge, perTool},

	RuleCursorNameLength: {RuleCursorNameLength, perTool},
	RuleCursorToolCount:  {RuleCursorToolCount, perCatalog},
	RuleGooseToolCount:   {RuleGooseToolCount, perCatalog},
}

// serverDrop are the codes by which a client drops a whole server because
// of one tool; the tool (the one whose Field is set) is the cause.
var serverDrop = map[string]bool{
	"claude-server-dropped":   true,
	"codex-server-tools-list": true,
	"opencode-server-dropped": true,
	"gemini-server-dropped":   true,
	"copilot-server-dropped":  true,
	"grok-json-refused":       true,
}

// effects are the short consequences of client codes in grouped findings.
// A code missing here is described by the client's own message.
var effects = map[string]string{
	"claude-server-dropped":          "drops",
	"codex-server-tools-list":        "drops",
	"opencode-server-dropped":        "drops",
	"gemini-server-dropped":          "drops",
	"copilot-server-dropped":         "drops",
	"grok-json-refused":              "cannot read (serde_json refuses the JSON) and drops",
	"copilot-name-collision":         "never sends (another tool takes the same name)",
	"copilot-name-cut":               "cuts the name of",
	"copilot-name-rewritten":         "renames",
	"vscode-name-invalid":            "fails the function-name check of",
	"vscode-tool-count":              "groups behind activate_* stubs the tools of",
	"copilot-result-spill":           "shows only a 500-character preview of an example result of",
	"gemini-name-length":             "cuts the name of",
	"gemini-later-page":              "never declares",
	"gemini-trust-mismatch":          "denies in headless runs",
	"gemini-shadowed":                "never declares",
	"gemini-untrusted":               "declares nothing in headless runs of",
	"gemini-overwritten":             "never declares (another tool registered later takes the name)",
	"gemini-duplicate":               "keeps the last definition of",
	"gemini-tool-limit":              "sends, in every request, the tools of",
	"codex-server-name":              "does not register",
	"claude-tool-skipped":            "skips",
	"codex-schema-rejected":          "skips",
	"opencode-schema-unknown":        "shows no parameter list (input `unknown`) for",
	"grok-name-rejected":             "rejects",
	"claude-renamed":                 "renames",
	"codex-renamed":                  "renames",
	"opencode-sanitized":             "renames",
	"claude-hidden":                  "hides",
	"grok-hidden":                    "hides",
	"codex-app-only":                 "hides",
	"claude-always-loaded":           "loads up front, so keyword search never returns",
	"opencode-not-in-catalog":        "leaves out of its catalog (reachable only through search)",
	"opencode-description-cut":       "cuts the catalog line of",
	"opencode-description-empty":     "shows no description comment for",
	"opencode-namespace":             "files under another server's namespace",
	"opencode-output-schema-dropped": "returns Promise<unknown> for",
}

// unsimulated are the rules of clients toolfind does not simulate
// (others.go): their diagnostics state cause and client together.
var unsimulated = map[string]bool{RuleCursorNameLength: true, RuleCursorToolCount: true, RuleGooseToolCount: true}

// suppressed codes are covered by a lint rule that checks more (every
// definition, every model-read field).
var suppressed = map[string]bool{corpus.CodeSuspiciousText: true}
