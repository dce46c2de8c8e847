#!/usr/bin/env node
// toolsearch.mjs — Claude Code's ToolSearch keyword algorithm (2.1.328, as
// ../shared/specs/claude.md §1–§3 states it), written plainly in JavaScript
// and run as a whole process: start-up, JSON.parse of the catalogs, pool
// build, then the queries. It is the yardstick toolfind's start-up and
// per-query cost are measured against (bench/node/compare.sh), and a
// second implementation of the spec: TestNodeReferenceAgrees in
// cmd/toolfind checks that both return the same tools in the same order.
//
// Usage:
//   node toolsearch.mjs --catalog PATH... [--builtins FILE] [--limit N]
//                       (--query Q | --queries FILE.jsonl)
// PATH is a catalog file or a folder of *.json catalogs (the shapes
// toolfind reads). --builtins is specs/claude-builtins-2.1.328.json (the
// deferred built-ins' token sets); without it, the pool has MCP tools
// only. Output: one JSON line per query, {"query", "hits": [[name, score]],
// "tokens"}.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, extname, join } from "node:path";

const LIST_CAP = 4096; // listed description cap, §3
const LOAD_CAP = 16384; // loaded description cap, §3
const HINT_CAP = 4096; // search hint cap, §1
const MARKER = "\u2026 [truncated]"; // §3
const MAX_NAME = 128; // §2
const MAX_QUERY = 16384; // §1 input
const MAX_TERMS = 32;
const MAX_SELECT = 64;
const CORE = ["Agent", "Bash", "Edit", "ListAgents", "Read", "ReportFindings",
  "ScheduleWakeup", "Skill", "ToolSearch", "Workflow", "Write"]; // §1 step 1

function args(argv) {
  const o = { catalogs: [], queries: [], limit: 5, builtins: null };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case "--catalog": o.catalogs.push(v); i++; break;
      case "--builtins": o.builtins = v; i++; break;
      case "--limit": o.limit = Number(v); i++; break;
      case "--query": o.queries.push(v); i++; break;
      case "--queries":
        for (const line of readFileSync(v, "utf8").split("\n")) {
          const t = line.trim();
          if (t && !t.startsWith("#") && !t.startsWith("//")) o.queries.push(JSON.parse(t).query);
        }
        i++; break;
      default: throw new Error("unknown argument " + argv[i]);
    }
  }
  return o;
}

function catalogFiles(p) {
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p).filter((n) => n.endsWith(".json")).sort().map((n) => join(p, n));
}

// servers reads one catalog file in any of its three shapes.
function servers(file) {
  const doc = JSON.parse(readFileSync(file, "utf8"));
  if (Array.isArray(doc.servers)) return doc.servers.map((s) => ({ name: s.name ?? s.server, tools: s.tools }));
  return [{ name: doc.server ?? basename(file, extname(file)), tools: doc.tools }];
}

const sanitize = (s) => s.replace(/[^A-Za-z0-9_-]/g, "_"); // §2
const cut = (s, n) => (s.length > n ? s.slice(0, n) + MARKER : s); // §3

// invalid is the tools/list validation that drops a whole server (§2).
function invalid(t) {
  if (t === null || typeof t !== "object" || Array.isArray(t) || typeof t.name !== "string") return true;
  for (const k of ["title", "description"]) if (k in t && typeof t[k] !== "string") return true;
  const s = t.inputSchema;
  if (s === null || typeof s !== "object" || Array.isArray(s) || s.type !== "object") return true;
  if ("properties" in s && (s.properties === null || typeof s.properties !== "object" || Array.isArray(s.properties))) return true;
  if ("required" in s && (!Array.isArray(s.required) || s.required.some((r) => typeof r !== "string"))) return true;
  for (const k of ["outputSchema", "_meta", "annotations"]) {
    if (k in t && (t[k] === null || typeof t[k] !== "object" || Array.isArray(t[k]))) return true;
  }
  if (t.annotations) {
    if ("title" in t.annotations && typeof t.annotations.title !== "string") return true;
    for (const h of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
      if (h in t.annotations && typeof t.annotations[h] !== "boolean") return true;
    }
  }
  return "icons" in t && !Array.isArray(t.icons);
}

