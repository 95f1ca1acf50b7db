// The files derived from the tool registry, so that adding a tool is one tool file and one
// registry line: the README's tools table, manifest.json's tool list (and version, from
// package.json) and the tool-schema snapshots in test/toolsnaps/__toolsnaps__/ (each tool's full
// tools/list entry, reviewed as a JSON diff in the commit). `npm run generate` (build, then this
// script) writes them from dist/; nothing else does, so the build in CI and `npm test` never rewrite
// what the tests compare against. `--check` (run by `npm run lint`, hence by .ci/run) writes
// nothing and exits 1 when one has drifted from the registry.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import {
  COUNT_END,
  COUNT_START,
  defaultToolCounts,
  loadRegistryTools,
  manifestTools,
  replaceBetween,
  snapshotText,
  TABLE_END,
  TABLE_START,
  TOKEN_CONFIGURATIONS,
  TOKENS_END,
  TOKENS_START,
  tableIn,
  textBetween,
  toolCountText,
  toolListSize,
  toolsTable,
  toolTokensText,
} from "./registry-docs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const check = process.argv.includes("--check");

if (check) {
  // The check reads dist/: a stale build would compare against the wrong registry.
  const fresh = spawnSync(process.execPath, [`${root}scripts/build-if-changed.mjs`, "--check"], {
    stdio: "ignore",
  });
  if (fresh.status !== 0) fail("dist/ is older than src/: run npm run build, then npm run lint");
}

const tools = await loadRegistryTools();
const { listTools } = await import(new URL("../dist/server/list-tools.js", import.meta.url).href);
const stale = [];
readme();
await readmeCount();
await toolTokens();
manifest();
toolsnaps();
if (stale.length > 0)
  fail(`${stale.join(", ")} drifted from the registry: run npm run generate and commit them`);
console.log(
  `generated files: ${check ? "up to date" : "README tools table and tool count, manifest.json and toolsnaps in step"}`,
);

function fail(message) {
  console.error(`generated files: ${message}`);
  process.exit(1);
}

function readme() {
  const path = `${root}README.md`;
  const text = readFileSync(path, "utf8");
  const table = toolsTable(tools);
  if (tableIn(text) === table) return;
  if (check) stale.push("README.md tools table");
  else writeFileSync(path, replaceBetween(text, TABLE_START, TABLE_END, table));
}

/** The README's default tool count (with and without the legacy credential), from the configuration. */
async function readmeCount() {
  const path = `${root}README.md`;
  const text = readFileSync(path, "utf8");
  const sentence = toolCountText(await defaultToolCounts());
  if (textBetween(text, COUNT_START, COUNT_END) === sentence) return;
  if (check) stale.push("README.md tool count");
  else writeFileSync(path, replaceBetween(text, COUNT_START, COUNT_END, sentence));
}

/** docs/tools.md's tools/list sizes, measured on the built CLI (the budget is test/server/default-tools.test.ts's). */
async function toolTokens() {
  const path = `${root}docs/tools.md`;
  const text = readFileSync(path, "utf8");
  const rows = await Promise.all(
    TOKEN_CONFIGURATIONS.map(async ([label, env]) => [label, await toolListSize(env)]),
  );
  const table = toolTokensText(rows, 4000);
  if (textBetween(text, TOKENS_START, TOKENS_END) === table) return;
  if (check) stale.push("docs/tools.md tools/list sizes");
  else writeFileSync(path, replaceBetween(text, TOKENS_START, TOKENS_END, table));
}

function manifest() {
  const path = `${root}manifest.json`;
  const current = JSON.parse(readFileSync(path, "utf8"));
  const { version } = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
  const list = manifestTools(tools);
  if (isDeepStrictEqual(current.tools, list) && current.version === version) return;
  if (check) return void stale.push("manifest.json tools/version");
  writeFileSync(path, `${JSON.stringify({ ...current, version, tools: list }, null, 2)}\n`);
  // Keep the file as the formatter wants it (npm run lint checks it).
  biomeFormat(path);
}

function toolsnaps() {
  const dir = `${root}test/toolsnaps/__toolsnaps__`;
  const wanted = new Map(listTools(tools).map((entry) => [`${entry.name}.json`, snapshotText(entry)]));
  const present = existsSync(dir) ? readdirSync(dir) : [];
  const same = (f, text) =>
    present.includes(f) &&
    isDeepStrictEqual(JSON.parse(readFileSync(`${dir}/${f}`, "utf8")), JSON.parse(text));
  const drifted = present.some((f) => !wanted.has(f)) || [...wanted].some(([f, text]) => !same(f, text));
  if (!drifted) return;
  if (check) return void stale.push("test/toolsnaps/__toolsnaps__");
  mkdirSync(dir, { recursive: true });
  for (const f of present) if (!wanted.has(f)) rmSync(`${dir}/${f}`);
  for (const [f, text] of wanted) if (!same(f, text)) writeFileSync(`${dir}/${f}`, text);
  biomeFormat(dir);
}

function biomeFormat(path) {
  const biome = `${root}node_modules/@biomejs/biome/bin/biome`;
  spawnSync(process.execPath, [biome, "format", "--write", path], { stdio: "ignore" });
}
