// `npm run demo`'s first step: runs `npm run build` only when the build's inputs changed since the
// last build this script saw (a content hash of src/, the build scripts, package.json and
// tsconfig.json, kept in dist/.build-inputs), or when dist/ lacks what the demo runs.
// `--check` builds nothing and exits 1 when a build is due; `--stamp` (the end of `npm run build`)
// records the inputs just built.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const STAMP = join(root, "dist/.build-inputs");
const OUTPUTS = ["dist/cli.js", "dist/stdio.cjs", "dist/runtime.cjs", "dist/demo.js", "dist/tool-list.json"];
const INPUTS = [
  "src",
  "scripts/build.mjs",
  "scripts/compile.mjs",
  "scripts/bundle.mjs",
  "scripts/start-path-plugin.mjs",
  "scripts/undici-plugin.mjs",
  "scripts/tool-list.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  try {
    return readdirSync(full, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? files(join(path, e.name)) : [join(path, e.name)]));
  } catch {
    return [path];
  }
}

function inputsHash() {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(files))
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

const hash = inputsHash();
if (process.argv.includes("--stamp")) {
  // The last step of `npm run build`: what it built from.
  writeFileSync(STAMP, `${hash}\n`);
  process.exit(0);
}
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
