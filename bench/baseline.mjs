// The "before" build the benches compare with: BENCH_BASELINE_CLI (a `dist/cli.cjs`, or the `dist/cli.js` of an older
// checkout) when set; otherwise the given commit built once into a cache directory outside the
// repository ($TMPDIR/webdata-bench-baseline-<sha>) and reused by later runs. The build is the one
// docs/benchmarks.md describes: `git archive` of the commit, this checkout's node_modules linked
// in (`npm ci` there only when this checkout has none), then tsc, the bundle and the tool list.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"], encoding: "utf8" });

/** The `dist/cli.cjs` to compare with: BENCH_BASELINE_CLI, or `commit` built into the cache. */
export function baselineCli(commit, env = process.env) {
  if (env.BENCH_BASELINE_CLI) return { cli: env.BENCH_BASELINE_CLI, label: "BENCH_BASELINE_CLI" };
  const sha = execFileSync("git", ["rev-parse", "--short=12", `${commit}^{commit}`], {
    cwd: REPO,
    encoding: "utf8",
  }).trim();
  const dir = join(env.TMPDIR || tmpdir(), `webdata-bench-baseline-${sha}`);
  if (!existsSync(join(dir, "dist", "cli.js"))) build(sha, dir);
  // The bin: dist/cli.cjs since it was one, dist/cli.js before.
  const cjs = join(dir, "dist", "cli.cjs");
  return { cli: existsSync(cjs) ? cjs : join(dir, "dist", "cli.js"), label: sha };
}

/** Builds `sha` in a fresh directory beside `dir`, then moves it into place (a half build never is). */
function build(sha, dir) {
  process.stderr.write(`bench: building the baseline ${sha} into ${dir} (once)\n`);
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C '${partial}'`], { cwd: REPO, stdio: "inherit" });
  const modules = join(REPO, "node_modules");
  if (existsSync(modules)) symlinkSync(modules, join(partial, "node_modules"), "dir");
  else run("npm", ["ci", "--no-audit", "--no-fund"], partial);
  run(
    process.execPath,
    [join(partial, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
    partial,
  );
  run(process.execPath, ["scripts/bundle.mjs"], partial);
  run(process.execPath, ["scripts/tool-list.mjs"], partial);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}
