#!/usr/bin/env bash
# Installs the real MCP servers that corpus/live's tests run, at pinned
# versions, into $TOOLFIND_NPM_DIR (default .ci/npm, git-ignored). The tests
# read the same variable and skip, saying why, when the packages are absent.
#
# Pins (keep in step with corpus/live/npm_test.go and ../shared/catalogs/SOURCES.md):
#   @modelcontextprotocol/server-everything@2026.8.31   (everything.json, 13 tools)
#   @modelcontextprotocol/server-filesystem@2026.8.31   (filesystem.json, 14 tools)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${TOOLFIND_NPM_DIR:-.ci/npm}"
mkdir -p "$dir"
# A package.json of its own keeps npm from walking up into another project.
if [ ! -f "$dir/package.json" ]; then
	printf '{"name":"toolfind-ci-npm","private":true}\n' >"$dir/package.json"
fi
npm install --prefix "$dir" --no-audit --no-fund --save-exact --loglevel=error \
	@modelcontextprotocol/server-everything@2026.8.31 \
	@modelcontextprotocol/server-filesystem@2026.8.31
echo "installed into $dir:"
ls "$dir/node_modules/@modelcontextprotocol"
