// `npm run bundle`: packs the MCP Bundle (.mcpb) for Claude Desktop with `mcpb pack`.
// The bundle holds the manifest, its icon, package.json ("type": "module" and the version), the
// README and the self-contained build: dist/cli.cjs, dist/cli-main.cjs, dist/stdio.cjs, dist/runtime.cjs plus the dist/chunks files they can load (every
// npm dependency is inside them, so no node_modules). They are staged in a temp folder first, so
// chunks left over from earlier builds never ship. .mcpbignore says the same for a plain
// `mcpb pack .` from the repository. The manifest must list the registry's tools and the package
// version (`npm run generate` regenerates them); that is checked first.
//   node scripts/pack-bundle.mjs [--out FILE]     default: web-data-mcp-<version>.mcpb here
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { loadRegistryTools, manifestTools } from "./registry-docs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({ options: { out: { type: "string" } } });
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));

const fail = (message) => {
  console.error(`pack-bundle: ${message}`);
  process.exit(1);
};

const entry = join(root, manifest.server.entry_point);
if (!existsSync(entry)) fail(`${manifest.server.entry_point} is missing: run npm run build first`);
if (manifest.version !== pkg.version) {
  fail(`manifest.json version ${manifest.version} ≠ package.json ${pkg.version}: run npm run generate`);
}
if (!isDeepStrictEqual(manifest.tools, manifestTools(await loadRegistryTools()))) {
  fail("manifest.json tools differ from the registry: run npm run generate");
}

/** The entry and every file it imports, statically or lazily, by relative path (esbuild's output). */
function reachable(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, "utf8");
  for (const m of code.matchAll(/\b(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    const target = resolve(dirname(file), m[1]);
    if (existsSync(target)) reachable(target, seen);
  }
  return seen;
}

// The bin runs the whole CLI (any argument) from dist/cli-main.cjs, whose import()s load the chunks.
const CLI_MAIN = "dist/cli-main.cjs";
if (!existsSync(join(root, CLI_MAIN))) fail(`${CLI_MAIN} is missing: run npm run build`);
const loaded = [...reachable(join(root, CLI_MAIN), reachable(entry))].map((f) =>
  relative(root, f).split("\\").join("/"),
);
const strays = loaded.filter(
  (f) => f !== manifest.server.entry_point && f !== CLI_MAIN && !f.startsWith("dist/chunks/"),
);
if (strays.length > 0) {
  fail(`dist/cli.cjs is the per-file transpile, not the bundle (it loads ${strays[0]}): run npm run build`);
}

// The stdio server answers tools/list from this build-time list while its tools load.
const TOOL_LIST = "dist/tool-list.json";
if (!existsSync(join(root, TOOL_LIST))) fail(`${TOOL_LIST} is missing: run npm run build`);
// The stdio server's start path and its runtime, which dist/cli.cjs compiles with V8's code cache
// (their other lazy parts are the chunks above).
const STDIO = ["dist/stdio.cjs", "dist/runtime.cjs"];
for (const file of STDIO) if (!existsSync(join(root, file))) fail(`${file} is missing: run npm run build`);

const files = [
  ...["manifest.json", manifest.icon, "package.json", "README.md", "LICENSE", TOOL_LIST, ...STDIO].filter(
    (f) => f && existsSync(join(root, f)),
  ),
  ...loaded,
];

const stage = mkdtempSync(join(tmpdir(), "web-data-mcp-bundle-"));
try {
  for (const f of files) {
    mkdirSync(dirname(join(stage, f)), { recursive: true });
    copyFileSync(join(root, f), join(stage, f));
  }
  const out = resolve(values.out ?? join(root, `${pkg.name}-${pkg.version}.mcpb`));
  const mcpb = fileURLToPath(new URL("../node_modules/@anthropic-ai/mcpb/dist/cli/cli.js", import.meta.url));
  const run = spawnSync(process.execPath, [mcpb, "pack", stage, out], {
    stdio: ["ignore", "pipe", "inherit"],
  });
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
} finally {
  rmSync(stage, { recursive: true, force: true });
}
