// Brings manifest.json's `tools` (from the registry) and `version` (from package.json) up to date
// (build first; `npm run docs` does). `--check` changes nothing and exits 1 when they are stale.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { loadRegistryTools, manifestTools } from "./registry-docs.mjs";

const path = new URL("../manifest.json", import.meta.url);
const manifest = JSON.parse(readFileSync(path, "utf8"));
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const tools = manifestTools(await loadRegistryTools());

if (isDeepStrictEqual(manifest.tools, tools) && manifest.version === version) {
  console.log("manifest.json: tools and version up to date");
} else if (process.argv.includes("--check")) {
  console.error("manifest.json: tools or version are stale; run npm run docs");
  process.exit(1);
} else {
  manifest.version = version;
  manifest.tools = tools;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  // Keep the file as the formatter wants it (npm run lint checks it).
  const biome = fileURLToPath(new URL("../node_modules/@biomejs/biome/bin/biome", import.meta.url));
  spawnSync(process.execPath, [biome, "format", "--write", fileURLToPath(path)], { stdio: "ignore" });
  console.log("manifest.json: tools and version regenerated");
}
