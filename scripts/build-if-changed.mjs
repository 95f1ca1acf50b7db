// `npm run demo`'s first step: runs `npm run build` only when the build's inputs changed since the
// last build this script saw (a content hash of src/, the build scripts, package.json and
// tsconfig.json, kept in dist/.build-inputs), or when dist/ lacks what the demo runs.
// `--check` builds nothing and exits 1 when a build is due. The stamp is written at the end of every
// build (scripts/build.mjs, scripts/build-inputs.mjs).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inputsHash, OUTPUTS, root, STAMP } from "./build-inputs.mjs";

const hash = inputsHash();
const built = OUTPUTS.every((f) => existsSync(join(root, f)));
const stamp = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : "";
if (built && stamp === hash) {
  console.error("build: up to date (sources unchanged since the last build)");
  process.exit(0);
}
if (process.argv.includes("--check")) {
  console.error(built ? "build: sources changed since the last build" : "build: dist/ is missing");
  process.exit(1);
}
console.error(built ? "build: sources changed; building" : "build: no build yet; building");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const r = spawnSync(npm, ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
if (r.status !== 0) process.exit(r.status ?? 1);
