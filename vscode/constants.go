package vscode

// Virtual-tool constants of VS Code Copilot Chat (copilot.md §3.2:
// virtualToolsConstants.ts, identical in the 2026-03 snapshot and the later
// extensions/copilot copy; HARD_TOOL_LIMIT in configurationService.ts).
const (
	// HardToolLimit is HARD_TOOL_LIMIT: no request carries more tools
	// (§3.2 "Hard errors above 128 tools").
	HardToolLimit = 128
	// StartGroupingAfterToolCount is START_GROUPING_AFTER_TOOL_COUNT,
	// 128/2: grouping applies when the request has 64 tools or more
	// (tools.length < 64 → no grouping).
	StartGroupingAfterToolCount = HardToolLimit / 2
	// StartBuiltinGroupingAfterToolCount is
	// START_BUILTIN_GROUPING_AFTER_TOOL_COUNT: built-ins are grouped only
	// above 20 and with the (default off) defaultToolsGrouped setting,
	// which toolfind does not simulate (see the package doc).
	StartBuiltinGroupingAfterToolCount = 20
	// ExpandUntilCount is EXPAND_UNTIL_COUNT (declared, 64).
	ExpandUntilCount = 64
	// TrimThreshold is TRIM_THRESHOLD, 128×3/4: the re-collapse target
	// right after a cache invalidation (summarization) (§3.2, §3.4).
	TrimThreshold = HardToolLimit * 3 / 4
	// GroupWithinToolset is GROUP_WITHIN_TOOLSET, 128/8 (declared; not
	// used by the 2026 grouper).
	GroupWithinToolset = HardToolLimit / 8
	// MinToolsetSizeToGroup is MIN_TOOLSET_SIZE_TO_GROUP: clusters
	// smaller than this become single tools (§3.3 step 4).
	MinToolsetSizeToGroup = 2
	// NumEmbedMatchedTools is NUM_EMBED_MATCHED_TOOLS: the size of the
	// activate_embeddings group (§3.3 step 7).
	NumEmbedMatchedTools = 10
	// ToolsAndGroupsLimit is TOOLS_AND_GROUPS_LIMIT, 128−10−30: the slot
	// budget for built-ins plus MCP/extension entries (§3.3 step 3).
	ToolsAndGroupsLimit = HardToolLimit - NumEmbedMatchedTools - 30
	// MaxCategorizationRetries is MAX_CATEGORIZATION_RETRIES.
	MaxCategorizationRetries = 3
	// MaxGroupsPerChunk is MAX_GROUPS_PER_CHUNK: groups per LLM
	// description request (§3.3 step 5).
	MaxGroupsPerChunk = 16
	// UncategorizedToolsGroupName is UNCATEGORIZED_TOOLS_GROUP_NAME.
	UncategorizedToolsGroupName = "uncategorized_tools"
	// ToolsPerCluster is computeToolGroupings' average cluster size:
	// targetClusters = min(limit, ceil(n/4)) (§3.3 step 4).
	ToolsPerCluster = 4
)

// Stub texts (copilot.md §3.4, virtualTool.ts and virtualToolGrouper.ts
// SUMMARY_PREFIX / SUMMARY_SUFFIX; MIT, see THIRD_PARTY_LICENSES.txt).
const (
	// StubPrefix starts every virtual tool's name.
	StubPrefix = "activate_"
	// SummaryPrefix and SummarySuffix wrap a group's summary into its
	// stub's description.
	SummaryPrefix = "Call this tool when you need access to a new category of tools. The category of tools is described as follows:\n\n"
	SummarySuffix = "\n\nBe sure to call this tool if you need a capability related to the above."
	// EmbeddingsGroup is the embeddings-matched group (§3.3 step 7) and
	// EmbeddingsDescription its description.
	EmbeddingsGroup       = "activate_embeddings"
	EmbeddingsDescription = "Tools with high predicted relevancy for this query"
	// FallbackSummaryPrefix starts the summary of a group whose LLM
	// description failed: "Contains the tools: a, b, …" (§3.3 step 5).
	FallbackSummaryPrefix = "Contains the tools: "
	// ActivatedPrefix starts the local answer to a stub call (§3.4).
	ActivatedPrefix = "Tools activated: "
)

// MCP tool names in VS Code core (copilot.md §3.5, McpPrefixGenerator in
// mcpService.js).
const (
	// MCPPrefix is McpToolName.Prefix.
	MCPPrefix = "mcp_"
	// MaxPrefixLen is McpToolName.MaxPrefixLen: "mcp_" + the safe label
	// + "_" is at most 18 characters.
	MaxPrefixLen = 18
)

// Tool search (copilot.md §3.1).
const (
	// ToolSearchToolRegex is the server-mode Anthropic tool search entry,
	// first in the request (anthropic.ts TOOL_SEARCH_TOOL_NAME / _TYPE).
	ToolSearchToolRegex     = "tool_search_tool_regex"
	ToolSearchToolRegexType = "tool_search_tool_regex_20251119"
	// ClientToolSearch is VS Code's own client-mode search tool
	// (toolSearchTool.ts): input "query", default limit 5.
	ClientToolSearch  = "tool_search"
	ClientSearchLimit = 5
	HostedToolSearch  = `{"type":"tool_search"}`
)

// CoreTools are the built-ins marked nonDeferred in the 2026-03 snapshot's
// test fixture (copilot.md §3.1, PR #4750): with tool search they are sent
// in full; every other tool, every MCP tool included, is deferred.
var CoreTools = []string{
	"read_file", "list_dir",
	"grep_search", "semantic_search", "file_search",
	"replace_string_in_file", "create_file",
	"run_in_terminal", "get_terminal_output",
	"get_errors", "manage_todo_list",
	"runSubagent", "search_subagent", "execution_subagent", "runTests",
	"tool_search", "view_image", "fetch_webpage",
}

// AnthropicToolSearchModels are the model id prefixes that get Anthropic
// tool search in the 2026-03 snapshot (TOOL_SEARCH_SUPPORTED_MODELS,
// copilot.md §3.1.1). Haiku is not among them.
var AnthropicToolSearchModels = []string{"claude-sonnet-4.5", "claude-sonnet-4.6", "claude-opus-4.5", "claude-opus-4.6"}
