// `npm run test:repeat -- N`: the suite N times in a row, each from a clean clone of the current
// commit (git clone into a temp dir, `npm ci`, `npm test` with its build), as a new contributor
// runs it. Prints pass/fail and the times of each run, then the median `npm test` time.
// Commits only: uncommitted changes are not in the clones (a warning says so). A failed run's
// log is kept and its path printed; passing runs' clones are removed.
// `--copy-node-modules` copies this checkout's node_modules into each clone instead of `npm ci`
// (faster on a slow or shared machine; not what a new contributor runs, and the output says so).
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const copyModules = args.includes("--copy-node-modules");
const runs = Number(args.find((a) => !a.startsWith("--")) ?? 1);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(
    "usage: npm run test:repeat -- N [--copy-node-modules]   (N ≥ 1 runs of the suite, each from a clean clone)",
  );
  process.exit(2);
}

const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout.trim();
const commit = git("rev-parse", "HEAD");
const repo = resolve(root, git("rev-parse", "--git-common-dir"));
if (git("status", "--porcelain", "--untracked-files=no") !== "")
  console.error("note: uncommitted changes are not tested; each run clones the commit", commit.slice(0, 10));

/** Runs a command with its output to `log`; resolves with its exit code and seconds taken. */
function timed(command, args, cwd, log) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    log.write(`\n$ ${command} ${args.join(" ")}\n`);
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "1" },
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once("close", (code) =>
      resolve({ code, seconds: Number(process.hrtime.bigint() - started) / 1e9 }),
    );
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

console.log(
  `test:repeat: ${runs} run(s) of commit ${commit.slice(0, 10)}, each a fresh clone + ${copyModules ? "a copy of this checkout's node_modules (not npm ci)" : "npm ci"} + npm test`,
);
const testTimes = [];
let passed = 0;
for (let i = 1; i <= runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), "webdata-repeat-"));
  const logFile = join(dir, "run.log");
  const log = createWriteStream(logFile);
  const clone = await timed("git", ["clone", "--quiet", "--no-checkout", repo, "repo"], dir, log);
  const work = join(dir, "repo");
  const checkout =
    clone.code === 0 ? await timed("git", ["checkout", "--quiet", "--detach", commit], work, log) : clone;
  const installCommand = copyModules
    ? ["cp", ["-a", join(root, "node_modules"), join(work, "node_modules")]]
    : ["npm", ["ci", "--no-audit", "--no-fund"]];
  const modules = checkout.code === 0 ? await timed(...installCommand, work, log) : checkout;
  // Node 22 for the conformance suite is installed as .ci/run installs it, before the test run.
  const install =
    modules.code === 0
      ? await timed("npm", ["run", "setup:node22"], work, log).then((n) => ({
          ...n,
          seconds: modules.seconds + n.seconds,
        }))
      : modules;
  const test = install.code === 0 ? await timed("npm", ["test"], work, log) : undefined;
  await new Promise((resolve) => log.end(resolve));
  const ok = test?.code === 0;
  if (ok) passed++;
  if (test) testTimes.push(test.seconds);
  const what = !test ? "FAIL (set-up)" : ok ? "pass" : "FAIL";
  console.log(
    `run ${i}/${runs}: ${what}  ${copyModules ? "node_modules copied" : "npm ci"} ${install.seconds.toFixed(0)} s, npm test ${test ? `${test.seconds.toFixed(1)} s` : "-"}`,
  );
  if (ok) rmSync(dir, { recursive: true, force: true });
  else console.log(`  log: ${logFile}`);
}
if (testTimes.length > 0)
  console.log(`${passed}/${runs} green; median npm test ${median(testTimes).toFixed(1)} s`);
process.exit(passed === runs ? 0 : 1);