// badProps: a property schema that is neither object nor boolean, at any
// depth of "properties" (§2).
function badProps(props, depth) {
  if (depth > 200) return false;
  for (const v of Object.values(props)) {
    if (typeof v === "boolean") continue;
    if (v === null || typeof v !== "object" || Array.isArray(v)) return true;
    const sub = v.properties;
    if (sub && typeof sub === "object" && !Array.isArray(sub) && badProps(sub, depth + 1)) return true;
  }
  return false;
}

function skipped(t, wire) {
  if (wire.length > MAX_NAME) return true;
  const props = t.inputSchema.properties;
  if (!props || typeof props !== "object" || Array.isArray(props)) return false;
  if (Object.keys(props).some((k) => !/^[a-zA-Z0-9_.-]{1,64}$/.test(k))) return true;
  return badProps(props, 0);
}

function hidden(t) {
  const v = t._meta?.ui?.visibility;
  if (Array.isArray(v)) return !v.includes("model");
  if (typeof v === "string") return !v.includes("model");
  return false;
}

function mcpEntry(server, t, wire) {
  const coarse = [server.toLowerCase(), t.name.toLowerCase()].filter((c) => c !== "");
  const parts = coarse.flatMap((c) => c.split(/[\s_.]+/).filter((p) => p !== ""));
  const hintRaw = t._meta?.["anthropic/searchHint"];
  let hint = null;
  if (typeof hintRaw === "string") {
    const h = hintRaw.split(/\s+/).filter((w) => w !== "").join(" ");
    if (h !== "") hint = h.slice(0, HINT_CAP).toLowerCase();
  }
  const deferred = t._meta?.["anthropic/alwaysLoad"] !== true;
  return { name: wire, mcp: true, deferred, tool: t, bare: t.name, parts, coarse, full: parts.join(" "),
    desc: cut(t.description ?? "", LIST_CAP).toLowerCase(), hint };
}

function builtinEntry(name, facts) {
  const parts = name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase().split(/\s+/).filter((p) => p !== "");
  const e = { name, mcp: false, deferred: !!facts, parts, coarse: [name.toLowerCase()], full: parts.join(" "), desc: "", hint: null, chars: 0 };
  if (facts) {
    // Only the token sets are known; joined by spaces they match \bTERM\b
    // exactly as the text would (specs/claude.md §1).
    e.desc = facts.description_tokens.join(" ");
    e.hint = facts.hint_tokens.length ? facts.hint_tokens.join(" ") : null;
    e.chars = facts.description_chars;
  }
  return e;
}

