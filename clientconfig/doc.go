// Package clientconfig reads the MCP server definitions of the client
// configuration files users already keep, so that toolfind can start the
// same servers and simulate each client with what its configuration
// changes (servers switched off, tool filters, trust).
//
// Formats (Format), detected from the file name, then the content
// (Detect):
//
//	claude-code     .mcp.json: "mcpServers"; ~/.claude.json: "mcpServers"
//	                (user scope) and "projects"[PATH]."mcpServers" (local
//	                scope, for Options.Project; it replaces a user server of
//	                the same name), "disabledMcpServers" of that project.
//	                ${VAR} and ${VAR:-default} are expanded in command,
//	                args, env, url and headers; an unset ${VAR} without a
//	                default stays as written (Claude Code's MCP docs,
//	                "Environment variable expansion in .mcp.json").
//	claude-desktop  claude_desktop_config.json: "mcpServers"; no expansion.
//	codex           config.toml: [mcp_servers.NAME] with command, args,
//	                env, env_vars (names passed on from the environment),
//	                cwd, url, bearer_token_env_var, http_headers,
//	                env_http_headers, enabled, enabled_tools and
//	                disabled_tools (an allow-list, then a deny-list; Codex
//	                docs/config.md "MCP servers"); no expansion. Read with a
//	                TOML parser (go-toml v2).
//	gemini          settings.json: "mcpServers" with command, args, env,
//	                cwd, httpUrl (streamable HTTP), url (SSE unless "type":
//	                "http"), headers, trust, includeTools and excludeTools;
//	                "mcp.allowed" and "mcp.excluded". $VAR and ${VAR} are
//	                expanded in every string (Gemini CLI docs,
//	                configuration "Environment variables in settings").
//	vscode          mcp.json: "servers" and "inputs" (also "mcp" in a VS
//	                Code settings.json); ${env:VAR}, ${input:ID},
//	                ${workspaceFolder}, ${userHome}, ${pathSeparator}.
//	                An input's value comes from $TOOLFIND_INPUT_<ID> (ID
//	                upper-cased, other characters as '_'); without it the
//	                server is reported as needing the value. JSON with
//	                comments and trailing commas.
//	copilot         mcp-config.json: "mcpServers" with "type" local, stdio,
//	                http or sse, and "tools" (["*"] or the names allowed).
//	                ${VAR} is expanded.
//	opencode        opencode.json(c): "mcp" (or "mcp"."servers") with "type"
//	                local ("command" an array, "environment") or remote,
//	                "enabled" (or "disabled"); {env:VAR} and {file:PATH}
//	                are substituted. JSON with comments.
//
// Unknown keys are ignored. A server switched off in the file is kept in
// Config.Servers with Disabled set and is not started. SSE servers are
// reported and skipped: toolfind speaks stdio and streamable HTTP.
//
// What a configuration changes about its client is applied by View, per
// toolfind client name (Config.Clients): Codex's enabled_tools and
// disabled_tools (clients codex and codex-search), Gemini CLI's
// includeTools/excludeTools (exclude wins; an include entry "t(x)" selects
// tool t), mcp.allowed and mcp.excluded (client gemini), Copilot CLI's
// "tools" (client copilot); ClientOptions gives the Gemini client the
// servers with "trust": true or in mcp.allowed as trusted.
//
// Secrets: the values of every server's env and headers are never part of
// an error or of Server.Label; Redact removes them from any other text.
package clientconfig
