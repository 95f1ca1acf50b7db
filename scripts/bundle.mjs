// Bundles the CLI entry into dist/cli.js so the server starts fast: Node resolves and reads one file
// (plus lazily loaded chunks for the sandbox, HTTP and agent parts) instead of hundreds of modules.
// The stdio server's start path is bundled a second time, as one CommonJS file (dist/stdio.cjs), which
// dist/cli.js compiles with V8's code cache (src/cli/code-cache.ts): Node 20 caches no ES module's
// compiled code, and that compiling was most of the start-up above the SDK's own schema building.
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { build } from "esbuild";
import { startPath } from "./start-path-plugin.mjs";

// Chunk names carry content hashes: clear old ones so a pack never ships stale chunks.
await rm("dist/chunks", { recursive: true, force: true });
/** What both builds share: one bundle per entry for Node 20, with source maps. */
const common = {
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
};
const esm = await build({
  ...common,
  entryPoints: { cli: "src/cli.ts" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  format: "esm",
  metafile: true,
  plugins: [startPath],
  // CommonJS dependencies (express, ajv, …) call require(); give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
});
await chmod("dist/cli.js", 0o755);

/** The ESM chunk esbuild made for each module a dynamic import() loads, by its source path. */
const chunkOf = new Map(
  Object.entries(esm.metafile.outputs)
    .filter(([, out]) => out.entryPoint)
    .map(([file, out]) => [resolve(out.entryPoint), `./${relative("dist", file)}`]),
);

/**
 * dist/stdio.cjs: src/server/stdio.ts and everything it imports statically, as CommonJS. What the
 * start path loads later (the runtime with the tools, the 2026-07-28 server, OpenTelemetry, the tool
 * registry) stays in the ESM chunks above: each `import()` of one becomes `__import("./chunks/…")`,
 * which the loader gives the file (an import relative to dist/). A dynamic import of anything else
 * fails the build, so nothing lazy is pulled onto the start path unnoticed.
 */
const lazyChunks = {
  name: "lazy-chunks",
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      const source = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      const chunk = chunkOf.get(source);
      if (!chunk) return { errors: [{ text: `bundle: no ESM chunk for the dynamic import of ${source}` }] };
      return { path: chunk, external: true };
    });
  },
};
await build({
  ...common,
  entryPoints: { stdio: "src/server/stdio.ts" },
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  plugins: [lazyChunks, startPath],
  define: { "import.meta.url": "__import_meta_url" },
  banner: { js: 'const __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
});
const cjs = await readFile("dist/stdio.cjs", "utf8");
const lazy = /\bimport\("(\.\/chunks\/[^"]+)"\)/g;
if (!lazy.test(cjs)) throw new Error("bundle: dist/stdio.cjs imports no lazy chunk (the runtime at least)");
if (/\bimport\((?!"\.\/chunks\/)/.test(cjs))
  throw new Error("bundle: dist/stdio.cjs has an import() the loader cannot serve");
// Same length per line but for the two added letters (the source map's columns shift by two there).
await writeFile("dist/stdio.cjs", cjs.replace(lazy, '__import("$1")'));
