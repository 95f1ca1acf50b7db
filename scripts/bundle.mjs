// Bundles the CLI entry into dist/cli.js so the server starts fast: Node resolves and reads one file
// (plus lazily loaded chunks for the sandbox, HTTP and agent parts) instead of hundreds of modules.
import { chmod, readFile, rm } from "node:fs/promises";
import { build } from "esbuild";

/**
 * What keeps the stdio start-up path (dist/cli.js → the stdio chunk) small, checked by
 * test/install/start-path.test.ts:
 * - `import { z } from "zod"` reaches zod's namespace object through a re-export, which esbuild
 *   cannot tree-shake: every locale (a third of the path's code) came along. Our sources get
 *   `import * as z from "zod"` instead, the same bindings, shaken by property.
 * - The SDK's `Server` imports its Ajv provider for a default it never uses here (createServer
 *   passes a validator whose Ajv loads with the runtime): that import gets a stub that refuses to
 *   run, so Ajv, ajv-formats and fast-uri stay in the runtime's chunk.
 */
const startPath = {
  name: "start-path",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      return {
        contents: source.replace(/^import \{ z \} from "zod";$/gm, 'import * as z from "zod";'),
        loader: "ts",
      };
    });
    b.onResolve({ filter: /validation[\\/]ajv-provider\.js$/ }, (args) =>
      /sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/.test(args.importer)
        ? { path: "ajv-provider-stub", namespace: "start-path" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "start-path" }, () => ({
      contents:
        'export class AjvJsonSchemaValidator { constructor() { throw new Error("bundle: pass Server a jsonSchemaValidator (createServer does)"); } }',
      loader: "js",
    }));
  },
};

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