function buildPool(files, builtinsFile) {
  const mcps = [];
  for (const file of files) {
    for (const s of servers(file)) {
      if (s.tools.some(invalid)) continue; // whole server dropped
      const server = sanitize(s.name);
      const seen = new Set();
      for (const t of s.tools) {
        if (seen.has(t.name)) continue;
        seen.add(t.name);
        const wire = "mcp__" + server + "__" + sanitize(t.name);
        if (skipped(t, wire) || hidden(t)) continue;
        mcps.push(mcpEntry(s.name, t, wire));
      }
    }
  }
  const builtins = [];
  if (builtinsFile) {
    const facts = JSON.parse(readFileSync(builtinsFile, "utf8")).tools;
    for (const name of Object.keys(facts)) builtins.push(builtinEntry(name, facts[name]));
  }
  for (const name of CORE) builtins.push(builtinEntry(name, null));
  const byName = (a, b) => a.name.localeCompare(b.name);
  builtins.sort(byName);
  mcps.sort(byName);
  const names = new Set();
  const kept = mcps.filter((e) => (names.has(e.name) ? false : (names.add(e.name), true)));
  return builtins.concat(kept);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// loaded renders what the model reads of a hit and its token estimate (§3).
function loaded(e) {
  if (!e.mcp) return { line: `<function>{"name": ${JSON.stringify(e.name)}}</function>`, tokens: Math.ceil(e.chars / 2.5) };
  const desc = cut(e.tool.description ?? "", LOAD_CAP);
  const schema = e.tool.inputSchema === undefined ? "" : JSON.stringify(e.tool.inputSchema);
  const line = `<function>{"description": ${JSON.stringify(desc)}, "name": ${JSON.stringify(e.name)}, "parameters": ${schema || "{}"}}</function>`;
  return { line, tokens: Math.ceil((Buffer.byteLength(schema) + Buffer.byteLength(desc)) / 2.5) };
}

function search(pool, deferred, text, limit) {
  const query = text.slice(0, MAX_QUERY);
  const sel = /^select:(.+)$/i.exec(query);
  if (sel) {
    const out = [];
    for (const n of sel[1].split(",").map((x) => x.trim()).filter((x) => x !== "").slice(0, MAX_SELECT)) {
      const exact = deferred.find((e) => e.name === n) ?? pool.find((e) => e.name === n);
      const found = exact ? [exact] : pool.filter((e) => e.mcp && (e.bare === n || sanitize(e.bare) === n));
      for (const e of found) if (!out.some(([o]) => o === e)) out.push([e, 0]);
    }
    return out;
  }
  const q = query.trim();
  if (q === "") return [];
  const ql = q.toLowerCase();
  const exact = deferred.find((e) => e.name === q) ?? pool.find((e) => e.name === q) ??
    deferred.find((e) => e.name.toLowerCase() === ql) ?? pool.find((e) => e.name.toLowerCase() === ql);
  if (exact) return [[exact, 0]];
  if (ql.startsWith("mcp__") && ql.length > 5) {
    const pre = deferred.filter((e) => e.name.toLowerCase().startsWith(ql)).slice(0, limit);
    if (pre.length) return pre.map((e) => [e, 0]);
  }
  const words = ql.split(/\s+/).filter((w) => w !== "").slice(0, MAX_TERMS);
  const required = [], optional = [];
  for (const w of words) (w.startsWith("+") && w.length > 1 ? required : optional).push(w.startsWith("+") && w.length > 1 ? w.slice(1) : w);
  const scored = required.length ? required.concat(optional) : words;
  const rx = new Map(scored.concat(required).map((t) => [t, new RegExp("\\b" + escape(t) + "\\b")]));
  const out = [];
  for (const e of deferred) {
    if (required.length && !required.every((t) => e.parts.some((p) => p.includes(t)) || e.coarse.some((c) => c.includes(t)) ||
        rx.get(t).test(e.desc) || (e.hint !== null && rx.get(t).test(e.hint)))) continue;
    let score = 0;
    const [eq, sub, ceq, csub] = e.mcp ? [12, 6, 12, 4] : [10, 5, 10, 3];
    for (const t of scored) {
      if (e.parts.includes(t)) score += eq;
      else if (e.parts.some((p) => p.includes(t))) score += sub;
      if (e.coarse.includes(t)) score += ceq;
      else if (e.coarse.some((c) => c.includes(t))) score += csub;
      if (score === 0 && e.full.includes(t)) score += 3;
      if (e.hint !== null && rx.get(t).test(e.hint)) score += 4;
      if (rx.get(t).test(e.desc)) score += 2;
    }
    if (score > 0) out.push([e, score]);
  }
  out.sort((a, b) => b[1] - a[1]); // stable: ties keep pool order
  return out.slice(0, limit);
}

const o = args(process.argv.slice(2));
const pool = buildPool(o.catalogs.flatMap(catalogFiles), o.builtins);
const deferred = pool.filter((e) => e.deferred);
const lines = [];
for (const q of o.queries) {
  const hits = search(pool, deferred, q, o.limit);
  let tokens = 0;
  for (const [e] of hits) tokens += loaded(e).tokens;
  lines.push(JSON.stringify({ query: q, hits: hits.map(([e, s]) => [e.name, s]), tokens }));
}
process.stdout.write(lines.join("\n") + (lines.length ? "\n" : ""));
