#!/usr/bin/env bash
# The toolfind GitHub Action's steps (action.yml calls this; tests run it on
# a fixture repository). Inputs come from the environment:
#
#   TOOLFIND            the toolfind binary (default: toolfind in PATH)
#   INPUT_CATALOG       the catalog file or folder, relative to the repository
#   INPUT_QUERIES       the query set (JSON Lines), relative to the repository
#   INPUT_CLIENT        --client (default all)
#   INPUT_ARGS          more flags for bench, check and suggest (word-split)
#   INPUT_BASE          the base revision (default origin/$GITHUB_BASE_REF,
#                       else HEAD^)
#   GITHUB_STEP_SUMMARY the job summary file (default: standard output)
#
# It takes the baseline from the base revision's catalog (git archive), runs
# `toolfind check --baseline` on the working tree's, writes the Markdown
# report to the summary, and on a regression the `toolfind suggest` edits
# too. Exit status: check's (0 pass, 1 regression or threshold, 2 bad
# input, 3 a live server failed).
set -uo pipefail
tf="${TOOLFIND:-toolfind}"
catalog="${INPUT_CATALOG:?INPUT_CATALOG: name the catalog file or folder}"
queries="${INPUT_QUERIES:?INPUT_QUERIES: name the query set}"
client="${INPUT_CLIENT:-all}"
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"
read -r -a extra <<<"${INPUT_ARGS:-}"
base="${INPUT_BASE:-}"
if [ -z "$base" ]; then
	if [ -n "${GITHUB_BASE_REF:-}" ]; then base="origin/$GITHUB_BASE_REF"; else base="HEAD^"; fi
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

{
	echo "## toolfind: findability of \`$catalog\`"
	echo
} >>"$summary"

baseline=()
mkdir -p "$work/base"
if git archive "$base" -- "$catalog" 2>"$work/archive.err" | tar -x -C "$work/base" 2>>"$work/archive.err" && [ -e "$work/base/$catalog" ]; then
	if "$tf" bench --quiet --catalog "$work/base/$catalog" --queries "$queries" --client "$client" "${extra[@]}" \
		--format json --out "$work/baseline.json" 2>"$work/bench.err"; then
		baseline=(--baseline "$work/baseline.json")
		echo "Compared with \`$base\` ($(git rev-parse --short "$base" 2>/dev/null))." >>"$summary"
	else
		{
			echo "The base revision's catalog could not be simulated, so there is no baseline:"
			echo '```'
			cat "$work/bench.err"
			echo '```'
		} >>"$summary"
	fi
else
	echo "\`$catalog\` is not in \`$base\`: checked without a baseline." >>"$summary"
fi
echo >>"$summary"

"$tf" check --quiet --catalog "$catalog" --queries "$queries" --client "$client" "${extra[@]}" "${baseline[@]}" \
	--format markdown --out "$work/report.md" 2>"$work/check.err"
status=$?
if [ -s "$work/report.md" ]; then
	cat "$work/report.md" >>"$summary"
fi
if [ -s "$work/check.err" ]; then
	{
		echo
		echo '```'
		cat "$work/check.err"
		echo '```'
	} >>"$summary"
fi
cat "$work/check.err" >&2
if [ "$status" -eq 1 ]; then
	{
		echo
		echo "### Regression: what to change (\`toolfind suggest\`)"
		echo
		echo '```'
		"$tf" suggest --quiet --catalog "$catalog" --queries "$queries" --client "$client" "${extra[@]}" 2>&1
		echo '```'
	} >>"$summary"
	echo "toolfind: findability got worse than in $base (see the job summary)" >&2
fi
exit "$status"
