// What a build is made from and what it makes: the inputs' content hash kept in dist/.build-inputs
// (written at the end of every build, scripts/build.mjs) and the outputs the demo runs; read by
// scripts/build-if-changed.mjs to tell whether a build is due.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const STAMP = join(root, "dist/.build-inputs");
export const OUTPUTS = [
  "dist/cli.cjs",
  "dist/cli-main.cjs",
  "dist/cli.js",
  "dist/stdio.cjs",
  "dist/runtime.cjs",
  "dist/demo.js",
  "dist/tool-list.json",
];
const INPUTS = [
  "src",
  "scripts/build.mjs",
  "scripts/build-inputs.mjs",
  "scripts/compile.mjs",
  "scripts/bundle.mjs",
  "scripts/start-path-plugin.mjs",
  "scripts/deferred-schema.mjs",
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

export function inputsHash() {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(files))
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

/** Records the inputs just built (the last step of a build). */
export function writeStamp() {
  writeFileSync(STAMP, `${inputsHash()}\n`);
}
