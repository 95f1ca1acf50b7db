// Shell benchmarks (run `npm run build` first): what a person at a terminal waits for.
// - `npm run demo` when the sources did not change (its build step only checks a content hash)
//   beside a full `npm run build`, the cost it used to pay every time;
// - one `call serp_search --sandbox`: the first (it starts the shell sandbox) beside later ones
//   (they reuse it), medians over CALLS runs each.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, round } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli.cjs");
const CALLS = 5;
const SEARCH = JSON.stringify({ search_engine: "engine1_search", query: "hiking boots", num_results: 3 });

function timed(command, args, env = {}) {
  const started = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return performance.now() - started;
}

export async function run() {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const build = timed(npm, ["run", "--silent", "build"]);
  const demo = median(Array.from({ length: 3 }, () => timed(npm, ["run", "--silent", "demo"])));
  const rows = [
    {
      metric: "npm run demo, sources unchanged, median of 3",
      value: demo,
      unit: "ms",
      compare: `npm run build alone: ${round(build / 1000, 1)} s (the demo ran it every time before)`,
      target: "≤ 5 s",
      ok: demo <= 5000,
    },
  ];

  const cold = [];
  const warm = [];
  for (let i = 0; i < CALLS; i++) {
    const cache = mkdtempSync(join(tmpdir(), "webdata-bench-shell-"));
    const env = { WEBDATA_CACHE_DIR: cache };
    try {
      cold.push(timed(process.execPath, [CLI, "call", "serp_search", SEARCH, "--sandbox"], env));
      warm.push(timed(process.execPath, [CLI, "call", "serp_search", SEARCH, "--sandbox"], env));
    } finally {
      timed(process.execPath, [CLI, "sandbox", "--stop"], env);
      rmSync(cache, { recursive: true, force: true });
    }
  }
  const first = median(cold);
  const later = median(warm);
  rows.push({
    metric: `call serp_search --sandbox, shell sandbox running, median of ${CALLS}`,
    value: later,
    unit: "ms",
    compare: `first call (starts the shell sandbox): ${round(first)} ms`,
    target: "≤ the first call",
    ok: later <= first,
  });
  return rows;
}
