// Runs toolfind's built-in Codex code-mode strategies in Node (V8, the
// engine Codex uses) over the same ALL_TOOLS, to compare with goja.
// Not run by the tests. Usage:
//
//   TOOLFIND_NODE_EXPORT=/tmp/cx go test ./codexjs -run TestExportForNode
//   node codexjs/testdata/node/bench.mjs /tmp/cx
//
// /tmp/cx/alltools.json is the simulated ALL_TOOLS of the 15 shared
// catalogs merged; /tmp/cx/strategies.json the strategies' sources and the
// query. Each strategy runs as Codex runs exec: an async module body with
// the globals ALL_TOOLS, TERMS, QUERY and text().
import { readFileSync } from "node:fs";

const dir = process.argv[2] ?? "/tmp/cx";
const ALL_TOOLS = JSON.parse(readFileSync(`${dir}/alltools.json`, "utf8"));
const { query, terms, strategies } = JSON.parse(readFileSync(`${dir}/strategies.json`, "utf8"));
const AsyncFunction = (async () => {}).constructor;

for (const { name, source } of strategies) {
  const fn = new AsyncFunction("ALL_TOOLS", "TERMS", "QUERY", "text", source);
  let items = [];
  const text = (v) => { items.push(typeof v === "string" ? v : JSON.stringify(v)); };
  for (let i = 0; i < 20; i++) await fn(ALL_TOOLS, terms, query, text); // warm-up
  const n = 200;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    items = [];
    await fn(ALL_TOOLS, terms, query, text);
  }
  const ns = Number(process.hrtime.bigint() - t0) / n;
  const bytes = items.reduce((s, x) => s + Buffer.byteLength(x), 0);
  console.log(`${name}\t${(ns / 1e6).toFixed(3)} ms/op\t${bytes} bytes printed`);
}
