// The folder-level import graph of src/ and its check: folders stack one way,
//   toolsets, logger, delegating-transport, clock, principal, suggest (readable by all, importing none)
//     ← api ← config ← async ← agents ← sandbox ← telemetry ← tools ← server ← cli (and the bin)
// and no import may point up the stack: the API client imports no configuration (it takes
// options; the server and the CLI turn a Config into them), and telemetry imports no tools (the
// server hands it the tool names). `node scripts/layers.mjs` prints every folder's imports
// (the picture AGENTS.md asks for), then the HTTP layer's modules (src/server/http.ts and
// src/server/http/) from the top down with what each imports there, and exits 1 on an upward arrow
// or an import cycle between those modules; test/layers/ checks both too.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Each folder's place in the stack (top-level files by name); a folder may import its own level or lower. */
export const LEVELS = {
  toolsets: 0,
  logger: 0,
  "delegating-transport": 0,
  clock: 0,
  principal: 0,
  suggest: 0,
  api: 1,
  config: 1.5,
  async: 2,
  agents: 3,
  sandbox: 4,
  telemetry: 4.5,
  tools: 5,
  server: 6,
  cli: 7,
  bin: 8,
  demo: 7,
};

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** `src/api/client.ts` → "api"; `src/config.ts` → "config". */
const folderOf = (file) => relative(SRC, file).split(/[\\/]/)[0].replace(/\.ts$/, "");

/** Every import edge between folders: { from, to, file, spec }. */
export function importEdges() {
  const edges = [];
  for (const file of files(SRC)) {
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
    for (const spec of specs) {
      const target = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) edges.push({ from, to, file: relative(SRC, file), spec });
    }
  }
  return edges;
}

/**
 * Edges that do not point strictly down the stack (or touch a folder the stack does not know):
 * strictly, so two folders can never import each other (no folder-level cycle).
 */
export function upwardEdges(edges = importEdges()) {
  return edges.filter((e) => !(e.from in LEVELS) || !(e.to in LEVELS) || LEVELS[e.to] >= LEVELS[e.from]);
}

const HTTP_ROOT = join(SRC, "server", "http");

/** The HTTP layer's modules (`server/http.ts`, `server/http/**`) → the ones of them each imports. */
export function httpModuleGraph() {
  const modules = [join(SRC, "server", "http.ts"), ...files(HTTP_ROOT)];
  const graph = new Map();
  for (const file of modules) {
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
    const deps = specs.map((spec) => resolve(dirname(file), spec).replace(/\.js$/, ".ts"));
    const name = (f) => relative(join(SRC, "server"), f).replace(/\.ts$/, "");
    graph.set(name(file), new Set(deps.filter((d) => modules.includes(d)).map(name)));
  }
  return graph;
}

/** The import cycles of a module graph, each as the path that closes it (none: one direction). */
export function cyclesIn(graph) {
  const cycles = [];
  const state = new Map(); // module → "open" while on the path, "done" after
  const visit = (node, path) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      cycles.push([...path.slice(path.indexOf(node)), node]);
      return;
    }
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

/** Each module's height: 0 imports none of the others, else one more than the highest it imports. */
function heights(graph) {
  const height = new Map();
  const of = (node, seen = new Set()) => {
    if (height.has(node)) return height.get(node);
    if (seen.has(node)) return 0; // a cycle: reported by cyclesIn
    seen.add(node);
    const h = Math.max(-1, ...[...(graph.get(node) ?? [])].map((d) => of(d, seen))) + 1;
    height.set(node, h);
    return h;
  };
  for (const node of graph.keys()) of(node);
  return height;
}

function printHttpModules() {
  const graph = httpModuleGraph();
  const height = heights(graph);
  const order = [...graph.keys()].sort((a, b) => height.get(b) - height.get(a) || a.localeCompare(b));
  process.stdout.write("\nHTTP modules, top down (each imports only modules below it):\n");
  for (const m of order)
    process.stdout.write(`  ${m.padEnd(26)} → ${[...graph.get(m)].sort().join(", ") || "(nothing)"}\n`);
  const cycles = cyclesIn(graph);
  for (const c of cycles) process.stdout.write(`CYCLE: ${c.join(" → ")}\n`);
  process.stdout.write(cycles.length === 0 ? "no cycle\n" : `${cycles.length} cycle(s)\n`);
  return cycles.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = importEdges();
  const graph = new Map();
  for (const e of edges) {
    if (!graph.has(e.from)) graph.set(e.from, new Set());
    graph.get(e.from).add(e.to);
  }
  const byLevel = Object.keys(LEVELS).sort((a, b) => LEVELS[b] - LEVELS[a]);
  for (const folder of byLevel) {
    const to = [...(graph.get(folder) ?? [])].sort((a, b) => LEVELS[b] - LEVELS[a]);
    process.stdout.write(`${folder.padEnd(8)} → ${to.join(", ") || "(nothing)"}\n`);
  }
  const up = upwardEdges(edges);
  for (const e of up) process.stdout.write(`UPWARD: ${e.file} imports ${e.spec} (${e.from} → ${e.to})\n`);
  process.stdout.write(up.length === 0 ? "no upward arrow\n" : `${up.length} upward arrow(s)\n`);
  const cycles = printHttpModules();
  process.exitCode = up.length === 0 && cycles === 0 ? 0 : 1;
}
