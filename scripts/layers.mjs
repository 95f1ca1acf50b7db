// The folder-level import graph of src/ and its check: folders stack one way,
//   config, toolsets, logger, delegating-transport, clock (readable by all, importing none)
//     ← api ← async ← agents ← sandbox ← tools ← telemetry ← server ← cli
// and no import may point up the stack. `node scripts/layers.mjs` prints every folder's imports
// (the picture AGENTS.md asks for) and exits 1 on an upward arrow; test/layers.test.ts runs it too.
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
  config: 0.5,
  api: 1,
  async: 2,
  agents: 3,
  sandbox: 4,
  tools: 5,
  telemetry: 5.5,
  server: 6,
  cli: 7,
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
  process.exitCode = up.length === 0 ? 0 : 1;
}
