import { raiseWasmTieringBudget } from "../api/wasm-tiering.js";
import { loadCached } from "./code-cache.js";

/**
 * The stdio server's start path, dist/stdio.cjs (src/cli/serve-stdio.ts), compiled with V8's code
 * cache under `cacheDir` (./code-cache.ts). Its caches are written at exit (each only after a
 * miss): the runtime's, with the first call's code, and the start path's when nothing was loaded
 * lazily (else it was written then, before the WebAssembly tiering flag is set: `beforeImport`).
 */
export function loadStdioBundle(
  file: string,
  cacheDir: string | undefined,
): typeof import("./serve-stdio.js") {
  const loaded = loadCached<typeof import("./serve-stdio.js")>(file, cacheDir, {
    beforeImport: raiseWasmTieringBudget,
  });
  process.once("exit", loaded.persist);
  return loaded.exports;
}
