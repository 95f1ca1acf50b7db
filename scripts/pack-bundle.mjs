// `npm run bundle`: packs the MCP Bundle (.mcpb) for Claude Desktop with `mcpb pack`.
// What goes in is decided by .mcpbignore (manifest, icon, package.json, README, LICENSE and the
// self-contained dist/cli.js + dist/chunks — no node_modules needed). The manifest must list the
// registry's tools and the package version (`npm run docs` regenerates them); it is checked first.
//   node scripts/pack-bundle.mjs [--out FILE]     default: web-data-mcp-<version>.mcpb here
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { loadRegistryTools, manifestTools } from "./registry-docs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({ options: { out: { type: "string" } } });
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8"));
const manifest = JSON.parse(readFileSync(resolve(root, "manifest.json"), "utf8"));

const fail = (message) => {
  console.error(`pack-bundle: ${message}`);
  process.exit(1);
};

if (!existsSync(resolve(root, manifest.server.entry_point))) {
  fail(`${manifest.server.entry_point} is missing: run npm run build first`);
}
if (manifest.version !== pkg.version) {
  fail(`manifest.json version ${manifest.version} ≠ package.json ${pkg.version}: run npm run docs`);
}
if (!isDeepStrictEqual(manifest.tools, manifestTools(await loadRegistryTools()))) {
  fail("manifest.json tools differ from the registry: run npm run docs");
}

const out = resolve(values.out ?? resolve(root, `${pkg.name}-${pkg.version}.mcpb`));
const mcpb = fileURLToPath(new URL("../node_modules/@anthropic-ai/mcpb/dist/cli/cli.js", import.meta.url));
const run = spawnSync(process.execPath, [mcpb, "pack", root, out], { stdio: ["ignore", "pipe", "inherit"] });
const log = run.stdout.toString("utf8");
if (run.status !== 0 || !existsSync(out)) {
  process.stdout.write(log);
  fail(`mcpb pack failed (exit ${run.status})`);
}
// mcpb prints every file; keep the summary.
const summary = log
  .split("\n")
  .filter((l) => /^(name|version|package size|unpacked size|total files):/.test(l));
console.log([...summary, `output: ${out} (${statSync(out).size} bytes)`].join("\n"));
