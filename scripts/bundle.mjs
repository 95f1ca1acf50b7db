// Bundles the CLI entry into dist/cli.js so the server starts fast: Node resolves and reads one file
// (plus lazily loaded chunks for the sandbox, HTTP and agent parts) instead of hundreds of modules.
import { chmod, rm } from "node:fs/promises";
import { build } from "esbuild";
import { startPath } from "./start-path-plugin.mjs";

// Chunk names carry content hashes: clear old ones so a pack never ships stale chunks.
await rm("dist/chunks", { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [startPath],
  // CommonJS dependencies (express, ajv, …) call require(); give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
});
await chmod("dist/cli.js", 0o755);
